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
// text to parse into plain JavaScript data, or a ToolError.
type payload struct {
	kind    payloadKind
	text    string
	json    []byte
	tool    string // for errors
	details []byte // for errors: JSON of the result's details
}

type payloadKind int

const (
	undefinedPayload payloadKind = iota
	stringPayload
	jsonPayloadKind
	errorPayload
)

// value builds the JavaScript value; it runs on the loop.
func (p payload) value(vm *goja.Runtime) goja.Value {
	switch p.kind {
	case stringPayload:
		return vm.ToValue(p.text)
	case jsonPayloadKind:
		v, err := convert.ParseJSON(vm, p.json)
		if err != nil {
			return vm.ToValue(string(p.json))
		}
		return v
	case errorPayload:
		e := runtime.NewError(vm, "ToolError", p.text)
		_ = e.Set("tool", p.tool)
		details := goja.Null()
		if v, err := convert.ParseJSON(vm, p.details); err == nil {
			details = v
		}
		_ = e.Set("details", details)
		return e
	}
	return goja.Undefined()
}

// shape turns a successful result into the value the signature's return
// type promises: the joined text for string, undefined for void, and
// otherwise the details, or else the text parsed as JSON, or else the text.
func shape(ret *signature.Type, res registry.Result) payload {
	switch {
	case ret == nil || ret.IsString():
		return payload{kind: stringPayload, text: res.Text()}
	case ret.IsVoid():
		return payload{}
	}
	if res.Details != nil {
		if b, err := json.Marshal(res.Details); err == nil {
			return payload{kind: jsonPayloadKind, json: b}
		}
	}
	text := res.Text()
	if json.Valid([]byte(text)) {
		return payload{kind: jsonPayloadKind, json: []byte(text)}
	}
	return payload{kind: stringPayload, text: text}
}

// jsonPayload is the whole result as {content, details, isError}.
func jsonPayload(res registry.Result) payload {
	b, err := json.Marshal(res)
	if err != nil {
		res.Details = fmt.Sprintf("(details not JSON-encodable: %v)", err)
		b, _ = json.Marshal(res)
	}
	return payload{kind: jsonPayloadKind, json: b}
}

// toolError is the rejection of a bound function whose tool failed: an
// Error named ToolError, with the result text as message and the tool name
// and details as plain data.
func toolError(tool string, res registry.Result) payload {
	details, err := json.Marshal(res.Details)
	if err != nil {
		details = []byte("null")
	}
	return payload{kind: errorPayload, text: res.Text(), tool: tool, details: details}
}
