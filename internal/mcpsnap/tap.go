package mcpsnap

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// recorder watches the JSON-RPC traffic of one capture: it keeps the raw
// results of initialize and of every tools/list page, when each arrived, and
// the first error the transport reported on a read.
type recorder struct {
	mu        sync.Mutex
	pending   map[jsonrpc.ID]string // request id → method
	initRaw   json.RawMessage
	initAt    time.Time
	pages     []json.RawMessage
	listAt    time.Time
	readErr   error
	httpErr   error // the first HTTP request that got no response
	connected time.Time
}

// httpFailed records an HTTP request that got no response (a refused
// connection, a DNS failure).
func (r *recorder) httpFailed(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.httpErr == nil {
		r.httpErr = err
	}
}

func (r *recorder) firstHTTPErr() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.httpErr
}

func newRecorder() *recorder { return &recorder{pending: map[jsonrpc.ID]string{}} }

func (r *recorder) sent(msg jsonrpc.Message) {
	req, ok := msg.(*jsonrpc.Request)
	if !ok || !req.IsCall() {
		return
	}
	r.mu.Lock()
	r.pending[req.ID] = req.Method
	r.mu.Unlock()
}

func (r *recorder) received(msg jsonrpc.Message, err error) {
	now := time.Now()
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil {
		if r.readErr == nil && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
			r.readErr = err
		}
		return
	}
	resp, ok := msg.(*jsonrpc.Response)
	if !ok {
		return
	}
	method, ok := r.pending[resp.ID]
	if !ok {
		return
	}
	delete(r.pending, resp.ID)
	if resp.Error != nil {
		return
	}
	switch method {
	case "initialize":
		r.initRaw = slices.Clone(resp.Result)
		r.initAt = now
	case "tools/list":
		r.pages = append(r.pages, slices.Clone(resp.Result))
		r.listAt = now
	}
}

func (r *recorder) firstReadErr() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.readErr
}

// tapTransport wraps a transport so that a recorder sees every message.
type tapTransport struct {
	inner mcp.Transport
	rec   *recorder
}

func (t *tapTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	t.rec.mu.Lock()
	t.rec.connected = time.Now()
	t.rec.mu.Unlock()
	return &tapConn{inner: c, rec: t.rec}, nil
}

type tapConn struct {
	inner mcp.Connection
	rec   *recorder
}

func (c *tapConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.inner.Read(ctx)
	c.rec.received(msg, err)
	return msg, err
}

func (c *tapConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	c.rec.sent(msg)
	return c.inner.Write(ctx, msg)
}

func (c *tapConn) Close() error      { return c.inner.Close() }
func (c *tapConn) SessionID() string { return c.inner.SessionID() }

// protocolVersion returns the version the server chose in its initialize
// answer, or "".
func (r *recorder) protocolVersion() string {
	r.mu.Lock()
	raw := r.initRaw
	r.mu.Unlock()
	if raw == nil {
		return ""
	}
	var res struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	_ = json.Unmarshal(raw, &res)
	return res.ProtocolVersion
}
