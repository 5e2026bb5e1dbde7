package transform

import (
	"sort"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/token"
)

// Session snippets.
//
// A snippet runs as the body of an async arrow function (for top-level
// await and return), so its top-level declarations are the function's
// locals and vanish when it returns. In a session they must outlive the
// snippet, as in Node's REPL, which solves the same problem for top-level
// await the same way: CompileSession rewrites the top-level declarations of
// the code goja runs into assignments to globals.
//
// Which declarations carry, and how (only statements directly in the
// snippet's top level; a declaration inside a block, a loop head or a
// function stays local):
//
//   - `const x = 1, {a, b: [c]} = o;`, `let y;` and `var z = 2;` become
//     assignments, at the place they were: `;0,  x = 1, {a, b: [c]} = o;`.
//     `let y;` assigns undefined; `var z;` without an initializer assigns
//     nothing (as var does). The globals are plain writable properties of
//     globalThis: a `const` can be assigned later, and a later snippet may
//     declare the same name again (the new value replaces the old one).
//   - `class A {}` becomes `A = class A {};`, at its place.
//   - `function f() {}` (async and generator functions too) stays a local
//     declaration, hoisted as usual, and is also copied to globalThis.f at
//     the start of the snippet, so that it is a global before any other
//     code runs.
//
// Global names the run will assign are listed by Program.Globals; the
// runtime defines the new ones before the snippet runs (see package
// runtime's Session), so that assignments work in strict code too.
//
// The rewrite only inserts text that holds no line break and replaces
// keywords with text of the same length, so lines never move; the columns
// the insertions shift are undone by Program.Position.

// Global is a name that a session snippet declares at its top level.
type Global struct {
	Name string
	// Lexical is set for let, const, class and function, whose name is
	// new to the session only once its declaration has run (until then,
	// reading it throws a ReferenceError, as before a let is initialized);
	// unset for var, which is undefined from the start of the snippet.
	Lexical bool
}

// edit is one change of the session rewrite: text inserted at a byte
// offset of the code, or replacing blank bytes there with text of the same
// length.
type edit struct {
	at    int
	blank int
	text  string
	// check, when set, is the text that must end at at, or the edit is
	// not made.
	check string
}

// insertion is text inserted into the code goja runs, at a 1-based line
// and byte column of the code before the insertion.
type insertion struct {
	line, col int
	n         int
}

// CompileSession is Compile for a snippet that runs in a session: its
// top-level declarations become globals (see the comment above). The
// Program's Globals lists them.
func CompileSession(source, filename string) (*Program, *Diagnostic) {
	return compileNamed(source, filename, filename, true, false)
}

// CompileSessionNamed is CompileSession with name, not filename, as the
// code's name in goja's stacks (diagnostics still name filename): a
// session names each run's code apart, so that a stack through functions
// an earlier run defined can be mapped to that run's snippet.
func CompileSessionNamed(source, filename, name string) (*Program, *Diagnostic) {
	return compileNamed(source, filename, name, true, false)
}

// CompileSessionCached is CompileSession for a session that tells its
// runs' code apart in goja's stacks: the Program is cached by filename,
// source and echo, as Compile caches its own, and named in goja's stacks
// by a name no other Program of the process has, filename, "#p" and a
// number (diagnostics name filename). A session that runs the same
// snippet again, or another session that runs it, gets the same Program:
// it is immutable and safe to run in many runtimes at once. What names
// each run is then the session's to keep (package runtime keeps which run
// compiled each name). With echo, the snippet's last statement, when it
// is an expression statement, is its return value, as a REPL echoes it
// (`1 + 1` gives 2): the statement becomes `return (expression)`.
func CompileSessionCached(source, filename string, echo bool) (*Program, *Diagnostic) {
	kind := sessionCompile
	if echo {
		kind = echoCompile
	}
	if p := programs.get(kind, source, filename); p != nil {
		return p, nil
	}
	name := filename + "#p" + strconv.FormatUint(sessionNames.Add(1), 10)
	p, d := compileNamed(source, filename, name, true, echo)
	if d == nil {
		programs.put(kind, source, filename, p)
	}
	return p, d
}

// sessionNames numbers the names of CompileSessionCached's Programs.
var sessionNames atomic.Uint64

// Globals returns the names that the snippet declares at its top level, in
// the order they appear, each once; nil for a program not compiled by
// CompileSession or that declares nothing.
func (p *Program) Globals() []Global { return p.globals }

