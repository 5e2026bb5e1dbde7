package isolation

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/codeexec/codeexec/internal/workerproc"
	"github.com/codeexec/codeexec/registry"
	"github.com/codeexec/codeexec/runtime"
)

// sampleMessages are one message of every type.
func sampleMessages() []*message {
	return []*message{
		{Type: msgReady, Version: protocolVersion, PID: 42},
		{Type: msgReady, Version: protocolVersion, Error: "limit memory: no /proc"},
		{Type: msgRun, Run: &runRequest{
			Source: "return 1",
			Options: runtime.Options{
				Filename: "x.ts", AllowEval: true, Process: runtime.ProcessOptions{Env: map[string]string{"A": "1"}, Argv: []string{"x"}},
				Limits: runtime.Limits{Timeout: time.Second, Memory: 64 << 20, MaxOutputBytes: 100, MaxCalls: 3, CancelGrace: time.Millisecond},
			},
			Tools: []registry.Info{{
				Name: "read", Description: "Read.", CallSignature: "async function read(path: string): Promise<string>",
				Parameters: map[string]any{"type": "object", "properties": map[string]any{"path": map[string]any{"type": "string"}}},
			}},
		}},
		{Type: msgCall, Seq: 1, Name: "read", Params: map[string]any{"path": "a <b> & c", "n": 1.5}},
		{Type: msgResult, Seq: 1, Result: &toolResult{Content: []registry.Content{registry.TextContent("hi")}, Details: json.RawMessage(`{"z":1,"a":[1,"x"]}`)}},
		{Type: msgResult, Seq: 2, Error: "Tool not found: nope", NotFound: true},
		{Type: msgResult, Seq: 4, Error: "the run made more than 3 tool calls, its limit", Limit: true},
		{Type: msgCancel, Seq: 3},
		{Type: msgStdout, Data: "line\n"},
		{Type: msgStderr, Data: "ünïcode ✓\n"},
		{Type: msgStdout, Data: "{\"type\":\"done\"}\x00\x01\xff not UTF-8, nor JSON\n"},
		{Type: msgStderr},
		{Type: msgStdout, Held: true},
		{Type: msgStderr, Held: true},
		{Type: msgDone, Done: &wireResult{Value: json.RawMessage(`{"a":1}`), ValueText: "{ a: 1 }", Duration: time.Millisecond, Sources: &runtime.Sources{Seed: [32]byte{1, 2}, Clock: []int64{1e18, 1e18 + 5}}}},
	}
}

