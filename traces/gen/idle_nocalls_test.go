package gen

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestIdleKindsAndCallKeysAreRefused pins that drift.kinds with
// drift.changed_fraction 0, and the keys of tool calls when neither
// first_turn_tool_prob nor tool_turn_prob is above 0, are refused as the
// other idle keys are: they were accepted, written back into params.yaml
// as if used, and changed nothing.
func TestIdleKindsAndCallKeysAreRefused(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  func(p *Params)
		want string // "" = accepted
	}{
		{"kinds without changes", func(p *Params) { p.Drift.ChangedFraction = 0; p.Drift.Kinds.Description = 1 },
			"drift.kinds: not used when drift.changed_fraction is 0"},
		{"no changes, default kinds", func(p *Params) { p.Drift.ChangedFraction = 0 }, ""},
		{"kinds with changes", func(p *Params) { p.Drift.Kinds.Description = 1 }, ""},
		{"kinds with drift off", func(p *Params) { p.Drift.Servers = 0; p.Drift.ChangedFraction = 0; p.Drift.Kinds.Description = 1 },
			"drift.changed_fraction and drift.kinds: not used when drift.servers is 0"},
		{"no calls, call keys", func(p *Params) {
			p.FirstTurnToolProb, p.ToolTurnProb = 0, 0
			p.ErrorRate, p.CallsPerStep = 0.2, 3
		}, "calls_per_step and error_rate: not used when first_turn_tool_prob and tool_turn_prob are 0 (no turn calls a tool)"},
		{"no calls, defaults", func(p *Params) { p.FirstTurnToolProb, p.ToolTurnProb = 0, 0 }, ""},
		{"first turns call", func(p *Params) { p.ToolTurnProb = 0; p.ErrorRate = 0.2 }, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := Defaults()
			p.Sessions = 2
			tc.set(&p)
			_, err := New(p)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("New: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tc.want)
			}
		})
	}
	// Over a catalog too.
	p := overParams(2, 0, "notes")
	p.FirstTurnToolProb, p.ToolTurnProb, p.Locality = 0, 0, 0.3
	if _, err := NewOver(testCatalog(t), p); err == nil || !strings.Contains(err.Error(), "locality: not used when first_turn_tool_prob") {
		t.Errorf("over a catalog: err = %v", err)
	}
}

// TestNoCallKeysAreIdle pins that the keys the idle rules refuse are idle
// indeed: generating with each changed (past New's check) writes the same
// catalog and trace.
func TestNoCallKeysAreIdle(t *testing.T) {
	files := func(p Params) []byte {
		t.Helper()
		g, err := newChecked(p)
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		if _, err := g.WriteDir(dir, WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		var all []byte
		paths, _ := filepath.Glob(filepath.Join(dir, CatalogDir, "*.json"))
		for _, f := range append(paths, filepath.Join(dir, TraceFile)) {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			all = append(all, b...)
		}
		return all
	}
	noCalls := Defaults()
	noCalls.Sessions = 30
	noCalls.FirstTurnToolProb, noCalls.ToolTurnProb = 0, 0
	noChanges := Defaults()
	noChanges.Sessions = 30
	noChanges.Drift.ChangedFraction = 0
	for _, tc := range []struct {
		name string
		base Params
		set  func(p *Params)
	}{
		{"drift.kinds", noChanges, func(p *Params) { p.Drift.Kinds = ChangeKinds{PropertyRenamed: 1} }},
		{"steps_per_tool_turn", noCalls, func(p *Params) { p.StepsPerToolTurn = 3 }},
		{"calls_per_step", noCalls, func(p *Params) { p.CallsPerStep = 2 }},
		{"locality", noCalls, func(p *Params) { p.Locality = 0.3 }},
		{"optional_arg_prob", noCalls, func(p *Params) { p.OptionalArgProb = 0.9 }},
		{"keyword_prob", noCalls, func(p *Params) { p.KeywordProb = 0.1 }},
		{"error_rate", noCalls, func(p *Params) { p.ErrorRate = 0.5 }},
		{"result_bytes", noCalls, func(p *Params) { p.ResultBytes.Median = 900 }},
		{"result_bytes_per_token", noCalls, func(p *Params) { p.ResultBytesPerToken = 5 }},
		{"tool_ms", noCalls, func(p *Params) { p.ToolMs.Median = 900 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.base
			tc.set(&p)
			if n, _ := p.idleKeys(false); n != 1 {
				t.Fatalf("idleKeys finds %d keys, want 1", n)
			}
			if !bytes.Equal(files(tc.base), files(p)) {
				t.Errorf("%s changes the generated files: it is not idle", tc.name)
			}
		})
	}
	if len(noCallKeys) != 9 {
		t.Errorf("noCallKeys has %d keys; this test proves 9 idle", len(noCallKeys))
	}
}
