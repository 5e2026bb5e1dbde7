package signature

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// validCases are signatures Parse accepts, with their canonical String form
// ("" when the source is already canonical).
var validCases = []struct{ src, want string }{
	// Built-in tool signatures.
	{`async function read(path: string, options?: { offset?: number; limit?: number }): Promise<string>`, ""},
	{`async function write(path: string, content: string): Promise<void>`, ""},
	{`async function bash(command: string, options?: { timeout?: number }): Promise<string>`, ""},
	{`async function find(pattern: string, options?: { path?: string; type?: "file" | "directory"; maxDepth?: number; limit?: number }): Promise<string>`, ""},
	{`async function edit(path: string, oldText: string, newText: string, options?: { replaceAll?: boolean }): Promise<string>`, ""},
	{`async function grep(pattern: string, options?: { path?: string; glob?: string; ignoreCase?: boolean; literal?: boolean; context?: number; limit?: number }): Promise<string>`, ""},
	{`async function ls(path?: string, options?: { limit?: number }): Promise<string>`, ""},
	{`async function count(path: string): Promise<{ words: number; lines: number }>`, ""},
	{`async function query(sql: string): Promise<Array<Record<string, unknown>>>`, ""},
	{`async function planning_read_plan(): Promise<{ title: string; steps: { id: number; title: string; done: boolean }[] }>`, ""},

	// Modifiers, semicolons, whitespace and comments.
	{`function f()`, ""},
	{`function f();`, "function f()"},
	{`export function f(): void`, "function f(): void"},
	{`declare function f(): void;`, "function f(): void"},
	{`export declare async function f(): Promise<void>;`, "async function f(): Promise<void>"},
	{"  \t\nasync   function\n\tf ( a :string , b ?: number , ) : Promise < string > ; \n", "async function f(a: string, b?: number): Promise<string>"},
	{"/* leading */ async /* a */ function /* b */ f /* c */ ( /* d */ a /* e */ : /* f */ string /* g */ ) /* h */ : /* i */ void /* j */ ; /* k */", "async function f(a: string): void"},
	{"// line comment\nasync function f(\n  path: string, // the file\n  options?: {\n    offset?: number // first line\n    limit?: number /* max lines */\n  },\n): Promise<string> // trailing", "async function f(path: string, options?: { offset?: number; limit?: number }): Promise<string>"},
	{"\ufefffunction f(a:\u00a0string)", "function f(a: string)"},
	{"function f(a: string)\r\n", "function f(a: string)"},
	{`function $_$9(_a: string, $b: number)`, ""},
	{`function async(await2: string)`, ""},
	{`async function type(type: string, from: string, of: number, get: boolean, set: boolean, as: string)`, ""},

	// Parameters.
	{`function f(a, b)`, ""},
	{`function f(a?, b?)`, ""},
	{`function f(...args)`, ""},
	{`function f(a: string, ...rest: number[])`, ""},
	{`function f(a?: string, ...rest: Array<number>)`, ""},
	{`function f(a: string, limit = 10, flag = true)`, "function f(a: string, limit?, flag?)"},
	{`function f(a: number = 10, b: string = "x,)", c: string[] = ["a", "b"], d = { x: (1), y: [2] }, e = (a, b) => a + b, g = a < b ? c : d)`, "function f(a?: number, b?: string, c?: string[], d?, e?, g?)"},
	{"function f(a = `x${1}y`, b = 'q')", "function f(a?, b?)"},

	// Primitive and named types.
	{`function f(a: string, b: number, c: boolean, d: any, e: unknown, g: never, h: object, i: bigint, j: symbol, k: null, l: undefined): void`, ""},
	{`function f(a: this, b: NS.Type, c: a.b.c.D, d: NS.Gen<T>): Foo.Bar`, ""},

	// Literal types.
	{`function f(a: "x", b: 'y', c: 42, d: -1, e: - 1.5e3, g: 0x1F, h: 10n, i: true, j: false, k: 1_000, l: .5)`, "function f(a: \"x\", b: 'y', c: 42, d: -1, e: -1.5e3, g: 0x1F, h: 10n, i: true, j: false, k: 1_000, l: .5)"},
	{"function f(a: `plain`, b: \"esc\\\"aped\\n\\u{1F600}\")", ""},
	{`function f(mode: "r" | "w" | "a", level: 1 | 2 | 3)`, ""},
	{"function f(a: \"x\\\ny\", b: 'p\\\r\nq', c: `a\nb\\\nc\r\nd\re`, d: `\\\\\n`, e: \"\u2028\")", "function f(a: \"xy\", b: \"pq\", c: `a\\nbc\\nd\\ne`, d: `\\\\\\n`, e: \"\\u2028\")"},

	// Unions, intersections, parentheses.
	{`function f(a: | "a" | "b", b: & A & B)`, `function f(a: "a" | "b", b: A & B)`},
	{`function f(a: A | B & C, b: (A | B) & C, c: A & (B | C))`, ""},
	{`function f(a: (A | B) | (C | D), b: (A & B) & C, c: ((string)))`, "function f(a: A | B | C | D, b: A & B & C, c: string)"},
	{`function f(a: string | null | undefined)`, ""},
	{"function f(a:\n  | \"x\"\n  | \"y\"\n)", `function f(a: "x" | "y")`},

	// Arrays and tuples.
	{`function f(a: string[], b: string[][], c: (string | number)[], d: readonly string[], e: (readonly string[])[], g: readonly string[][])`, ""},
	{`function f(a: Array<string>, b: ReadonlyArray<number>, c: Array<string>[])`, ""},
	{`function f(a: [], b: [string, number], c: [string, number?], d: [string, ...number[]], e: readonly [string, number])`, ""},
	{`function f(a: [x: string, y?: number], b: [first: string, ...rest: boolean[]], c: [string, number,])`, "function f(a: [x: string, y?: number], b: [first: string, ...rest: boolean[]], c: [string, number])"},
	{`function f(a: [(A | B)?], b: [(() => void)?], c: [string[]?], d: [...(A | B)[]])`, ""},
	{`function f(a: [string, ...B[]] | [], b: [...A])`, ""},

	// Generics.
	{`function f(a: Record<string, number>, b: Map<string, Set<number>>, c: Promise<Array<Record<string, Promise<void>>>>)`, ""},
	{`function f(a: Array<Array<Array<string>>>): Promise<Array<Record<string, unknown>>>`, ""},
	{`function f(a: Partial<{ x: number }>, b: Foo<(a: string) => void, A | B>)`, ""},
	{`function f<T>(a: T): T`, ""},
	{`function f<T, U extends object = any, V = string,>(a: T, b: U): V`, "function f<T, U, V>(a: T, b: U): V"},
	{`function f<T extends { id: string }>(items: T[]): Promise<T[]>`, "function f<T>(items: T[]): Promise<T[]>"},
	{`function f<out>(a: out)`, ""},

	// Object types.
	{`function f(a: {})`, ""},
	{`function f(a: { x: number, y: number })`, "function f(a: { x: number; y: number })"},
	{`function f(a: { x: number; y: number; })`, "function f(a: { x: number; y: number })"},
	{"function f(a: {\n x: number\n y: string\n})", "function f(a: { x: number; y: string })"},
	{`function f(a: { readonly x: number; readonly y?: string })`, ""},
	{`function f(a: { readonly: boolean }, b: { readonly?: number }, c: { readonly readonly: string })`, ""},
	{`function f(a: { "content-type": string; 'x y'?: number; "plain": boolean; 42: string })`, `function f(a: { "content-type": string; "x y"?: number; plain: boolean; "42": string })`},
	{`function f(a: { "with \"quote\"\n": string })`, ""},
	{`function f(a: { default: string; class: number; function: boolean; new: string; get: number; set: number })`, ""},
	{`function f(a: { [key: string]: number })`, ""},
	{`function f(a: { readonly [key: string]: number; [i: number]: string; name: string })`, ""},
	{`function f(a: { m(x: number): string; n?(): void; o(x, y?): Promise<void> })`, ""},
	{`function f(a: { m(a: string): void; m(a: number): void })`, ""},
	{`function f(a: { "new"(): void }, b: { new?(): void }, c: { new: string }, d: { get(): void; set?: number })`, ""},
	{`function f(a: { readonly get: string }, b: { "class": string; 'if'(): void })`, "function f(a: { readonly get: string }, b: { class: string; if(): void })"},
	{`function f(a: [typeof: string, new?: number]): asserts`, ""},
	{`function f(a: { cb: (err: Error | null, data?: string) => void })`, ""},
	{`function f(a: { nested: { deeper: { deepest: string[] } } })`, ""},
	{"function f(a: {\n  [k: string]: string\n  [i: number]: string\n})", "function f(a: { [k: string]: string; [i: number]: string })"},

	// Function types.
	{`function f(cb: () => void)`, ""},
	{`function f(cb: (a: string, b?: number, ...c: boolean[]) => Promise<void>)`, ""},
	{`function f(cb: (a, b) => void)`, ""},
	{`function f(cb: (a: string) => (b: number) => void)`, ""},
	{`function f(cb: (a: string) => A | B)`, ""},
	{`function f(cb: ((a: string) => void) | null, d: ((a: string) => void)[])`, ""},
	{`function f(cb: (A & (() => void)))`, "function f(cb: A & (() => void))"},
	{`function f(): () => void`, ""},
}

