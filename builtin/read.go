package builtin

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/codeexec/codeexec/internal/tail"
	"github.com/codeexec/codeexec/registry"
)

// sniffBytes is how much of a file is looked at for NUL bytes to call it binary.
const sniffBytes = 8 << 10

const readSignature = `async function read(path: string, options?: { offset?: number; limit?: number }): Promise<string>`

const readSchema = `{
  "type": "object",
  "properties": {
    "path": {"type": "string", "description": "File to read, relative to the root (e.g. \"src/main.go\")."},
    "offset": {"type": "integer", "minimum": 1, "description": "First line to return, 1-based. Default 1."},
    "limit": {"type": "integer", "minimum": 1, "description": "Maximum number of lines to return, starting at offset. Default: to the end of the file."}
  },
  "required": ["path"],
  "additionalProperties": false
}`

func (t *Toolset) readTool() registry.Tool {
	return registry.Tool{
		Name:  "read",
		Label: "Read file",
		Description: fmt.Sprintf("Read a text file and return its exact contents as a string, or only lines offset..offset+limit-1 (1-based) with { offset, limit }. "+
			"The text is returned exactly as stored, with no line numbers or decoration, so JSON.parse(await read(\"package.json\")) works; a window keeps each line's own newline. "+
			"Files over %s must be read in windows (the error says how many lines there are); a window over %s is cut at a line boundary and ends with a line such as \"[output capped at %[2]s: showing lines 1-9000; continue with read(…, { offset: 9001, limit: 2000 })]\". "+
			"The call fails (throws) on an offset past the end of the file, on binary files (NUL bytes or invalid UTF-8), directories (use ls) and paths outside the root.",
			tail.Size(int64(t.opts.MaxReadBytes)), tail.Size(int64(t.opts.MaxReadBytes))),
		Parameters:    registry.MustParseSchema(readSchema),
		CallSignature: readSignature,
		Source:        "builtin",
		Execute:       t.read,
	}
}

func (t *Toolset) read(ctx context.Context, call registry.Call) (registry.Result, error) {
	p := params{"read", call.Params}
	arg, err := p.required("path")
	if err != nil {
		return registry.Result{}, err
	}
	offset, hasOffset, err := p.integer("offset", 1)
	if err != nil {
		return registry.Result{}, err
	}
	limit, hasLimit, err := p.integer("limit", 1)
	if err != nil {
		return registry.Result{}, err
	}
	rel, err := t.resolve("read", arg)
	if err != nil {
		return registry.Result{}, err
	}
	if err := ctx.Err(); err != nil {
		return registry.Result{}, fmt.Errorf("read: %w", err)
	}
	f, fi, err := t.openRead(rel)
	if err != nil {
		return registry.Result{}, t.fsError("read", "file", rel, err)
	}
	defer f.Close()
	q := strconv.Quote(rel)
	if fi.IsDir() {
		return registry.Result{}, fmt.Errorf("read: %s is a directory, not a file; use ls(%s) to list it", q, q)
	}
	if err := special("read", rel, fi); err != nil {
		return registry.Result{}, err
	}
	br := bufio.NewReaderSize(f, readBufferSize(fi.Size()))
	head, _ := br.Peek(sniffBytes)
	if bytes.IndexByte(head, 0) >= 0 {
		return registry.Result{}, binaryErr(rel, "it contains NUL bytes")
	}
	if !hasOffset && !hasLimit {
		return t.readWhole(ctx, br, rel, fi.Size())
	}
	if !hasOffset {
		offset = 1
	}
	return t.readWindow(ctx, br, rel, offset, limit, hasLimit)
}

// readBufferSize is the size of read's buffer for a file of size bytes:
// 64 KiB, or what holds the whole file and one byte more (to see its end)
// when that is less (at least 512 bytes, should the file grow after its
// Stat). Peeking at sniffBytes then sees the whole of a small file, and a
// call reading one allocates hundreds of bytes for it, not 64 KiB.
func readBufferSize(size int64) int {
	return int(min(64<<10, max(512, size+1)))
}

// readWhole returns the whole file, or an error saying how to read a window
// when it is larger than MaxReadBytes.
func (t *Toolset) readWhole(ctx context.Context, br *bufio.Reader, rel string, size int64) (registry.Result, error) {
	max := t.opts.MaxReadBytes
	var data []byte
	if size <= int64(max) {
		var err error
		// The file may have grown since Stat: read at most one byte more than
		// allowed to notice.
		data, err = io.ReadAll(io.LimitReader(br, int64(max)+1))
		if err != nil {
			return registry.Result{}, fmt.Errorf("read %s: %w", strconv.Quote(rel), err)
		}
	}
	if size > int64(max) || len(data) > max {
		n, seen, err := countLines(ctx, io.MultiReader(bytes.NewReader(data), br))
		if err != nil {
			return registry.Result{}, fmt.Errorf("read: %w", err)
		}
		q := strconv.Quote(rel)
		return registry.Result{}, fmt.Errorf("read: %s is too large to return whole (%s, %s; the limit is %s); read it in windows, e.g. read(%s, { offset: 1, limit: 2000 }), or search it with grep(pattern, { path: %s })",
			q, tail.Size(seen), plural(n, "line", "lines"), tail.Size(int64(max)), q, q)
	}
	if i := invalidUTF8(data); i >= 0 {
		return registry.Result{}, binaryErr(rel, fmt.Sprintf("it is not valid UTF-8 text: bad byte at offset %d", i))
	}
	text := string(data)
	return registry.Result{
		Content: []registry.Content{registry.TextContent(text)},
		Details: map[string]any{"path": rel, "bytes": len(data)},
	}, nil
}

