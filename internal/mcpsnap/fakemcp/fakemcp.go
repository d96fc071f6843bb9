// Package fakemcp is a small MCP server for tests of mcpsnap and the
// snapshot command. It speaks newline-delimited JSON-RPC on stdin/stdout and
// can be told to misbehave: exit early, print junk on stdout, never answer,
// loop in pagination, ignore the signals that should stop it. Tests run it
// by re-executing their own binary with EnvMode set (see Main).
package fakemcp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Environment variables that configure the fake.
const (
	// EnvMode selects the behaviour (a Mode); when set, Main serves and exits.
	EnvMode = "DEFERSIM_FAKE_MCP"
	// EnvPageSize is the number of tools per tools/list page (default 3).
	EnvPageSize = "DEFERSIM_FAKE_PAGE"
	// EnvPIDFile, when set, names a file the fake appends "self <pid>" to,
	// "child <pid>" for a process it spawns, and "hung <pid>" when it
	// starts hanging (ModeHang, ModeHangSetsid, ModeHangList), after the
	// stderr lines it writes before (see HungContext).
	EnvPIDFile = "DEFERSIM_FAKE_PIDFILE"
	// EnvState names a counter file used by ModeUnstable.
	EnvState = "DEFERSIM_FAKE_STATE"
)

// Modes.
const (
	ModeOK         = "ok"           // serve the tools, paginated
	ModeSDK        = "sdk"          // serve the tools through the Go SDK's server
	ModeExitEarly  = "exit-early"   // complain on stderr and exit 3 at once
	ModeJunk       = "junk"         // print a banner on stdout, then serve
	ModeBadMessage = "bad-message"  // print a JSON value that is no message
	ModeHang       = "hang"         // spawn a child, read stdin, never answer
	ModeHangSetsid = "hang-setsid"  // ModeHang, the child in a new session (out of the process group)
	ModeHangList   = "hang-list"    // answer initialize, never tools/list
	ModeExitOnList = "exit-on-list" // exit 4 when tools/list arrives
	ModeCursorLoop = "cursor-loop"  // always return the same nextCursor
	ModeLinger     = "linger"       // serve, then ignore stdin EOF and SIGTERM
	ModeUnstable   = "unstable"     // a description changes on every start
	ModeErrorInit  = "error-init"   // answer initialize with an error
	ModeDuplicate  = "duplicate"    // serve two tools with the same name
	ModeFlood      = "stderr-flood" // write 100 stderr lines, exit 1
	ModeNoTools    = "no-tools"     // serve an empty tool list
	ModeNoSchema   = "no-schema"    // serve a tool without inputSchema among the others
	modeSleep      = "sleep"        // the spawned child: sleep
)

// Tools are the fake's tools, as it serves them (compact, in this key
// order). They carry fields MCP clients do not all model ("title",
// "outputSchema", "_meta", a vendor extension), a number spelled 1.0 and a
// non-ASCII character, so a capture can be checked to keep them.
var Tools = []string{
	`{"name":"alpha_lookup","title":"Alpha lookup","description":"Find an alpha record by its id.","inputSchema":{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}}`,
	`{"inputSchema":{"type":"object","properties":{"text":{"type":"string","maxLength":200}}},"name":"beta_echo","description":"Return the text unchanged."}`,
	`{"name":"gamma_sum","description":"Add a list of numbers.","inputSchema":{"type":"object","properties":{"values":{"type":"array","items":{"type":"number"},"minItems":1}},"required":["values"]},"outputSchema":{"type":"object","properties":{"total":{"type":"number"}}}}`,
	`{"name":"delta_scale","description":"Multiply a value by a factor (default 1.0).","inputSchema":{"type":"object","properties":{"value":{"type":"number"},"factor":{"type":"number","default":1.0}},"required":["value"]},"x-vendor":{"tier":1.0}}`,
	`{"name":"epsilon_note","description":"Store a short note (caf\u00e9 menus welcome).","inputSchema":{"type":"object","properties":{"note":{"type":"string"}},"required":["note"]},"annotations":{"readOnlyHint":false,"idempotentHint":true}}`,
	`{"name":"zeta_clock","description":"Tell the time in a zone.","inputSchema":{"type":"object","properties":{"zone":{"type":"string","enum":["UTC","local"]}}},"_meta":{"example.org/origin":"fake"}}`,
	`{"name":"eta_ping","description":"Answer with pong.","inputSchema":{"type":"object"}}`,
}

// Main serves mode and exits the process. It never returns.
func Main(mode string) {
	code := serve(mode, os.Stdin, os.Stdout, os.Stderr)
	os.Exit(code)
}

func serve(mode string, in io.Reader, out, errw io.Writer) int {
	if mode != modeSleep {
		writePID("self", os.Getpid())
	}
	switch mode {
	case ModeExitEarly:
		fmt.Fprintln(errw, "fake: starting")
		fmt.Fprintln(errw, "fake: cannot read config file /nonexistent/fake.conf")
		return 3
	case ModeFlood:
		for i := 1; i <= 100; i++ {
			fmt.Fprintf(errw, "fake: flood line %d\n", i)
		}
		return 1
	case modeSleep:
		time.Sleep(time.Hour)
		return 0
	case ModeHang, ModeHangSetsid:
		child := exec.Command(os.Args[0], os.Args[1:]...)
		child.Env = append(os.Environ(), EnvMode+"="+modeSleep)
		if mode == ModeHangSetsid {
			newSession(child)
		}
		if err := child.Start(); err == nil {
			writePID("child", child.Process.Pid)
		}
		fmt.Fprintln(errw, "fake: hanging")
		writePID(hungKind, os.Getpid())
		_, _ = io.Copy(io.Discard, in)
		time.Sleep(time.Hour)
		return 0
	case ModeSDK:
		return serveSDK()
	case ModeJunk:
		fmt.Fprintln(errw, "fake: printing a banner on stdout")
		fmt.Fprintln(out, "fake server v0.1 starting")
	case ModeBadMessage:
		fmt.Fprintln(errw, "fake: printing a stray JSON object on stdout")
		fmt.Fprintln(out, `{"status":"booting"}`)
	case ModeLinger:
		signal.Ignore(syscall.SIGTERM)
	}
	fmt.Fprintln(errw, "fake: ready")
	return loop(mode, in, out, errw)
}

