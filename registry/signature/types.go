package signature

import (
	"fmt"
	"strings"
)

// Signature is a parsed TypeScript function declaration.
type Signature struct {
	Name       string   // function name: the JS global a snippet calls
	Async      bool     // declared with `async`
	TypeParams []string // names of generic type parameters (constraints and defaults are dropped)
	Params     []Param  // parameters in order; never nil after Parse
	Returns    *Type    // declared return type; nil when there is no return annotation
}

// Param is a function parameter, or an element of a tuple type.
type Param struct {
	Name     string // parameter name; empty for an unlabeled tuple element
	Optional bool   // `name?: T`, or a parameter with a default value `name = ...`
	Rest     bool   // `...name: T[]`
	Type     *Type  // nil when unannotated
}

// Kind classifies a Type.
type Kind int

// The kinds of Type.
const (
	KindName         Kind = iota // identifier, keyword type or dotted name: string, void, null, Foo.Bar
	KindLiteral                  // string, number, bigint, boolean or no-substitution template literal type
	KindObject                   // object literal type { a: T; b?: U }
	KindArray                    // T[] or readonly T[]
	KindTuple                    // [A, B] or [a: A, b?: B]
	KindUnion                    // A | B
	KindIntersection             // A & B
	KindGeneric                  // Name<Args...>: Promise<T>, Record<K, V>, Array<T>
	KindFunction                 // (a: T) => U, or a method signature
)

var kindNames = [...]string{"name", "literal", "object", "array", "tuple", "union", "intersection", "generic", "function"}

