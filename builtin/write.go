package builtin

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strconv"
	"strings"
	"syscall"

	"github.com/codeexec/codeexec/internal/tail"
	"github.com/codeexec/codeexec/registry"
)

const writeSignature = `async function write(path: string, content: string): Promise<string>`

const writeSchema = `{
  "type": "object",
  "properties": {
    "path": {"type": "string", "description": "File to create or overwrite, relative to the root. Missing parent directories are created."},
    "content": {"type": "string", "description": "The complete new content of the file."}
  },
  "required": ["path", "content"],
  "additionalProperties": false
}`

const editSignature = `async function edit(path: string, oldText: string, newText: string, options?: { replaceAll?: boolean }): Promise<string>`

const editSchema = `{
  "type": "object",
  "properties": {
    "path": {"type": "string", "description": "File to edit, relative to the root."},
    "oldText": {"type": "string", "description": "Exact text to replace, including whitespace and indentation; must occur exactly once unless replaceAll is true."},
    "newText": {"type": "string", "description": "Text to put in its place (may be empty to delete)."},
    "replaceAll": {"type": "boolean", "description": "Replace every occurrence instead of requiring exactly one. Default false."}
  },
  "required": ["path", "oldText", "newText"],
  "additionalProperties": false
}`

func (t *Toolset) writeTool() registry.Tool {
	return registry.Tool{
		Name:  "write",
		Label: "Write file",
		Description: "Create or overwrite a file with the given content, creating missing parent directories, and return a confirmation such as \"wrote 120 bytes to src/a.ts\". " +
			"The content is written exactly as given; to change part of an existing file, use edit instead.",
		Parameters:    registry.MustParseSchema(writeSchema),
		CallSignature: writeSignature,
		Source:        "builtin",
		Execute:       t.write,
	}
}

func (t *Toolset) editTool() registry.Tool {
	return registry.Tool{
		Name:  "edit",
		Label: "Edit file",
		Description: "Replace an exact piece of text in a file and return a confirmation such as \"replaced 1 occurrence in src/a.ts\" (\"replaced 3 occurrences\" with replaceAll). " +
			"oldText must match the file byte for byte (whitespace and indentation included), so read the file first and copy the text. " +
			"It must occur exactly once unless { replaceAll: true }; when it is missing or ambiguous the call fails, saying how many matches there were and on which lines.",
		Parameters:    registry.MustParseSchema(editSchema),
		CallSignature: editSignature,
		Source:        "builtin",
		Execute:       t.edit,
	}
}

func (t *Toolset) write(ctx context.Context, call registry.Call) (registry.Result, error) {
	p := params{"write", call.Params}
	arg, err := p.required("path")
	if err != nil {
		return registry.Result{}, err
	}
	content, err := p.required("content")
	if err != nil {
		return registry.Result{}, err
	}
	rel, err := t.resolve("write", arg)
	if err != nil {
		return registry.Result{}, err
	}
	q := strconv.Quote(rel)
	if rel == "." {
		return registry.Result{}, fmt.Errorf("write: %s is the root directory; pass a file path such as \"notes.txt\"", q)
	}
	if err := t.checkSize("write", rel, int64(len(content))); err != nil {
		return registry.Result{}, err
	}
	if err := ctx.Err(); err != nil {
		return registry.Result{}, fmt.Errorf("write: %w", err)
	}
	// Refuse a special file before opening it: opening a device can have
	// effects of its own. openFile checks again what was opened.
	if fi, err := t.root.Stat(rel); err == nil {
		if err := special("write", rel, fi); err != nil {
			return registry.Result{}, err
		}
	}
	if dir := path.Dir(rel); dir != "." {
		if err := t.root.MkdirAll(dir, 0o755); err != nil {
			if errors.Is(err, syscall.ENOTDIR) || errors.Is(err, os.ErrExist) {
				return registry.Result{}, fmt.Errorf("write: cannot create directory %s for %s: a file is in the way", strconv.Quote(dir), q)
			}
			return registry.Result{}, t.fsError("write", "directory", rel, err)
		}
	}
	f, err := t.openWrite("write", rel, os.O_CREATE)
	if err != nil {
		if errors.Is(err, syscall.EISDIR) {
			return registry.Result{}, fmt.Errorf("write: %s is a directory; pass a file path", q)
		}
		return registry.Result{}, err
	}
	n, err := io.WriteString(f, content)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return registry.Result{}, fmt.Errorf("write %s: %w", q, err)
	}
	return registry.Result{
		Content: []registry.Content{registry.TextContent(fmt.Sprintf("wrote %s to %s", plural(n, "byte", "bytes"), rel))},
		Details: map[string]any{"path": rel, "bytes": n},
	}, nil
}

