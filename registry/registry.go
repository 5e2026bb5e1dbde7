package registry

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/codeexec/codeexec/registry/signature"
)

// ErrToolNotFound is matched (errors.Is) by the error CallTool returns for an
// unknown tool name.
var ErrToolNotFound = errors.New("tool not found")

// NotFoundError reports a call to a tool name that is not registered. Its text
// is exactly "Tool not found: NAME".
type NotFoundError struct{ Name string }

// Error returns "Tool not found: NAME".
func (e *NotFoundError) Error() string { return "Tool not found: " + e.Name }

// Is makes errors.Is(err, ErrToolNotFound) true.
func (e *NotFoundError) Is(target error) bool { return target == ErrToolNotFound }

// namePattern is what a tool name must match; validName checks it without
// a regular expression, whose {1,64} compiled at every process start (737
// allocations, 0.15 ms, paid by the CLI and again by its worker).
const namePattern = `^[a-z0-9_-]{1,64}$`

// namespacedPattern is what the name of a tool in a namespace must match:
// the names MCP servers give their tools.
const namespacedPattern = `^[A-Za-z0-9_.-]{1,128}$`

// validName reports whether name matches namePattern, or namespacedPattern
// when namespaced.
func validName(name string, namespaced bool) bool {
	limit := 64
	if namespaced {
		limit = 128
	}
	if len(name) < 1 || len(name) > limit {
		return false
	}
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '_', c == '-':
		case namespaced && (c >= 'A' && c <= 'Z' || c == '.'):
		default:
			return false
		}
	}
	return true
}

// entry is a registered tool with its compiled parameter validator.
type entry struct {
	// tool is the registry's own copy: Parameters is a deep copy, and
	// CallSignature is the signature in force (given, kept or generated).
	tool      Tool
	validator *validator
	fn        string // the CallSignature's function name
	generated bool   // CallSignature was generated from Parameters
}

// Registry holds tools in registration order and runs them with CallTool.
// All methods are safe for concurrent use.
type Registry struct {
	mu      sync.RWMutex
	entries []*entry
	byName  map[string]*entry
	sigs    map[string]string // JS function name ("ns.fn" in a namespace) -> tool name
	spaces  map[string]bool   // the namespaces of the tools
	version uint64            // changes made by Register and Override

	callHooks   []ToolCallHook
	resultHooks []ToolResultHook
	observers   []Observer
	nextID      atomic.Uint64
}

// New returns an empty registry.
func New() *Registry {
	return &Registry{byName: map[string]*entry{}, sigs: map[string]string{}, spaces: map[string]bool{}}
}

// Register adds a tool. It rejects, with an error naming the problem, an
// invalid name, an empty description, a missing Execute, a parameters schema
// that is not a valid JSON Schema of type object or nests deeper than
// MaxSchemaDepth, a malformed CallSignature or
// one whose function name would shadow a global or another tool's function,
// a CallSignature that does not match the parameters schema, and a name that
// is already registered (use Override to replace on purpose).
//
// A CallSignature matches the schema when every parameter binds to it as a
// call from a snippet would: a parameter named after one of the schema's own
// properties sets that property; any other parameter must be typed as an
// object (an options bag, or one params object) each of whose members is a
// property the schema accepts; and every property the schema requires can
// be supplied by some parameter. The error names the parameter or property
// and lists the schema's properties. Only names are compared, not types.
//
// A tool without a CallSignature gets one generated from its schema, as
// signature.FromSchema makes it: `async function NAME(params: {...}):
// Promise<any>`, where NAME is the tool's name when that is a valid
// identifier (word_count stays word_count) and otherwise the name with every
// character that cannot appear in an identifier replaced by "_" (get-sum
// becomes get_sum); a name starting with a digit gets a leading "_", and a
// reserved word or global a trailing one (delete becomes delete_, fetch
// becomes fetch_). Info.CallSignature is then the generated signature, so
// the prompt documents it and snippets can call it. When the generated
// function name is already another tool's (get-sum after get_sum), Register
// refuses the tool, naming both, rather than pick a name that depends on the
// order of registration: give one of them a CallSignature.
//
// Register keeps its own deep copy of t.Parameters, as encoding/json
// decodes its encoding (every number a float64, a []string a []any):
// changing the caller's map afterwards changes nothing.
func (r *Registry) Register(t Tool) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	name := t.qualified()
	if _, dup := r.byName[name]; dup {
		return fmt.Errorf("register tool %q: a tool with this name is already registered (use Override to replace it)", name)
	}
	e, err := r.prepare(t, nil)
	if err != nil {
		return fmt.Errorf("register tool %q: %w", name, err)
	}
	r.entries = append(r.entries, e)
	r.byName[name] = e
	r.sigs[e.fn] = name
	if t.Namespace != "" {
		r.spaces[t.Namespace] = true
	}
	r.version++
	return nil
}