func TestParseValid(t *testing.T) {
	for _, tc := range validCases {
		want := tc.want
		if want == "" {
			want = tc.src
		}
		sig, err := Parse(tc.src)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.src, err)
			continue
		}
		if got := sig.String(); got != want {
			t.Errorf("Parse(%q).String()\n got %s\nwant %s", tc.src, got, want)
		}
		checkRoundTrip(t, tc.src, sig)
	}
}

// checkRoundTrip asserts that the canonical form of sig parses back to an
// equal Signature with the same canonical form.
func checkRoundTrip(t *testing.T, src string, sig *Signature) {
	t.Helper()
	text := sig.String()
	if strings.ContainsAny(text, "\n\r\u2028\u2029") {
		t.Fatalf("Parse(%q).String() = %q spans lines", src, text)
	}
	again, err := Parse(text)
	if err != nil {
		t.Fatalf("Parse(%q) succeeded but its String %q does not parse: %v", src, text, err)
	}
	if got := again.String(); got != text {
		t.Fatalf("round trip of %q: String %q reparses to %q", src, text, got)
	}
	if !reflect.DeepEqual(sig, again) {
		t.Fatalf("round trip of %q: %q reparses to a different Signature:\n%#v\n%#v", src, text, sig, again)
	}
}

// invalidCases are sources Parse rejects, with the exact error text.
var invalidCases = []struct{ src, want string }{
	// Empty input and the declaration frame.
	{``, `call signature: column 1: empty call signature`},
	{"  \n\t", `call signature: line 1, column 1: empty call signature`},
	{`// only a comment`, `call signature: column 1: empty call signature`},
	{`read(path: string): Promise<string>`, `call signature: column 1: expected "function" but found "read"`},
	{`async read(path: string)`, `call signature: column 7: expected "function" but found "read"`},
	{`const read = (path: string) => string`, `call signature: column 1: expected "function" but found "const"`},
	{`(path: string) => Promise<string>`, `call signature: column 1: expected "function" but found "("`},
	{`export default function f()`, `call signature: column 8: expected "function" but found "default"`},
	{"async\nfunction f()", `call signature: line 2, column 1: a line break is not allowed between "async" and "function"`},
	{`function`, `call signature: column 9: expected function name but found end of input`},
	{`function ()`, `call signature: column 10: expected function name but found "("`},
	{`function *gen()`, `call signature: column 10: generator functions are not supported`},
	{`function class()`, `call signature: column 10: "class" is a reserved word and cannot be a function name`},
	{`function 1f()`, `call signature: column 10: invalid number "1f"`},
	{`function f`, `call signature: column 11: expected "(" but found end of input`},
	{`function f: string`, `call signature: column 11: expected "(" but found ":"`},
	{`function f()()`, `call signature: column 13: expected end of input but found "("`},
	{`function f(): void {}`, `call signature: column 20: expected end of input but found "{": a call signature is a declaration without a body`},
	{`function f(): void;;`, `call signature: column 20: expected end of input but found ";"`},
	{`function f(): void; function g(): void`, `call signature: column 21: expected end of input but found "function"`},
	{`function f() extra`, `call signature: column 14: expected end of input but found "extra"`},
	{`function f():`, `call signature: column 14: expected type but found end of input`},
	{`function f(): x is string`, `call signature: column 17: type predicates are not supported`},
	{`function f(x): asserts x`, `call signature: column 16: assertion signatures are not supported`},

	// Parameter lists.
	{`function f(`, `call signature: column 12: expected parameter name or ")" but found end of input`},
	{`function f(a: string`, `call signature: column 21: expected "," or ")" but found end of input`},
	{"function f(a: string,\n  b: number {", `call signature: line 2, column 13: expected "," or ")" but found "{"`},
	{`function f(a: string b: number)`, `call signature: column 22: expected "," or ")" but found "b"`},
	{`function f(,)`, `call signature: column 12: expected parameter name or ")" but found ","`},
	{`function f(a,,)`, `call signature: column 14: expected parameter name or ")" but found ","`},
	{`function f(a: string, a: number)`, `call signature: column 23: duplicate parameter name "a"`},
	{`function f(a?: string, b: number)`, `call signature: column 24: required parameter "b" cannot follow an optional parameter`},
	{`function f(a = 1, b: number)`, `call signature: column 19: required parameter "b" cannot follow an optional parameter`},
	{`function f(...a: string[], b: number)`, `call signature: column 26: a rest parameter must be the last parameter`},
	{`function f(...a: string[],)`, `call signature: column 26: a rest parameter must be the last parameter`},
	{`function f(...a?: string[])`, `call signature: column 16: a rest parameter cannot be optional`},
	{`function f(...a = [])`, `call signature: column 17: a rest parameter cannot have a default value`},
	{`function f(a?: number = 1)`, `call signature: column 23: parameter "a" cannot have both "?" and a default value`},
	{`function f(a =)`, `call signature: column 15: expected default value but found ")"`},
	{`function f(a = (1, b)`, `call signature: column 22: expected "," or ")" but found end of input`},
	{`function f(a = (1, b`, `call signature: column 21: expected ")" but found end of input`},
	{`function f(a = [1)`, `call signature: column 18: expected "]" but found ")"`},
	{`function f(a = 1])`, `call signature: column 17: unbalanced "]" in default value`},
	{`function f({ a, b }: Opts)`, `call signature: column 12: destructured parameters are not supported; give the parameter a name`},
	{`function f([a, b]: string[])`, `call signature: column 12: destructured parameters are not supported; give the parameter a name`},
	{`function f(this: Window)`, `call signature: column 12: "this" is a reserved word and cannot be a parameter name`},
	{`function f(class: string)`, `call signature: column 12: "class" is a reserved word and cannot be a parameter name`},
	{`function f(...)`, `call signature: column 15: expected parameter name but found ")"`},
	{`function f(a: string))`, `call signature: column 22: expected end of input but found ")"`},
	{`function f(a: string`, `call signature: column 21: expected "," or ")" but found end of input`},

	// Type parameters.
	{`function f<>()`, `call signature: column 12: type parameter list cannot be empty`},
	{`function f<T()`, `call signature: column 13: expected "," or ">" but found "("`},
	{`function f<T, T>()`, `call signature: column 15: duplicate type parameter "T"`},
	{`function f<string>()`, `call signature: column 12: type parameter name cannot be "string"`},
	{`function f<const T>()`, `call signature: column 12: type parameter modifiers are not supported`},
	{`function f<T = string, U>()`, `call signature: column 24: required type parameter "U" cannot follow one with a default`},

	// Types.
	{`function f(a: )`, `call signature: column 15: expected type but found ")"`},
	{`function f(a: string | )`, `call signature: column 24: expected type but found ")"`},
	{`function f(a: A & )`, `call signature: column 19: expected type but found ")"`},
	{`function f(a: class)`, `call signature: column 15: expected type but found "class"`},
	{`function f(a: Promise<>)`, `call signature: column 23: expected type but found ">"`},
	{`function f(a: Promise<string)`, `call signature: column 29: expected "," or ">" but found ")"`},
	{`function f(a: Map<string, number,>)`, `call signature: column 34: expected type but found ">"`},
	{`function f(a: Promise<string>>)`, `call signature: column 30: expected "," or ")" but found ">"`},
	{`function f(a: NS.)`, `call signature: column 18: expected name after "." but found ")"`},
	{`function f(a: T["key"])`, `call signature: column 16: indexed access types are not supported`},
	{`function f(a: (string`, `call signature: column 22: expected ")" but found end of input`},
	{`function f(a: (string | number]`, `call signature: column 31: expected ")" but found "]"`},
	{`function f(cb: (({ x }: P) => void))`, `call signature: column 18: destructured parameters are not supported; give the parameter a name`},
	{`function f(a: -x)`, `call signature: column 16: expected number after "-" but found "x"`},
	{`function f(a: typeof x)`, `call signature: column 15: "typeof" type queries are not supported`},
	{`function f(a: keyof T)`, `call signature: column 15: "keyof" type operators are not supported`},
	{`function f(a: unique symbol)`, `call signature: column 15: "unique" type operators are not supported`},
	{`function f(a: readonly string)`, `call signature: column 15: "readonly" is only allowed on array and tuple types`},
	{`function f(a: readonly readonly string[])`, `call signature: column 15: "readonly" is only allowed on array and tuple types`},
	{`function f(a: A extends B ? C : D)`, `call signature: column 17: conditional types are not supported`},
	{"function f(a: `x${string}`)", `call signature: column 15: template literal types are not supported`},
	{`function f(a: new () => T)`, `call signature: column 15: constructor types are not supported`},
	{`function f(a: <T>(x: T) => T)`, `call signature: column 15: generic function types are not supported`},
	{`function f(a: A | () => void)`, `call signature: column 19: a function type must be parenthesized when used in a union, intersection or array type`},
	{`function f(a: () => )`, `call signature: column 21: expected type but found ")"`},
	{`function f(a: (x: string))`, `call signature: column 26: expected "=>" but found ")"`},
	{`function f(a: string[)`, `call signature: column 21: indexed access types are not supported`},

	// Tuples.
	{`function f(a: [string, number)`, `call signature: column 30: expected "," or "]" but found ")"`},
	{`function f(a: [a: string, number])`, `call signature: column 27: tuple elements must either all have names or all not have names`},
	{`function f(a: [string?, number])`, `call signature: column 25: a required element cannot follow an optional element`},
	{`function f(a: [...string[], number?])`, `call signature: column 29: an optional element cannot follow a rest element`},
	{`function f(a: [...A, ...B])`, `call signature: column 22: a tuple can have only one rest element`},
	{`function f(a: [...a?: string[]])`, `call signature: column 20: a rest element cannot be optional`},
	{`function f(a: [,])`, `call signature: column 16: expected type but found ","`},

	// Object types.
	{`function f(a: { x: number )`, `call signature: column 27: expected ";" or "}" but found ")"`},
	{`function f(a: { x: number`, `call signature: column 26: expected ";" or "}" but found end of input`},
	{`function f(a: { x: number;`, `call signature: column 27: expected property name or "}" but found end of input`},
	{`function f(a: { x number })`, `call signature: column 19: expected ":" but found "number"`},
	{`function f(a: { x })`, `call signature: column 19: expected ":" but found "}"`},
	{`function f(a: { x: number y: string })`, `call signature: column 27: expected ";" or "}" but found "y"`},
	{`function f(a: { x: number; x?: string })`, `call signature: column 28: duplicate property "x"`},
	{`function f(a: { x: number; "x": string })`, `call signature: column 28: duplicate property "x"`},
	{`function f(a: { m(): void; m: string })`, `call signature: column 28: duplicate property "m"`},
	{`function f(a: { [k: string]: A; [j: string]: B })`, `call signature: column 33: duplicate index signature for key type string`},
	{`function f(a: { [k: string]?: A })`, `call signature: column 28: an index signature cannot be optional`},
	{`function f(a: { [K in Keys]: string })`, `call signature: column 17: mapped types are not supported`},
	{`function f(a: { [Symbol.iterator]: string })`, `call signature: column 17: computed property names are not supported`},
	{`function f(a: { (x: number): string })`, `call signature: column 17: call signatures are not supported in object types`},
	{`function f(a: { new (x: number): Foo })`, `call signature: column 17: construct signatures are not supported in object types`},
	{`function f(a: { get x(): number })`, `call signature: column 17: accessors are not supported in object types`},
	{`function f(a: { m<T>(x: T): T })`, `call signature: column 18: generic methods are not supported`},
	{`function f(a: { m(x: T) })`, `call signature: column 25: expected ":" and a return type but found "}"`},
	{`function f(a: { readonly m(): void })`, `call signature: column 17: "readonly" cannot be used on a method`},
	{`function f(a: { ...x })`, `call signature: column 17: expected property name or "}" but found "..."`},

	// Lexical errors.
	{`function f(a: "abc)`, `call signature: column 15: unterminated string literal`},
	{"function f(a: \"ab\nc\")", `call signature: line 1, column 15: unterminated string literal`},
	{"function f(a: `abc)", `call signature: column 15: unterminated template literal`},
	{`function f(a: string) /* never closed`, `call signature: column 23: unterminated comment`},
	{`function f(a: "\8")`, `call signature: column 16: octal escape sequences are not allowed`},
	{`function f(a: "\x4")`, `call signature: column 16: invalid hexadecimal escape sequence`},
	{`function f(a: "\u{110000}")`, `call signature: column 16: invalid Unicode escape sequence`},
	{`function f(a: "\uD800")`, `call signature: column 16: lone surrogate in Unicode escape sequence`},
	{`function f(a: 0x)`, `call signature: column 15: invalid number "0x"`},
	{`function f(a: 1__0)`, `call signature: column 15: invalid number "1__0"`},
	{`function f(a: 01)`, `call signature: column 15: invalid number "01"`},
	{`function f(a: 1.5n)`, `call signature: column 15: invalid number "1.5n"`},
	{`function f(a: strïng)`, `call signature: column 18: unexpected character 'ï' (U+00EF)`},
	{"function f(a: \x01)", `call signature: column 15: unexpected control character U+0001`},
	{"function f(a: \xff)", `call signature: column 15: invalid UTF-8`},
	{`function f(a: string) @`, `call signature: column 23: expected end of input but found "@"`},
	{`function f(a: "x") "unterminated`, `call signature: column 20: unterminated string literal`},
	{`function f(a, b) ` + strings.Repeat("x", 40), `call signature: column 18: expected end of input but found "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"...`},
	{`function f() "a long string literal that goes on"`, `call signature: column 14: expected end of input but found string "\"a long string literal that goes"...`},
}