// TestFrameRoundTrip encodes every kind of message and reads it back.
func TestFrameRoundTrip(t *testing.T) {
	var stream bytes.Buffer
	msgs := sampleMessages()
	for _, m := range msgs {
		frame, err := encodeFrame(m, MaxFrameSize)
		if err != nil {
			t.Fatal(err)
		}
		stream.Write(frame)
	}
	for _, want := range msgs {
		got, err := readMessage(&stream)
		if err != nil {
			t.Fatalf("read %s: %v", want.Type, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("round trip of %s:\n got %#v\nwant %#v", want.Type, got, want)
		}
	}
	if _, err := readMessage(&stream); err != io.EOF {
		t.Errorf("after the last frame: %v, want io.EOF", err)
	}
}

// TestReadFrameErrors checks the frame decoder on broken input.
func TestReadFrameErrors(t *testing.T) {
	frame := func(n uint32, payload string) []byte {
		return append(binary.BigEndian.AppendUint32(nil, n), payload...)
	}
	tests := []struct {
		name string
		in   []byte
		err  string
	}{
		{"empty stream", nil, "EOF"},
		{"short header", []byte{0, 0}, "unexpected EOF"},
		{"empty frame", frame(0, ""), "empty frame"},
		{"short payload", frame(10, "abc"), "unexpected EOF"},
		{"no payload", frame(10, ""), "unexpected EOF"},
		{"over the limit", frame(1<<16+1, "x"), "frame of 65537 bytes: frame too large (the limit is 65536 bytes)"},
		{"huge length", frame(0xffffffff, ""), "frame of 4294967295 bytes: frame too large (the limit is 65536 bytes)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := readFrame(bytes.NewReader(tc.in), 1<<16)
			if err == nil || err.Error() != tc.err {
				t.Errorf("error = %v, want %q", err, tc.err)
			}
		})
	}
	// A large frame that ends early allocates what was read, not its length.
	_, err := readFrame(io.MultiReader(bytes.NewReader(frame(MaxFrameSize, "")), strings.NewReader("xy")), MaxFrameSize)
	if err != io.ErrUnexpectedEOF {
		t.Errorf("truncated large frame: %v", err)
	}
	for _, payload := range []string{"{}", `{"type":""}`, "[]", "null x", `{"type":"stdout","data":"x"}`, `{"type":"stderr"}`} {
		if _, err := decodeMessage([]byte(payload)); err == nil {
			t.Errorf("decodeMessage(%s) succeeded", payload)
		}
	}
	// A held mark is the stream's byte alone.
	if _, err := decodeMessage([]byte{outStdoutHeld, 'x'}); err == nil {
		t.Error("decodeMessage of a held mark with data succeeded")
	}
	if _, err := encodeFrame(&message{Type: msgStderr, Held: true, Data: "x"}, MaxFrameSize); !errors.Is(err, errEncode) {
		t.Errorf("encodeFrame of a held mark with data: %v", err)
	}
	big := &message{Type: msgStdout, Data: strings.Repeat("x", 100)}
	if _, err := encodeFrame(big, 100); !errors.Is(err, errFrameTooLarge) {
		t.Errorf("encodeFrame of output over the limit: %v", err)
	}
	if _, err := encodeFrame(big, 101); err != nil {
		t.Errorf("encodeFrame of output at the limit: %v", err)
	}
	if _, err := encodeFrame(&message{Type: msgCall, Name: strings.Repeat("x", 100)}, 50); !errors.Is(err, errFrameTooLarge) {
		t.Errorf("encodeFrame over the limit: %v", err)
	}
	// A result whose text alone is over the limit is refused before it is
	// encoded; one whose text fits, but not its JSON, after.
	for _, text := range []string{strings.Repeat("x", 101), strings.Repeat("x", 90)} {
		m := &message{Type: msgResult, Result: &toolResult{Content: []registry.Content{registry.TextContent(text)}}}
		if _, err := encodeFrame(m, 100); !errors.Is(err, errFrameTooLarge) {
			t.Errorf("encodeFrame of a result of %d bytes of text over the limit: %v", len(text), err)
		}
	}
	bad := &message{Type: msgCall, Params: map[string]any{"c": make(chan int)}}
	if _, err := encodeFrame(bad, MaxFrameSize); !errors.Is(err, errEncode) {
		t.Errorf("encodeFrame of a channel: %v", err)
	}
	if _, err := wireToolResult(registry.Result{Details: make(chan int)}); err == nil {
		t.Errorf("wireToolResult of a channel succeeded")
	}
}

// FuzzReadFrame feeds the frame decoder arbitrary bytes: it must not panic,
// must respect the size limit, and must return exactly the payload a valid
// frame holds.
func FuzzReadFrame(f *testing.F) {
	for _, m := range sampleMessages() {
		frame, err := encodeFrame(m, MaxFrameSize)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(frame)
	}
	f.Add([]byte{})
	f.Add([]byte{0, 0, 0, 0})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, '{'})
	f.Add([]byte{0, 0, 0, 2, '{', '}'})
	f.Add([]byte{0, 0, 0, 9, '{', '"', 't', 'y', 'p', 'e', '"', ':', '1'})
	const max = 1 << 12
	f.Fuzz(func(t *testing.T, data []byte) {
		r := bytes.NewReader(data)
		payload, err := readFrame(r, max)
		if err != nil {
			return
		}
		n := int(binary.BigEndian.Uint32(data))
		if len(payload) != n || n == 0 || n > max || !bytes.Equal(payload, data[4:4+n]) {
			t.Fatalf("readFrame(%q) = %q", data, payload)
		}
		if r.Len() != len(data)-4-n {
			t.Fatalf("readFrame consumed %d bytes of %d for a %d-byte payload", len(data)-r.Len(), len(data), n)
		}
		m, err := decodeMessage(payload)
		if err != nil {
			return
		}
		frame, err := encodeFrame(m, MaxFrameSize)
		if err != nil {
			return // a decoded value JSON cannot encode again (none known)
		}
		again, err := readMessage(bytes.NewReader(frame))
		if err != nil || again.Type != m.Type {
			t.Fatalf("re-encoding %q: %v", payload, err)
		}
	})
}

