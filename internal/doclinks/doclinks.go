// Package doclinks checks the links of the repository's Markdown: that a
// relative link names a file that exists, that an anchor names a heading
// of its page, and that an external link is a well-formed http(s) URL (it
// is not fetched). Its test runs the check on README.md and docs/*.md.
package doclinks

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// Link is one Markdown link or image in a file.
type Link struct {
	Line   int    // 1-based
	Text   string // the link text, or an image's alt text
	Target string // the destination, without angle brackets or title
	Image  bool
}

// Links returns the inline links and images of markdown (`[text](target)`,
// `![alt](target)`) and the targets of its reference definitions
// (`[label]: target`), in order. Links inside fenced code blocks and code
// spans are not links and are left out.
func Links(markdown string) []Link {
	var links []Link
	for i, line := range proseLines(markdown, true) {
		if line == "" {
			continue
		}
		if m := refDef.FindStringSubmatch(line); m != nil {
			links = append(links, Link{Line: i + 1, Text: m[1], Target: strings.Trim(m[2], "<>")})
			continue
		}
		links = append(links, inlineLinks(line, i+1)...)
	}
	return links
}

// refDef is a reference definition: `[label]: target "title"`.
var refDef = regexp.MustCompile(`^ {0,3}\[([^\]]+)\]:\s+(\S+)`)

// proseLines returns markdown's lines with fenced code blocks blanked out
// (each line of a block, fences included, becomes ""), at their original
// line numbers. With spans, every code span is replaced by as many spaces
// too, so that what remains is the prose whose links count.
func proseLines(markdown string, spans bool) []string {
	lines := strings.Split(markdown, "\n")
	var fence string // the opening fence while inside a block
	for i, line := range lines {
		trimmed := strings.TrimLeft(line, " ")
		indent := len(line) - len(trimmed)
		if fence != "" {
			if indent <= 3 && strings.HasPrefix(trimmed, fence) && strings.Trim(trimmed, fence[:1]+" \t") == "" {
				fence = ""
			}
			lines[i] = ""
			continue
		}
		if f := fenceOf(trimmed); f != "" && indent <= 3 {
			fence = f
			lines[i] = ""
			continue
		}
		if spans {
			lines[i] = blankCodeSpans(line)
		}
	}
	return lines
}

// fenceOf returns the fence that line (without its indentation) opens, a
// run of three or more backticks or tildes, or "".
func fenceOf(line string) string {
	for _, c := range []byte{'`', '~'} {
		n := 0
		for n < len(line) && line[n] == c {
			n++
		}
		if n >= 3 {
			// A backtick fence's info string may not hold a backtick.
			if c == '`' && strings.Contains(line[n:], "`") {
				return ""
			}
			return line[:n]
		}
	}
	return ""
}

// blankCodeSpans replaces each code span of line, backticks included, by
// spaces. A run of backticks with no closing run of the same length is
// literal text.
func blankCodeSpans(line string) string {
	b := []byte(line)
	for i := 0; i < len(b); {
		if b[i] != '`' {
			i++
			continue
		}
		n := 0
		for i+n < len(b) && b[i+n] == '`' {
			n++
		}
		end := closingRun(b, i+n, n)
		if end < 0 {
			i += n
			continue
		}
		for k := i; k < end+n; k++ {
			b[k] = ' '
		}
		i = end + n
	}
	return string(b)
}

// closingRun returns the index of the first run of exactly n backticks in
// b at or after from, or -1.
func closingRun(b []byte, from, n int) int {
	for j := from; j < len(b); {
		if b[j] != '`' {
			j++
			continue
		}
		m := 0
		for j+m < len(b) && b[j+m] == '`' {
			m++
		}
		if m == n {
			return j
		}
		j += m
	}
	return -1
}

// inlineLinks returns the `[text](target)` links and images of one line of
// prose.
func inlineLinks(line string, lineNo int) []Link {
	var links []Link
	for i := 0; i < len(line); i++ {
		if line[i] != '[' || (i > 0 && line[i-1] == '\\') {
			continue
		}
		textEnd := matching(line, i, '[', ']')
		if textEnd < 0 || textEnd+1 >= len(line) || line[textEnd+1] != '(' {
			continue
		}
		end := matching(line, textEnd+1, '(', ')')
		if end < 0 {
			continue
		}
		links = append(links, Link{
			Line:   lineNo,
			Text:   line[i+1 : textEnd],
			Target: destination(line[textEnd+2 : end]),
			Image:  i > 0 && line[i-1] == '!',
		})
		// Go on inside the text: `[![alt](img)](target)` holds two.
	}
	return links
}