// qualified is the name t is registered under: Namespace.Name in a
// namespace, Name otherwise.
func (t Tool) qualified() string {
	if t.Namespace != "" {
		return t.Namespace + "." + t.Name
	}
	return t.Name
}

// Override replaces the registered tool of the same name, keeping its
// position, with the checks of Register. When t has no CallSignature, the
// replaced tool's signature is kept if it was given, and must match t's
// schema; a signature that was generated is generated again from t's schema.
// Overriding a name that is not registered is an error.
func (r *Registry) Override(t Tool) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	name := t.qualified()
	old, ok := r.byName[name]
	if !ok {
		return fmt.Errorf("override tool %q: no tool with this name is registered", name)
	}
	e, err := r.prepare(t, old)
	if err != nil {
		return fmt.Errorf("override tool %q: %w", name, err)
	}
	i := slices.Index(r.entries, old)
	r.entries[i] = e
	r.byName[name] = e
	delete(r.sigs, old.fn)
	r.sigs[e.fn] = name
	r.version++
	return nil
}

// prepare validates t, compiles its schema and settles its call signature.
// replacing is the entry being overridden, whose signature may be kept and
// whose function name may be reused; nil for Register. Called with r.mu held.
func (r *Registry) prepare(t Tool, replacing *entry) (*entry, error) {
	if t.Namespace != "" {
		if err := r.checkNamespace(t); err != nil {
			return nil, err
		}
	} else if !validName(t.Name, false) {
		return nil, fmt.Errorf("invalid name: must match %s", namePattern)
	}
	if t.Description == "" {
		return nil, errors.New("description must not be empty")
	}
	switch {
	case t.CallerServed && t.Execute != nil:
		return nil, errors.New("a caller-served tool has no execute function")
	case !t.CallerServed && t.Execute == nil:
		return nil, errors.New("execute function is nil")
	}
	v, err := compileSchema(t.Parameters)
	if err != nil {
		return nil, err
	}
	t.Parameters = v.params
	e := &entry{tool: t, validator: v}

	// what the signature is, for messages.
	what := "call signature"
	kept := false
	if t.CallSignature == "" && replacing != nil && !replacing.generated {
		t.CallSignature, kept = replacing.tool.CallSignature, true
		what = "call signature kept from the replaced tool"
	}
	if t.CallSignature == "" {
		text, err := signature.FromSchema(t.Name, t.Parameters, nil)
		if err != nil {
			return nil, fmt.Errorf("generate call signature: %w", err)
		}
		t.CallSignature, e.generated = text, true
		what = "call signature generated from the parameters schema (" + text + ")"
	}
	e.tool.CallSignature = t.CallSignature
	sig, err := signature.ParseShared(t.CallSignature)
	if err != nil {
		if e.generated {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		return nil, err
	}
	fn := sig.Name
	if t.Namespace != "" {
		// A method of the namespace object: it shadows nothing global.
		fn = t.Namespace + "." + sig.Name
	} else {
		if signature.Reserved(sig.Name) {
			return nil, fmt.Errorf("%s: function name %q would shadow a JavaScript or sandbox global", what, sig.Name)
		}
		if r.spaces[sig.Name] {
			return nil, fmt.Errorf("%s: function name %q is already the namespace of other tools", what, sig.Name)
		}
	}
	if other, taken := r.sigs[fn]; taken && (replacing == nil || other != replacing.tool.qualified()) {
		if e.generated {
			return nil, fmt.Errorf("%s: function name %q is already used by tool %q; give one of the two tools a CallSignature with another function name", what, fn, other)
		}
		return nil, fmt.Errorf("%s: function name %q is already used by tool %q", what, fn, other)
	}
	if err := checkBinding(sig, t.Parameters); err != nil {
		if kept {
			return nil, fmt.Errorf("%s does not match the new parameters schema: %w; give the tool its own CallSignature", what, err)
		}
		return nil, fmt.Errorf("%s does not match the parameters schema: %w", what, err)
	}
	if e.tool.Examples, err = checkExamples(t.Examples, v, sig.ResultType()); err != nil {
		return nil, err
	}
	e.fn = fn
	return e, nil
}

// checkNamespace validates a namespaced tool's name and namespace.
// Called with r.mu held.
func (r *Registry) checkNamespace(t Tool) error {
	if !validName(t.Name, true) {
		return fmt.Errorf("invalid name %q in namespace %s: must be 1 to 128 of the characters A-Z a-z 0-9 _ - and dot", t.Name, t.Namespace)
	}
	if !signature.IsIdentifier(t.Namespace) {
		return fmt.Errorf("invalid namespace %q: must be a JavaScript identifier", t.Namespace)
	}
	if signature.Reserved(t.Namespace) {
		return fmt.Errorf("namespace %q would shadow a JavaScript or sandbox global", t.Namespace)
	}
	if other, taken := r.sigs[t.Namespace]; taken {
		return fmt.Errorf("namespace %q is already the function name of tool %q", t.Namespace, other)
	}
	return nil
}

// Tools describes the registered tools in registration order. The result
// is the caller's: each Info holds its own deep copy of Parameters, so
// changing it changes no registered tool.
func (r *Registry) Tools() []Info {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]Info, len(r.entries))
	for i, e := range r.entries {
		out[i] = e.info()
	}
	return out
}

