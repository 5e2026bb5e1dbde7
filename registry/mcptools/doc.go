// Package mcptools makes the tools of Model Context Protocol servers tools
// of a registry: a tool source, as registry/external is for executables.
//
// LoadConfig (or ParseConfig) reads the {"mcpServers": {...}} file MCP
// clients use; ConnectAll starts or reaches every server it names, in
// parallel, and registers their tools, and Connect does so for one server.
// Each server's tools are bound in snippets under one global object named
// after the server (the server "my-fake" gives my_fake.echo(...)), with
// signatures generated from their schemas. A server that fails to start, or
// a tool the registry refuses, is skipped with a warning (an error value
// naming the server and the tool): the others are usable. The Clients keep
// their servers (a stdio server's process group) until Close, which leaves
// no process behind.
//
// Every message read from a server is bounded (ClientOptions.MaxMessageBytes,
// DefaultMaxMessageBytes): a call whose server sends more fails with a
// MessageTooLargeError having read no further, and a server that breaks the
// protocol (a line that is not JSON, a hang-up, an exit) fails the call
// with what it did and is started afresh for the next call.
//
// The package sits beside registry/external, above registry: it imports
// registry, registry/signature and internal packages, never the root
// package codeexec or anything that links the engine, so a program that
// only gathers tools does not link the runtime. It moved here from package
// mcp, which keeps the server face (serving codeexec's Runner over MCP).
// It is built on the official Go SDK, github.com/modelcontextprotocol/go-sdk.
package mcptools
