package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/bounded"
)

// hostileTools returns the tools of a catalog whose schemas are legal JSON
// but hostile to what consumes them: $ref cycles, numbers that overflow,
// negative lengths and one schema of about 2.5 MB (the catalog loader
// takes a 10 MB one in catalog). v2 adds a required
// property to each, so a name-keyed warm set calls them stale and the
// validator compiles both versions.
func hostileTools(v2 bool) []map[string]any {
	schema := func(s map[string]any) map[string]any {
		if v2 {
			props := s["properties"].(map[string]any)
			props["extra"] = map[string]any{"type": "string"}
			s["required"] = []string{"extra"}
		}
		return s
	}
	huge := map[string]any{}
	for i := range 25000 {
		huge[fmt.Sprintf("p%06d", i)] = map[string]any{"type": "string", "description": strings.Repeat("d", 60)}
	}
	return []map[string]any{
		{"name": "walk", "description": "Walk a graph.", "inputSchema": schema(map[string]any{"type": "object",
			"$defs": map[string]any{"a": map[string]any{"$ref": "#/$defs/b"}, "b": map[string]any{"$ref": "#/$defs/a"},
				"node": map[string]any{"type": "object", "properties": map[string]any{"next": map[string]any{"$ref": "#/$defs/node"}}}},
			"properties": map[string]any{"x": map[string]any{"$ref": "#/$defs/a"}, "n": map[string]any{"$ref": "#/$defs/node"},
				"self": map[string]any{"$ref": "#"}}})},
		{"name": "big", "description": "Huge bounds.", "inputSchema": schema(map[string]any{"type": "object",
			"properties": map[string]any{"n": map[string]any{"type": "integer", "maximum": json.Number("1e400"),
				"minimum": json.Number("-1e400"), "multipleOf": json.Number("1e-400")},
				"s": map[string]any{"type": "string", "maxLength": json.Number("99999999999999999999")}}})},
		{"name": "neg", "description": "Negative lengths.", "inputSchema": schema(map[string]any{"type": "object",
			"properties": map[string]any{"items": map[string]any{"type": "array", "minItems": -5, "maxItems": -1,
				"items": map[string]any{"type": "string", "minLength": -3}}}})},
		{"name": "huge", "description": "A schema of megabytes.", "inputSchema": schema(map[string]any{"type": "object", "properties": huge})},
	}
}