// matching returns the index of the bracket that closes the one at
// s[open], counting nested pairs and skipping escaped ones, or -1.
func matching(s string, open int, o, c byte) int {
	depth := 0
	for j := open; j < len(s); j++ {
		switch {
		case s[j] == '\\':
			j++
		case s[j] == o:
			depth++
		case s[j] == c:
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// destination returns the target of a link's parenthesized part, without
// its surrounding spaces, angle brackets or title.
func destination(s string) string {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "<") {
		if end := strings.IndexByte(s, '>'); end > 0 {
			return s[1:end]
		}
	}
	if sp := strings.IndexAny(s, " \t"); sp >= 0 {
		s = s[:sp] // the rest is the title
	}
	return s
}

// Slug returns the anchor GitHub gives a heading whose text is heading:
// the text as rendered (code spans, emphasis marks and link targets
// dropped), lowercased, without the punctuation other than '-' and '_',
// its spaces made '-'.
func Slug(heading string) string {
	text := renderedText(heading)
	var b strings.Builder
	for _, r := range strings.ToLower(text) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Mn, r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// inlineMarkup matches what rendering removes from a heading: a link or
// image's brackets and destination (keeping its text), and the marks of
// code and emphasis.
var (
	linkMarkup     = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
	emphasisMarkup = regexp.MustCompile("[`*]")
)

func renderedText(heading string) string {
	s := linkMarkup.ReplaceAllString(heading, "$1")
	s = emphasisMarkup.ReplaceAllString(s, "")
	return strings.TrimSpace(s)
}

// atxHeading matches an ATX heading: up to three spaces, one to six '#',
// then the text (a closing run of '#' is not part of it).
var atxHeading = regexp.MustCompile(`^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$`)

// htmlAnchor matches an explicit anchor, <a id="x"> or <a name="x">.
var htmlAnchor = regexp.MustCompile(`<a\s+(?:id|name)="([^"]+)"`)

// Anchors returns the anchors of markdown's headings, as GitHub makes them
// (a repeated slug gets -1, -2… in order), and of its explicit <a id>
// anchors.
func Anchors(markdown string) map[string]bool {
	anchors := map[string]bool{}
	seen := map[string]int{}
	for _, line := range proseLines(markdown, false) {
		for _, m := range htmlAnchor.FindAllStringSubmatch(line, -1) {
			anchors[m[1]] = true
		}
		m := atxHeading.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		slug := Slug(m[1])
		if n := seen[slug]; n > 0 {
			anchors[slug+"-"+strconv.Itoa(n)] = true
		} else {
			anchors[slug] = true
		}
		seen[slug]++
	}
	return anchors
}

// Problem is a link that does not hold, or another fault of a file.
type Problem struct {
	File string // relative to the root checked
	Line int    // 0 for the whole file
	Msg  string
}

// String is the problem as FILE:LINE: message (FILE: message without a line).
func (p Problem) String() string {
	if p.Line == 0 {
		return p.File + ": " + p.Msg
	}
	return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Msg)
}

// lineAnchor is the anchor of a line or lines of a source file on GitHub.
var lineAnchor = regexp.MustCompile(`^L\d+(-L\d+)?$`)

// Check checks the links of files, paths relative to root: a relative
// target must exist (relative to its file's directory, and inside root),
// an anchor must name a heading of its page (the same page for "#frag",
// a Markdown file's for "file.md#frag", a line for another file:
// "main.go#L10"), and an external target must be an http(s) URL with a
// host (or a mailto:). It does not fetch anything.
func Check(root string, files []string) ([]Problem, error) {
	var problems []Problem
	anchors := map[string]map[string]bool{} // by path relative to root
	anchorsOf := func(rel string) (map[string]bool, error) {
		if a, ok := anchors[rel]; ok {
			return a, nil
		}
		text, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			return nil, err
		}
		anchors[rel] = Anchors(string(text))
		return anchors[rel], nil
	}
	for _, file := range files {
		text, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(file)))
		if err != nil {
			return nil, err
		}
		for _, l := range Links(string(text)) {
			if msg := checkLink(file, l.Target, root, anchorsOf); msg != "" {
				problems = append(problems, Problem{File: file, Line: l.Line, Msg: msg})
			}
		}
	}
	return problems, nil
}

// checkLink returns what is wrong with target, a link in file, or "".
func checkLink(file, target, root string, anchorsOf func(string) (map[string]bool, error)) string {
	if target == "" {
		return "a link with no target"
	}
	u, err := url.Parse(target)
	if err != nil {
		return fmt.Sprintf("link %q does not parse: %v", target, err)
	}
	switch u.Scheme {
	case "http", "https":
		if u.Host == "" {
			return fmt.Sprintf("link %q has no host", target)
		}
		return ""
	case "mailto":
		return ""
	case "":
	default:
		return fmt.Sprintf("link %q: scheme %q is neither http(s) nor mailto", target, u.Scheme)
	}
	if u.Host != "" || strings.HasPrefix(u.Path, "/") {
		return fmt.Sprintf("link %q is absolute; link to files relative to %s", target, file)
	}
	rel := file // "#frag" alone is this file
	if u.Path != "" {
		rel = filepath.ToSlash(filepath.Clean(filepath.Join(filepath.Dir(file), filepath.FromSlash(u.Path))))
		if rel == ".." || strings.HasPrefix(rel, "../") {
			return fmt.Sprintf("link %q leaves the repository", target)
		}
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel))); err != nil {
			return fmt.Sprintf("link %q: there is no %s", target, rel)
		}
	}
	frag, err := url.PathUnescape(u.Fragment)
	if err != nil {
		return fmt.Sprintf("link %q: bad anchor: %v", target, err)
	}
	if frag == "" {
		return ""
	}
	if !strings.HasSuffix(rel, ".md") {
		if lineAnchor.MatchString(frag) {
			return ""
		}
		return fmt.Sprintf("link %q: an anchor into %s, which is not Markdown, must name lines (#L10, #L10-L20)", target, rel)
	}
	a, err := anchorsOf(rel)
	if err != nil {
		return fmt.Sprintf("link %q: %v", target, err)
	}
	if !a[frag] {
		return fmt.Sprintf("link %q: %s has no heading whose anchor is #%s", target, rel, frag)
	}
	return ""
}

// LineCount returns the number of lines of text: its newlines, and one
// more when the last line does not end in one.
func LineCount(text string) int {
	n := strings.Count(text, "\n")
	if text != "" && !strings.HasSuffix(text, "\n") {
		n++
	}
	return n
}