func TestParseInvalid(t *testing.T) {
	for _, tc := range invalidCases {
		sig, err := Parse(tc.src)
		if err == nil {
			t.Errorf("Parse(%q) = %s, want error %q", tc.src, sig, tc.want)
			continue
		}
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Parse(%q) error %T is not a *SyntaxError", tc.src, err)
		}
		if got := err.Error(); !strings.HasPrefix(got, tc.want) {
			t.Errorf("Parse(%q) error\n got %s\nwant %s", tc.src, got, tc.want)
		}
		if sig != nil {
			t.Errorf("Parse(%q) returned a Signature with an error", tc.src)
		}
	}
}

func TestSyntaxErrorPosition(t *testing.T) {
	tests := []struct {
		src                  string
		offset, line, column int
		text                 string
	}{
		{`function f(a b)`, 13, 1, 14, "call signature: column 14: "},
		{"function f(\n  a b)", 16, 2, 5, "call signature: line 2, column 5: "},
		{"function f(\r\n  a b)", 17, 2, 5, "call signature: line 2, column 5: "},
		{"function f(\r  a\r\r b)", 18, 4, 2, "call signature: line 4, column 2: "},
		{"function f(a b)\n", 13, 1, 14, "call signature: line 1, column 14: "},
	}
	for _, tc := range tests {
		_, err := Parse(tc.src)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Fatalf("Parse(%q) = %v, want a *SyntaxError", tc.src, err)
		}
		if se.Offset != tc.offset || se.Line != tc.line || se.Column != tc.column {
			t.Errorf("Parse(%q): offset %d line %d column %d, want %d %d %d", tc.src, se.Offset, se.Line, se.Column, tc.offset, tc.line, tc.column)
		}
		if !strings.HasPrefix(se.Error(), tc.text) {
			t.Errorf("Parse(%q): error %q, want prefix %q", tc.src, se.Error(), tc.text)
		}
	}
	if got := (&SyntaxError{Offset: 4, Msg: "bad"}).Error(); got != "call signature: column 5: bad" {
		t.Errorf("zero-position SyntaxError: %q", got)
	}
}

