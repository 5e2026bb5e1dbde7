package transform

import (
	"github.com/dop251/goja/ast"
)

// The walk over the syntax tree.
//
// Once per compile, one walk over the code goja runs inside the wrapper
// wraps the object of every stack read in StackReader (see stack.go) and
// finds the program's Features (see features.go). It changes the parsed
// program, not its text: positions in the code goja runs stay those of the
// snippet, and a function's toString still prints the snippet's own text.
// Functions are left as they are: the call-stack limit is goja's own,
// which codeexec's patch makes a catchable RangeError (see package
// runtime), so a call costs what it costs in goja.

// instrument wraps the object of every stack read inside the wrapper of
// prog in StackReader (see stack.go), and reports whether it found one;
// and it returns the features the code in the wrapper may use (see
// features.go). A program without the wrapper (which cannot happen for a
// compiled snippet) is left as it is, with every feature.
func instrument(prog *ast.Program) (readsStack bool, features Features) {
	return instrumentSeeing(prog, nil)
}

// instrumentSeeing is instrument, calling seen with every name and
// literal text it matches against the features' hints (for a test).
func instrumentSeeing(prog *ast.Program, seen func(string)) (readsStack bool, features Features) {
	body := wrapperBody(prog)
	if body == nil {
		return false, AllFeatures
	}
	w := walker{seen: seen}
	w.walkStatements(body.List)
	if w.readsStack {
		body.List = insertAfterDirectives(body.List, stackReaderDecl(body.LeftBrace))
	}
	return w.readsStack, w.features
}

