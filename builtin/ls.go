package builtin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strconv"
	"strings"

	"github.com/codeexec/codeexec/internal/tail"
	"github.com/codeexec/codeexec/registry"
)

const lsSignature = `async function ls(path?: string): Promise<string>`

const lsSchema = `{
  "type": "object",
  "properties": {
    "path": {"type": "string", "description": "Directory to list, relative to the root. Default \".\" (the root)."}
  },
  "additionalProperties": false
}`

func (t *Toolset) lsTool() registry.Tool {
	return registry.Tool{
		Name:  "ls",
		Label: "List directory",
		Description: fmt.Sprintf("List a directory (default: the root) and return the names of its entries, one per line (no trailing newline), sorted, with a trailing \"/\" on directories; an empty directory gives an empty string. "+
			"Hidden entries are included; symbolic links are shown by name without a mark; a name with a control character is printed as a JSON string. "+
			"The output is capped at %s; beyond it a last line such as \"[80 more entries not shown (output capped at %[1]s); …]\" is added.",
			tail.Size(int64(t.opts.MaxOutputBytes))),
		Parameters:    registry.MustParseSchema(lsSchema),
		CallSignature: lsSignature,
		Source:        "builtin",
		Execute:       t.ls,
	}
}

func (t *Toolset) ls(ctx context.Context, call registry.Call) (registry.Result, error) {
	p := params{"ls", call.Params}
	arg, ok, err := p.str("path")
	if err != nil {
		return registry.Result{}, err
	}
	if !ok {
		arg = "."
	}
	rel, err := t.resolve("ls", arg)
	if err != nil {
		return registry.Result{}, err
	}
	fi, err := t.root.Stat(rel)
	if err != nil {
		return registry.Result{}, t.fsError("ls", "directory", rel, err)
	}
	if err := special("ls", rel, fi); err != nil {
		return registry.Result{}, err
	}
	if !fi.IsDir() {
		q := strconv.Quote(rel)
		return registry.Result{}, fmt.Errorf("ls: %s is a file, not a directory; use read(%s) to read it", q, q)
	}
	if err := ctx.Err(); err != nil {
		return registry.Result{}, fmt.Errorf("ls: %w", err)
	}
	f, err := t.root.Open(rel)
	if err != nil {
		return registry.Result{}, t.fsError("ls", "directory", rel, err)
	}
	defer f.Close()
	// Read in batches, so that a cancelled call stops within one batch
	// of a very large directory.
	var entries []fs.DirEntry
	for {
		if err := ctx.Err(); err != nil {
			return registry.Result{}, fmt.Errorf("ls: %w", err)
		}
		batch, err := f.ReadDir(1024)
		entries = append(entries, batch...)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return registry.Result{}, fmt.Errorf("ls %s: %w", strconv.Quote(rel), err)
		}
	}
	// Sorted by name, as ls does ("a/" before "a.go").
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() {
			name += "/"
		}
		names = append(names, listName(name))
	}
	out := tail.NewLines(t.opts.MaxOutputBytes)
	shown := 0
	for _, name := range names {
		if !out.Add(name) {
			break
		}
		shown++
	}
	notice := ""
	if shown < len(names) {
		notice = fmt.Sprintf("%d more entries not shown (output capped at %s); use find(pattern, { path: %s, maxDepth: 1 }) to filter them",
			len(names)-shown, tail.Size(int64(t.opts.MaxOutputBytes)), strconv.Quote(rel))
	}
	return registry.Result{
		Content: []registry.Content{registry.TextContent(appendNotice(out.String(), notice))},
		Details: map[string]any{"path": rel, "entries": len(names)},
	}, nil
}