// TestRunHostileCatalogs pins that a run over legal but hostile schemas
// ($ref cycles, overflowing numbers, negative lengths, a 2.5 MB schema),
// with mid-session upgrades that make every call stale under a name-keyed
// warm set, finishes with every session replayed, without a panic, and
// within a heap bound proportional to its inputs.
func TestRunHostileCatalogs(t *testing.T) {
	if testing.Short() {
		t.Skip("replays over a 2.5 MB schema")
	}
	dir := t.TempDir()
	cats := filepath.Join(dir, "catalogs")
	if err := os.Mkdir(cats, 0o755); err != nil {
		t.Fatal(err)
	}
	var size int64
	for _, v := range []struct {
		file string
		v2   bool
	}{{"hostile@1.json", false}, {"hostile@2.json", true}} {
		data, err := json.Marshal(map[string]any{"tools": hostileTools(v.v2)})
		if err != nil {
			t.Fatal(err)
		}
		size += int64(len(data))
		if err := os.WriteFile(filepath.Join(cats, v.file), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var lines []string
	for _, id := range []string{"h1", "h2"} {
		ev := func(sec int, typ, extra string) {
			v := ""
			if typ == "session_start" {
				v = `"v":1,`
			}
			lines = append(lines, fmt.Sprintf(`{%s"type":%q,"session":%q,"t":"2026-01-01T00:%02d:00Z"%s}`, v, typ, id, sec, extra))
		}
		ev(0, "session_start", `,"servers":[{"name":"hostile","version":"1"}]`)
		ev(1, "user", `,"text":"walk the graph and check the bounds"`)
		calls := func(sec int, req string) {
			ev(sec, "model_request", `,"id":"`+req+`","usage":{"input":100,"output":10}`)
			for i, c := range []struct{ tool, args string }{
				{"walk", `{"x":{"y":1},"n":{"next":{"next":{}}},"self":{"self":{}}}`},
				{"big", `{"n":1e300,"s":"x"}`},
				{"neg", `{"items":["a"]}`},
				{"huge", `{"p000001":"a","p024999":"b"}`},
			} {
				ev(sec, "tool_call", fmt.Sprintf(`,"request":%q,"call_id":"%s-%d","tool":%q,"server":"hostile","status":"ok","args":%s`, req, req, i, c.tool, c.args))
			}
		}
		calls(2, "r1")
		ev(3, "catalog_change", `,"server":"hostile","version":"2"`)
		calls(4, "r2")
		ev(5, "session_end", "")
	}
	trace := filepath.Join(dir, "trace.jsonl")
	if err := os.WriteFile(trace, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Tiktoken counting of megabytes of schema is linear but slow (about
	// 1 MB/s on a shared core); tokens pins its linearity on its own.
	scen := filepath.Join(dir, "scenario.yaml")
	if err := os.WriteFile(scen, []byte("name: hostile\ntraces: [trace.jsonl]\ncatalogs: [catalogs/]\nparams: {tokenizer: bytes/4}\n"+
		"strategies: [eager, claude-code-default, codex-cli, anchor-e7-per-tool]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	var stdout, stderr string
	var code int
	_, err := bounded.Run(t, bounded.Scaled(size, 32), func() error {
		stdout, stderr, code = cliRun(t, "run", scen, "-o", out, "--bootstrap", "-1")
		return nil
	})
	if err != nil || code != 0 {
		t.Fatalf("run: exit %d\n%s%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "replayed 2 of 2 sessions") {
		t.Errorf("not every session was replayed:\n%s", stdout)
	}
}

// TestRunDisorderedTrace pins what a run makes of a trace whose events are
// out of order: times that go backwards (the reader accepts them, counts
// them in results.json and the run warns, naming the first; validate
// reports them), a duplicate session id and an event before its
// session_start (both skipped with --skip-bad, the repeated session whole):
// every other session is replayed once and every metric in sessions.csv is
// finite and non-negative.
func TestRunDisorderedTrace(t *testing.T) {
	dir := t.TempDir()
	cats := filesCatalog(t, dir)
	session := func(id string) string {
		return `{"v":1,"type":"session_start","session":"` + id + `","t":"2026-01-01T10:00:00Z","servers":[{"name":"files","version":"1"}]}
{"type":"user","session":"` + id + `","t":"2026-01-01T10:00:05Z","text":"read the file"}
{"type":"model_request","session":"` + id + `","t":"2026-01-01T09:00:00Z","id":"r1","ttft_ms":500,"duration_ms":900,"usage":{"input":100,"output":10}}
{"type":"tool_call","session":"` + id + `","t":"2026-01-01T08:00:00Z","request":"r1","call_id":"c1","tool":"read_file","server":"files","args":{"path":"a"},"status":"ok","duration_ms":5}
{"type":"model_request","session":"` + id + `","t":"2025-01-01T09:00:00Z","id":"r2","ttft_ms":500,"duration_ms":900,"usage":{"input":100,"output":10}}
{"type":"assistant","session":"` + id + `","t":"2027-01-01T09:00:00Z","request":"r2","text":"done"}
{"type":"session_end","session":"` + id + `","t":"2020-01-01T10:00:06Z"}
`
	}
	trace := filepath.Join(dir, "trace.jsonl")
	data := `{"type":"user","session":"early","t":"2026-01-01T10:00:00Z","text":"before its start"}` + "\n" +
		session("s1") + session("s2") + session("s1")
	if err := os.WriteFile(trace, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	stdout, stderr, code := cliRun(t, "run", "--traces", trace, "--catalogs", cats, "-o", out, "--skip-bad",
		"--no-report", "--sessions-csv", "--bootstrap", "-1")
	if code != 0 || !strings.Contains(stdout, "replayed 2 of 2 sessions (0 skipped; 22 lines read, 8 skipped)") {
		t.Fatalf("run: exit %d\n%s%s", code, stdout, stderr)
	}
	// Four events of each of the two sessions go back in time.
	if !strings.Contains(stderr, "warning: 8 trace events are earlier than the event before them in their session") ||
		!strings.Contains(stderr, `trace.jsonl:4: session "s1": time goes backwards: 2026-01-01T09:00:00Z is before 2026-01-01T10:00:05Z at line 3`) {
		t.Errorf("no warning about the times going backwards, or not naming the first:\n%s", stderr)
	}
	var res struct {
		Run struct {
			Counts struct {
				Backwards int64 `json:"events_time_backwards"`
			} `json:"counts"`
		} `json:"run"`
	}
	raw, err := os.ReadFile(filepath.Join(out, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &res); err != nil || res.Run.Counts.Backwards != 8 {
		t.Errorf("results.json run.counts.events_time_backwards = %d (%v), want 8", res.Run.Counts.Backwards, err)
	}
	csv, err := os.ReadFile(filepath.Join(out, "sessions.csv"))
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSpace(string(csv)), "\n")
	for _, row := range rows[1:] {
		for i, cell := range strings.Split(row, ",")[2:] {
			v, err := strconv.ParseFloat(cell, 64)
			if err != nil || v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
				t.Errorf("row %q column %d: %q is not a finite non-negative number", row[:20], i+2, cell)
			}
		}
	}
}
