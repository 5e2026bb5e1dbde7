package mcp

import (
	"context"
	"io"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// scriptConn is a connection that reads the messages it was given, then
// io.EOF, and drops what is written.
type scriptConn struct{ msgs []jsonrpc.Message }

func (c *scriptConn) Read(context.Context) (jsonrpc.Message, error) {
	if len(c.msgs) == 0 {
		return nil, io.EOF
	}
	m := c.msgs[0]
	c.msgs = c.msgs[1:]
	return m, nil
}

func (c *scriptConn) Write(context.Context, jsonrpc.Message) error { return nil }
func (c *scriptConn) Close() error                                 { return nil }
func (c *scriptConn) SessionID() string                            { return "" }

type scriptTransport struct{ conn *scriptConn }

func (t scriptTransport) Connect(context.Context) (sdk.Connection, error) { return t.conn, nil }

func mustID(t *testing.T, v any) jsonrpc.ID {
	t.Helper()
	id, err := jsonrpc.MakeID(v)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// TestIDConn checks that idConn notes the id of each request it reads
// under the request's RequestExtra, and keeps no note once the request is
// answered or the connection closed: what it notes is bounded by the
// requests in flight.
func TestIDConn(t *testing.T) {
	t.Parallel()
	given := &sdk.RequestExtra{}
	for _, tc := range []struct {
		name string
		read []jsonrpc.Message
		// want are the ids found for the requests read, in order ("" for
		// none), before answered and closed end them.
		want     []string
		answered []any // the ids of the responses written
		close    bool
	}{
		{"answered", []jsonrpc.Message{&jsonrpc.Request{ID: mustID(t, float64(1)), Method: "ping"}}, []string{"1"}, []any{float64(1)}, false},
		{"string id", []jsonrpc.Message{&jsonrpc.Request{ID: mustID(t, "a-1"), Method: "ping"}}, []string{"a-1"}, []any{"a-1"}, false},
		{"notification", []jsonrpc.Message{&jsonrpc.Request{Method: "notifications/initialized"}}, []string{""}, nil, false},
		{"closed unanswered", []jsonrpc.Message{&jsonrpc.Request{ID: mustID(t, "x"), Method: "tools/call"}}, []string{"x"}, nil, true},
		{"id reused in flight", []jsonrpc.Message{
			&jsonrpc.Request{ID: mustID(t, float64(7)), Method: "ping"},
			&jsonrpc.Request{ID: mustID(t, float64(7)), Method: "ping"},
		}, []string{"", "7"}, []any{float64(7)}, false},
		{"extra of the transport", []jsonrpc.Message{&jsonrpc.Request{ID: mustID(t, float64(2)), Method: "ping", Extra: given}}, []string{""}, []any{float64(2)}, false},
		{"a response read", []jsonrpc.Message{&jsonrpc.Response{ID: mustID(t, float64(3))}}, []string{""}, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var ids requestIDs
			conn, err := idTransport{Transport: scriptTransport{&scriptConn{msgs: tc.read}}, ids: &ids}.Connect(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			c := conn.(*idConn)
			var extras []*sdk.RequestExtra
			for range tc.read {
				msg, err := c.Read(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				var extra *sdk.RequestExtra
				if req, ok := msg.(*jsonrpc.Request); ok {
					extra, _ = req.Extra.(*sdk.RequestExtra)
				}
				extras = append(extras, extra)
			}
			for i, extra := range extras {
				if got := ids.find(extra); got != tc.want[i] {
					t.Errorf("message %d: id %q, want %q", i+1, got, tc.want[i])
				}
			}
			for _, id := range tc.answered {
				if err := c.Write(context.Background(), &jsonrpc.Response{ID: mustID(t, id)}); err != nil {
					t.Fatal(err)
				}
			}
			if tc.close {
				if err := c.Close(); err != nil {
					t.Fatal(err)
				}
			}
			n := 0
			ids.extras.Range(func(any, any) bool { n++; return true })
			if n != 0 || len(c.open) != 0 {
				t.Errorf("%d ids noted, %d requests open after the answers and the close, want none", n, len(c.open))
			}
		})
	}
}
