package mcptools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"os"
	"slices"
	"strings"
)

// Config is an MCP client configuration file, in the format MCP clients
// (Claude Desktop, Claude Code, Cursor, VS Code) use:
//
//	{"mcpServers": {
//	  "everything": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-everything"]},
//	  "remote": {"url": "http://127.0.0.1:3001/mcp", "headers": {"Authorization": "Bearer ..."}}
//	}}
//
// Fields the format has that codeexec does not use are ignored.
type Config struct {
	// Servers maps each server's name (its key) to how to reach it.
	Servers map[string]ServerConfig `json:"mcpServers"`
}

// ServerConfig says how to reach one MCP server: a command to start (stdio)
// or a URL (streamable HTTP), never both.
type ServerConfig struct {
	// Type is optional: "stdio", or "http" or "streamable-http" for a URL.
	Type string `json:"type,omitempty"`
	// Command, Args, Env and Cwd start a stdio server. The process gets
	// Env on top of a minimal environment (HOME, LOGNAME, PATH, SHELL,
	// TERM, USER), not all of codeexec's.
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	Cwd     string            `json:"cwd,omitempty"`
	// URL and Headers reach a streamable HTTP server; every request
	// carries Headers.
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
}

// LoadConfig reads and checks the configuration file at path (see
// ParseConfig); its errors name the file.
func LoadConfig(path string) (*Config, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("MCP config: %w", err)
	}
	c, err := ParseConfig(b)
	if err != nil {
		return nil, fmt.Errorf("MCP config %s: %w", path, err)
	}
	return c, nil
}

// ParseConfig decodes and checks a configuration. It refuses malformed
// JSON (saying at which line), a missing or non-object "mcpServers", an
// empty server name, and a server that has neither or both of command
// and url, a URL that is not http(s), or an unknown type; each error
// names the server.
func ParseConfig(data []byte) (*Config, error) {
	var raw struct {
		Servers map[string]json.RawMessage `json:"mcpServers"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, jsonError(data, err)
	}
	if raw.Servers == nil {
		return nil, errors.New(`no "mcpServers" object`)
	}
	c := &Config{Servers: map[string]ServerConfig{}}
	for _, name := range slices.Sorted(maps.Keys(raw.Servers)) {
		if strings.TrimSpace(name) == "" {
			return nil, errors.New("a server has an empty name")
		}
		var sc ServerConfig
		if err := json.Unmarshal(raw.Servers[name], &sc); err != nil {
			return nil, fmt.Errorf("server %q: %w", name, jsonError(raw.Servers[name], err))
		}
		if err := sc.check(); err != nil {
			return nil, fmt.Errorf("server %q: %w", name, err)
		}
		c.Servers[name] = sc
	}
	return c, nil
}

// check refuses a server configuration that says nothing usable.
func (sc ServerConfig) check() error {
	switch {
	case sc.Command == "" && sc.URL == "":
		return errors.New(`needs "command" (a stdio server) or "url" (a streamable HTTP server)`)
	case sc.Command != "" && sc.URL != "":
		return errors.New(`has both "command" and "url"; give one`)
	}
	switch sc.Type {
	case "":
	case "stdio":
		if sc.Command == "" {
			return errors.New(`has type "stdio" but no "command"`)
		}
	case "http", "streamable-http", "streamableHttp":
		if sc.URL == "" {
			return fmt.Errorf("has type %q but no \"url\"", sc.Type)
		}
	default:
		return fmt.Errorf("has type %q; codeexec speaks stdio and (streamable) http", sc.Type)
	}
	if sc.URL != "" {
		u, err := url.Parse(sc.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("url %q is not an http or https URL", sc.URL)
		}
	}
	return nil
}

// jsonError words a decoding error of data, with the line of a syntax or
// type error.
func jsonError(data []byte, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return fmt.Errorf("line %d: %w", line(data, syn.Offset), err)
	case errors.As(err, &typ):
		where := typ.Field
		if where == "" {
			where = "the top level"
		}
		return fmt.Errorf("line %d: %s must be %s, not a JSON %s", line(data, typ.Offset), where, typeWord(typ.Type.Kind().String()), typ.Value)
	}
	return err
}

func typeWord(kind string) string {
	switch kind {
	case "map", "struct":
		return "an object"
	case "slice":
		return "an array"
	}
	return "a " + kind
}

func line(data []byte, off int64) int {
	off = min(max(off, 0), int64(len(data)))
	return 1 + bytes.Count(data[:off], []byte("\n"))
}
