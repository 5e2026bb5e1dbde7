package transform

import (
	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"
	"github.com/dop251/goja/token"

	"github.com/codeexec/codeexec/internal/jsglobals"
)

// Stack reads.
//
// goja writes an error's stack in positions of the code it runs (the
// esbuild output inside the wrapper), with its program counters, when the
// stack is first read. The runtime maps that text to the snippet's
// positions when it prints an error or reports one, but a snippet that
// reads e.stack itself gets goja's text, and goja has no hook for that
// read. So the compiled snippet asks for the mapping where it reads a
// stack: the object of every `x.stack` and `x["stack"]` read is wrapped
// in a call of StackReader, a native function of the runtime that
// rewrites the stack of an error in place and returns its argument, as in
// `StackReader(x).stack`. The wrapper keeps StackReader in a constant of
// its own, which the calls use: a global's lookup would cost more than the
// call (about 30ns a read). A snippet without a stack read has neither
// the calls nor the constant, and the runtime does not define StackReader
// for it.
//
// Left alone: an assignment to x.stack (nothing is read), `super.stack`,
// a read inside an optional chain whose `?.` comes before the object (as
// in `a?.b.stack`: wrapping would put the call inside the chain's
// short-circuit), and reads that are not member expressions (a
// destructuring `{ stack } = e`, Reflect.get). Those read goja's text
// unless an earlier wrapped read rewrote it.
const (
	// StackReader is the global function a stack read's object is passed
	// through, one of the engine's globals that package jsglobals lists.
	StackReader = jsglobals.StackOf
	// stackProperty is the property whose reads are wrapped.
	stackProperty = "stack"
	// stackReader is the wrapper's constant that holds StackReader.
	stackReader = "__codeexecReadStack"
)

// stackReaderDecl is the wrapper's declaration of stackReader, positioned
// at at.
func stackReaderDecl(at file.Idx) ast.Statement {
	return &ast.LexicalDeclaration{Idx: at, Token: token.CONST, List: []*ast.Binding{{
		Target:      &ast.Identifier{Name: stackReader, Idx: at},
		Initializer: &ast.Identifier{Name: StackReader, Idx: at},
	}}}
}

// readStack returns the object of a stack read, obj, passed through
// StackReader: the call in place of obj, or, for `obj?.stack`, obj's
// Optional with the call inside it. An object that cannot be wrapped is
// returned as it is.
func (w *walker) readStack(obj ast.Expression) ast.Expression {
	if _, ok := obj.(*ast.SuperExpression); ok {
		return obj
	}
	target := obj
	if opt, ok := obj.(*ast.Optional); ok {
		target = opt.Expression
	}
	// The spine of member accesses and calls that target begins with: an
	// Optional on it short-circuits to the end of the chain, which would
	// leave the call half made.
	for e := target; e != nil; {
		switch n := e.(type) {
		case *ast.Optional:
			return obj
		case *ast.DotExpression:
			e = n.Left
		case *ast.PrivateDotExpression:
			e = n.Left
		case *ast.BracketExpression:
			e = n.Left
		case *ast.CallExpression:
			e = n.Callee
		default:
			e = nil
		}
	}
	at := target.Idx0()
	call := &ast.CallExpression{
		Callee:           &ast.Identifier{Name: stackReader, Idx: at},
		LeftParenthesis:  at,
		ArgumentList:     []ast.Expression{target},
		RightParenthesis: target.Idx1(),
	}
	w.readsStack = true
	if opt, ok := obj.(*ast.Optional); ok {
		opt.Expression = call
		return opt
	}
	return call
}

// walkTarget walks the target of an assignment, which writes a member
// rather than reading it: its stack is not wrapped.
func (w *walker) walkTarget(target ast.Expression) {
	switch t := target.(type) {
	case *ast.DotExpression:
		w.walk(t.Left)
		w.member(t.Left, t.Identifier.Name)
	case *ast.BracketExpression:
		w.walk(t.Left)
		w.walk(t.Member)
	default:
		w.walk(t)
	}
}
