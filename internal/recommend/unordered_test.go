package recommend

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/tokens"
)

// TestUnorderedVersionsPriceTheVersionSessionsUse pins that a server whose
// versions are content hashes (no release order) is priced at the version
// the training sessions name most, not at the last by spelling: before,
// recommend took "ffff0000ffff" (one session, a small schema) as the
// latest and priced every session with it.
func TestUnorderedVersionsPriceTheVersionSessionsUse(t *testing.T) {
	dir := t.TempDir()
	cat := filepath.Join(dir, "catalog")
	if err := os.Mkdir(cat, 0o755); err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("Search the archive by a free-text query and return matching records. ", 12)
	write := func(version, desc string) {
		t.Helper()
		body := fmt.Sprintf(`{"tools":[{"name":"act","description":%q,"inputSchema":{"type":"object","properties":{"q":{"type":"string"}}}},`+
			`{"name":"look","description":"Look.","inputSchema":{"type":"object"}}]}`, desc)
		if err := os.WriteFile(filepath.Join(cat, "srv@"+version+".json"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const used, last = "aaaa0000aaaa", "ffff0000ffff"
	write(used, long)
	write(last, "Act.")
	var b strings.Builder
	for i := range 40 {
		v := used
		if i%20 == 0 {
			v = last
		}
		id := fmt.Sprintf("s%02d", i)
		ts := "2026-01-01T00:00:00Z"
		fmt.Fprintf(&b, `{"v":1,"type":"session_start","session":%q,"t":%q,"servers":[{"name":"srv","version":%q}]}`+"\n", id, ts, v)
		fmt.Fprintf(&b, `{"type":"user","session":%q,"t":%q,"text":"find the record"}`+"\n", id, ts)
		fmt.Fprintf(&b, `{"type":"model_request","session":%q,"t":%q,"id":"r1"}`+"\n", id, ts)
		fmt.Fprintf(&b, `{"type":"tool_call","session":%q,"t":%q,"request":"r1","call_id":"c1","tool":"act","server":"srv","args":{"q":"x"}}`+"\n", id, ts)
		fmt.Fprintf(&b, `{"type":"model_request","session":%q,"t":%q,"id":"r2"}`+"\n", id, ts)
		fmt.Fprintf(&b, `{"type":"assistant","session":%q,"t":%q,"text":"found it"}`+"\n", id, ts)
		fmt.Fprintf(&b, `{"type":"session_end","session":%q,"t":%q}`+"\n", id, ts)
	}
	trace := filepath.Join(dir, "t.jsonl")
	if err := os.WriteFile(trace, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := catalog.LoadDir(cat)
	if err != nil {
		t.Fatal(err)
	}
	if !c.Unordered("srv") || c.Latest("srv").Version != last {
		t.Fatalf("fixture: want srv unordered with %s last by spelling", last)
	}
	cfg := defaultConfig(t, trace, cat)
	cfg.TestShare = 0
	p, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	var act *Assessment
	for i := range p.Tools {
		if p.Tools[i].Key.Tool == "act" {
			act = &p.Tools[i]
		}
	}
	if act == nil {
		t.Fatalf("no assessment of act in %+v", p.Tools)
	}
	content := schemaTokens(t, cfg, c.At("srv", used).Tool("act"))
	if act.Schema.Tokens != content {
		t.Errorf("act priced at %d tokens, want %d (version %s, which the sessions use)", act.Schema.Tokens, content, used)
	}
	if act.Schema.Versions != 2 || len(act.Schema.Drift) != 1 || !strings.HasPrefix(act.Schema.Drift[0], last+" (") {
		t.Errorf("act: versions %d, drift %v; want 2 versions and %s listed as differing", act.Schema.Versions, act.Schema.Drift, last)
	}
	// The sessions record no model: a note says so beside this one.
	var order []string
	for _, n := range p.Notes {
		if strings.Contains(n, "no release order") {
			order = append(order, n)
		}
	}
	if len(order) != 1 || !strings.Contains(order[0], used) {
		t.Errorf("notes %q: want one naming %s and saying the versions have no release order", p.Notes, used)
	}
}

// schemaTokens counts tool as newSchemas does under cfg.
func schemaTokens(t *testing.T, cfg Config, tool *catalog.Tool) int64 {
	t.Helper()
	c, err := tokens.ByName(cfg.Params.Tokenizer)
	if err != nil {
		t.Fatal(err)
	}
	return c.Count(tool.Wire) + cfg.Params.ToolOverheadTokens
}