// readWindow returns lines offset..offset+limit-1 (to the end of the file
// without a limit), cut at MaxReadBytes with a notice.
func (t *Toolset) readWindow(ctx context.Context, br *bufio.Reader, rel string, offset, limit int, hasLimit bool) (registry.Result, error) {
	max := t.opts.MaxReadBytes
	q := strconv.Quote(rel)
	var (
		out      = tail.NewHead(max, nil)
		lineNo   int  // lines read so far
		lastFull int  // last line number whose text is all in out
		cut      bool // more than max bytes were read
	)
	// lineNo-(offset-1) < limit, not lineNo < offset-1+limit, which could
	// overflow for numbers near maxWhole.
	for !hasLimit || lineNo-(offset-1) < limit {
		if lineNo%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return registry.Result{}, fmt.Errorf("read: %w", err)
			}
		}
		inWindow := lineNo+1 >= offset
		n, err := readLine(br, func(chunk []byte) bool {
			if !inWindow {
				return true
			}
			out.Write(chunk)
			if out.Overflowed() {
				cut = true
				return false
			}
			return true
		})
		if err != nil && err != io.EOF {
			return registry.Result{}, fmt.Errorf("read %s: %w", q, err)
		}
		if n == 0 {
			break
		}
		lineNo++
		if cut {
			break
		}
		if inWindow {
			lastFull = lineNo
		}
		if err == io.EOF {
			break
		}
	}
	if offset > lineNo && !(offset == 1 && lineNo == 0) {
		return registry.Result{}, fmt.Errorf("read: offset %d is past the end of %s, which has %s; use an offset from 1 to %d",
			offset, q, plural(lineNo, "line", "lines"), max1(lineNo))
	}
	text, _ := out.Text(tail.AtLine)
	notice := ""
	if cut {
		if lastFull >= offset {
			notice = fmt.Sprintf("output capped at %s: showing lines %d-%d; continue with read(%s, { offset: %d, limit: 2000 })",
				tail.Size(int64(max)), offset, lastFull, q, lastFull+1)
		} else {
			notice = fmt.Sprintf("line %d is longer than %s; only its first %s is shown; continue with read(%s, { offset: %d }), or look inside the line with grep or bash(%s)",
				offset, tail.Size(int64(max)), tail.Size(int64(len(text))), q, offset+1, strconv.Quote("cut -c1-2000 "+shellQuote(rel)))
		}
	}
	if invalidUTF8([]byte(text)) >= 0 {
		return registry.Result{}, binaryErr(rel, "it is not valid UTF-8 text")
	}
	return registry.Result{
		Content: []registry.Content{registry.TextContent(appendNotice(text, notice))},
		Details: map[string]any{"path": rel, "offset": offset, "lastLine": lastFull, "truncated": cut},
	}, nil
}

// readLine reads one line from br, "\n" included, passing it to sink in
// chunks until sink returns false. It returns how many bytes it read; io.EOF
// means the line (possibly empty) was the last one.
func readLine(br *bufio.Reader, sink func([]byte) bool) (int, error) {
	n := 0
	for {
		chunk, err := br.ReadSlice('\n')
		n += len(chunk)
		if len(chunk) > 0 && !sink(chunk) {
			return n, nil
		}
		if err != bufio.ErrBufferFull {
			return n, err
		}
	}
}

func max1(n int) int {
	if n < 1 {
		return 1
	}
	return n
}

// countLines counts the lines read from r (a last line without "\n"
// counts) and the bytes, checking ctx as it goes.
func countLines(ctx context.Context, r io.Reader) (lines int, size int64, err error) {
	buf := make([]byte, 256<<10)
	last := byte('\n')
	for {
		if err := ctx.Err(); err != nil {
			return 0, 0, err
		}
		k, err := r.Read(buf)
		if k > 0 {
			lines += bytes.Count(buf[:k], []byte{'\n'})
			last = buf[k-1]
			size += int64(k)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, 0, err
		}
	}
	if last != '\n' {
		lines++
	}
	return lines, size, nil
}

// invalidUTF8 returns the offset of the first byte of data that is not valid
// UTF-8, or -1 if data is valid.
func invalidUTF8(data []byte) int {
	if utf8.Valid(data) {
		return -1
	}
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return -1
}

// binaryErr is read's error for a file that is not text.
func binaryErr(rel, why string) error {
	q := strconv.Quote(rel)
	cmd := "file " + shellQuote(rel) + "; head -c 512 " + shellQuote(rel) + " | od -c | head -20"
	return fmt.Errorf("read: %s looks like a binary file (%s); read returns text only; inspect it with bash(%s)",
		q, why, strconv.Quote(strings.TrimSpace(cmd)))
}
