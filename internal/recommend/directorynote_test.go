package recommend

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/sim/presets"
)

// TestNotesSayWhereTheDirectoryIsSmaller pins the notes that name what the
// directory figures assume — every catalog server offered and listed —
// where a run sends a smaller directory: a base with discovery lazy (a
// server's tools stay out of the directory until a search lists it) and
// training sessions whose session_start names fewer servers than the
// catalogs hold. recommend priced both as the whole catalog's directory
// and said nothing.
func TestNotesSayWhereTheDirectoryIsSmaller(t *testing.T) {
	_, cat := planted(t, 1)
	dir := t.TempDir()
	all := firstCallTrace(t, dir, 20, toolKey{Server: "web", Tool: "web_search"}, toolKey{Server: "calendar", Tool: "count_events"})
	b, err := os.ReadFile(all)
	if err != nil {
		t.Fatal(err)
	}
	// Three sessions name the web server alone.
	named := string(b)
	for _, id := range []string{"s-001", "s-002", "s-003"} {
		named = strings.Replace(named, `"session":"`+id+`","t":"2026-03-02T09:00:00Z","system_prompt_tokens":500}`,
			`"session":"`+id+`","t":"2026-03-02T09:00:00Z","system_prompt_tokens":500,"servers":[{"name":"web"}]}`, 1)
	}
	if named == string(b) {
		t.Fatal("no session_start rewritten")
	}
	fewer := filepath.Join(dir, "fewer.jsonl")
	if err := os.WriteFile(fewer, []byte(named), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		trace     string
		discovery string
		lazy      bool
		fewer     string // the note's start, "" for none
	}{
		{"every server, eager discovery", all, "", false, ""},
		{"every server, lazy discovery", all, "lazy", true, ""},
		{"fewer servers", fewer, "cached", false, "3 of 20 training sessions were offered fewer than the catalogs' 10 servers"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			base, err := presets.Strategy("claude-code-default")
			if err != nil {
				t.Fatal(err)
			}
			base.Discovery = tc.discovery
			cfg := defaultConfig(t, tc.trace, cat)
			cfg.Base, cfg.TestShare = &base, 0
			p, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			notes := strings.Join(p.Notes, "\n")
			if got := strings.Contains(notes, "uses discovery: lazy"); got != tc.lazy {
				t.Errorf("lazy discovery note %v, want %v:\n%s", got, tc.lazy, notes)
			}
			if got := strings.Contains(notes, "offered fewer than the catalogs'"); got != (tc.fewer != "") || !strings.Contains(notes, tc.fewer) {
				t.Errorf("fewer servers note: want %q:\n%s", tc.fewer, notes)
			}
		})
	}
}
