package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/sim/presets"
)

// TestCatalogDiffHistoryTokens pins that `catalog diff` and `catalog
// history` say what an upgrade costs in tokens (they printed tool names
// and classes only), text and JSON, with the counter, form and per-tool
// framing they assume stated; that the defaults are the replay's (its
// default tokenizer and tool_overhead_tokens, the anthropic form); and
// that the flags change them or are refused with a reason.
func TestCatalogDiffHistoryTokens(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"svc@1.0.json": `{"tools":[{"name":"a","description":"read one file","inputSchema":{"type":"object"}},{"name":"b","inputSchema":{"type":"object"}}]}`,
		"svc@1.1.json": `{"tools":[{"name":"a","description":"read one file, or many files at once","inputSchema":{"type":"object"}},{"name":"b","inputSchema":{"type":"object"}},{"name":"c","inputSchema":{"type":"object","properties":{"path":{"type":"string"}}}}]}`,
	})
	a, b := filepath.Join(dir, "svc@1.0.json"), filepath.Join(dir, "svc@1.1.json")
	p := presets.DefaultParams()

	out, code, msg := runCatalogCmd(t, "diff", a, b)
	if code != 0 {
		t.Fatalf("diff: exit %d: %s", code, msg)
	}
	for _, want := range []string{"added (1): c +", "\ntokens: ", "per request: if every tool is sent directly, each request carries ",
		"counted: " + p.Tokenizer + " tokens of each tool's anthropic wire form", "(tool_overhead_tokens, the default model params)", "\na: description-only, "} {
		if !strings.Contains(out, want) {
			t.Errorf("diff text lacks %q:\n%s", want, out)
		}
	}

	js, code, msg := runCatalogCmd(t, "diff", "--format", "json", a, b)
	var d catalog.DiffResult
	if code != 0 || json.Unmarshal([]byte(js), &d) != nil || d.Tokens == nil {
		t.Fatalf("diff --format json: exit %d %s, output %s", code, msg, js)
	}
	td := d.Tokens
	if td.Counter != p.Tokenizer || td.Form != catalog.FormAnthropic || td.ToolOverhead != p.ToolOverheadTokens {
		t.Errorf("basis %s/%s/%d, want the replay's defaults %s/anthropic/%d", td.Counter, td.Form, td.ToolOverhead, p.Tokenizer, p.ToolOverheadTokens)
	}
	if td.Delta != td.To-td.From || td.Delta <= 0 || td.PerRequest != td.Delta+p.ToolOverheadTokens ||
		len(td.AddedTools) != 1 || td.AddedTools[0].Delta != td.AddedTokens || len(td.ChangedTools) != 1 || td.ChangedTools[0].Delta <= 0 {
		t.Errorf("tokens %+v: want a positive delta, per request one tool's framing more, c added and a's longer description counted", *td)
	}

	js, code, msg = runCatalogCmd(t, "diff", "--format", "json", "--counter", "bytes/1", "--form", "mcp", "--tool-overhead", "0", a, b)
	d = catalog.DiffResult{}
	if code != 0 || json.Unmarshal([]byte(js), &d) != nil || d.Tokens == nil {
		t.Fatalf("diff with flags: exit %d %s, output %s", code, msg, js)
	}
	if d.Tokens.Counter != "bytes/1" || d.Tokens.Form != catalog.FormMCP || d.Tokens.PerRequest != d.Tokens.Delta ||
		!strings.Contains(d.Tokens.Assumes, "tool_overhead_tokens, --tool-overhead") {
		t.Errorf("with flags: %+v", d.Tokens.TokenBasis)
	}

	for _, tc := range []struct{ flag, value, want string }{
		{"--counter", "words", "--counter: unknown counter"},
		{"--form", "xml", "--form: unknown wire form"},
		{"--tool-overhead", "-1", "--tool-overhead must be 0 or more"},
	} {
		for _, cmd := range [][]string{{"diff", a, b}, {"history", dir}} {
			_, code, msg := runCatalogCmd(t, append(cmd, tc.flag, tc.value)...)
			if code != 2 || !strings.Contains(msg, tc.want) {
				t.Errorf("%s %s %s: exit %d, %q; want 2 and %q", cmd[0], tc.flag, tc.value, code, msg, tc.want)
			}
		}
	}

	out, code, msg = runCatalogCmd(t, "history", dir)
	if code != 0 || !strings.Contains(out, "ΔTOKENS") || !strings.Contains(out, "\ncounted: "+p.Tokenizer+" tokens") {
		t.Errorf("history text: exit %d %s, want the token columns and what they assume:\n%s", code, msg, out)
	}
	js, code, msg = runCatalogCmd(t, "history", "--format", "json", dir)
	var h catalog.History
	if code != 0 || json.Unmarshal([]byte(js), &h) != nil || h.Tokens == nil || len(h.Series) != 1 || h.Series[0].Releases[0].Tokens == nil {
		t.Fatalf("history --format json: exit %d %s, output %s", code, msg, js)
	}
	if got := *h.Series[0].Releases[0].Tokens; got != td.TokenSummary {
		t.Errorf("history's release tokens %+v, diff's %+v", got, td.TokenSummary)
	}
}