// Version counts the changes to the registered tools: each successful
// Register and Override adds one, and nothing else changes it. What Tools
// and Summaries return depends on the version alone, so a caller that
// keeps a list from Tools may reuse it while Version is unchanged (read
// Version first, then Tools: a list taken after Version returned v is
// then at least as new as v). Safe for concurrent use.
func (r *Registry) Version() uint64 {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.version
}

// Summaries describes the registered tools in registration order without
// their schemas and examples: what a caller that only lists the tools or
// sizes their documentation needs (promptgen.NeedsCatalog), without the
// deep copies Tools makes. A Summary holds only strings, so it shares
// nothing the caller could change.
func (r *Registry) Summaries() []Summary {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]Summary, len(r.entries))
	for i, e := range r.entries {
		out[i] = e.text().Summary()
	}
	return out
}

// Lookup describes the tool called name, if registered. Like Tools, it
// returns a deep copy that the caller may change freely.
func (r *Registry) Lookup(name string) (Info, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	e, ok := r.byName[name]
	if !ok {
		return Info{}, false
	}
	return e.info(), true
}

// text describes e without its parameters schema and examples.
func (e *entry) text() Info {
	t := e.tool
	return Info{Name: t.qualified(), Namespace: t.Namespace, Label: t.Label, Description: t.Description, CallSignature: t.CallSignature, Source: t.Source, CallerServed: t.CallerServed}
}

// info describes e with its own copies of the parameters schema and
// examples.
func (e *entry) info() Info {
	i := e.text()
	i.Parameters = cloneJSON(e.tool.Parameters).(map[string]any)
	i.Examples = cloneExamples(e.tool.Examples)
	return i
}

// cloneExamples returns a deep copy of examples, nil for none.
func cloneExamples(examples []Example) []Example {
	if len(examples) == 0 {
		return nil
	}
	out := make([]Example, len(examples))
	for i, ex := range examples {
		out[i] = Example{Description: ex.Description, Input: cloneJSON(ex.Input).(map[string]any), Output: cloneJSON(ex.Output)}
	}
	return out
}

// jsonDepth is how deep jsonCopy copies values itself; deeper ones, which
// may be a cycle, make the JSON round trip, which reports one.
const jsonDepth = 200