// hoist rewrites the top-level declarations of code (the wrapped snippet,
// parsed as prog) into assignments to globals, and with echo its last
// statement, when it is an expression statement, into a return of its
// value (see CompileSessionCached). It returns code unchanged when there
// is nothing to rewrite.
func (p *Program) hoist(code string, prog *ast.Program, echo bool) string {
	body := wrapperBody(prog)
	if body == nil {
		return code
	}
	var edits []edit
	seen := map[string]int{}
	add := func(name string, lexical bool) {
		if i, ok := seen[name]; ok {
			p.globals[i].Lexical = p.globals[i].Lexical && lexical
			return
		}
		seen[name] = len(p.globals)
		p.globals = append(p.globals, Global{Name: name, Lexical: lexical})
	}
	var copies strings.Builder
	for _, st := range body.List {
		switch d := st.(type) {
		case *ast.VariableStatement:
			edits = append(edits, declEdits(int(d.Var)-1, len("var"), d.List, false, add)...)
		case *ast.LexicalDeclaration:
			kw := len("let")
			if d.Token == token.CONST {
				kw = len("const")
			}
			edits = append(edits, declEdits(int(d.Idx)-1, kw, d.List, true, add)...)
		case *ast.FunctionDeclaration:
			if d.Function.Name == nil {
				continue
			}
			name := string(d.Function.Name.Name)
			add(name, true)
			copies.WriteString("globalThis." + name + " = " + name + ";")
		case *ast.ClassDeclaration:
			if d.Class.Name == nil {
				continue
			}
			name := string(d.Class.Name.Name)
			add(name, true)
			edits = append(edits,
				edit{at: int(d.Class.Class) - 1, text: name + " = "},
				edit{at: int(d.Class.RightBrace), text: ";"})
		}
	}
	if copies.Len() > 0 {
		edits = append(edits, edit{at: afterDirectives(body), text: ";" + copies.String()})
	}
	if n := len(body.List); echo && n > 0 {
		if last, ok := body.List[n-1].(*ast.ExpressionStatement); ok {
			// "return (" goes where the statement starts: after the one
			// before it (or the body's brace), its semicolon, white space
			// and comments; goja's positions of a parenthesized expression
			// leave its parentheses out, so the expression's own start may
			// be inside one. ")" goes after the expression, before or after
			// its own closing parenthesis, which gives the same code.
			start := int(body.LeftBrace)
			if n > 1 {
				start = int(body.List[n-2].Idx1()) - 1
			}
			start = skipBlank(code, start)
			edits = append(edits, edit{at: start, text: "return ("}, edit{at: int(last.Idx1()) - 1, text: ")"})
		}
	}
	if len(edits) == 0 {
		return code
	}
	// At one offset, insertions (in the order made) go before a keyword's
	// replacement: the function copies before a first-statement const.
	sort.SliceStable(edits, func(i, j int) bool {
		if edits[i].at != edits[j].at {
			return edits[i].at < edits[j].at
		}
		return edits[i].blank == 0 && edits[j].blank > 0
	})
	var b strings.Builder
	last := 0
	// The edits are sorted by offset: their lines are counted in one pass.
	lines := lineCursor{s: code}
	for _, e := range edits {
		if e.check != "" && !strings.HasSuffix(code[:e.at], e.check) {
			continue
		}
		b.WriteString(code[last:e.at])
		if e.blank > 0 {
			b.WriteString(e.text)
			last = e.at + e.blank
			continue
		}
		b.WriteString(e.text)
		last = e.at
		line, col := lines.pos(e.at)
		p.insertions = append(p.insertions, insertion{line: line, col: col, n: len(e.text)})
	}
	b.WriteString(code[last:])
	return b.String()
}

// skipBlank returns the offset of the first byte of code at or after at
// that is not white space, a semicolon or part of a comment: between two
// statements, the start of the second.
func skipBlank(code string, at int) int {
	for at < len(code) {
		switch rest := code[at:]; {
		case strings.HasPrefix(rest, "//"):
			if i := strings.IndexByte(rest, '\n'); i >= 0 {
				at += i + 1
			} else {
				return len(code)
			}
		case strings.HasPrefix(rest, "/*"):
			if i := strings.Index(rest[2:], "*/"); i >= 0 {
				at += i + 4
			} else {
				return len(code)
			}
		case rest[0] == ';' || rest[0] == ' ' || rest[0] == '\t' || rest[0] == '\n' || rest[0] == '\r':
			at++
		default:
			return at
		}
	}
	return at
}

