package validation

import (
	"encoding/json"
	"regexp"
	"slices"
	"testing"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/shareddata"
)

// TestPatternString pins that a required string with a "pattern" no stock
// candidate matches gets a value the pattern matches (anchored literals,
// classes, quantifiers, alternatives, minLength), so its tool is called in
// a generation over a catalog, and that a pattern the walk cannot satisfy
// is reported, not answered with a value that fails it.
func TestPatternString(t *testing.T) {
	tests := []struct {
		pattern string
		minLen  int
		want    string // "" with ok false: unsatisfiable here
	}{
		{`^[^=]+=[^=]+$`, 0, "a=a"},
		{`^#[a-fA-F0-9]{6}$`, 0, "#aaaaaa"},
		{`^[a-zA-Z0-9_.-]+\.(png|svg|gif)$`, 0, "a.png"},
		{`^I?\d+[:|-]\d+(?:;\d+[:|-]\d+)*$`, 0, "0-0"},
		{`^https?:\/\/`, 0, "http://"},
		{`^[a-z0-9_-]{1,64}$`, 5, "aaaaa"},
		{`^ab*c$`, 4, "abbc"},
		{`^(x|yz)$`, 0, "x"},
		{`^[[:upper:]]{2}$`, 0, "AA"},
		{`^\p{Greek}$`, 0, "Ͱ"},
		{`^a{2}$`, 3, ""},               // minLength past what the pattern allows
		{`^a\bb$`, 0, ""},               // a word boundary the walk ignores
		{`(?<=a)b`, 0, ""},              // not RE2
		{`^[^\x00-\x{10FFFF}]$`, 0, ""}, // an empty class
	}
	for _, tt := range tests {
		got, ok := patternString(tt.pattern, tt.minLen)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("patternString(%q, %d) = %q, %v; want %q", tt.pattern, tt.minLen, got, ok, tt.want)
		}
	}
}

// TestSharedCatalogPatternsSatisfied pins that every "pattern" in the
// shared real catalogs gets a matching string (a stock candidate or the
// walk), and that Example builds every-property arguments for all their
// tool schemas: before the walk, 6 schemas (cocal google-calendar
// list-events and search-events, figma get_figma_data and
// download_figma_images, firecrawl_search, shortcut labels-create) had an
// optional property whose pattern no candidate matched, so a generation
// over the catalogs never passed them optional arguments.
func TestSharedCatalogPatternsSatisfied(t *testing.T) {
	cat, err := catalog.LoadDir(shareddata.Path(t, "catalogs"))
	if err != nil {
		t.Fatal(err)
	}
	patterns := map[string]bool{}
	var failed []string
	schemas := 0
	for _, s := range cat.All() {
		for _, tl := range s.Tools {
			schemas++
			var doc any
			if err := json.Unmarshal(tl.InputSchema, &doc); err == nil {
				collectPatterns(doc, patterns)
			}
			for _, all := range []bool{false, true} {
				if _, err := Example(tl.InputSchema, all); err != nil {
					failed = append(failed, s.Label()+"/"+tl.Name)
				}
			}
		}
	}
	if len(patterns) != 15 {
		t.Errorf("%d distinct patterns in the shared catalogs; this test was written for 15", len(patterns))
	}
	for p := range patterns {
		re := regexp.MustCompile(p)
		if slices.ContainsFunc(patternCandidates, re.MatchString) {
			continue
		}
		s, ok := patternString(p, 0)
		if !ok || !re.MatchString(s) {
			t.Errorf("pattern %q: no matching string (got %q, %v)", p, s, ok)
		}
	}
	if len(failed) > 0 {
		t.Errorf("of %d schemas, Example fails %d times: %v", schemas, len(failed), failed)
	}
}

func collectPatterns(v any, into map[string]bool) {
	switch x := v.(type) {
	case map[string]any:
		if p, ok := x["pattern"].(string); ok {
			into[p] = true
		}
		for _, sub := range x {
			collectPatterns(sub, into)
		}
	case []any:
		for _, sub := range x {
			collectPatterns(sub, into)
		}
	}
}

// FuzzPatternString: a string patternString returns is at least minLen
// runes long and matches the pattern, and the same call returns it again.
func FuzzPatternString(f *testing.F) {
	for _, p := range []string{`^[^=]+=[^=]+$`, `^#[a-fA-F0-9]{6}$`, `^I?\d+[:|-]\d+(?:;\d+[:|-]\d+)*$`, `a*b+c?`, `^(x|yz){2,5}$`, `\bq\B`} {
		f.Add(p, 0)
		f.Add(p, 7)
	}
	f.Fuzz(func(t *testing.T, pattern string, minLen int) {
		minLen = min(max(minLen, 0), 256)
		s, ok := patternString(pattern, minLen)
		if !ok {
			return
		}
		if len([]rune(s)) < minLen || !regexp.MustCompile(pattern).MatchString(s) {
			t.Fatalf("patternString(%q, %d) = %q: too short or does not match", pattern, minLen, s)
		}
		if again, _ := patternString(pattern, minLen); again != s {
			t.Fatalf("patternString(%q, %d) = %q, then %q", pattern, minLen, s, again)
		}
	})
}
