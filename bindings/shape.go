package bindings

import (
	"encoding/json"
	"fmt"

	"github.com/dop251/goja"

	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/registry/signature"
	"github.com/codeexec/codeexec/runtime"
	"github.com/codeexec/codeexec/runtime/convert"
)

// payload is a tool's result prepared off the loop: undefined, a string, JSON
// text to parse into plain JavaScript data, or a ToolError. Details stay the
// JSON text the tool (or the worker protocol) gave until the snippet's VM
// parses them: no decode and re-encode on the way.
type payload struct {
	kind    payloadKind
	text    string
	json    []byte
	tool    string
	details []byte // for errors: JSON of the result's details; nil is null
}

type payloadKind int

const (
	undefinedPayload payloadKind = iota
	stringPayload
	jsonPayloadKind
	errorPayload
)

// settle builds the JavaScript value on the loop and says whether to reject
// with it. A value that cannot be converted (nested too deeply for the
// engine) rejects with a ToolError saying so: never silently text or null.
func (p payload) settle(vm *goja.Runtime) (goja.Value, bool) {
	switch p.kind {
	case stringPayload:
		return vm.ToValue(p.text), false
	case jsonPayloadKind:
		v, err := convert.ParseJSON(vm, p.json)
		if err != nil {
			return conversionError(p.tool, err).settle(vm)
		}
		return v, false
	case errorPayload:
		details := goja.Null()
		if p.details != nil {
			v, err := convert.ParseJSON(vm, p.details)
			if err != nil {
				return conversionError(p.tool, err).settle(vm)
			}
			details = v
		}
		e := runtime.NewError(vm, "ToolError", p.text)
		_ = e.Set("tool", p.tool)
		_ = e.Set("details", details)
		return e, true
	}
	return goja.Undefined(), false
}

// conversionError is the rejection of a call whose result cannot become a
// JavaScript value.
func conversionError(tool string, err error) payload {
	return payload{kind: errorPayload, tool: tool,
		text: fmt.Sprintf("tool %s: its result cannot be converted to a JavaScript value: %v", tool, err)}
}

// shape turns a successful result into the value the signature's return
// type promises: the joined text for string, undefined for void, and
// otherwise the details, or else the text parsed as JSON, or else the text.
// Details that cannot be encoded reject the call.
func shape(tool string, ret *signature.Type, res registry.Result) payload {
	switch {
	case ret == nil || ret.IsString():
		return payload{kind: stringPayload, text: res.Text()}
	case ret.IsVoid():
		return payload{}
	}
	if res.Details != nil {
		b, err := res.DetailsJSON()
		if err != nil {
			return conversionError(tool, err)
		}
		return payload{kind: jsonPayloadKind, json: b, tool: tool}
	}
	text := res.Text()
	if json.Valid([]byte(text)) {
		return payload{kind: jsonPayloadKind, json: []byte(text), tool: tool}
	}
	return payload{kind: stringPayload, text: text}
}

// jsonPayload is the whole result as {content, details, isError}, for
// callTool; details that cannot be encoded reject the call.
func jsonPayload(tool string, res registry.Result) payload {
	b, err := json.Marshal(res)
	if err != nil {
		return conversionError(tool, err)
	}
	return payload{kind: jsonPayloadKind, json: b, tool: tool}
}

// toolError is the rejection of a bound function whose tool failed: an
// Error named ToolError, with the result text as message and the tool name
// and details as plain data.
func toolError(tool string, res registry.Result) payload {
	p := payload{kind: errorPayload, text: res.Text(), tool: tool}
	if res.Details != nil {
		b, err := res.DetailsJSON()
		if err != nil {
			return conversionError(tool, err)
		}
		p.details = b
	}
	return p
}