// jsonCopy returns what encoding/json gives back for v's encoding
// (json.Marshal, then json.Unmarshal into an any): maps, []any, strings,
// float64s, bools and nil, none shared with v. Maps, slices and the values
// the round trip keeps as they are are copied directly; any other value
// (an int, a []string, a struct, a json.RawMessage, a string that is not
// valid UTF-8, a NaN) and anything nested deeper than jsonDepth makes the
// round trip itself, whose error is returned as it is. On a value it
// made, jsonCopy is a deep copy and cannot fail.
func jsonCopy(v any) (any, error) { return jsonCopyAt(v, 0) }

func jsonCopyAt(v any, depth int) (any, error) {
	if depth <= jsonDepth {
		switch v := v.(type) {
		case nil, bool:
			return v, nil
		case string:
			if utf8.ValidString(v) {
				return v, nil
			}
		case float64:
			if !math.IsNaN(v) && !math.IsInf(v, 0) {
				return v, nil
			}
		case map[string]any:
			if v == nil {
				return nil, nil // null in JSON
			}
			m := make(map[string]any, len(v))
			for k, x := range v {
				if !utf8.ValidString(k) {
					return roundTrip(v)
				}
				c, err := jsonCopyAt(x, depth+1)
				if err != nil {
					return nil, err
				}
				m[k] = c
			}
			return m, nil
		case []any:
			if v == nil {
				return nil, nil // null in JSON
			}
			s := make([]any, len(v))
			for i, x := range v {
				c, err := jsonCopyAt(x, depth+1)
				if err != nil {
					return nil, err
				}
				s[i] = c
			}
			return s, nil
		}
	}
	return roundTrip(v)
}

// roundTrip decodes v's JSON encoding into an any.
func roundTrip(v any) (any, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// cloneJSON is jsonCopy of a value jsonCopy made: a deep copy.
func cloneJSON(v any) any {
	c, _ := jsonCopy(v)
	return c
}

// ToolCallEvent is what a ToolCallHook sees before a tool runs.
type ToolCallEvent struct {
	ID     string
	Name   string
	Params map[string]any
}

// ToolCallHook runs before a tool when CallOptions.EmitEvents is set. It
// returns a non-empty reason to block the call; the caller then gets an
// error result carrying that reason. This is where permission gates live.
// It may instead return Ask, to have a person approve the call first.
type ToolCallHook func(ctx context.Context, ev ToolCallEvent) (blockReason string)

// Ask is what a ToolCallHook returns, instead of a block reason, to have a
// person approve the call before it runs: unless the call was made with
// CallOptions.Approved, CallTool then returns an *InputError of kind
// InputApproval and runs nothing, and a codeexec run pauses on it until
// its caller resumes it with the person's answer. The later hooks do not
// run; a call that is approved runs all of them again, where Ask then
// counts as allowing it.
const Ask = "\x00ask"

// ErrNeedsInput is what the error of a call that cannot go on without its
// caller unwraps to (errors.Is): see InputError.
var ErrNeedsInput = errors.New("the call needs input from the caller")

// InputKind says what a call waits for.
type InputKind string

// The kinds of input a call can wait for.
const (
	// InputApproval: a person's approval (a hook returned Ask).
	InputApproval InputKind = "approval"
	// InputTool: the result of a caller-served tool (Tool.CallerServed).
	InputTool InputKind = "tool"
)

// InputError is the error of a call that needs input from whoever called
// the run: CallTool ran nothing. It unwraps to ErrNeedsInput.
type InputError struct {
	Kind InputKind
	Name string // the tool
}

// Error says what the call waits for.
func (e *InputError) Error() string {
	if e.Kind == InputApproval {
		return fmt.Sprintf("tool call %s needs a person's approval", e.Name)
	}
	return fmt.Sprintf("tool %s is served by the caller", e.Name)
}

// Unwrap returns ErrNeedsInput.
func (e *InputError) Unwrap() error { return ErrNeedsInput }

// ToolResultEvent is what a ToolResultHook sees after a tool ran.
type ToolResultEvent struct {
	ID     string
	Name   string
	Params map[string]any
	Result Result
}

// ToolResultHook runs after a tool when CallOptions.EmitEvents is set. It
// returns a replacement result, or nil to keep the result as it is.
type ToolResultHook func(ctx context.Context, ev ToolResultEvent) *Result

// Telemetry describes one finished CallTool, for observers.
type Telemetry struct {
	ID       string
	Name     string
	Params   map[string]any
	Result   Result
	Duration time.Duration
	// Err is the error CallTool returned (unknown tool, context done), if any.
	Err error
}

// Observer receives one Telemetry value per CallTool, hooks or not. It is
// called synchronously on the calling goroutine and must not block.
type Observer func(Telemetry)

// OnToolCall adds a hook that runs before tools called with EmitEvents.
func (r *Registry) OnToolCall(h ToolCallHook) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.callHooks = append(r.callHooks, h)
}

