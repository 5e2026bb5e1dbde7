// Package mcpcall makes the code_execution calls of the benchmarks that
// call an MCP server (bench/nodecompare, bench/mcpcalls) as a model's
// client does.
package mcpcall

import (
	"context"
	"errors"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Caller calls code_execution through a client session, all its calls in
// one codeexec session: each passes back the session handle the last
// result carried (structuredContent.session), as a client of protocol
// 2026-07-28, which has no MCP session over HTTP, goes on in a codeexec
// session. Without it, every call would start a new session. A server
// that gives no handle (the Node peer, bench/mcpfloor) is called without
// one. Not safe for concurrent use.
type Caller struct {
	CS     *sdk.ClientSession
	handle string
}

// Call makes one call of code. A failed call is the client's error; a
// result that is an error is an error quoting the result's text.
func (c *Caller) Call(ctx context.Context, code string) error {
	args := map[string]any{"code": code}
	if c.handle != "" {
		args["session"] = c.handle
	}
	res, err := c.CS.CallTool(ctx, &sdk.CallToolParams{Name: "code_execution", Arguments: args})
	if err != nil {
		return err
	}
	if res.IsError {
		var text strings.Builder
		for _, content := range res.Content {
			if t, ok := content.(*sdk.TextContent); ok {
				text.WriteString(t.Text)
			}
		}
		return errors.New("the call failed: " + text.String())
	}
	if m, ok := res.StructuredContent.(map[string]any); ok {
		if h, ok := m["session"].(string); ok {
			c.handle = h
		}
	}
	return nil
}