func TestLimits(t *testing.T) {
	// Length.
	long := "function f(a: " + strings.Repeat(" ", maxSourceLen) + "string)"
	if _, err := Parse(long); err == nil || !strings.Contains(err.Error(), "the limit is 16384") {
		t.Errorf("over-long source: %v", err)
	}
	ok := "function f(a: string)" + strings.Repeat(" ", maxSourceLen-len("function f(a: string)"))
	if _, err := Parse(ok); err != nil {
		t.Errorf("source of exactly maxSourceLen bytes: %v", err)
	}

	// The canonical form must fit too: it adds spaces and escapes.
	compact := "function f(a:" + strings.Repeat("x|", (maxSourceLen-100)/2) + "x)"
	if _, err := Parse(compact); err == nil || !strings.Contains(err.Error(), "column 1: call signature is too long: its canonical form is") {
		t.Errorf("canonical form over the limit: %v", err)
	}

	// Depth: each construct nested just within the limit parses, one more
	// level fails, and absurd nesting fails quickly without panicking.
	nest := func(n int, open, close string) string {
		return "function f(a: " + strings.Repeat(open, n) + "string" + strings.Repeat(close, n) + ")"
	}
	kinds := []struct{ open, close string }{
		{"Array<", ">"},
		{"(", ")"},
		{"{ x: ", " }"},
		{"[", "]"},
		{"() => ", ""},
		{"", "[]"},
		{"A | (", ")"},
	}
	for _, k := range kinds {
		for _, n := range []int{maxDepth - 1, maxDepth, 5000} {
			src := nest(n, k.open, k.close)
			if len(src) > maxSourceLen {
				src = src[:maxSourceLen]
			}
			_, err := Parse(src)
			if n < maxDepth && err != nil {
				t.Errorf("depth %d of %q: %v", n, k.open+k.close, err)
			}
			if n >= maxDepth && (err == nil || !strings.Contains(err.Error(), "nested too deeply")) {
				t.Errorf("depth %d of %q: got %v, want a nesting error", n, k.open+k.close, err)
			}
		}
	}
	for _, k := range [][2]string{{"(readonly ", "[])"}, {"{ m(): ", " }"}, {"{ [k: string]: ", " }"}, {"[...", "[]]"}, {"Map<string, ", ">"}} {
		src := nest(maxDepth+1, k[0], k[1])
		if _, err := Parse(src); err == nil || !strings.Contains(err.Error(), "nested too deeply") {
			t.Errorf("depth %d of %q: got %v, want a nesting error", maxDepth+1, k[0]+k[1], err)
		}
		if _, err := Parse(nest(10, k[0], k[1])); err != nil {
			t.Errorf("depth 10 of %q: %v", k[0]+k[1], err)
		}
	}
	deepDefault := "function f(a = " + strings.Repeat("[", 100) + strings.Repeat("]", 100) + ")"
	if _, err := Parse(deepDefault); err == nil || !strings.Contains(err.Error(), "nested too deeply") {
		t.Errorf("deep default value: %v", err)
	}
}