// walker wraps a program's stack reads and finds its features.
type walker struct {
	// readsStack is set once a stack read has been wrapped.
	readsStack bool
	// features are those found so far.
	features Features
	// seen, when set, is called with each name and literal text matched
	// against the hints.
	seen func(string)
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

// walk visits every node under n, wraps the stack reads it finds and
// matches names and literals against the features' hints. It is written
// out node by node rather than through reflection, which made it as slow
// as the parse; TestFeaturesSeeEveryName checks it against a reflective
// walk.
func (w *walker) walk(n ast.Node) {
	switch n := n.(type) {
	case nil:
	// Functions.
	case *ast.FunctionLiteral:
		if n == nil {
			return
		}
		if n.Generator {
			w.features |= Generators
		}
		if n.Name != nil {
			w.name(n.Name.Name)
		}
		w.walk(n.ParameterList)
		if n.Body != nil {
			w.walkStatements(n.Body.List)
		}
	case *ast.ArrowFunctionLiteral:
		w.walk(n.ParameterList)
		switch b := n.Body.(type) {
		case *ast.BlockStatement:
			w.walkStatements(b.List)
		case *ast.ExpressionBody:
			w.walk(b.Expression)
		}
	case *ast.ClassLiteral:
		if n == nil {
			return
		}
		if n.Name != nil {
			w.name(n.Name.Name)
		}
		w.walk(n.SuperClass)
		for _, el := range n.Body {
			w.walk(el)
		}
	case *ast.FieldDefinition:
		w.walk(n.Key)
		w.walk(n.Initializer)
	case *ast.MethodDefinition:
		w.walk(n.Key)
		w.walk(n.Body)
	case *ast.ClassStaticBlock:
		w.walk(n.Block)
	case *ast.ParameterList:
		if n == nil {
			return
		}
		w.walkBindings(n.List)
		w.walk(n.Rest)

	// Expressions.
	case *ast.YieldExpression:
		w.walk(n.Argument)
	case *ast.AwaitExpression:
		w.walk(n.Argument)
	case *ast.ArrayLiteral:
		w.walkExpressions(n.Value)
	case *ast.ArrayPattern:
		w.walkExpressions(n.Elements)
		w.walk(n.Rest)
	case *ast.AssignExpression:
		w.walkTarget(n.Left)
		w.walk(n.Right)
	case *ast.BinaryExpression:
		w.walk(n.Left)
		w.walk(n.Right)
	case *ast.BracketExpression:
		w.walk(n.Left)
		w.walk(n.Member)
		if s, ok := n.Member.(*ast.StringLiteral); ok && s.Value == stackProperty {
			n.Left = w.readStack(n.Left)
		}
	case *ast.CallExpression:
		w.walk(n.Callee)
		w.walkExpressions(n.ArgumentList)
	case *ast.ConditionalExpression:
		w.walk(n.Test)
		w.walk(n.Consequent)
		w.walk(n.Alternate)
	case *ast.DotExpression:
		w.walk(n.Left)
		w.member(n.Left, n.Identifier.Name)
		if n.Identifier.Name == stackProperty {
			n.Left = w.readStack(n.Left)
		}
	case *ast.PrivateDotExpression:
		w.walk(n.Left)
		w.name(n.Identifier.Name)
	case *ast.OptionalChain:
		w.walk(n.Expression)
	case *ast.Optional:
		w.walk(n.Expression)
	case *ast.NewExpression:
		w.walk(n.Callee)
		w.walkExpressions(n.ArgumentList)
	case *ast.ObjectLiteral:
		for _, p := range n.Value {
			w.walk(p)
		}
	case *ast.ObjectPattern:
		for _, p := range n.Properties {
			w.walk(p)
		}
		w.walk(n.Rest)
	case *ast.PropertyShort:
		w.name(n.Name.Name)
		w.walk(n.Initializer)
	case *ast.PropertyKeyed:
		w.walk(n.Key)
		w.walk(n.Value)
	case *ast.SpreadElement:
		w.walk(n.Expression)
	case *ast.SequenceExpression:
		w.walkExpressions(n.Sequence)
	case *ast.TemplateLiteral:
		w.walk(n.Tag)
		for _, el := range n.Elements {
			w.text(el.Literal)
		}
		w.walkExpressions(n.Expressions)
	case *ast.UnaryExpression:
		w.walk(n.Operand)
	case *ast.Binding:
		w.walk(n.Target)
		w.walk(n.Initializer)

	// Statements.
	case *ast.BlockStatement:
		if n != nil {
			w.walkStatements(n.List)
		}
	case *ast.CaseStatement:
		w.walk(n.Test)
		w.walkStatements(n.Consequent)
	case *ast.CatchStatement:
		if n == nil {
			return
		}
		w.walk(n.Parameter)
		w.walk(n.Body)
	case *ast.DoWhileStatement:
		w.walk(n.Test)
		w.walk(n.Body)
	case *ast.ExpressionStatement:
		w.walk(n.Expression)
	case *ast.ForInStatement:
		w.walk(n.Into)
		w.walk(n.Source)
		w.walk(n.Body)
	case *ast.ForOfStatement:
		w.walk(n.Into)
		w.walk(n.Source)
		w.walk(n.Body)
	case *ast.ForStatement:
		w.walk(n.Initializer)
		w.walk(n.Update)
		w.walk(n.Test)
		w.walk(n.Body)
	case *ast.IfStatement:
		w.walk(n.Test)
		w.walk(n.Consequent)
		w.walk(n.Alternate)
	case *ast.LabelledStatement:
		w.name(n.Label.Name)
		w.walk(n.Statement)
	case *ast.BranchStatement:
		if n.Label != nil {
			w.name(n.Label.Name)
		}
	case *ast.ReturnStatement:
		w.walk(n.Argument)
	case *ast.SwitchStatement:
		w.walk(n.Discriminant)
		for _, c := range n.Body {
			w.walk(c)
		}
	case *ast.ThrowStatement:
		w.walk(n.Argument)
	case *ast.TryStatement:
		w.walk(n.Body)
		w.walk(n.Catch)
		w.walk(n.Finally)
	case *ast.VariableStatement:
		w.walkBindings(n.List)
	case *ast.LexicalDeclaration:
		w.walkBindings(n.List)
	case *ast.WhileStatement:
		w.walk(n.Test)
		w.walk(n.Body)
	case *ast.WithStatement:
		w.walk(n.Object)
		w.walk(n.Body)
	case *ast.FunctionDeclaration:
		w.walk(n.Function)
	case *ast.ClassDeclaration:
		w.walk(n.Class)

	// The heads of for loops.
	case *ast.ForLoopInitializerExpression:
		w.walk(n.Expression)
	case *ast.ForLoopInitializerVarDeclList:
		w.walkBindings(n.List)
	case *ast.ForLoopInitializerLexicalDecl:
		w.walkBindings(n.LexicalDeclaration.List)
	case *ast.ForIntoVar:
		w.walk(n.Binding)
	case *ast.ForDeclaration:
		w.walk(n.Target)
	case *ast.ForIntoExpression:
		w.walk(n.Expression)

	// Names and literals, which hold no code but tell the features.
	case *ast.Identifier:
		w.name(n.Name)
	case *ast.PrivateIdentifier:
		w.name(n.Name)
	case *ast.StringLiteral:
		w.text(n.Literal)
	case *ast.RegExpLiteral:
		w.text(n.Literal)
	}
	// The rest hold no code, and no name or text of the features: this,
	// super, new.target, number, boolean and null literals, empty and
	// debugger statements.
}

func (w *walker) walkStatements(list []ast.Statement) {
	for _, st := range list {
		w.walk(st)
	}
}

func (w *walker) walkExpressions(list []ast.Expression) {
	for _, e := range list {
		w.walk(e)
	}
}

func (w *walker) walkBindings(list []*ast.Binding) {
	for _, b := range list {
		w.walk(b)
	}
}