// String returns the kind's lower-case name, such as "union".
func (k Kind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Type is a parsed TypeScript type. Which fields are set depends on Kind.
// Parenthesized types are represented by their content, and nested unions
// and intersections of the same kind are flattened.
type Type struct {
	Kind     Kind
	Name     string  // KindName, KindGeneric: the (possibly dotted) name
	Literal  string  // KindLiteral: the literal's source text, e.g. `"file"`, `'x'`, `42`, `-1`, `true`; a string or template literal spanning lines is rewritten to one line
	Elem     *Type   // KindArray: the element type
	Args     []*Type // KindGeneric: type arguments; KindUnion, KindIntersection: members; KindTuple: element types
	Fields   []Field // KindObject: members in source order
	Params   []Param // KindFunction: parameters; KindTuple: elements with labels and optional/rest markers
	Returns  *Type   // KindFunction: the return type
	Readonly bool    // KindArray, KindTuple: declared `readonly T[]` or `readonly [...]`
}

// Field is a member of an object literal type.
type Field struct {
	Name     string // property name (quoted names unquoted); for an index signature, the key name
	Optional bool   // `name?: T` or `name?(...): U`
	Readonly bool   // `readonly name: T` or `readonly [key: K]: T`
	Index    bool   // `[key: string]: T` index signature; KeyType holds the key type
	Method   bool   // declared as a method `m(a: T): U`; Type is then a KindFunction type
	KeyType  *Type  // index signatures: the key type
	Type     *Type  // the member's type; for methods a KindFunction type
}

// String returns the canonical single-line TypeScript text of the
// declaration, for example
// `async function read(path: string, options?: { offset?: number }): Promise<string>`.
// It omits `export`, `declare`, comments, default values and type parameter
// constraints. For a Signature returned by Parse, Parse accepts the result
// and yields an equal Signature.
func (s *Signature) String() string {
	if s == nil {
		return ""
	}
	var b strings.Builder
	if s.Async {
		b.WriteString("async ")
	}
	b.WriteString("function ")
	b.WriteString(s.Name)
	if len(s.TypeParams) > 0 {
		b.WriteByte('<')
		b.WriteString(strings.Join(s.TypeParams, ", "))
		b.WriteByte('>')
	}
	writeParams(&b, s.Params)
	if s.Returns != nil {
		b.WriteString(": ")
		writeType(&b, s.Returns, precFunction)
	}
	return b.String()
}

// ResultType returns the declared return type with one Promise<...> layer
// unwrapped (`Promise<string>` gives `string`), the return type itself when
// it is not a Promise, or nil when there is no return annotation.
func (s *Signature) ResultType() *Type {
	if s == nil || s.Returns == nil {
		return nil
	}
	if r := s.Returns; r.Kind == KindGeneric && r.Name == "Promise" && len(r.Args) == 1 {
		return r.Args[0]
	}
	return s.Returns
}

// Type precedence, loosest first; a type printed where a tighter one is
// required is parenthesized.
const (
	precFunction     = iota // (a) => T
	precUnion               // A | B
	precIntersection        // A & B
	precOperator            // readonly T[]
	precPrimary             // names, literals, generics, objects, tuples, T[]
)

// prec returns the precedence of t's outermost construct.
func prec(t *Type) int {
	switch t.Kind {
	case KindFunction:
		return precFunction
	case KindUnion, KindIntersection:
		if len(t.Args) == 1 {
			return prec(t.Args[0])
		}
		if t.Kind == KindUnion {
			return precUnion
		}
		return precIntersection
	case KindArray, KindTuple:
		if t.Readonly {
			return precOperator
		}
	}
	return precPrimary
}

// String returns the canonical TypeScript text of t, parenthesizing where
// precedence requires it (`(A | B)[]`, `(() => void) | null`). Parse accepts
// it in any type position. A nil *Type gives "".
func (t *Type) String() string {
	var b strings.Builder
	writeType(&b, t, precFunction)
	return b.String()
}

// writeType writes t, parenthesized when its precedence is below min.
func writeType(b *strings.Builder, t *Type, min int) {
	if t == nil {
		return
	}
	if prec(t) < min {
		b.WriteByte('(')
		writeType(b, t, precFunction)
		b.WriteByte(')')
		return
	}
	switch t.Kind {
	case KindName:
		b.WriteString(t.Name)
	case KindLiteral:
		b.WriteString(t.Literal)
	case KindGeneric:
		b.WriteString(t.Name)
		b.WriteByte('<')
		for i, a := range t.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			writeType(b, a, precFunction)
		}
		b.WriteByte('>')
	case KindArray:
		if t.Readonly {
			b.WriteString("readonly ")
		}
		writeType(b, t.Elem, precPrimary)
		b.WriteString("[]")
	case KindTuple:
		if t.Readonly {
			b.WriteString("readonly ")
		}
		writeTuple(b, t)
	case KindUnion, KindIntersection:
		sep, min := " | ", precIntersection
		if t.Kind == KindIntersection {
			sep, min = " & ", precOperator
		}
		if len(t.Args) == 1 {
			min = precFunction
		}
		for i, a := range t.Args {
			if i > 0 {
				b.WriteString(sep)
			}
			writeType(b, a, min)
		}
	case KindObject:
		if len(t.Fields) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteString("{ ")
		for i, f := range t.Fields {
			if i > 0 {
				b.WriteString("; ")
			}
			writeField(b, f)
		}
		b.WriteString(" }")
	case KindFunction:
		writeParams(b, t.Params)
		b.WriteString(" => ")
		writeType(b, t.Returns, precFunction)
	}
}

// writeTuple writes the bracketed elements of a tuple type. Elements are
// taken from Params when it matches Args, else from Args alone.
func writeTuple(b *strings.Builder, t *Type) {
	elems := t.Params
	if len(elems) != len(t.Args) {
		elems = make([]Param, len(t.Args))
		for i, a := range t.Args {
			elems[i] = Param{Type: a}
		}
	}
	b.WriteByte('[')
	for i, e := range elems {
		if i > 0 {
			b.WriteString(", ")
		}
		if e.Rest {
			b.WriteString("...")
		}
		if e.Name != "" {
			b.WriteString(e.Name)
			if e.Optional && !e.Rest {
				b.WriteByte('?')
			}
			b.WriteString(": ")
			writeType(b, e.Type, precFunction)
			continue
		}
		if e.Optional && !e.Rest {
			writeType(b, e.Type, precOperator)
			b.WriteByte('?')
		} else {
			writeType(b, e.Type, precFunction)
		}
	}
	b.WriteByte(']')
}