func TestParseStructure(t *testing.T) {
	sig, err := Parse(`export declare async function find<T, U>(pattern: string, options?: { path?: string; readonly type?: "file" | "directory"; [key: string]: unknown; m(x: number): void }, ...rest: [a: string, b?: number][]): Promise<void>;`)
	if err != nil {
		t.Fatal(err)
	}
	str := &Type{Kind: KindName, Name: "string"}
	num := &Type{Kind: KindName, Name: "number"}
	want := &Signature{
		Name:       "find",
		Async:      true,
		TypeParams: []string{"T", "U"},
		Params: []Param{
			{Name: "pattern", Type: str},
			{Name: "options", Optional: true, Type: &Type{Kind: KindObject, Fields: []Field{
				{Name: "path", Optional: true, Type: str},
				{Name: "type", Optional: true, Readonly: true, Type: &Type{Kind: KindUnion, Args: []*Type{
					{Kind: KindLiteral, Literal: `"file"`},
					{Kind: KindLiteral, Literal: `"directory"`},
				}}},
				{Name: "key", Index: true, KeyType: str, Type: &Type{Kind: KindName, Name: "unknown"}},
				{Name: "m", Method: true, Type: &Type{Kind: KindFunction,
					Params:  []Param{{Name: "x", Type: num}},
					Returns: &Type{Kind: KindName, Name: "void"}}},
			}}},
			{Name: "rest", Rest: true, Type: &Type{Kind: KindArray, Elem: &Type{
				Kind:   KindTuple,
				Args:   []*Type{str, num},
				Params: []Param{{Name: "a", Type: str}, {Name: "b", Optional: true, Type: num}},
			}}},
		},
		Returns: &Type{Kind: KindGeneric, Name: "Promise", Args: []*Type{{Kind: KindName, Name: "void"}}},
	}
	if !reflect.DeepEqual(sig, want) {
		t.Errorf("Parse structure:\n got %#v\nwant %#v", sig, want)
	}

	sig, err = Parse(`function f(a: readonly string[], b: 'x', c: -0x1n, d: { "a-b": string; 7: number }, e = 5, g?: (x) => void)`)
	if err != nil {
		t.Fatal(err)
	}
	p := sig.Params
	if !p[0].Type.Readonly || p[0].Type.Kind != KindArray || p[0].Type.Elem.Name != "string" {
		t.Errorf("readonly array: %#v", p[0].Type)
	}
	if p[1].Type.Kind != KindLiteral || p[1].Type.Literal != "'x'" || p[2].Type.Literal != "-0x1n" {
		t.Errorf("literals: %#v %#v", p[1].Type, p[2].Type)
	}
	if f := p[3].Type.Fields; f[0].Name != "a-b" || f[1].Name != "7" {
		t.Errorf("quoted and numeric names: %#v", f)
	}
	if !p[4].Optional || p[4].Type != nil {
		t.Errorf("default value: %#v", p[4])
	}
	if fn := p[5].Type; fn.Kind != KindFunction || fn.Params[0].Type != nil || fn.Returns.Name != "void" {
		t.Errorf("function type: %#v", fn)
	}
	if sig.Returns != nil || sig.ResultType() != nil {
		t.Errorf("no return annotation: Returns %v", sig.Returns)
	}
}

