package mcpsnap

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Capture is one run of the handshake against a server.
type Capture struct {
	// StartedAt is when the process was started (stdio) or the first request
	// was about to be sent (HTTP).
	StartedAt time.Time
	// Initialize is the initialize result exactly as served.
	Initialize json.RawMessage
	// Tools holds the tool objects exactly as served, across all pages, in
	// order.
	Tools []json.RawMessage
	// Pages is the number of tools/list responses.
	Pages int
	// InitializeAfter is the time from StartedAt until the initialize answer
	// arrived; ToolsListAfter until the last tools/list page arrived.
	InitializeAfter time.Duration
	ToolsListAfter  time.Duration
	// Stderr holds the server's last stderr lines (stdio only).
	Stderr []string
	// PID is the server process id (stdio only); the process has been reaped
	// when Run returns.
	PID int
}

// exitWait is how long a failed capture waits for a process whose stdout
// ended to report its exit status.
const exitWait = 2 * time.Second

// Run captures t once: it starts the server (or reaches its URL), sends
// initialize with the configured protocol version, notifications/initialized,
// then tools/list until no nextCursor is returned. The server process is
// stopped (stdin closed, then SIGTERM, then SIGKILL to its process group) and
// reaped before Run returns, on success and on failure. A failure is a
// *StepError naming the step.
func Run(ctx context.Context, t Target, opts Options) (*Capture, error) {
	if err := t.Validate(); err != nil {
		return nil, &StepError{Server: t.Name, Step: StepStart, Failure: FailLaunch, Detail: err.Error(), Err: err}
	}
	opts = opts.withDefaults()
	ctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	c := &capturer{target: t, opts: opts, ctx: ctx, rec: newRecorder()}
	defer func() {
		// A safety net: every path below stops the process itself.
		if c.proc != nil && !c.proc.hasExited(0) {
			c.proc.kill()
		}
	}()
	return c.run()
}

type capturer struct {
	target Target
	opts   Options
	ctx    context.Context
	rec    *recorder
	proc   *process
}

func (c *capturer) run() (*Capture, error) {
	var transport mcp.Transport
	var started time.Time
	if c.target.URL != "" {
		hc := *c.opts.HTTPClient
		base := hc.Transport
		if base == nil {
			base = http.DefaultTransport
		}
		hc.Transport = &versionHeader{base: base, rec: c.rec}
		transport = &mcp.StreamableClientTransport{
			Endpoint:             c.target.URL,
			HTTPClient:           &hc,
			MaxRetries:           -1,
			DisableStandaloneSSE: true,
		}
		started = time.Now()
	} else {
		p, err := startProcess(c.target, c.opts.StderrLines)
		if err != nil {
			return nil, &StepError{Server: c.target.Name, Step: StepStart, Failure: FailLaunch,
				Detail: fmt.Sprintf("cannot start %q: %v", c.target.Command, err), Err: err}
		}
		c.proc = p
		started = p.started
		transport = &mcp.IOTransport{Reader: p.stdout, Writer: p.stdin}
	}
	client := mcp.NewClient(&mcp.Implementation{Name: c.opts.ClientName, Version: c.opts.ClientVersion},
		&mcp.ClientOptions{Logger: slog.New(slog.DiscardHandler)})
	cs, err := client.Connect(c.ctx, &tapTransport{inner: transport, rec: c.rec},
		&mcp.ClientSessionOptions{ProtocolVersion: c.opts.ProtocolVersion})
	if err != nil {
		return nil, c.fail(StepInitialize, err)
	}
	pages := 0
	cursor := ""
	seen := map[string]bool{}
	for {
		if pages >= c.opts.MaxPages {
			return nil, c.failClose(cs, StepToolsList, protocolError{fmt.Errorf("more than %d pages of tools", c.opts.MaxPages)})
		}
		res, err := cs.ListTools(c.ctx, &mcp.ListToolsParams{Cursor: cursor})
		if err != nil {
			return nil, c.failClose(cs, StepToolsList, err)
		}
		pages++
		if res.NextCursor == "" {
			break
		}
		if seen[res.NextCursor] {
			return nil, c.failClose(cs, StepToolsList, protocolError{fmt.Errorf("the server returned cursor %q twice (pagination loop)", res.NextCursor)})
		}
		seen[res.NextCursor] = true
		cursor = res.NextCursor
	}
	c.rec.mu.Lock()
	initRaw, initAt, raws, listAt := c.rec.initRaw, c.rec.initAt, c.rec.pages, c.rec.listAt
	c.rec.mu.Unlock()
	if initRaw == nil {
		return nil, c.failClose(cs, StepInitialize, protocolError{errors.New("the initialize answer was not seen on the wire")})
	}
	if len(raws) != pages {
		return nil, c.failClose(cs, StepToolsList, protocolError{fmt.Errorf("%d tools/list calls but %d answers seen on the wire", pages, len(raws))})
	}
	tools, err := toolsOfPages(raws)
	if err != nil {
		return nil, c.failClose(cs, StepToolsList, protocolError{err})
	}
	cs.Close()
	capt := &Capture{
		StartedAt:       started,
		Initialize:      initRaw,
		Tools:           tools,
		Pages:           pages,
		InitializeAfter: initAt.Sub(started),
		ToolsListAfter:  listAt.Sub(started),
	}
	if c.proc != nil {
		c.proc.stop(c.opts.Grace)
		capt.Stderr = c.proc.stderr.Lines()
		capt.PID = c.proc.PID()
	}
	return capt, nil
}

