package runner

import (
	"slices"
	"testing"
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
