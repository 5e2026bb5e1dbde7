package transform

import (
	"strconv"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"
	"github.com/dop251/goja/token"

	"github.com/codeexec/codeexec/internal/jsglobals"
)

// Catchable stack overflows.
//
// goja raises a call stack deeper than its limit as an uncatchable Go
// panic: no try/catch of the snippet sees it. The compiled snippet
// therefore checks its own depth. Every function of the snippet (function
// declarations and expressions, arrows, methods, getters and setters,
// constructors, generators, async functions, class field initializers)
// starts by counting the call in a variable of the wrapper function, and
// every CheckEvery-th call asks the global DepthCheck, a native function
// of the runtime, to compare the real depth of goja's call stack with the
// limit; past it, DepthCheck throws a RangeError the snippet can catch
// like any other error. The count is never decremented, so the check
// stays right across await and yield, which leave a frame without
// returning from it: the depth is measured, not counted. goja's own limit,
// a little higher, stays as the backstop for recursion that never enters
// a snippet function (only natives).
//
// The check is inserted into the parsed program, not its text: positions
// in the code goja runs stay those of the snippet, and a function's
// toString still prints the snippet's own text.
const (
	// DepthCheck is the global function the instrumented code calls,
	// one of the engine's globals that package jsglobals lists.
	DepthCheck = jsglobals.CheckStack
	// CheckEvery is how many calls of snippet functions pass between two
	// checks; a power of two.
	CheckEvery = 16
	// callCount is the wrapper's variable that counts the calls.
	callCount = "__codeexecCalls"
)

// instrument inserts the depth check into every function inside the
// wrapper of prog, and declares the call counter in the wrapper. A program
// without the wrapper (which cannot happen for a compiled snippet) is left
// as it is.
func instrument(prog *ast.Program) {
	body := wrapperBody(prog)
	if body == nil {
		return
	}
	at := body.LeftBrace
	counter := &ast.LexicalDeclaration{Idx: at, Token: token.LET, List: []*ast.Binding{{
		Target:      &ast.Identifier{Name: callCount, Idx: at},
		Initializer: &ast.NumberLiteral{Idx: at, Literal: "0", Value: int64(0)},
	}}}
	walkStatements(body.List)
	body.List = insertAfterDirectives(body.List, counter)
}

// checkNodes are the nodes of one depth check, allocated together.
type checkNodes struct {
	or, and   ast.BinaryExpression
	increment ast.UnaryExpression
	counter   ast.Identifier
	mask      ast.NumberLiteral
	call      ast.CallExpression
	check     ast.Identifier
	statement ast.ExpressionStatement
}

// depthCheck is the expression `(++__codeexecCalls & 15) || __codeexecCheckStack()`
// (15 being CheckEvery-1),
// positioned at at (the start of the function body it begins), and the
// statement of it.
func depthCheck(at file.Idx) (ast.Expression, ast.Statement) {
	n := &checkNodes{}
	n.counter = ast.Identifier{Name: callCount, Idx: at}
	n.increment = ast.UnaryExpression{Operator: token.INCREMENT, Idx: at, Operand: &n.counter}
	n.mask = ast.NumberLiteral{Idx: at, Literal: strconv.Itoa(CheckEvery - 1), Value: int64(CheckEvery - 1)}
	n.and = ast.BinaryExpression{Operator: token.AND, Left: &n.increment, Right: &n.mask}
	n.check = ast.Identifier{Name: DepthCheck, Idx: at}
	n.call = ast.CallExpression{Callee: &n.check, LeftParenthesis: at, RightParenthesis: at}
	n.or = ast.BinaryExpression{Operator: token.LOGICAL_OR, Left: &n.and, Right: &n.call}
	n.statement = ast.ExpressionStatement{Expression: &n.or}
	return &n.or, &n.statement
}

// checkFirst makes the depth check the first statement of body, after its
// directive prologue.
func checkFirst(body *ast.BlockStatement) {
	_, st := depthCheck(body.LeftBrace)
	body.List = insertAfterDirectives(body.List, st)
}

// checkBefore returns the sequence expression of the depth check and e.
func checkBefore(e ast.Expression) ast.Expression {
	check, _ := depthCheck(e.Idx0())
	return &ast.SequenceExpression{Sequence: []ast.Expression{check, e}}
}

// insertAfterDirectives inserts st into list after its directive prologue
// (the leading string statements such as "use strict", which must stay
// first to take effect).
func insertAfterDirectives(list []ast.Statement, st ast.Statement) []ast.Statement {
	i := 0
	for ; i < len(list); i++ {
		es, ok := list[i].(*ast.ExpressionStatement)
		if !ok {
			break
		}
		if _, ok := es.Expression.(*ast.StringLiteral); !ok {
			break
		}
	}
	list = append(list, nil)
	copy(list[i+1:], list[i:])
	list[i] = st
	return list
}