// TestResultRoundTrip checks that every field of a runtime.Result crosses
// the protocol, durations included, except the trace, which the parent
// keeps itself.
func TestResultRoundTrip(t *testing.T) {
	want := &runtime.Result{
		Value: json.RawMessage(`[1,"a",{"b":null}]`), ValueText: `[ 1, 'a', { b: null } ]`,
		Stdout: "out\n", Stderr: "err\n",
		Error: &runtime.Error{Name: "TypeError", Message: "x is not a function", Stack: "TypeError: x is not a function\n    at f (s.ts:2:3)",
			File: "s.ts", Line: 2, Column: 3, SourceLine: "  x()", Kind: runtime.KindException},
		Duration:  1234567 * time.Nanosecond,
		Truncated: true,
	}
	frame, err := encodeFrame(&message{Type: msgDone, Done: toWire(want)}, MaxFrameSize)
	if err != nil {
		t.Fatal(err)
	}
	m, err := readMessage(bytes.NewReader(frame))
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Done.result(); !reflect.DeepEqual(got, want) {
		t.Errorf("round trip:\n got %#v\nwant %#v", got, want)
	}
	// A result without a value or error stays without.
	frame, _ = encodeFrame(&message{Type: msgDone, Done: toWire(&runtime.Result{})}, MaxFrameSize)
	m, _ = readMessage(bytes.NewReader(frame))
	if got := m.Done.result(); got.Value != nil || got.Error != nil {
		t.Errorf("empty result round trip: %#v", got)
	}
}

