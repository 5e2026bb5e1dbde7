package mcp

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// requestIDs finds the JSON-RPC id of the request a receiving middleware
// handles (RequestInfo.RequestID), which the Go SDK (v1.8.0) does not hand
// to middleware (modelcontextprotocol/go-sdk#1264). What it does hand over
// is the request's *sdk.RequestExtra, which identifies the message:
//
//   - On stdio, and any transport given to ServeTransport, the connection
//     is wrapped (idConn): as it reads a request it gives it a RequestExtra
//     of its own and notes the request's id under it, and it forgets the
//     note as it writes the response (or closes).
//   - Over HTTP the SDK makes the RequestExtra, with the header of the HTTP
//     request that carried the message. Handler gives each POST holding
//     one request a header of its own (a clone) and notes the request's id
//     under that header until the POST is answered. A JSON-RPC batch
//     (protocols before 2025-06-18) shares one header among its messages:
//     its requests go without an id.
//
// Both are identities, not guesses: calls are handled concurrently, so
// the order in which messages were read says nothing of which handler is
// which.
type requestIDs struct {
	extras  sync.Map // *sdk.RequestExtra -> string (idConn)
	headers sync.Map // the header map's pointer (uintptr) -> string (Handler)
}

// find returns the id of the request whose RequestExtra is extra, or "".
func (ids *requestIDs) find(extra *sdk.RequestExtra) string {
	if extra == nil {
		return ""
	}
	if id, ok := ids.extras.Load(extra); ok {
		return id.(string)
	}
	if extra.Header != nil {
		if id, ok := ids.headers.Load(headerKey(extra.Header)); ok {
			return id.(string)
		}
	}
	return ""
}

// withHeader returns r with a header of its own under which the request id
// id (as checkMessage returned it) is noted, and the function that
// forgets it, to be called once the request is answered. r is returned
// as it is when id is nil.
func (ids *requestIDs) withHeader(r *http.Request, id any) (*http.Request, func()) {
	s := idText(id)
	if s == "" {
		return r, func() {}
	}
	r = r.Clone(r.Context())
	if r.Header == nil {
		r.Header = http.Header{}
	}
	key := headerKey(r.Header)
	ids.headers.Store(key, s)
	return r, func() { ids.headers.Delete(key) }
}

// headerKey identifies a header map: its pointer, which stays the same
// while the map lives (Go's collector does not move objects), and which
// is noted only while the request holding the map is served.
func headerKey(h http.Header) uintptr { return reflect.ValueOf(h).Pointer() }

// idText is the text of a JSON-RPC id as checkMessage returns it (a
// string, a json.Number, or nil), the same as jsonrpcID gives for the id
// the SDK decodes from it: a number's integer digits, a string as it is,
// "" for none.
func idText(id any) string {
	switch id := id.(type) {
	case string:
		return id
	case json.Number:
		f, err := id.Float64()
		if err != nil {
			return ""
		}
		jid, err := jsonrpc.MakeID(f)
		if err != nil {
			return ""
		}
		return jsonrpcID(jid)
	}
	return ""
}

// jsonrpcID is the text of an id of the SDK: a number's decimal digits, a
// string as it is, "" for none.
func jsonrpcID(id jsonrpc.ID) string {
	switch v := id.Raw().(type) {
	case int64:
		return strconv.FormatInt(v, 10)
	case string:
		return v
	}
	return ""
}

// idTransport is a transport whose connection is an idConn.
type idTransport struct {
	sdk.Transport
	ids *requestIDs
}

// Connect implements sdk.Transport.
func (t idTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &idConn{Connection: c, ids: t.ids, open: map[jsonrpc.ID]*sdk.RequestExtra{}}, nil
}

// idConn notes the id of each request it reads under a RequestExtra it
// gives the request (see requestIDs). One thing of the connection it
// wraps is lost: the SDK tells its own stdio connection the negotiated
// protocol version through an unexported method, to refuse JSON-RPC
// batches from 2025-06-18 on, which a wrapper cannot pass on; so a batch
// sent on stdio after such an initialize is served as before that
// version, not refused.
type idConn struct {
	sdk.Connection
	ids *requestIDs

	mu   sync.Mutex
	open map[jsonrpc.ID]*sdk.RequestExtra // requests read and not yet answered
}

// Read implements sdk.Connection.
func (c *idConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() && req.Extra == nil {
		extra := &sdk.RequestExtra{}
		req.Extra = extra
		c.mu.Lock()
		if old := c.open[req.ID]; old != nil {
			// A client that reuses an id in flight: the later request
			// takes it.
			c.ids.extras.Delete(old)
		}
		c.open[req.ID] = extra
		c.mu.Unlock()
		c.ids.extras.Store(extra, jsonrpcID(req.ID))
	}
	return msg, err
}

// Write implements sdk.Connection: a response ends its request's note.
func (c *idConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.mu.Lock()
		if extra := c.open[resp.ID]; extra != nil {
			delete(c.open, resp.ID)
			c.ids.extras.Delete(extra)
		}
		c.mu.Unlock()
	}
	return c.Connection.Write(ctx, msg)
}

// Close implements sdk.Connection: it forgets the requests not answered.
func (c *idConn) Close() error {
	c.mu.Lock()
	for id, extra := range c.open {
		delete(c.open, id)
		c.ids.extras.Delete(extra)
	}
	c.mu.Unlock()
	return c.Connection.Close()
}
