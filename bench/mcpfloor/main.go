// Command mcpfloor is the floor of a code_execution call through the
// official MCP Go SDK, which `codeexec mcp` serves with: a server of that SDK
// whose code_execution tool runs nothing and answers a constant text the
// size of the Node peer's answer. bench/nodecompare calls it as it calls
// `codeexec mcp` and the Node peer (bench/node/mcp-server.mjs): what a call
// to it takes is what the SDK, the transport and the client take, before
// any snippet runs.
//
//	mcpfloor stdio
//	mcpfloor http session|stateless
//
// Over HTTP it listens on a loopback port of the system's choosing and
// prints the port on a line of its own, as the Node peer does.
package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// answer is as long as the Node peer's answer to the 30-line snippet.
const answer = "2 files, 14 words\n{ files: 2, words: 14, longest: 'README.md' }"

type input struct {
	Code string `json:"code" jsonschema:"the TypeScript to run"`
}

// newServer returns the server, its one tool added.
func newServer() *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "mcpfloor", Version: "1"}, nil)
	sdk.AddTool(s, &sdk.Tool{Name: "code_execution", Description: "Answers a constant; runs nothing."},
		func(context.Context, *sdk.CallToolRequest, input) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: answer}}}, nil, nil
		})
	return s
}

func main() {
	s := newServer()
	var err error
	switch {
	case len(os.Args) == 2 && os.Args[1] == "stdio":
		err = s.Run(context.Background(), &sdk.StdioTransport{})
	case len(os.Args) == 3 && os.Args[1] == "http" && (os.Args[2] == "session" || os.Args[2] == "stateless"):
		err = serveHTTP(s, os.Args[2] == "stateless")
	default:
		err = errors.New("usage: mcpfloor stdio | mcpfloor http session|stateless")
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcpfloor:", err)
		os.Exit(1)
	}
}

func serveHTTP(s *sdk.Server, stateless bool) error {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, &sdk.StreamableHTTPOptions{Stateless: stateless})
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	fmt.Println(l.Addr().(*net.TCPAddr).Port)
	return http.Serve(l, mux)
}
