package codeexec

import (
	"encoding/json"
	"time"

	"github.com/codeexec/codeexec/runtime"
)

// JSONResult is a run's Result as one JSON object: the object the CLI's
// `run --json` prints and the MCP face's structuredContent. Its fields
// and their JSON names are part of that contract; ResultSchema describes
// them.
type JSONResult struct {
	// OK is true when the run ended without an error (false while it is
	// paused).
	OK bool `json:"ok"`
	// Value is the return value as JSON, null when there was none.
	Value json.RawMessage `json:"value"`
	// Stdout and Stderr are the captured console output.
	Stdout string `json:"stdout"`
	Stderr string `json:"stderr"`
	// Error describes the failure, nil (null) on success.
	Error *runtime.Error `json:"error"`
	// ToolCalls is the trace, in the order the snippet made the calls;
	// never nil.
	ToolCalls []JSONCall `json:"toolCalls"`
	// DurationMs is the run's wall time in milliseconds.
	DurationMs float64 `json:"durationMs"`
	// Truncated is true when output was cut by the output limit.
	Truncated bool `json:"truncated"`
	// Pause, only when the run paused to wait for input, holds its
	// requests; State is where its caller keeps the state (the CLI's
	// --pause file), empty when it keeps it elsewhere.
	Pause *JSONPause `json:"pause,omitempty"`
}

// JSONPause is JSONResult.Pause.
type JSONPause struct {
	Requests []InputRequest `json:"requests"`
	State    string         `json:"state,omitempty"`
}

// JSONCall is one tool call of JSONResult.ToolCalls: the trace record
// with its duration in milliseconds.
type JSONCall struct {
	CallRecord
	DurationMs float64 `json:"durationMs"`
}

// NewJSONResult returns res as a JSONResult. It shares res's values; res
// must not be nil.
func NewJSONResult(res *Result) JSONResult {
	out := JSONResult{
		OK: res.OK(), Value: res.Value, Stdout: res.Stdout, Stderr: res.Stderr, Error: res.Error,
		ToolCalls: []JSONCall{}, DurationMs: millis(res.Duration), Truncated: res.Truncated,
	}
	if out.Value == nil {
		out.Value = json.RawMessage("null")
	}
	for _, c := range res.ToolCalls {
		out.ToolCalls = append(out.ToolCalls, JSONCall{CallRecord: c, DurationMs: millis(c.Duration)})
	}
	if res.Pause != nil {
		out.Pause = &JSONPause{Requests: res.Pause.Requests}
	}
	return out
}

func millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// ResultSchema is the JSON Schema (draft 2020-12) of JSONResult, as JSON
// text: what an MCP client validates structuredContent against. A test
// checks it against the encoding of real results.
const ResultSchema = `{
  "type": "object",
  "properties": {
    "ok": {"type": "boolean", "description": "true when the run ended without an error (false while it is paused)"},
    "value": {"description": "the snippet's return value as JSON, null when it returned nothing"},
    "stdout": {"type": "string", "description": "console.log, info and debug output"},
    "stderr": {"type": "string", "description": "console.warn and error output"},
    "error": {
      "description": "why the run failed, null on success",
      "anyOf": [
        {"type": "null"},
        {
          "type": "object",
          "properties": {
            "name": {"type": "string"},
            "message": {"type": "string"},
            "stack": {"type": "string"},
            "file": {"type": "string"},
            "line": {"type": "integer"},
            "column": {"type": "integer"},
            "sourceLine": {"type": "string"},
            "kind": {"type": "string", "description": "compile, exception, limit, canceled or internal"}
          },
          "required": ["name", "message", "stack", "kind"]
        }
      ]
    },
    "toolCalls": {
      "type": "array",
      "description": "every tool call the snippet made, in order",
      "items": {
        "type": "object",
        "properties": {
          "id": {"type": "string"},
          "name": {"type": "string"},
          "params": {},
          "isError": {"type": "boolean"},
          "updates": {"type": "integer", "description": "partial results the tool reported while it ran"},
          "durationMs": {"type": "number"}
        },
        "required": ["id", "name", "params", "isError", "updates", "durationMs"]
      }
    },
    "durationMs": {"type": "number", "description": "wall time of the run in milliseconds"},
    "truncated": {"type": "boolean", "description": "true when output was cut by the output limit"},
    "pause": {
      "type": "object",
      "description": "only when the run paused to wait for input: the calls that wait, and where the run's state is kept",
      "properties": {
        "requests": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "id": {"type": "string", "description": "the call's id, which its answer names"},
              "kind": {"type": "string", "enum": ["approval", "tool"]},
              "tool": {"type": "string"},
              "params": {"type": "object"},
              "text": {"type": "string", "description": "the call on one line, as a person reads it"}
            },
            "required": ["id", "kind", "tool", "params", "text"]
          }
        },
        "state": {"type": "string"}
      },
      "required": ["requests"]
    }
  },
  "required": ["ok", "value", "stdout", "stderr", "error", "toolCalls", "durationMs", "truncated"]
}`