// typeOf parses src as a return type annotation.
func typeOf(t *testing.T, src string) *Type {
	t.Helper()
	sig, err := Parse("function f(): " + src)
	if err != nil {
		t.Fatalf("parse type %q: %v", src, err)
	}
	return sig.Returns
}

func TestResultType(t *testing.T) {
	tests := []struct{ returns, want string }{
		{"Promise<string>", "string"},
		{"Promise<void>", "void"},
		{"Promise<Promise<number>>", "Promise<number>"},
		{"Promise<{ words: number; lines: number }>", "{ words: number; lines: number }"},
		{"Promise<Array<Record<string, unknown>>>", "Array<Record<string, unknown>>"},
		{"string", "string"},
		{"Promise", "Promise"},
		{"Promise<string> | null", "Promise<string> | null"},
		{"PromiseLike<string>", "PromiseLike<string>"},
		{"NS.Promise<string>", "NS.Promise<string>"},
		{"Promise<string>[]", "Promise<string>[]"},
	}
	for _, tc := range tests {
		sig, err := Parse("async function f(): " + tc.returns)
		if err != nil {
			t.Fatal(err)
		}
		if got := sig.ResultType().String(); got != tc.want {
			t.Errorf("ResultType of %q = %q, want %q", tc.returns, got, tc.want)
		}
	}
	var nilSig *Signature
	if nilSig.ResultType() != nil || nilSig.String() != "" {
		t.Error("nil Signature")
	}
}

