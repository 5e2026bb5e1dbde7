// Package mcp serves codeexec over the Model Context Protocol.
//
// The server (NewServer) serves one tool, code_execution, that runs a
// snippet with a codeexec.Runner, over stdio (Server.Serve) or the
// streamable HTTP transport (Server.Handler); Confirm asks the client of a
// call for permission, from a registry hook. The other direction, the
// tools of MCP servers as tools of a registry (Connect, ConnectAll,
// LoadConfig), is the tool source registry/mcptools, which sits below the
// root package; it was part of this package before.
//
// The package sits above the root codeexec package and beside cmd: it
// imports codeexec, promptgen and registry, and nothing below imports it.
// It is built on the official Go SDK, github.com/modelcontextprotocol/go-sdk.
package mcp
