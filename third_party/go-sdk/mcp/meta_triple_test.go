// Copyright 2026 The Go MCP SDK Authors. All rights reserved.
// Use of this source code is governed by the license
// that can be found in the LICENSE file.

package mcp

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// validateRequestMetaFromMap is validateRequestMeta as it was before it
// decoded the triple alone: through the whole `_meta` as a [Meta] and
// decodeMetaValue. The tests below hold validateRequestMeta to it.
func validateRequestMetaFromMap(req *jsonrpc.Request) (*validatedMeta, error) {
	if !req.IsCall() {
		return &validatedMeta{}, nil
	}
	meta := extractRequestMeta(req.Params)
	if meta == nil {
		return &validatedMeta{}, nil
	}
	protocolVersion, ok := meta[MetaKeyProtocolVersion].(string)
	if !ok || protocolVersion < protocolVersion20260728 {
		return &validatedMeta{}, nil
	}
	var clientInfo *Implementation
	if _, present := meta[MetaKeyClientInfo]; present {
		var ok bool
		clientInfo, ok = decodeMetaValue[*Implementation](meta, MetaKeyClientInfo)
		if !ok {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("invalid _meta field %q", MetaKeyClientInfo)}
		}
	}
	capabilities, ok := decodeMetaValue[*clientCapabilitiesV2](meta, MetaKeyClientCapabilities)
	if !ok {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("missing or invalid _meta field %q", MetaKeyClientCapabilities)}
	}
	logLevel, _ := decodeMetaValue[LoggingLevel](meta, MetaKeyLogLevel)
	return &validatedMeta{usesNewProtocol: true, initializeParams: &InitializeParams{
		ProtocolVersion: protocolVersion,
		Capabilities:    capabilities.toV1(),
		ClientInfo:      clientInfo,
	}, logLevel: logLevel}, nil
}

// checkMetaAsMap fails t unless validateRequestMeta and
// validateRequestMetaFromMap agree on a call with params.
func checkMetaAsMap(t *testing.T, params []byte) {
	t.Helper()
	id, err := jsonrpc.MakeID("id")
	if err != nil {
		t.Fatal(err)
	}
	req := &jsonrpc.Request{Method: methodCallTool, Params: params, ID: id}
	got, gotErr := validateRequestMeta(req)
	want, wantErr := validateRequestMetaFromMap(req)
	if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
		t.Fatalf("params %s: error %v, want %v", params, gotErr, wantErr)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("params %s: got %+v (%+v), want %+v (%+v)", params, got, initParams(got), want, initParams(want))
	}
}

func initParams(v *validatedMeta) any {
	if v == nil {
		return nil
	}
	return v.initializeParams
}

// metaCases are params of a tools/call with every shape of `_meta` that
// the triple's decoding distinguishes.
var metaCases = []string{
	``,
	`{}`,
	`null`,
	`{"name":"x"}`,
	`{"_meta":null,"name":"x"}`,
	`{"_meta":"not an object"}`,
	`{"_meta":[1,2]}`,
	`{"_meta":{}}`,
	`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-06-18"}}`,
	`{"_meta":{"io.modelcontextprotocol/protocolVersion":2026}}`,
	`{"_meta":{"io.modelcontextprotocol/protocolVersion":null}}`,
	`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}`,
	`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}`,
	`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":null}}`,
	`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":"x"}}`,
	`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":{"listChanged":true},"sampling":{},"experimental":{"a":[1,2.5,{"b":null}]}}}}`,
	`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1","icons":[{"src":"x","sizes":["1x1"]}]}}}`,
	`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":null}}`,
	`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":1}}}`,
	`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"warning"}}`,
	`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":7}}`,
	`{"_meta":{"IO.MODELCONTEXTPROTOCOL/PROTOCOLVERSION":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}`,
	`{"_META":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}`,
	`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"_meta":{"io.modelcontextprotocol/clientCapabilities":{}}}`,
	`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":{}},"io.modelcontextprotocol/clientCapabilities":{"sampling":{}}}}`,
	`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":{"listChanged":"yes"}}}}`,
	`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"progressToken":5,"other":{"x":[true]}},"name":"code_execution","arguments":{"code":"return \"\\u00e9\" + 1"}}`,
	` { "_meta" : { "io.modelcontextprotocol/protocolVersion" : "2026-07-28" , "io.modelcontextprotocol/clientCapabilities" : { } } } `,
	`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}} trailing`,
	`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}`,
	`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"\xff"},"io.modelcontextprotocol/clientCapabilities":{}}}`,
}

// TestValidateRequestMetaAsMap holds validateRequestMeta to the decoding
// through a whole [Meta] that it replaces.
func TestValidateRequestMetaAsMap(t *testing.T) {
	for _, c := range metaCases {
		checkMetaAsMap(t, []byte(c))
	}
	// The params a client of this SDK sends.
	b, err := json.Marshal(map[string]any{"name": "x", "arguments": map[string]any{"code": "1"}, "_meta": map[string]any{
		MetaKeyProtocolVersion: protocolVersion20260728, MetaKeyClientInfo: &Implementation{Name: "c", Version: "1"},
		MetaKeyClientCapabilities: &ClientCapabilities{}, MetaKeyLogLevel: "info",
	}})
	if err != nil {
		t.Fatal(err)
	}
	checkMetaAsMap(t, b)
}

// FuzzValidateRequestMetaAsMap is TestValidateRequestMetaAsMap on any
// params: go test -run '^$' -fuzz FuzzValidateRequestMetaAsMap ./mcp.
func FuzzValidateRequestMetaAsMap(f *testing.F) {
	for _, c := range metaCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, params []byte) {
		checkMetaAsMap(t, params)
	})
}
