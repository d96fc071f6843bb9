package runner

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/shareddata"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/validation"
)

// TestRealUpgradeMidSession pins the warm-set keying trade-off on real
// catalog versions and the real validator: a session loads a tool, the
// server is upgraded mid-session, and the tool is called again with the
// arguments the recording made for the old schema. A breaking change
// (chrome-devtools close_page 0.6.0 → 0.17.0: pageIdx renamed pageId) is
// malformed under name keying and costs an extra search but no malformed
// call under fingerprint keying; a description-only change costs nothing
// under name keying and an extra search under fingerprint keying.
func TestRealUpgradeMidSession(t *testing.T) {
	dir := shareddata.Path(t, "catalogs")
	type series struct {
		server, from, to string
		class            catalog.Class
	}
	for _, tc := range []struct {
		series
		nameMalformed, fpMalformed float64
		nameSearches, fpSearches   float64
	}{
		{series{"chrome-devtools-mcp", "0.6.0", "0.17.0", catalog.ClassBreaking}, 1, 0, 1, 2},
		{series{"modelcontextprotocol__server-filesystem", "2025.3.28", "2025.7.29", catalog.ClassDescriptionOnly}, 0, 0, 1, 2},
	} {
		t.Run(tc.server, func(t *testing.T) {
			a, err := catalog.LoadFile(filepath.Join(dir, tc.server+"@"+tc.from+".json"))
			if err != nil {
				t.Fatal(err)
			}
			b, err := catalog.LoadFile(filepath.Join(dir, tc.server+"@"+tc.to+".json"))
			if err != nil {
				t.Fatal(err)
			}
			// The first changed tool of the wanted class.
			var tool string
			for _, ch := range catalog.Diff(a, b).Changed {
				if ch.Class == tc.class {
					tool = ch.Name
					break
				}
			}
			if tool == "" {
				t.Fatalf("no %v change between %s and %s", tc.class, tc.from, tc.to)
			}
			args, err := validation.Example(a.Tool(tool).InputSchema, false)
			if err != nil {
				t.Fatal(err)
			}
			var strategies []sim.Strategy
			for _, key := range []string{"name", "fingerprint"} {
				s, err := presets.Strategy("claude-code-default")
				if err != nil {
					t.Fatal(err)
				}
				s.Name, s.Warm.Key, s.Search.Mode = "warm-"+key, key, "select"
				strategies = append(strategies, s)
			}
			model, _ := presets.Model("claude-sonnet-4.5")
			eng, err := sim.NewEngine(sim.Config{Strategies: strategies, Model: model, Params: presets.DefaultParams(),
				Catalog: catalog.New(a, b), Seed: 1, Validator: validation.New()})
			if err != nil {
				t.Fatal(err)
			}
			t0 := time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)
			ev := func(sec int, e traces.Event) traces.Event {
				e.Session, e.T = "s", t0.Add(time.Duration(sec)*time.Second)
				return e
			}
			call := func(sec int, id string) []traces.Event {
				return []traces.Event{
					ev(sec, traces.Event{Type: traces.ModelRequest, ID: "r" + id}),
					ev(sec+1, traces.Event{Type: traces.ToolCall, Request: "r" + id, CallID: "c" + id, Tool: tool, Server: a.Name, Args: json.RawMessage(args), Status: "ok"}),
					ev(sec+2, traces.Event{Type: traces.ModelRequest, ID: "r" + id + "b"}),
					ev(sec+3, traces.Event{Type: traces.AssistantMessage, Request: "r" + id + "b", Text: "done"}),
				}
			}
			events := []traces.Event{ev(0, traces.Event{Type: traces.SessionStart, V: 1, StartFields: &traces.StartFields{Servers: []traces.ServerRef{{Name: a.Name, Version: tc.from}}}}),
				ev(1, traces.Event{Type: traces.UserMessage, Text: "first"})}
			events = append(events, call(2, "1")...)
			events = append(events, ev(10, traces.Event{Type: traces.CatalogChange, Server: a.Name, ChangeFields: &traces.ChangeFields{Version: tc.to}}),
				ev(11, traces.Event{Type: traces.UserMessage, Text: "again"}))
			events = append(events, call(12, "2")...)
			sessions := func(yield func(*traces.Session, error) bool) { yield(&traces.Session{ID: "s", Events: events}, nil) }
			res, err := eng.Run(context.Background(), sessions, sim.RunOptions{Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			o := res.Outcomes
			get := func(s int, m int) float64 { return o.Values[s][m][0] }
			if got := get(0, sim.MMalformedCalls); got != tc.nameMalformed {
				t.Errorf("%s: name-keyed malformed calls = %v, want %v", tool, got, tc.nameMalformed)
			}
			if got := get(1, sim.MMalformedCalls); got != tc.fpMalformed {
				t.Errorf("%s: fingerprint-keyed malformed calls = %v, want %v", tool, got, tc.fpMalformed)
			}
			if got := get(0, sim.MSearches); got != tc.nameSearches {
				t.Errorf("%s: name-keyed searches = %v, want %v", tool, got, tc.nameSearches)
			}
			if got := get(1, sim.MSearches); got != tc.fpSearches {
				t.Errorf("%s: fingerprint-keyed searches = %v, want %v", tool, got, tc.fpSearches)
			}
			if tc.class == catalog.ClassBreaking && get(0, sim.MMalformedMissingRequired)+get(0, sim.MMalformedUnknownProperty)+get(0, sim.MMalformedType)+get(0, sim.MMalformedEnum)+get(0, sim.MMalformedOther) == 0 {
				t.Errorf("%s: breaking change gave no malformed class", tool)
			}
		})
	}
}