// OnToolResult adds a hook that runs after tools called with EmitEvents.
func (r *Registry) OnToolResult(h ToolResultHook) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.resultHooks = append(r.resultHooks, h)
}

// Observe adds an observer that receives telemetry for every call.
func (r *Registry) Observe(o Observer) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.observers = append(r.observers, o)
}

// CallOptions tune one CallTool.
type CallOptions struct {
	// ID identifies the call; CallTool generates one ("call_N") when empty.
	ID string
	// EmitEvents runs the tool_call and tool_result hooks. Off by default, so
	// that a tool calling another tool does not recurse through the hooks.
	EmitEvents bool
	// OnUpdate receives partial results the tool reports; may be nil.
	OnUpdate func(Result)
	// MaxResultBytes, when positive, is the most bytes the tool's result may
	// take as JSON: the tool sees it as Call.MaxResultBytes, and CallTool
	// refuses a larger result with an error result saying so. The details
	// of a result it measured come back as the json.RawMessage it encoded
	// (result hooks still see them as the tool made them), so that no one
	// downstream encodes them again.
	MaxResultBytes int
	// DeferFinalize hands the result's finalizer (see Result.OnDelivered)
	// to the caller, who delivers the result further (to a snippet) and
	// must then call Finalize on it exactly once: with true once it is
	// delivered, with false if it never will be. Without it, CallTool
	// finalizes a successful result with true before it returns it, since
	// its caller then has it.
	DeferFinalize bool
	// Approved says a person approved the call: a hook's Ask allows it.
	Approved bool
}