func TestPredicates(t *testing.T) {
	tests := []struct {
		typ                          string
		isVoid, isString, objectLike bool
	}{
		{"void", true, false, false},
		{"undefined", true, false, false},
		{"void | undefined", true, false, false},
		{"null", false, false, false},
		{"never", false, false, false},
		{"Promise<void>", false, false, false},
		{"string", false, true, false},
		{"(string)", false, true, false},
		{"String", false, false, false},
		{`"string"`, false, false, false},
		{"string | null", false, false, false},
		{"string[]", false, false, false},
		{"{ a: number }", false, false, true},
		{"{}", false, false, true},
		{"object", false, false, true},
		{"Object", false, false, false},
		{"Record<string, unknown>", false, false, true},
		{"Partial<{ a: number }>", false, false, true},
		{"Readonly<Record<string, string>>", false, false, true},
		{"Readonly<string[]>", false, false, false},
		{"Partial<Opts>", false, false, false},
		{"Pick<{ a: number; b: string }, \"a\">", false, false, true},
		{"Omit<object, \"a\">", false, false, true},
		{"{ a: number } & { b: string }", false, false, true},
		{"{ a: number } & Opts", false, false, false},
		{"{ a: number } | { b: string }", false, false, true},
		{"{ a: number } | undefined", false, false, true},
		{"{ a: number } | null | undefined", false, false, true},
		{"null | undefined", false, false, false},
		{"{ a: number } | string", false, false, false},
		{"Opts", false, false, false},
		{"Map<string, number>", false, false, false},
		{"[string]", false, false, false},
		{"() => void", false, false, false},
		{"any", false, false, false},
		{"unknown", false, false, false},
	}
	for _, tc := range tests {
		typ := typeOf(t, tc.typ)
		if got := typ.IsVoid(); got != tc.isVoid {
			t.Errorf("IsVoid(%s) = %v", tc.typ, got)
		}
		if got := typ.IsString(); got != tc.isString {
			t.Errorf("IsString(%s) = %v", tc.typ, got)
		}
		if got := typ.IsObjectLike(); got != tc.objectLike {
			t.Errorf("IsObjectLike(%s) = %v", tc.typ, got)
		}
	}
	var nilType *Type
	if nilType.IsVoid() || nilType.IsString() || nilType.IsObjectLike() || nilType.String() != "" {
		t.Error("nil Type")
	}
	sig, _ := Parse("async function f(): Promise<void>")
	if !sig.ResultType().IsVoid() {
		t.Error("Promise<void> result is not void")
	}
}

func TestTypeString(t *testing.T) {
	str := &Type{Kind: KindName, Name: "string"}
	fn := &Type{Kind: KindFunction, Params: []Param{}, Returns: &Type{Kind: KindName, Name: "void"}}
	union := &Type{Kind: KindUnion, Args: []*Type{str, {Kind: KindName, Name: "number"}}}
	tests := []struct {
		typ  *Type
		want string
	}{
		{&Type{Kind: KindArray, Elem: union}, "(string | number)[]"},
		{&Type{Kind: KindArray, Elem: fn}, "(() => void)[]"},
		{&Type{Kind: KindUnion, Args: []*Type{fn, str}}, "(() => void) | string"},
		{&Type{Kind: KindIntersection, Args: []*Type{union, str}}, "(string | number) & string"},
		{&Type{Kind: KindArray, Elem: &Type{Kind: KindArray, Elem: str, Readonly: true}}, "(readonly string[])[]"},
		{&Type{Kind: KindUnion, Args: []*Type{&Type{Kind: KindArray, Elem: str, Readonly: true}, str}}, "readonly string[] | string"},
		{&Type{Kind: KindUnion, Args: []*Type{fn}}, "() => void"},
		{&Type{Kind: KindArray, Elem: &Type{Kind: KindUnion, Args: []*Type{fn}}}, "(() => void)[]"},
		{&Type{Kind: KindTuple, Args: []*Type{str, union}}, "[string, string | number]"},
		{&Type{Kind: KindObject, Fields: []Field{{Name: "a b", Type: str}, {Name: "", Type: str}, {Name: "x\n\"\u2028", Type: str}}}, `{ "a b": string; "": string; "x\n\"\u2028": string }`},
		{&Type{Kind: KindGeneric, Name: "Promise", Args: []*Type{fn}}, "Promise<() => void>"},
		{&Type{Kind: KindFunction, Params: []Param{{Name: "cb", Type: fn}}, Returns: fn}, "(cb: () => void) => () => void"},
	}
	for _, tc := range tests {
		if got := tc.typ.String(); got != tc.want {
			t.Errorf("String() = %q, want %q", got, tc.want)
		}
	}
	for k, want := range map[Kind]string{KindName: "name", KindFunction: "function", KindUnion: "union", Kind(99): "Kind(99)", Kind(-1): "Kind(-1)"} {
		if got := k.String(); got != want {
			t.Errorf("Kind(%d).String() = %q, want %q", int(k), got, want)
		}
	}
}

