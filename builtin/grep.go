package builtin

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/codeexec/codeexec/internal/tail"
	"github.com/codeexec/codeexec/registry"
)

const (
	// grepMaxLine is how many bytes of a line grep shows; longer lines are
	// clipped around the first match with "[... N bytes]" markers.
	grepMaxLine = 500
	// grepMaxCounted bounds the counting of matches past the limit, so a
	// huge tree is not searched to the end only to count.
	grepMaxCounted = 10000
	// grepMaxContext caps the context option.
	grepMaxContext = 100
)

const grepSignature = `async function grep(pattern: string, options?: { path?: string; glob?: string; ignoreCase?: boolean; literal?: boolean; context?: number; limit?: number }): Promise<string>`

const grepSchema = `{
  "type": "object",
  "properties": {
    "pattern": {"type": "string", "minLength": 1, "description": "Regular expression (Go RE2 syntax: no lookaround or backreferences), or plain text with literal: true."},
    "path": {"type": "string", "description": "Directory or file to search, relative to the root. Default \".\" (the whole root)."},
    "glob": {"type": "string", "description": "Only search files matching this glob, ripgrep style: \"*.go\" matches base names at any depth, \"src/**/*.ts\" matches paths relative to path, \"*.{ts,tsx}\" alternatives; a leading \"!\" excludes instead."},
    "ignoreCase": {"type": "boolean", "description": "Match case-insensitively. Default false."},
    "literal": {"type": "boolean", "description": "Treat pattern as plain text, not a regular expression. Default false."},
    "context": {"type": "integer", "minimum": 0, "description": "Lines of context to show before and after each match (at most 100). Default 0."},
    "limit": {"type": "integer", "minimum": 1, "description": "Maximum number of matching lines to return. Default %d."}
  },
  "required": ["pattern"],
  "additionalProperties": false
}`

func (t *Toolset) grepTool() registry.Tool {
	return registry.Tool{
		Name:  "grep",
		Label: "Search file contents",
		Description: fmt.Sprintf("Search file contents with a regular expression (Go RE2 syntax) and return the matching lines as \"file:line:text\", one per line (no trailing newline), sorted by file path and line number; an empty string means no match. "+
			"Paths are relative to the root; a path with a control character is printed as a JSON string. With { context: N }, context lines are written \"file-line-text\" and \"--\" separates groups that are not adjacent. "+
			"{ glob } keeps the files it matches, ripgrep style: \"*.ts\" matches base names at any depth, \"src/**/*.ts\" paths relative to { path }, \"!*.md\" excludes. "+
			"Binary files, .git and paths ignored by .gitignore files are skipped (a { path } given explicitly is searched even if ignored); lines longer than %d bytes are clipped around the match with \"[... N bytes]\" markers. "+
			"At most %d matches are returned (change with { limit }) and the output is capped at %s; when matches are cut, a last line such as \"[37 more matches not shown (limit %[2]d reached); …]\" is added, so drop lines starting with \"[\" before counting.",
			grepMaxLine, DefaultGrepLimit, tail.Size(int64(t.opts.MaxOutputBytes))),
		Parameters:    registry.MustParseSchema(fmt.Sprintf(grepSchema, DefaultGrepLimit)),
		CallSignature: grepSignature,
		Source:        "builtin",
		Execute:       t.grep,
	}
}