// writeParams writes a parenthesized parameter list.
func writeParams(b *strings.Builder, params []Param) {
	b.WriteByte('(')
	for i, p := range params {
		if i > 0 {
			b.WriteString(", ")
		}
		if p.Rest {
			b.WriteString("...")
		}
		b.WriteString(p.Name)
		if p.Optional && !p.Rest {
			b.WriteByte('?')
		}
		if p.Type != nil {
			b.WriteString(": ")
			writeType(b, p.Type, precFunction)
		}
	}
	b.WriteByte(')')
}

// writeField writes one member of an object type.
func writeField(b *strings.Builder, f Field) {
	if f.Readonly {
		b.WriteString("readonly ")
	}
	if f.Index {
		b.WriteByte('[')
		b.WriteString(f.Name)
		b.WriteString(": ")
		writeType(b, f.KeyType, precFunction)
		b.WriteString("]: ")
		writeType(b, f.Type, precFunction)
		return
	}
	// A method named new must be quoted to differ from a construct signature.
	if isIdentName(f.Name) && !(f.Name == "new" && f.Method && !f.Optional) {
		b.WriteString(f.Name)
	} else {
		b.WriteString(quoteString(f.Name))
	}
	if f.Optional {
		b.WriteByte('?')
	}
	if f.Method && f.Type != nil && f.Type.Kind == KindFunction {
		writeParams(b, f.Type.Params)
		if f.Type.Returns != nil {
			b.WriteString(": ")
			writeType(b, f.Type.Returns, precFunction)
		}
		return
	}
	if f.Type != nil {
		b.WriteString(": ")
		writeType(b, f.Type, precFunction)
	}
}

// IsVoid reports whether t is `void` or `undefined`, or a union of those
// only. Apply it to ResultType, which unwraps Promise<void> to void.
func (t *Type) IsVoid() bool {
	if t == nil {
		return false
	}
	switch t.Kind {
	case KindName:
		return t.Name == "void" || t.Name == "undefined"
	case KindUnion:
		for _, a := range t.Args {
			if !a.IsVoid() {
				return false
			}
		}
		return len(t.Args) > 0
	}
	return false
}

// IsString reports whether t is exactly `string`.
func (t *Type) IsString() bool {
	return t != nil && t.Kind == KindName && t.Name == "string"
}

// IsObjectLike reports whether a plain JavaScript object fits t, which
// decides whether an object argument is an options bag. Object-like are:
// object literal types, `object`, `Record<...>`, `Partial`, `Required` and
// `Readonly` of an object-like type, `Pick` and `Omit` of one, intersections
// whose members are all object-like, and unions whose members are all
// object-like apart from `null`, `undefined` and `void` (at least one must
// be). A nil Type is not object-like.
func (t *Type) IsObjectLike() bool {
	if t == nil {
		return false
	}
	switch t.Kind {
	case KindObject:
		return true
	case KindName:
		return t.Name == "object"
	case KindGeneric:
		switch t.Name {
		case "Record":
			return true
		case "Partial", "Required", "Readonly":
			return len(t.Args) == 1 && t.Args[0].IsObjectLike()
		case "Pick", "Omit":
			return len(t.Args) == 2 && t.Args[0].IsObjectLike()
		}
	case KindIntersection:
		for _, a := range t.Args {
			if !a.IsObjectLike() {
				return false
			}
		}
		return len(t.Args) > 0
	case KindUnion:
		found := false
		for _, a := range t.Args {
			switch {
			case a.IsObjectLike():
				found = true
			case a.IsVoid() || a.Kind == KindName && a.Name == "null":
			default:
				return false
			}
		}
		return found
	}
	return false
}
