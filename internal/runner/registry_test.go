package runner

import (
	"slices"
	"testing"

	"github.com/defersim/defersim/component"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
)

// TestDefaultRegistryHasRoutedModes pins that the replay can use routed
// search over the embedded routing descriptions like any other mode.
func TestDefaultRegistryHasRoutedModes(t *testing.T) {
	r, err := DefaultRegistry()
	if err != nil {
		t.Fatal(err)
	}
	modes := r.SearchModes()
	for _, m := range []string{"select", "bm25", "keyword", "regex", "substring", "routed", "routed-hard", "bm25f", "routed-fused"} {
		if !slices.Contains(modes, m) {
			t.Errorf("search mode %q not registered (have %v)", m, modes)
		}
	}
	d, err := DefaultDomains()
	if err != nil {
		t.Fatal(err)
	}
	if got := d.DomainOf("chrome-devtools-mcp", "take_screenshot"); got == "" {
		t.Errorf("chrome-devtools-mcp has no routing domain")
	}
	if d.DirectoryText([][2]string{{"chrome-devtools-mcp", "take_screenshot"}}) == "" {
		t.Errorf("empty by-domain directory")
	}
}

// TestDefaultRegistryQueryModels pins which query model each built-in
// search mode is registered with: the query a search sends when the trace
// recorded none depends on it (docs/engine.md §3), so a mode that lost its
// registration's query model would silently search with another query.
func TestDefaultRegistryQueryModels(t *testing.T) {
	r, err := DefaultRegistry()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"bm25": "user-text", "bm25-anthropic": "user-text", "routed": "user-text", "routed-hard": "user-text",
		"bm25f": "user-text", "routed-fused": "user-text",
		"keyword": "content-words", "substring": "short-term", "regex": "regex-term",
	}
	for _, in := range r.Components() {
		if in.Kind != component.Ranker || in.Name == "select" {
			continue
		}
		w, ok := want[in.Name]
		if !ok {
			w = sim.DefaultQueryModel
		}
		if in.QueryModel != w {
			t.Errorf("search mode %s: query model %q, want %q", in.Name, in.QueryModel, w)
		}
	}
}

// TestPresetsResolveInTheDefaultRegistry pins that every strategy preset
// names only registered components, search modes included.
func TestPresetsResolveInTheDefaultRegistry(t *testing.T) {
	r, err := DefaultRegistry()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range presets.StrategyNames() {
		s, err := presets.Strategy(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := r.ValidateStrategy(s); err != nil {
			t.Errorf("preset %s: %v", name, err)
		}
	}
}