func TestIsIdentifier(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"read", true},
		{"planning_read_plan", true},
		{"_", true},
		{"$", true},
		{"$x1", true},
		{"A9", true},
		{"async", true},
		{"type", true},
		{"of", true},
		{"undefined", true},
		{"eval", true},
		{"arguments", true},
		{"", false},
		{"1a", false},
		{"9", false},
		{"a-b", false},
		{"a b", false},
		{"a.b", false},
		{"café", false},
		{"class", false},
		{"function", false},
		{"await", false},
		{"yield", false},
		{"let", false},
		{"static", false},
		{"interface", false},
		{"enum", false},
		{"null", false},
		{"true", false},
		{"this", false},
		{"typeof", false},
		{"void", false},
	}
	for _, tc := range tests {
		if got := isIdentifier(tc.name); got != tc.want {
			t.Errorf("isIdentifier(%q) = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestReserved(t *testing.T) {
	reserved := []string{
		"Object", "Array", "String", "Number", "Boolean", "Symbol", "BigInt",
		"Math", "JSON", "Date", "RegExp", "Error", "TypeError", "RangeError",
		"SyntaxError", "ReferenceError", "EvalError", "URIError",
		"AggregateError", "Promise", "Map", "Set", "WeakMap", "WeakSet",
		"WeakRef", "Proxy", "Reflect", "Function", "eval", "globalThis",
		"undefined", "NaN", "Infinity", "isNaN", "isFinite", "parseInt",
		"parseFloat", "encodeURI", "encodeURIComponent", "decodeURI",
		"decodeURIComponent", "escape", "unescape", "ArrayBuffer", "DataView",
		"Uint8Array", "Float64Array", "BigInt64Array", "Intl", "Atomics",
		"SharedArrayBuffer", "FinalizationRegistry", "Iterator", "console",
		"setTimeout", "setInterval", "clearTimeout", "clearInterval",
		"setImmediate", "clearImmediate", "queueMicrotask", "callTool",
		"structuredClone", "TextEncoder", "TextDecoder", "URL",
		"URLSearchParams", "atob", "btoa", "crypto", "performance", "require",
		"module", "exports", "process", "Buffer", "global", "self", "window",
		"fetch", "toString", "constructor", "__proto__",
	}
	for _, name := range reserved {
		if !Reserved(name) {
			t.Errorf("Reserved(%q) = false", name)
		}
	}
	for _, name := range []string{"read", "write", "bash", "grep", "find", "ls", "edit", "object", "json", "promise", "console_log", "Console", "fetchUrl", "planning_setup_plan", ""} {
		if Reserved(name) {
			t.Errorf("Reserved(%q) = true", name)
		}
	}
	names := ReservedNames()
	if !slices.IsSorted(names) {
		t.Error("ReservedNames is not sorted")
	}
	if len(names) != len(slices.Compact(slices.Clone(names))) {
		t.Error("ReservedNames has duplicates")
	}
	for _, n := range names {
		if !Reserved(n) || !isIdentifier(n) {
			t.Errorf("ReservedNames entry %q: Reserved %v, isIdentifier %v", n, Reserved(n), isIdentifier(n))
		}
	}
	for _, n := range reserved {
		if _, found := slices.BinarySearch(names, n); !found {
			t.Errorf("ReservedNames lacks %q", n)
		}
	}
	names[0] = "mutated"
	if ReservedNames()[0] == "mutated" {
		t.Error("ReservedNames shares its slice")
	}
}

func TestValidNumber(t *testing.T) {
	for _, s := range []string{"0", "1", "10", "1.5", ".5", "5.", "1e3", "1E+3", "1e-3", "1.5e3", "0x1F", "0XAB", "0o17", "0b101", "1_000", "0x1_F", "10n", "0n", "0x1Fn", "0.5", "1_0.0_1e1_0"} {
		if !validNumber(s) {
			t.Errorf("validNumber(%q) = false", s)
		}
	}
	for _, s := range []string{"", ".", "01", "00", "0_1", "1_", "1__0", "_1", "0x", "0xg", "0o8", "0b2", "1.5n", "1e3n", "1e", "1e+", "1.2.3", "1a", "0x_1", "1._5", "1_.5", "n"} {
		if validNumber(s) {
			t.Errorf("validNumber(%q) = true", s)
		}
	}
}

// FuzzParse checks that Parse never panics and that every accepted source
// round-trips through String to an equal Signature.
func FuzzParse(f *testing.F) {
	for _, tc := range validCases {
		f.Add(tc.src)
	}
	for _, tc := range invalidCases {
		f.Add(tc.src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		sig, err := Parse(src)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Parse(%q) error %T is not a *SyntaxError", src, err)
			}
			if se.Offset < 0 || se.Offset > len(src) || se.Msg == "" {
				t.Fatalf("Parse(%q): bad error %#v", src, se)
			}
			return
		}
		if sig == nil || !isIdentifier(sig.Name) {
			t.Fatalf("Parse(%q) = %#v without error", src, sig)
		}
		checkRoundTrip(t, src, sig)
	})
}

func BenchmarkParse(b *testing.B) {
	src := `async function find(pattern: string, options?: { path?: string; type?: "file" | "directory"; maxDepth?: number; limit?: number }): Promise<string>`
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(src); err != nil {
			b.Fatal(err)
		}
	}
}

// TestParseShared checks that ParseShared gives Parse's result, the same
// pointer for the same text, and does not keep errors.
func TestParseShared(t *testing.T) {
	const text = "async function shared_probe(path: string, n?: number): Promise<string>"
	a, err := ParseShared(text)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, want) {
		t.Errorf("ParseShared = %+v, want Parse's %+v", a, want)
	}
	if b, _ := ParseShared(text); b != a {
		t.Error("ParseShared parsed the same text twice")
	}
	if _, err := ParseShared("function ("); err == nil {
		t.Error("ParseShared accepted a malformed signature")
	}
	shared.mu.Lock()
	_, kept := shared.sigs["function ("]
	shared.mu.Unlock()
	if kept {
		t.Error("ParseShared kept a failed parse")
	}
}