// TestClassifyDump checks how crash dumps of the Go runtime and the race
// detector are read.
func TestClassifyDump(t *testing.T) {
	tests := []struct {
		name string
		dump string
		kind crashKind
		line string
	}{
		{"go out of memory", "runtime: out of memory: cannot allocate 2199023255552-byte block (8060928 in use)\nfatal error: out of memory\n\ngoroutine 1 gp=0xc000002380 m=0 mp=0x1c0b2a0 [running]:\nruntime.throw({0xc3b0f7?, 0x0?})\n", crashMemory, "runtime: out of memory: cannot allocate 2199023255552-byte block (8060928 in use)"},
		{"mmap failure", "fatal error: runtime: cannot allocate memory\n\nruntime stack:\nruntime.throw(...)", crashMemory, "fatal error: runtime: cannot allocate memory"},
		{"arena metadata", "fatal error: out of memory allocating heap arena metadata\n", crashMemory, "fatal error: out of memory allocating heap arena metadata"},
		{"threads", "runtime: failed to create new OS thread (have 7 already; errno=11)\nruntime: may need to increase max user processes (ulimit -u)\nfatal error: newosproc\n", crashMemory, "runtime: failed to create new OS thread (have 7 already; errno=11)"},
		{"race arena", "fatal error: too many address space collisions for -race mode\n", crashMemory, "fatal error: too many address space collisions for -race mode"},
		{"race shadow", "==7957==ERROR: ThreadSanitizer failed to allocate 0x2000000 (33554432) bytes at address 306004000000 (errno: 12)\n", crashMemory, "==7957==ERROR: ThreadSanitizer failed to allocate 0x2000000 (33554432) bytes at address 306004000000 (errno: 12)"},
		{"stack overflow", "runtime: goroutine stack exceeds 67108864-byte limit\nruntime: sp=0xc020160388 stack=[0xc020160000, 0xc040160000]\nfatal error: stack overflow\n\nruntime stack:\n", crashStack, "runtime: goroutine stack exceeds 67108864-byte limit"},
		{"panic", "panic: assignment to entry in nil map\n\ngoroutine 1 [running]:\nmain.main()\n\t/x/main.go:5 +0x1d\nexit status 2\n", crashOther, "panic: assignment to entry in nil map"},
		{"segv", "unexpected fault address 0x0\nfatal error: fault\n[signal SIGSEGV: segmentation violation code=0x80 addr=0x0 pc=0x45f0b1]\n", crashOther, "unexpected fault address 0x0"},
		{"signal", "SIGABRT: abort\nPC=0x46e5c1 m=0 sigcode=0\n\ngoroutine 0 gp=0x5b6a80 m=0 mp=0x5b74e0 [idle]:\n", crashOther, "SIGABRT: abort"},
		{"concurrent map", "\nfatal error: concurrent map writes\n\ngoroutine 7 [running]:\n", crashOther, "fatal error: concurrent map writes"},
		{"plain text", "\n  something odd happened\nand more\n", crashOther, "something odd happened"},
		{"long line", "panic: " + strings.Repeat("é", 300) + "\n", crashOther, "panic: " + strings.Repeat("é", 96) + "..."},
		{"nothing", "", crashOther, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			kind, line := classifyDump(tc.dump)
			if kind != tc.kind || line != tc.line {
				t.Errorf("classifyDump = %d, %q; want %d, %q", kind, line, tc.kind, tc.line)
			}
		})
	}
}

// TestStackLimit checks the worker's Go stack limit for a few memory limits.
func TestStackLimit(t *testing.T) {
	for limit, want := range map[int64]int64{32 << 20: 16 << 20, 512 << 20: 64 << 20, 1 << 30: 128 << 20, 8 << 30: 256 << 20} {
		if got := stackLimit(limit); got != want {
			t.Errorf("stackLimit(%s) = %s, want %s", runtime.FormatBytes(limit), runtime.FormatBytes(got), runtime.FormatBytes(want))
		}
	}
}

// TestFrameTail checks the tail that carries a result's details: a tail
// that is not the announced length, or that no result owns, is refused.
func TestFrameTail(t *testing.T) {
	tests := []struct{ payload, want string }{
		{`{"type":"result","seq":1,"result":{"content":[],"isError":false},"tail":3}[1]`, ""},
		{`{"type":"result","seq":1,"result":{"content":[],"isError":false},"tail":4}[1]`, "decode message: its tail is 3 bytes, not the 4 it announces"},
		{`{"type":"result","seq":1,"result":{"content":[],"isError":false}}[1]`, "decode message: its tail is 3 bytes, not the 0 it announces"},
		{`{"type":"cancel","seq":1,"tail":3}[1]`, "decode message: a tail without a result"},
		{`{"type":"result","seq":1,"result":{"content":[],"isError":false},"tail":-1}`, "decode message: its tail is 0 bytes, not the -1 it announces"},
	}
	for _, tt := range tests {
		m, err := decodeMessage([]byte(tt.payload))
		switch {
		case tt.want == "" && (err != nil || string(m.Result.Details) != "[1]" || m.Tail != 0):
			t.Errorf("%s: %+v, %v; want details [1]", tt.payload, m, err)
		case tt.want != "" && (err == nil || err.Error() != tt.want):
			t.Errorf("%s: error %v, want %q", tt.payload, err, tt.want)
		}
	}
}