// afterDirectives returns the offset at which the copies of function
// declarations go: the start of the body, or right after the last string
// of its directive prologue ("use strict"), which must stay first to take
// effect (the copies then start with a ";" that ends it).
func afterDirectives(body *ast.BlockStatement) int {
	at := int(body.LeftBrace)
	for _, st := range body.List {
		es, ok := st.(*ast.ExpressionStatement)
		if !ok {
			break
		}
		if _, ok := es.Expression.(*ast.StringLiteral); !ok {
			break
		}
		at = int(st.Idx1()) - 1
	}
	return at
}

// declEdits turns `kw a = 1, {b} = o, c` at offset into
// `;0,a = 1, {b} = o, c = void 0`: the keyword is replaced by ";0," padded
// to its length, which makes the list a comma expression of assignments
// (`{b} = o` after a comma is a destructuring assignment; the ";" keeps the
// line from continuing the one before it), and an uninitialized let gets
// "= void 0". The rewrite needs no closing text, so it never depends on
// where the parser says an initializer ends (goja's end of `new X()` is
// before its parentheses).
func declEdits(offset, kw int, list []*ast.Binding, lexical bool, add func(string, bool)) []edit {
	edits := []edit{{at: offset, blank: kw, text: ";0," + strings.Repeat(" ", kw-3)}}
	for _, b := range list {
		for _, n := range boundNames(b.Target) {
			add(n, lexical)
		}
		if id, ok := b.Target.(*ast.Identifier); ok && b.Initializer == nil && lexical {
			// An identifier's end is exact: its index plus its name,
			// unless the name is written with escapes, which the check
			// below leaves alone.
			edits = append(edits, edit{at: int(id.Idx) - 1 + len(id.Name), text: " = void 0", check: string(id.Name)})
		}
	}
	return edits
}

// boundNames lists the identifiers a binding target declares.
func boundNames(target ast.Expression) []string {
	var names []string
	var walk func(e ast.Expression)
	walk = func(e ast.Expression) {
		switch t := e.(type) {
		case *ast.Identifier:
			names = append(names, string(t.Name))
		case *ast.ArrayPattern:
			for _, el := range t.Elements {
				if el != nil {
					walk(el)
				}
			}
			if t.Rest != nil {
				walk(t.Rest)
			}
		case *ast.ObjectPattern:
			for _, prop := range t.Properties {
				switch pr := prop.(type) {
				case *ast.PropertyShort:
					names = append(names, string(pr.Name.Name))
				case *ast.PropertyKeyed:
					walk(pr.Value)
				case *ast.SpreadElement:
					walk(pr.Expression)
				}
			}
			if t.Rest != nil {
				walk(t.Rest)
			}
		case *ast.AssignExpression:
			walk(t.Left)
		case *ast.SpreadElement:
			walk(t.Expression)
		}
	}
	walk(target)
	return names
}

// wrapperBody finds the body of the async arrow function that wraps the
// snippet: the last statement of the program, `(async () => {…})()`
// (esbuild may put helpers before it).
func wrapperBody(prog *ast.Program) *ast.BlockStatement {
	for i := len(prog.Body) - 1; i >= 0; i-- {
		es, ok := prog.Body[i].(*ast.ExpressionStatement)
		if !ok {
			continue
		}
		call, ok := es.Expression.(*ast.CallExpression)
		if !ok || len(call.ArgumentList) != 0 {
			return nil
		}
		callee := call.Callee
		if arrow, ok := callee.(*ast.ArrowFunctionLiteral); ok && arrow.Async {
			body, _ := arrow.Body.(*ast.BlockStatement)
			return body
		}
		return nil
	}
	return nil
}

// lineCursor gives the 1-based line and byte column of offsets of s that
// do not decrease, scanning s once over all of them (a scan from the start
// for each offset would make a snippet with many declarations quadratic).
type lineCursor struct {
	s string
	// i is the offset scanned to, past breaks line breaks; its line
	// starts at start.
	i, breaks, start int
}

// pos returns the line and column of offset, which must not be before an
// offset given before.
func (c *lineCursor) pos(offset int) (int, int) {
	for c.i < offset {
		if n := lineBreak(c.s, c.i); n > 0 {
			c.i += n
			c.breaks, c.start = c.breaks+1, c.i
			continue
		}
		c.i++
	}
	return c.breaks + 1, offset - c.start + 1
}

// unedit maps a position in the code goja runs back to the code before
// the session rewrite's insertions.
func (p *Program) unedit(line, col int) (int, int) {
	shift := 0
	for _, in := range p.insertions {
		if in.line != line {
			continue
		}
		at := in.col + shift
		switch {
		case col >= at+in.n:
			shift += in.n
		case col >= at:
			return line, in.col
		default:
			return line, col - shift
		}
	}
	return line, col - shift
}
