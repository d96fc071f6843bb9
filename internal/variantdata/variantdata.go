// Package variantdata writes, for tests, traces naming a launch variant of
// the shared catalogs (playwright__mcp's caps-vision-pdf captures) in each
// form a trace may name it, and a catalog directory holding those
// captures: so that every entry point reading traces (trace validate and
// stats, run, recommend, calibrate, the Beam pipeline) is tested on the
// same sessions. Only tests import it.
package variantdata

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/defersim/defersim/internal/shareddata"
)

// The shared captures the sessions name: one server, launched plain and
// with the caps-vision-pdf variant, at two versions each.
const (
	Server  = "playwright__mcp"
	Variant = "caps-vision-pdf"
	From    = "0.0.45"
	To      = "0.0.60"
)

// Series is the variant's series key.
const Series = Server + "+" + Variant

// The tools the sessions call: FromTool only the variant serves (at both
// versions), ToTool only the variant at To.
const (
	FromTool = "browser_pdf_save"
	ToTool   = "browser_mouse_wheel"
)

// Form is how a trace names the variant: in session_start and the
// catalog_change (Name at Version, then at ChangeTo) and in its tool calls
// (CallServer).
type Form struct {
	Label                   string
	Name, Version, ChangeTo string
	CallServer              string
}

// Forms are the ways a trace may name the variant: in the version (as the
// catalog file name writes it), with calls naming the bare server or the
// series key, and by its series key at a plain version.
var Forms = []Form{
	{Label: "variant in the version", Name: Server, Version: From + "+" + Variant, ChangeTo: To + "+" + Variant,
		CallServer: Server},
	{Label: "variant in the version and calls by series key", Name: Server, Version: From + "+" + Variant, ChangeTo: To + "+" + Variant,
		CallServer: Series},
	{Label: "series key", Name: Series, Version: From, ChangeTo: To, CallServer: Series},
}

// Catalogs copies the shared captures of Server at From and To, plain and
// with the variant, into a new directory dir/catalogs, which it returns
// (skipping tb where the shared data is absent).
func Catalogs(tb shareddata.TB, dir string) string {
	tb.Helper()
	out := filepath.Join(dir, "catalogs")
	if err := os.MkdirAll(out, 0o755); err != nil {
		tb.Fatalf("%v", err)
	}
	for _, v := range []string{From, To} {
		for _, name := range []string{Server + "@" + v + ".json", Server + "@" + v + "+" + Variant + ".json"} {
			data, err := os.ReadFile(shareddata.Path(tb, "catalogs", name))
			if err != nil {
				tb.Fatalf("%v", err)
			}
			if err := os.WriteFile(filepath.Join(out, name), data, 0o644); err != nil {
				tb.Fatalf("%v", err)
			}
		}
	}
	return out
}

// Trace returns n sessions in form f as a trace: each names the variant at
// From, calls FromTool, moves to To with a catalog_change and calls
// ToTool, with recorded times and usage (so calibrate has something to
// fit). meta, when set, is the session_start meta (a catalog, say).
func Trace(f Form, n int, meta map[string]string) []byte {
	var b strings.Builder
	line := func(v map[string]any) {
		data, err := json.Marshal(v)
		if err != nil {
			panic(err) // maps of strings and numbers always marshal
		}
		b.Write(data)
		b.WriteByte('\n')
	}
	for i := range n {
		id := fmt.Sprintf("variant-%d", i)
		at := func(s int) string { return fmt.Sprintf("2026-01-01T%02d:00:%02dZ", i%24, s) }
		start := map[string]any{"v": 1, "type": "session_start", "session": id, "t": at(0), "model": "claude-sonnet-4.5",
			"system_prompt_tokens": 2000, "servers": []map[string]string{{"name": f.Name, "version": f.Version}}}
		if meta != nil {
			start["meta"] = meta
		}
		line(start)
		line(map[string]any{"type": "user", "session": id, "t": at(1), "text": "save the page as a pdf, then scroll down"})
		line(map[string]any{"type": "model_request", "session": id, "t": at(2), "id": "r1", "ttft_ms": 900 + 50*i, "duration_ms": 1500 + 70*i,
			"usage": map[string]int{"input": 9000 + 10*i, "output": 40}})
		line(map[string]any{"type": "tool_call", "session": id, "t": at(4), "request": "r1", "call_id": "c1", "tool": FromTool,
			"server": f.CallServer, "status": "ok", "args": map[string]string{"filename": "page.pdf"}, "duration_ms": 300})
		line(map[string]any{"type": "catalog_change", "session": id, "t": at(5), "server": f.Name, "version": f.ChangeTo})
		line(map[string]any{"type": "model_request", "session": id, "t": at(6), "id": "r2", "ttft_ms": 800 + 30*i, "duration_ms": 1200 + 40*i,
			"usage": map[string]int{"input": 9100 + 10*i, "output": 30}})
		line(map[string]any{"type": "tool_call", "session": id, "t": at(8), "request": "r2", "call_id": "c2", "tool": ToTool,
			"server": f.CallServer, "status": "ok", "args": map[string]int{"deltaX": 0, "deltaY": 400}, "duration_ms": 100})
		line(map[string]any{"type": "model_request", "session": id, "t": at(9), "id": "r3", "ttft_ms": 700 + 20*i, "duration_ms": 1000 + 30*i,
			"usage": map[string]int{"input": 9200 + 10*i, "output": 10}})
		line(map[string]any{"type": "assistant", "session": id, "t": at(11), "request": "r3", "text": "done"})
		line(map[string]any{"type": "session_end", "session": id, "t": at(12)})
	}
	return []byte(b.String())
}

// WriteTrace writes Trace(f, n, meta) to dir/name and returns its path.
func WriteTrace(tb shareddata.TB, dir, name string, f Form, n int, meta map[string]string) string {
	tb.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, Trace(f, n, meta), 0o644); err != nil {
		tb.Fatalf("%v", err)
	}
	return path
}