func (t *Toolset) grep(ctx context.Context, call registry.Call) (registry.Result, error) {
	p := params{"grep", call.Params}
	pattern, err := p.required("pattern")
	if err != nil {
		return registry.Result{}, err
	}
	arg, hasPath, err := p.str("path")
	if err != nil {
		return registry.Result{}, err
	}
	if !hasPath {
		arg = "."
	}
	globArg, _, err := p.str("glob")
	if err != nil {
		return registry.Result{}, err
	}
	ignoreCase, err := p.boolean("ignoreCase")
	if err != nil {
		return registry.Result{}, err
	}
	literal, err := p.boolean("literal")
	if err != nil {
		return registry.Result{}, err
	}
	contextLines, _, err := p.integer("context", 0)
	if err != nil {
		return registry.Result{}, err
	}
	limit, hasLimit, err := p.integer("limit", 1)
	if err != nil {
		return registry.Result{}, err
	}
	if !hasLimit {
		limit = DefaultGrepLimit
	}
	contextLines = min(contextLines, grepMaxContext)
	if pattern == "" {
		return registry.Result{}, errors.New("grep: pattern is empty; pass a regular expression or, with { literal: true }, the text to find")
	}
	expr := pattern
	if literal {
		expr = regexp.QuoteMeta(pattern)
	}
	if ignoreCase {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return registry.Result{}, fmt.Errorf("grep: invalid regular expression %s: %v; the syntax is Go RE2 (no lookaround or backreferences); pass { literal: true } to search for the text as is",
			strconv.Quote(pattern), strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	var g *glob
	if globArg != "" {
		if g, err = compileGlob("grep", "glob", globArg, true); err != nil {
			return registry.Result{}, err
		}
	}
	rel, err := t.resolve("grep", arg)
	if err != nil {
		return registry.Result{}, err
	}
	if err := ctx.Err(); err != nil {
		return registry.Result{}, fmt.Errorf("grep: %w", err)
	}
	fi, err := t.root.Stat(rel)
	if err != nil {
		return registry.Result{}, t.fsError("grep", "path", rel, err)
	}

	if err := special("grep", rel, fi); err != nil {
		return registry.Result{}, err
	}
	var files []string
	explicit := !fi.IsDir()
	if explicit {
		files = []string{rel}
	} else {
		err := t.walk(ctx, rel, walkOptions{gitignore: true}, func(p string, d fs.DirEntry) error {
			r := relTo(rel, p)
			if g != nil && g.negate && g.match(r, d.IsDir()) {
				if d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if !d.Type().IsRegular() {
				return nil
			}
			if g != nil && !g.negate && !g.match(r, false) {
				return nil
			}
			files = append(files, p)
			return nil
		})
		if err != nil {
			if ctx.Err() != nil {
				return registry.Result{}, fmt.Errorf("grep: %w", ctx.Err())
			}
			return registry.Result{}, t.fsError("grep", "path", rel, err)
		}
		slices.Sort(files)
	}

	s := &grepSearch{
		t: t, re: re, context: contextLines, limit: limit,
		out: tail.NewLines(t.opts.MaxOutputBytes),
	}
	for _, f := range files {
		if err := s.file(ctx, f, explicit); err != nil {
			return registry.Result{}, err
		}
		if s.hidden >= grepMaxCounted {
			break
		}
	}
	return registry.Result{
		Content: []registry.Content{registry.TextContent(appendNotice(s.out.String(), s.notice()))},
		Details: map[string]any{"matches": s.shown, "notShown": s.hidden, "filesSearched": len(files)},
	}, nil
}

// grepSearch is the state of one grep call across the files it searches.
type grepSearch struct {
	t       *Toolset
	re      *regexp.Regexp
	context int
	limit   int
	out     *tail.Lines

	shown, hidden int // matching lines kept, and counted but not kept
	capped        bool
	unsearched    []grepLong // lines searched only in part, the first few
	unsearchedN   int        // how many lines were searched only in part
	lastFile      string     // file and line of the last line written
	lastLine      int
}

// grepLong is a line longer than MaxFileBytes, of which grep searched only
// the first MaxFileBytes.
type grepLong struct {
	file string
	n    int
	size int64 // the line's length, "\n" excluded
}

// boolInt is 1 for true and 0 for false.
func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// grepLine is a line remembered as possible context before a match.
type grepLine struct {
	n    int
	text string
}

// file searches one file. Files that cannot be opened and binary files (a
// NUL byte in the first 8 KiB) are skipped, unless the file was named
// explicitly, which makes those an error.
func (s *grepSearch) file(ctx context.Context, rel string, explicit bool) error {
	f, fi, err := s.t.openRead(rel)
	if err != nil {
		if explicit {
			return s.t.fsError("grep", "path", rel, err)
		}
		return nil
	}
	defer f.Close()
	if err := special("grep", rel, fi); err != nil || !fi.Mode().IsRegular() {
		if explicit {
			return err
		}
		return nil
	}
	br := bufio.NewReaderSize(f, readBufferSize(fi.Size()))
	if head, _ := br.Peek(sniffBytes); bytes.IndexByte(head, 0) >= 0 {
		if explicit {
			return fmt.Errorf("grep: %s is a binary file; grep searches text files only", strconv.Quote(rel))
		}
		return nil
	}
	var (
		buf       []byte
		before    []grepLine
		afterLeft int
	)
	for n := 1; ; n++ {
		if n%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("grep: %w", err)
			}
		}
		buf = buf[:0]
		max := s.t.opts.MaxFileBytes
		k, rerr := readLine(br, func(chunk []byte) bool {
			if room := max - len(buf); room > 0 {
				buf = append(buf, chunk[:min(len(chunk), room)]...)
			}
			return true
		})
		if k == 0 {
			break
		}
		if size := k - boolInt(rerr == nil); size > max { // rerr == nil: the line ended with "\n"
			s.unsearchedN++
			if len(s.unsearched) < 3 {
				s.unsearched = append(s.unsearched, grepLong{rel, n, int64(size)})
			}
		}
		line := bytes.TrimSuffix(bytes.TrimSuffix(buf, []byte{'\n'}), []byte{'\r'})
		full := s.shown >= s.limit || s.capped
		if loc := s.re.FindIndex(line); loc != nil {
			if full {
				s.hidden++
				afterLeft = 0
				if s.hidden >= grepMaxCounted {
					return nil
				}
			} else {
				for _, b := range before {
					s.emit(rel, b.n, '-', b.text)
				}
				before = before[:0]
				if s.emit(rel, n, ':', clipLine(line, loc)) {
					s.shown++
				} else {
					s.hidden++
				}
				afterLeft = s.context
			}
		} else if afterLeft > 0 {
			s.emit(rel, n, '-', clipLine(line, nil))
			afterLeft--
		} else if s.context > 0 && !full {
			if len(before) == s.context {
				before = append(before[:0], before[1:]...)
			}
			before = append(before, grepLine{n, clipLine(line, nil)})
		}
		if rerr != nil {
			break // io.EOF, or a read error: search what was read
		}
	}
	return nil
}

// emit writes one output line, preceded by "--" when context is on and the
// line does not follow the previous one. It reports whether the line was
// kept; once the output is full nothing more is.
func (s *grepSearch) emit(file string, n int, sep byte, text string) bool {
	line := listName(file) + string(sep) + strconv.Itoa(n) + string(sep) + text
	var ok bool
	if s.context > 0 && s.out.Len() > 0 && (file != s.lastFile || n != s.lastLine+1) {
		ok = s.out.Add("--", line)
	} else {
		ok = s.out.Add(line)
	}
	if !ok {
		s.capped = true
		return false
	}
	s.lastFile, s.lastLine = file, n
	return true
}

// notice says what the output left out and which lines were searched only
// in part, or "" if nothing.
func (s *grepSearch) notice() string {
	cut, long := s.cutNotice(), s.longNotice()
	if cut != "" && long != "" {
		return cut + "; " + long
	}
	return cut + long
}

// longNotice says which lines were longer than MaxFileBytes and so searched
// only in part, or "" if none.
func (s *grepSearch) longNotice() string {
	if s.unsearchedN == 0 {
		return ""
	}
	max := int64(s.t.opts.MaxFileBytes)
	var parts []string
	for _, l := range s.unsearched {
		parts = append(parts, fmt.Sprintf("the last %s of line %d of %s (%s long)", plural(int(l.size-max), "byte", "bytes"), l.n, strconv.Quote(l.file), tail.Size(l.size)))
	}
	what := strings.Join(parts, ", ")
	if more := s.unsearchedN - len(s.unsearched); more > 0 {
		what += fmt.Sprintf(", and the ends of %s", plural(more, "more line", "more lines"))
	}
	return fmt.Sprintf("grep searches only the first %s of each line; not searched: %s; search those with bash (e.g. fold -w 4096 FILE | grep PATTERN)", tail.Size(max), what)
}

// cutNotice says what the output left out, or "" if nothing.
func (s *grepSearch) cutNotice() string {
	if s.hidden == 0 {
		if s.capped {
			return fmt.Sprintf("output capped at %s: some context lines not shown; lower context or narrow the pattern, path or glob", tail.Size(int64(s.t.opts.MaxOutputBytes)))
		}
		return ""
	}
	more := strconv.Itoa(s.hidden)
	if s.hidden >= grepMaxCounted {
		more += "+"
	}
	if s.capped {
		return fmt.Sprintf("%s more matches not shown (output capped at %s); narrow the pattern, path or glob", more, tail.Size(int64(s.t.opts.MaxOutputBytes)))
	}
	return fmt.Sprintf("%s more matches not shown (limit %d reached); narrow the pattern, path or glob, or pass a higher { limit }", more, s.limit)
}

// clipLine returns line as text of at most grepMaxLine bytes (plus markers):
// a longer line is cut around the match at loc (or from its start without
// one), with "[... N bytes] " and " [... N bytes]" saying what was cut.
// It does not use internal/tail: it cuts a window around a position, at
// both ends, which tail's head and tail cuts do not express.
func clipLine(line []byte, loc []int) string {
	if len(line) <= grepMaxLine {
		return strings.ToValidUTF8(string(line), "\uFFFD")
	}
	start := 0
	if loc != nil && loc[0] > grepMaxLine/4 {
		start = loc[0] - grepMaxLine/4
	}
	end := min(start+grepMaxLine, len(line))
	start = max(0, end-grepMaxLine)
	for start > 0 && start < len(line) && !isRuneStart(line[start]) {
		start++
	}
	for end < len(line) && end > start && !isRuneStart(line[end]) {
		end--
	}
	text := strings.ToValidUTF8(string(line[start:end]), "\uFFFD")
	if start > 0 {
		text = fmt.Sprintf("[... %d bytes] %s", start, text)
	}
	if end < len(line) {
		text = fmt.Sprintf("%s [... %d bytes]", text, len(line)-end)
	}
	return text
}

// isRuneStart reports whether b can start a UTF-8 encoded rune.
func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }
