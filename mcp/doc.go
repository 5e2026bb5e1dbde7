// Package mcp connects codeexec to the Model Context Protocol both ways.
//
// The server face (NewServer) serves one tool, code_execution, that runs
// a snippet with a codeexec.Runner, over stdio (Server.Serve) or the
// streamable HTTP transport (Server.Handler). The client face (Connect,
// LoadConfig, ConnectAll) makes the tools of MCP servers tools of a
// registry, each bound in snippets under one global object named after
// the server.
//
// The package sits above the root codeexec package and beside cmd: it
// imports codeexec, promptgen and registry, and nothing below imports it.
// It is built on the official Go SDK, github.com/modelcontextprotocol/go-sdk.
package mcp