// toolsOfPages concatenates the "tools" arrays of raw tools/list results,
// keeping each tool's bytes as served.
func toolsOfPages(pages []json.RawMessage) ([]json.RawMessage, error) {
	var tools []json.RawMessage
	for i, raw := range pages {
		var page struct {
			Tools *[]json.RawMessage `json:"tools"`
		}
		if err := json.Unmarshal(raw, &page); err != nil {
			return nil, fmt.Errorf("page %d: invalid tools/list result: %w", i+1, err)
		}
		if page.Tools == nil {
			return nil, fmt.Errorf("page %d: tools/list result has no \"tools\" array", i+1)
		}
		for j, t := range *page.Tools {
			if len(bytes.TrimSpace(t)) == 0 || bytes.TrimSpace(t)[0] != '{' {
				return nil, fmt.Errorf("page %d: tools[%d] is not an object", i+1, j)
			}
			tools = append(tools, t)
		}
	}
	return tools, nil
}

// protocolError is a failure the capture itself detected in what the
// server sent (not a transport or process failure).
type protocolError struct{ error }

func (e protocolError) Unwrap() error { return e.error }

// fail ends the server and describes the failure of step.
func (c *capturer) fail(step Step, err error) *StepError {
	se := &StepError{Server: c.target.Name, Step: step, Err: err}
	readErr := c.rec.firstReadErr()
	var we *jsonrpc.Error
	var pe protocolError
	// On stdio every read error other than the end of the stream (or our own
	// closing of it) means the server wrote something that is not a JSON-RPC
	// message: not JSON, trailing data, an oversized frame, a JSON value
	// that is no message.
	junk := c.proc != nil && readErr != nil && !errors.Is(readErr, io.EOF) &&
		!errors.Is(readErr, os.ErrClosed) && !errors.Is(readErr, io.ErrClosedPipe)
	timedOut := c.ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded)
	answered := errors.As(err, &we) || errors.As(err, &pe)
	exited := false
	if c.proc != nil && !timedOut && !junk && !answered {
		exited = c.proc.hasExited(exitWait)
	}
	status := ""
	if c.proc != nil {
		status = c.proc.exitStatus()
		c.proc.kill()
		se.Stderr = c.proc.stderr.Lines()
	}
	httpErr := c.rec.firstHTTPErr()
	switch {
	case c.proc == nil && httpErr != nil && !timedOut && !errors.Is(c.ctx.Err(), context.Canceled):
		// Nothing answered: the SDK reports a failed connection as a
		// JSON-RPC error (-32005), which would read as the server's answer.
		se.Failure = FailConnect
		se.Detail = fmt.Sprintf("cannot reach %s: %v", c.target.URL, httpErr)
	case junk:
		se.Failure = FailJunk
		line := ""
		if c.proc != nil {
			line = c.proc.tail.junkLine()
		}
		se.Detail = fmt.Sprintf("the server wrote a line that is not JSON-RPC on stdout: %q (%v)", line, readErr)
	case errors.Is(c.ctx.Err(), context.Canceled):
		se.Failure = FailCanceled
		se.Detail = "the capture was canceled"
	case timedOut:
		se.Failure = FailTimeout
		se.Detail = fmt.Sprintf("no answer within the %s timeout", c.opts.Timeout)
	case we != nil:
		se.Failure = FailProtocol
		se.Detail = fmt.Sprintf("the server answered with error %d: %s", we.Code, we.Message)
	case exited:
		se.Failure = FailExited
		se.Detail = fmt.Sprintf("the server exited before answering (%s)", status)
	case errors.Is(readErr, io.EOF) && c.proc != nil:
		se.Failure = FailExited
		se.Detail = "the server closed its stdout before answering"
	default:
		se.Failure = FailProtocol
		se.Detail = err.Error()
	}
	return se
}

// failClose describes the failure (ending the server first, so that its
// exit is not mistaken for the cause) and then closes the session.
func (c *capturer) failClose(cs *mcp.ClientSession, step Step, err error) *StepError {
	se := c.fail(step, err)
	_ = cs.Close()
	return se
}

// versionHeader adds the negotiated Mcp-Protocol-Version header to HTTP
// requests that lack it. The SDK sets it itself only through a hook that a
// wrapped connection (our recorder) hides.
type versionHeader struct {
	base http.RoundTripper
	rec  *recorder
}

func (v *versionHeader) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Header.Get("Mcp-Protocol-Version") == "" {
		if pv := v.rec.protocolVersion(); pv != "" {
			req = req.Clone(req.Context())
			req.Header.Set("Mcp-Protocol-Version", pv)
		}
	}
	resp, err := v.base.RoundTrip(req)
	if err != nil {
		v.rec.httpFailed(err)
	}
	return resp, err
}