func (t *Toolset) edit(ctx context.Context, call registry.Call) (registry.Result, error) {
	p := params{"edit", call.Params}
	arg, err := p.required("path")
	if err != nil {
		return registry.Result{}, err
	}
	oldText, err := p.required("oldText")
	if err != nil {
		return registry.Result{}, err
	}
	newText, err := p.required("newText")
	if err != nil {
		return registry.Result{}, err
	}
	replaceAll, err := p.boolean("replaceAll")
	if err != nil {
		return registry.Result{}, err
	}
	rel, err := t.resolve("edit", arg)
	if err != nil {
		return registry.Result{}, err
	}
	q := strconv.Quote(rel)
	if oldText == "" {
		return registry.Result{}, fmt.Errorf("edit: oldText is empty; pass the exact text to replace, or use write(%s, content) to replace the whole file", q)
	}
	if oldText == newText {
		return registry.Result{}, fmt.Errorf("edit: oldText and newText are identical, so there is nothing to change in %s", rel)
	}
	f, fi, err := t.openRead(rel)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return registry.Result{}, fmt.Errorf("edit: file %s not found; use write(%s, content) to create it, or find(%s) to locate it", q, q, strconv.Quote("**/"+path.Base(rel)))
		}
		return registry.Result{}, t.fsError("edit", "file", rel, err)
	}
	maxFile := int64(t.opts.MaxFileBytes)
	data, err := readRegular(f, fi, maxFile)
	f.Close()
	if serr := special("edit", rel, fi); serr != nil {
		return registry.Result{}, serr
	}
	switch {
	case fi.IsDir():
		return registry.Result{}, fmt.Errorf("edit: %s is a directory, not a file", q)
	case errors.Is(err, errTooLarge):
		return registry.Result{}, fmt.Errorf("edit: %s is too large to edit (over %s); use bash with sed or a script instead", q, tail.Size(maxFile))
	case err != nil:
		return registry.Result{}, fmt.Errorf("edit %s: %w", q, err)
	}
	if bytes.IndexByte(data[:min(len(data), sniffBytes)], 0) >= 0 {
		return registry.Result{}, fmt.Errorf("edit: %s looks like a binary file (it contains NUL bytes); edit changes text files only", q)
	}
	// data is searched and replaced as bytes: no copy of the file as a
	// string beside it.
	oldB, newB := []byte(oldText), []byte(newText)
	n := bytes.Count(data, oldB)
	switch {
	case n == 0:
		hint := fmt.Sprintf("read the file first (read(%s)) and copy the exact text, including whitespace and indentation", q)
		if bytes.Contains(data, []byte("\r\n")) && !strings.Contains(oldText, "\r") &&
			bytes.Contains(data, []byte(strings.ReplaceAll(oldText, "\n", "\r\n"))) {
			hint = "the file has Windows (\\r\\n) line endings; use \\r\\n in oldText and newText"
		}
		return registry.Result{}, fmt.Errorf("edit: oldText not found in %s; %s", rel, hint)
	case n > 1 && !replaceAll:
		return registry.Result{}, fmt.Errorf("edit: oldText matches %d times in %s (%s); add more surrounding context to make it unique or pass { replaceAll: true }",
			n, rel, matchLines(string(data), oldText))
	}
	count := 1
	if replaceAll {
		count = -1
	} else {
		n = 1
	}
	// The new size, computed before the new content is built: n is at most
	// the file's length and the texts' lengths are bounded by memory, so
	// this cannot overflow.
	size := int64(len(data)) + int64(n)*(int64(len(newText))-int64(len(oldText)))
	if err := t.checkSize("edit", rel, size); err != nil {
		return registry.Result{}, err
	}
	updated := bytes.Replace(data, oldB, newB, count)
	if err := ctx.Err(); err != nil {
		return registry.Result{}, fmt.Errorf("edit: %w", err)
	}
	w, err := t.openWrite("edit", rel, 0)
	if err != nil {
		return registry.Result{}, err
	}
	_, err = w.Write(updated)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return registry.Result{}, fmt.Errorf("edit %s: %w", q, err)
	}
	return registry.Result{
		Content: []registry.Content{registry.TextContent(fmt.Sprintf("replaced %s in %s", plural(n, "occurrence", "occurrences"), rel))},
		Details: map[string]any{"path": rel, "replacements": n},
	}, nil
}

// checkSize returns the error of tool for a file rel that would be size
// bytes, over MaxFileBytes; nil when it fits.
func (t *Toolset) checkSize(tool, rel string, size int64) error {
	max := int64(t.opts.MaxFileBytes)
	if size <= max {
		return nil
	}
	return fmt.Errorf("%s: %s would be %s (%d bytes), over the limit of %s on files the tools write; the file was not changed; write it in smaller parts with bash if it really must be this large",
		tool, strconv.Quote(rel), tail.Size(size), size, tail.Size(max))
}

// openWrite opens rel for writing, truncating it, with the extra flag
// (os.O_CREATE to create it), and refuses a special file: the file is
// opened with O_NONBLOCK, so that a named pipe cannot block the call, and
// checked once open. Errors are the tool's messages, but for EISDIR, which
// is returned as is.
func (t *Toolset) openWrite(tool, rel string, flag int) (*os.File, error) {
	f, fi, err := t.openFile(rel, os.O_WRONLY|os.O_TRUNC|flag, 0o644)
	if err != nil {
		if errors.Is(err, syscall.EISDIR) {
			return nil, err
		}
		return nil, t.fsError(tool, "file", rel, err)
	}
	if err := special(tool, rel, fi); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// matchLines lists the line numbers where the first few occurrences of sub
// start in s, e.g. "lines 3, 17 and 40".
func matchLines(s, sub string) string {
	const show = 10
	var lines []string
	line, pos := 1, 0
	more := 0
	for {
		i := strings.Index(s[pos:], sub)
		if i < 0 {
			break
		}
		line += strings.Count(s[pos:pos+i], "\n")
		if len(lines) < show {
			lines = append(lines, strconv.Itoa(line))
		} else {
			more++
		}
		line += strings.Count(sub, "\n")
		pos += i + len(sub)
	}
	out := "lines " + strings.Join(lines, ", ")
	if more > 0 {
		out += fmt.Sprintf(" and %d more", more)
	}
	return out
}

// errTooLarge is readRegular's error for a file over its limit.
var errTooLarge = errors.New("file too large")

// readRegular reads all of f, a regular file, refusing more than max bytes.
// It reads nothing from anything else.
func readRegular(f *os.File, fi fs.FileInfo, max int64) ([]byte, error) {
	if !fi.Mode().IsRegular() {
		return nil, nil
	}
	if fi.Size() > max {
		return nil, errTooLarge
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err == nil && int64(len(data)) > max {
		err = errTooLarge
	}
	return data, err
}