// walk visits every node under n and instruments the functions (and
// class field initializers) it finds. It is written out node by node
// rather than through reflection, which made it as slow as the parse;
// TestInstrumentReachesEveryFunction checks it against a reflective walk.
func walk(n ast.Node) {
	switch n := n.(type) {
	case nil:
	// Functions.
	case *ast.FunctionLiteral:
		if n == nil {
			return
		}
		walk(n.ParameterList)
		if n.Body != nil {
			walkStatements(n.Body.List)
			checkFirst(n.Body)
		}
	case *ast.ArrowFunctionLiteral:
		walk(n.ParameterList)
		switch b := n.Body.(type) {
		case *ast.BlockStatement:
			walkStatements(b.List)
			checkFirst(b)
		case *ast.ExpressionBody:
			walk(b.Expression)
			b.Expression = checkBefore(b.Expression)
		}
	case *ast.ClassLiteral:
		if n == nil {
			return
		}
		walk(n.SuperClass)
		for _, el := range n.Body {
			walk(el)
		}
	case *ast.FieldDefinition:
		walk(n.Key)
		if n.Initializer != nil {
			walk(n.Initializer)
			n.Initializer = checkBefore(n.Initializer)
		}
	case *ast.MethodDefinition:
		walk(n.Key)
		walk(n.Body)
	case *ast.ClassStaticBlock:
		walk(n.Block)
	case *ast.ParameterList:
		if n == nil {
			return
		}
		walkBindings(n.List)
		walk(n.Rest)

	// Expressions.
	case *ast.YieldExpression:
		walk(n.Argument)
	case *ast.AwaitExpression:
		walk(n.Argument)
	case *ast.ArrayLiteral:
		walkExpressions(n.Value)
	case *ast.ArrayPattern:
		walkExpressions(n.Elements)
		walk(n.Rest)
	case *ast.AssignExpression:
		walk(n.Left)
		walk(n.Right)
	case *ast.BinaryExpression:
		walk(n.Left)
		walk(n.Right)
	case *ast.BracketExpression:
		walk(n.Left)
		walk(n.Member)
	case *ast.CallExpression:
		walk(n.Callee)
		walkExpressions(n.ArgumentList)
	case *ast.ConditionalExpression:
		walk(n.Test)
		walk(n.Consequent)
		walk(n.Alternate)
	case *ast.DotExpression:
		walk(n.Left)
	case *ast.PrivateDotExpression:
		walk(n.Left)
	case *ast.OptionalChain:
		walk(n.Expression)
	case *ast.Optional:
		walk(n.Expression)
	case *ast.NewExpression:
		walk(n.Callee)
		walkExpressions(n.ArgumentList)
	case *ast.ObjectLiteral:
		for _, p := range n.Value {
			walk(p)
		}
	case *ast.ObjectPattern:
		for _, p := range n.Properties {
			walk(p)
		}
		walk(n.Rest)
	case *ast.PropertyShort:
		walk(n.Initializer)
	case *ast.PropertyKeyed:
		walk(n.Key)
		walk(n.Value)
	case *ast.SpreadElement:
		walk(n.Expression)
	case *ast.SequenceExpression:
		walkExpressions(n.Sequence)
	case *ast.TemplateLiteral:
		walk(n.Tag)
		walkExpressions(n.Expressions)
	case *ast.UnaryExpression:
		walk(n.Operand)
	case *ast.Binding:
		walk(n.Target)
		walk(n.Initializer)

	// Statements.
	case *ast.BlockStatement:
		if n != nil {
			walkStatements(n.List)
		}
	case *ast.CaseStatement:
		walk(n.Test)
		walkStatements(n.Consequent)
	case *ast.CatchStatement:
		if n == nil {
			return
		}
		walk(n.Parameter)
		walk(n.Body)
	case *ast.DoWhileStatement:
		walk(n.Test)
		walk(n.Body)
	case *ast.ExpressionStatement:
		walk(n.Expression)
	case *ast.ForInStatement:
		walk(n.Into)
		walk(n.Source)
		walk(n.Body)
	case *ast.ForOfStatement:
		walk(n.Into)
		walk(n.Source)
		walk(n.Body)
	case *ast.ForStatement:
		walk(n.Initializer)
		walk(n.Update)
		walk(n.Test)
		walk(n.Body)
	case *ast.IfStatement:
		walk(n.Test)
		walk(n.Consequent)
		walk(n.Alternate)
	case *ast.LabelledStatement:
		walk(n.Statement)
	case *ast.ReturnStatement:
		walk(n.Argument)
	case *ast.SwitchStatement:
		walk(n.Discriminant)
		for _, c := range n.Body {
			walk(c)
		}
	case *ast.ThrowStatement:
		walk(n.Argument)
	case *ast.TryStatement:
		walk(n.Body)
		walk(n.Catch)
		walk(n.Finally)
	case *ast.VariableStatement:
		walkBindings(n.List)
	case *ast.LexicalDeclaration:
		walkBindings(n.List)
	case *ast.WhileStatement:
		walk(n.Test)
		walk(n.Body)
	case *ast.WithStatement:
		walk(n.Object)
		walk(n.Body)
	case *ast.FunctionDeclaration:
		walk(n.Function)
	case *ast.ClassDeclaration:
		walk(n.Class)

	// The heads of for loops.
	case *ast.ForLoopInitializerExpression:
		walk(n.Expression)
	case *ast.ForLoopInitializerVarDeclList:
		walkBindings(n.List)
	case *ast.ForLoopInitializerLexicalDecl:
		walkBindings(n.LexicalDeclaration.List)
	case *ast.ForIntoVar:
		walk(n.Binding)
	case *ast.ForDeclaration:
		walk(n.Target)
	case *ast.ForIntoExpression:
		walk(n.Expression)
	}
	// The rest hold no code: identifiers, literals, this, super,
	// new.target, empty, debugger, break and continue statements.
}

func walkStatements(list []ast.Statement) {
	for _, st := range list {
		walk(st)
	}
}

func walkExpressions(list []ast.Expression) {
	for _, e := range list {
		walk(e)
	}
}

func walkBindings(list []*ast.Binding) {
	for _, b := range list {
		walk(b)
	}
}