// request is an incoming JSON-RPC message.
type request struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

func loop(mode string, in io.Reader, out, errw io.Writer) int {
	pageSize := 3
	if n, err := strconv.Atoi(os.Getenv(EnvPageSize)); err == nil && n > 0 {
		pageSize = n
	}
	tools := Tools
	switch mode {
	case ModeUnstable:
		tools = unstableTools()
	case ModeDuplicate:
		tools = append(append([]string(nil), Tools...), Tools[0])
	case ModeNoTools:
		tools = nil
	case ModeNoSchema:
		tools = append(append([]string(nil), Tools...), `{"name":"theta_bare","description":"A tool that declares no input schema."}`)
	}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var req request
		if err := json.Unmarshal(sc.Bytes(), &req); err != nil {
			fmt.Fprintf(errw, "fake: bad message: %v\n", err)
			continue
		}
		if len(req.ID) == 0 || req.Method == "" {
			continue // notification or response
		}
		switch req.Method {
		case "initialize":
			if mode == ModeErrorInit {
				reply(out, req.ID, "", `{"code":-32603,"message":"boom: fake initialize failure"}`)
				continue
			}
			var p struct {
				ProtocolVersion string `json:"protocolVersion"`
			}
			_ = json.Unmarshal(req.Params, &p)
			res := fmt.Sprintf(`{"protocolVersion":%q,"capabilities":{"tools":{"listChanged":true}},"serverInfo":{"name":"fake-server","version":"1.2.3"},"instructions":"A fake server for tests."}`, p.ProtocolVersion)
			reply(out, req.ID, res, "")
		case "tools/list":
			switch mode {
			case ModeHangList:
				writePID(hungKind, os.Getpid())
				continue
			case ModeExitOnList:
				fmt.Fprintln(errw, "fake: crashing on tools/list")
				return 4
			case ModeCursorLoop:
				reply(out, req.ID, `{"tools":[`+Tools[0]+`],"nextCursor":"same"}`, "")
				continue
			}
			var p struct {
				Cursor string `json:"cursor"`
			}
			_ = json.Unmarshal(req.Params, &p)
			start := 0
			if p.Cursor != "" {
				n, err := strconv.Atoi(strings.TrimPrefix(p.Cursor, "page-"))
				if err != nil || n < 0 || n > len(tools) {
					reply(out, req.ID, "", `{"code":-32602,"message":"bad cursor"}`)
					continue
				}
				start = n
			}
			end := min(start+pageSize, len(tools))
			res := `{"tools":[` + strings.Join(tools[start:end], ",") + `]`
			if end < len(tools) {
				res += fmt.Sprintf(`,"nextCursor":"page-%d"`, end)
			}
			reply(out, req.ID, res+"}", "")
		case "ping":
			reply(out, req.ID, `{}`, "")
		default:
			reply(out, req.ID, "", `{"code":-32601,"message":"method not found"}`)
		}
	}
	fmt.Fprintln(errw, "fake: stdin closed")
	if mode == ModeLinger {
		time.Sleep(time.Hour)
	}
	return 0
}

func reply(out io.Writer, id json.RawMessage, result, errObj string) {
	if errObj != "" {
		fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"error":%s}`+"\n", id, errObj)
		return
	}
	fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", id, result)
}

// unstableTools changes the first tool's description on every start, using
// a counter file.
func unstableTools() []string {
	n := 0
	if path := os.Getenv(EnvState); path != "" {
		if b, err := os.ReadFile(path); err == nil {
			n, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		}
		n++
		_ = os.WriteFile(path, []byte(strconv.Itoa(n)), 0o644)
	}
	out := append([]string(nil), Tools...)
	out[0] = fmt.Sprintf(`{"name":"alpha_lookup","description":"Find an alpha record (start %d).","inputSchema":{"type":"object"}}`, n)
	return out
}

func writePID(kind string, pid int) {
	path := os.Getenv(EnvPIDFile)
	if path == "" {
		return
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	fmt.Fprintf(f, "%s %d\n", kind, pid)
	f.Close()
}

// NewSDKServer returns a Go SDK server serving the fake's tools, pageSize
// per tools/list page.
func NewSDKServer(pageSize int) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "fake-sdk-server", Version: "0.9.0"},
		&mcp.ServerOptions{PageSize: pageSize, Instructions: "A fake server built on the Go SDK."})
	for _, raw := range Tools {
		var t struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			InputSchema json.RawMessage `json:"inputSchema"`
		}
		if err := json.Unmarshal([]byte(raw), &t); err != nil {
			continue
		}
		s.AddTool(&mcp.Tool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
			})
	}
	return s
}

func serveSDK() int {
	pageSize := 3
	if n, err := strconv.Atoi(os.Getenv(EnvPageSize)); err == nil && n > 0 {
		pageSize = n
	}
	if err := NewSDKServer(pageSize).Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintf(os.Stderr, "fake: %v\n", err)
		return 1
	}
	return 0
}