// TestWireTools checks what a worker gets of its tools: names, namespace,
// signature and the properties' object-ness, nothing else.
func TestWireTools(t *testing.T) {
	in := []registry.Info{
		{
			Name: "fs.read", Namespace: "fs", Label: "Read", Description: "Read a file.", Source: "builtin",
			CallSignature: "function read(path: string, opts?: { limit?: number }): string",
			Parameters: map[string]any{
				"type":     "object",
				"required": []any{"path"},
				"properties": map[string]any{
					"path": map[string]any{"type": "string", "description": "The file."},
					"opts": map[string]any{"type": "object", "properties": map[string]any{"limit": map[string]any{"type": "number"}}},
					"any":  true,
				},
			},
			Examples: []registry.Example{{Description: "one", Input: map[string]any{"path": "a"}}},
		},
		{Name: "ping", Description: "Ping.", CallSignature: "function ping(): string", Parameters: map[string]any{"type": "object"}},
	}
	want := []registry.Info{
		{
			Name: "fs.read", Namespace: "fs",
			CallSignature: "function read(path: string, opts?: { limit?: number }): string",
			Parameters: map[string]any{"properties": map[string]any{
				"path": map[string]any{},
				"opts": map[string]any{"type": "object"},
			}},
		},
		{Name: "ping", CallSignature: "function ping(): string"},
	}
	if got := wireTools(in); !reflect.DeepEqual(got, want) {
		t.Errorf("wireTools =\n%#v\nwant\n%#v", got, want)
	}
}

// TestWireMemo checks that a pool encodes a tool list it has seen once:
// the same list gives the same wire form, a copy with other content its
// own.
func TestWireMemo(t *testing.T) {
	p := &Pool{}
	params := map[string]any{"type": "object", "properties": map[string]any{"path": map[string]any{"type": "string"}}}
	tools := []registry.Info{{Name: "read", CallSignature: "async function read(path: string): Promise<string>", Parameters: params}}
	w1, k1, err := p.wire(tools)
	if err != nil {
		t.Fatal(err)
	}
	w2, k2, _ := p.wire(tools)
	if &w1[0] != &w2[0] || k1 != k2 {
		t.Error("the same list was encoded again")
	}
	other := []registry.Info{{Name: "write", CallSignature: "async function write(path: string): Promise<string>", Parameters: params}}
	w3, k3, _ := p.wire(other)
	if k3 == k1 || w3[0].Name != "write" {
		t.Errorf("another list got key %s", k3)
	}
	if _, k4, _ := p.wire(nil); k4 != "[]" {
		t.Errorf("no tools: key %q, want []", k4)
	}
}

// TestLimitsCrossWhole checks that every field of runtime.Limits reaches
// a worker as the host set it: a limit added to the struct is enforced in
// a worker with no other edit, and one whose JSON tag left it out would
// fail here.
func TestLimitsCrossWhole(t *testing.T) {
	var limits runtime.Limits
	v := reflect.ValueOf(&limits).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.Int, reflect.Int64:
			f.SetInt(int64(1000 + i))
		default:
			t.Fatalf("Limits.%s is a %s: give it a value here", v.Type().Field(i).Name, f.Kind())
		}
	}
	frame, err := encodeFrame(&message{Type: msgRun, Run: &runRequest{Source: "1", Options: runtime.Options{Limits: limits}}}, MaxFrameSize)
	if err != nil {
		t.Fatal(err)
	}
	m, err := readMessage(bytes.NewReader(frame))
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Run.Options.Limits; got != limits {
		t.Errorf("limits after the trip:\n got %+v\nwant %+v", got, limits)
	}
}

// TestDefaultMemoryAgrees checks that the worker a program launches early
// (workerproc.Launch, before it knows its options) has the memory limit
// of a default run, so that a default pool adopts it.
func TestDefaultMemoryAgrees(t *testing.T) {
	if DefaultMemoryLimit != runtime.DefaultMemory || workerproc.DefaultMemoryLimit != runtime.DefaultMemory {
		t.Errorf("default memory limits differ: isolation %d, workerproc %d, runtime %d", DefaultMemoryLimit, workerproc.DefaultMemoryLimit, runtime.DefaultMemory)
	}
}