// CallTool runs the tool called name with params, outside any conversation
// history. Its contract:
//   - an unknown name returns a *NotFoundError ("Tool not found: NAME");
//   - a call that a hook asks a person about (Ask), unless opts.Approved,
//     and a call of a caller-served tool return an *InputError, after
//     validation and without running the tool;
//   - a context that is already done is refused before the tool runs, with
//     an error wrapping ctx.Err();
//   - params that fail the schema, a call blocked by a hook, and a tool that
//     returns an error or panics all give a Result with IsError set, whose
//     text says what went wrong, and a nil error; its Details are {} unless
//     the tool's error is a DetailedError;
//   - ctx reaches the tool, whose Execute must honour its cancellation;
//   - a result over opts.MaxResultBytes as JSON is replaced, before the
//     result hooks, by an error result saying so (the tool already ran: a
//     stateful tool commits only when its result is delivered, below);
//     the error result of a failed call is not measured;
//   - the tool's result's finalizer (Result.OnDelivered) runs with false
//     when the result is not the one returned: the tool also returned an
//     error, the result was too large, a tool_result hook replaced it by
//     an error result or by one without that finalizer, or a hook
//     panicked (the panic goes on to the caller). An error result is never
//     returned with a finalizer still to run. A successful result that
//     keeps it is finalized with true before CallTool returns, unless
//     opts.DeferFinalize hands that duty to the caller.
//
// nil params are treated as an empty object. CallTool is safe for concurrent use.
func (r *Registry) CallTool(ctx context.Context, name string, params map[string]any, opts CallOptions) (res Result, err error) {
	start := time.Now()
	if opts.ID == "" {
		opts.ID = "call_" + strconv.FormatUint(r.nextID.Add(1), 10)
	}
	if params == nil {
		params = map[string]any{}
	}
	r.mu.RLock()
	e := r.byName[name]
	var callHooks []ToolCallHook
	var resultHooks []ToolResultHook
	if opts.EmitEvents {
		callHooks, resultHooks = r.callHooks, r.resultHooks
	}
	observers := r.observers
	r.mu.RUnlock()

	defer func() {
		t := Telemetry{ID: opts.ID, Name: name, Params: params, Result: res, Duration: time.Since(start), Err: err}
		for _, o := range observers {
			o(t)
		}
	}()

	if e == nil {
		return Result{}, &NotFoundError{Name: name}
	}
	if err := ctx.Err(); err != nil {
		if cause := context.Cause(ctx); cause != err {
			return Result{}, fmt.Errorf("tool %s not run: %w: %w", name, err, cause)
		}
		return Result{}, fmt.Errorf("tool %s not run: %w", name, err)
	}
	if msg := e.validator.validate(params); msg != "" {
		return errorResult(fmt.Sprintf("Invalid parameters for tool %s: %s", name, msg)), nil
	}
	for _, h := range callHooks {
		switch reason := h(ctx, ToolCallEvent{ID: opts.ID, Name: name, Params: params}); {
		case reason == Ask && opts.Approved:
		case reason == Ask:
			return Result{}, &InputError{Kind: InputApproval, Name: name}
		case reason != "":
			return errorResult(fmt.Sprintf("Tool call %s blocked: %s", name, reason)), nil
		}
	}
	if e.tool.CallerServed {
		return Result{}, &InputError{Kind: InputTool, Name: name}
	}
	call := Call{ID: opts.ID, Params: params, OnUpdate: opts.OnUpdate, MaxResultBytes: opts.MaxResultBytes}
	res = execute(ctx, e.tool, call)
	made := res // the tool's result, with its finalizer
	var raw json.RawMessage
	if !res.IsError {
		var err error
		if raw, err = call.checkResult(res); err != nil {
			res = errorResult(fmt.Sprintf("Tool %s failed: %v", name, err))
		}
	}
	res, replaced := runResultHooks(ctx, resultHooks, ToolResultEvent{ID: opts.ID, Name: name, Params: params, Result: res}, made)
	if raw != nil && !replaced {
		res.Details = raw // encoded once, when measured: not again downstream
	}
	if res.IsError || !res.sameFinalizer(made) {
		made.Finalize(false)
	}
	if res.IsError {
		res.Finalize(false)
	} else if !opts.DeferFinalize {
		res.Finalize(true)
	}
	return res, nil
}

// runResultHooks runs the tool_result hooks on ev and returns the result
// they leave and whether one replaced ev.Result. If a hook panics, the
// finalizers of made (the tool's result) and of the result so far run
// with false before the panic goes on: they would never run otherwise.
func runResultHooks(ctx context.Context, hooks []ToolResultHook, ev ToolResultEvent, made Result) (res Result, replaced bool) {
	res = ev.Result
	defer func() {
		if p := recover(); p != nil {
			made.Finalize(false)
			res.Finalize(false)
			panic(p)
		}
	}()
	for _, h := range hooks {
		// Hooks see the details as the tool made them.
		ev.Result = res
		if repl := h(ctx, ev); repl != nil {
			if !repl.sameFinalizer(res) && !res.sameFinalizer(made) {
				res.Finalize(false) // a hook's own result, replaced in turn
			}
			res, replaced = *repl, true
		}
	}
	return res, replaced
}

// DetailedError is an error that carries details for the error result
// CallTool makes of it (for example an external tool's failure envelope);
// other errors get empty details.
type DetailedError interface {
	error
	ErrorDetails() any
}

// execute runs the tool, turning an error or a panic into an error result.
func execute(ctx context.Context, t Tool, call Call) (res Result) {
	defer func() {
		if p := recover(); p != nil {
			res = errorResult(fmt.Sprintf("tool %s panicked: %v", t.Name, p))
		}
	}()
	res, err := t.Execute(ctx, call)
	if err != nil {
		res.Finalize(false) // a result returned beside an error is not delivered
		failed := errorResult(err.Error())
		var d DetailedError
		if errors.As(err, &d) {
			failed.Details = d.ErrorDetails()
		}
		return failed
	}
	res.IsError = false
	if res.Content == nil {
		res.Content = []Content{}
	}
	return res
}
