// Package toolset composes the tools a codeexec run binds from one
// configuration: the built-in tools (package builtin) with the planning
// tools over a session the caller may own, the executable tools of tools
// directories (registry/external, a later directory overriding an earlier
// one and a built-in of the same name), the tools of MCP servers
// (registry/mcptools), and, when the whole is too large for the prompt,
// the catalog tools search_tools and tool_doc.
//
// Open builds a Set from a Config into a registry; the Set's Close ends
// what it opened. The CLI's commands (run, repl, prompt, tools, schema)
// and its MCP server face (codeexec mcp) all build their tools here, so an
// embedder that wants the tools `codeexec run` has calls Open, and the
// prompt a harness renders from the registry (promptgen.Render) lists
// exactly the tools a run binds.
//
// Where things came from: the composition was the CLI's (cmd/codeexec's
// toolsInto); CatalogTools was promptgen's, which now renders the catalog
// tools' answers (promptgen.SearchTools, promptgen.ToolDoc) and makes the
// decision (promptgen.NeedsCatalog) but builds no tool.
//
// Imports point down: toolset imports builtin, promptgen, registry,
// registry/external and registry/mcptools, never the root package codeexec,
// cmd or the MCP server (package mcp); cmd imports toolset. A program that
// only gathers tools and renders their prompt therefore links no
// JavaScript engine.
package toolset
