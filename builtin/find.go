package builtin

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"

	"github.com/codeexec/codeexec/internal/tail"
	"github.com/codeexec/codeexec/registry"
)

const findSignature = `async function find(pattern: string, options?: { path?: string; type?: "file" | "directory"; maxDepth?: number; limit?: number }): Promise<string>`

const findSchema = `{
  "type": "object",
  "properties": {
    "pattern": {"type": "string", "minLength": 1, "description": "Glob: \"*.go\" (no \"/\") matches base names at any depth; \"src/**/*.ts\" matches paths relative to path; \"**\" matches any number of directories; \"*.{ts,tsx}\" gives alternatives."},
    "path": {"type": "string", "description": "Directory to search, relative to the root. Default \".\" (the whole root). A file is itself the only candidate."},
    "type": {"type": "string", "enum": ["file", "directory"], "description": "Only return files (anything that is not a directory, symbolic links included) or only directories."},
    "maxDepth": {"type": "integer", "minimum": 1, "description": "Do not descend more than this many levels below path (1: its direct entries only)."},
    "limit": {"type": "integer", "minimum": 1, "description": "Maximum number of paths to return. Default %d."}
  },
  "required": ["pattern"],
  "additionalProperties": false
}`

func (t *Toolset) findTool() registry.Tool {
	return registry.Tool{
		Name:  "find",
		Label: "Find files",
		Description: fmt.Sprintf("Find files and directories whose path matches a glob pattern and return their paths relative to the root, one per line (no trailing newline), sorted, directories without a trailing \"/\" (unlike ls); an empty string means nothing matched. "+
			"A pattern without \"/\" matches base names at any depth (\"*.go\"); one with \"/\" matches the path relative to the search path (\"src/**/*.ts\"); \"*.{ts,tsx}\" gives alternatives. { maxDepth: 1 } keeps the entries directly in the search path. "+
			".git and paths ignored by .gitignore files are skipped (a { path } given explicitly is searched even if ignored), and symbolic links are listed but not followed; a path with a control character is printed as a JSON string. "+
			"At most %d paths are returned (change with { limit }) and the output is capped at %s; when paths are cut, a last line such as \"[12 more paths not shown (limit %[1]d reached); …]\" is added, so drop lines starting with \"[\" before counting.",
			DefaultFindLimit, tail.Size(int64(t.opts.MaxOutputBytes))),
		Parameters:    registry.MustParseSchema(fmt.Sprintf(findSchema, DefaultFindLimit)),
		CallSignature: findSignature,
		Source:        "builtin",
		Execute:       t.find,
	}
}

func (t *Toolset) find(ctx context.Context, call registry.Call) (registry.Result, error) {
	p := params{"find", call.Params}
	pattern, err := p.required("pattern")
	if err != nil {
		return registry.Result{}, err
	}
	arg, ok, err := p.str("path")
	if err != nil {
		return registry.Result{}, err
	}
	if !ok {
		arg = "."
	}
	typ, _, err := p.str("type")
	if err != nil {
		return registry.Result{}, err
	}
	if typ != "" && typ != "file" && typ != "directory" {
		return registry.Result{}, fmt.Errorf("find: type must be \"file\" or \"directory\", got %s", strconv.Quote(typ))
	}
	maxDepth, _, err := p.integer("maxDepth", 1)
	if err != nil {
		return registry.Result{}, err
	}
	limit, ok, err := p.integer("limit", 1)
	if err != nil {
		return registry.Result{}, err
	}
	if !ok {
		limit = DefaultFindLimit
	}
	if pattern == "" {
		return registry.Result{}, errors.New("find: pattern is empty; use \"*\" to match everything, or e.g. \"*.go\" or \"src/**/*.ts\"")
	}
	g, err := compileGlob("find", "pattern", pattern, false)
	if err != nil {
		return registry.Result{}, err
	}
	rel, err := t.resolve("find", arg)
	if err != nil {
		return registry.Result{}, err
	}
	if err := ctx.Err(); err != nil {
		return registry.Result{}, fmt.Errorf("find: %w", err)
	}
	fi, err := t.root.Stat(rel)
	if err != nil {
		return registry.Result{}, t.fsError("find", "directory", rel, err)
	}
	if err := special("find", rel, fi); err != nil {
		return registry.Result{}, err
	}
	var found []string
	if !fi.IsDir() {
		// Like find(1): a file given as the path is itself the only
		// candidate, matched by its base name.
		if typ != "directory" && g.match(path.Base(rel), false) {
			found = append(found, rel)
		}
	} else {
		err = t.walk(ctx, rel, walkOptions{gitignore: true, maxDepth: maxDepth}, func(p string, d fs.DirEntry) error {
			isDir := d.IsDir()
			if typ == "file" && isDir || typ == "directory" && !isDir {
				return nil
			}
			if g.match(relTo(rel, p), isDir) {
				found = append(found, p)
			}
			return nil
		})
	}
	if err != nil {
		if ctx.Err() != nil {
			return registry.Result{}, fmt.Errorf("find: %w", ctx.Err())
		}
		return registry.Result{}, t.fsError("find", "directory", rel, err)
	}
	slices.Sort(found)

	out := tail.NewLines(t.opts.MaxOutputBytes)
	shown := 0
	for _, f := range found[:min(limit, len(found))] {
		if !out.Add(listName(f)) {
			break
		}
		shown++
	}
	notice := ""
	switch {
	case shown < min(limit, len(found)):
		notice = fmt.Sprintf("%d more paths not shown (output capped at %s); narrow the pattern or path", len(found)-shown, tail.Size(int64(t.opts.MaxOutputBytes)))
	case shown < len(found):
		notice = fmt.Sprintf("%d more paths not shown (limit %d reached); narrow the pattern or path, or pass a higher { limit }", len(found)-shown, limit)
	}
	return registry.Result{
		Content: []registry.Content{registry.TextContent(appendNotice(out.String(), notice))},
		Details: map[string]any{"found": len(found), "shown": shown},
	}, nil
}
