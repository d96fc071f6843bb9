package report

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/bounded"
)

// TestBadResultsCorpus reads every file of the hostile-results corpus the
// way `defersim report` does (ReadResults, then Render when it is
// accepted): each gives its exact error, never panics, finishes, and keeps
// the heap within 4× the file size + 64 MiB.
func TestBadResultsCorpus(t *testing.T) {
	tests := []struct {
		name string
		file string // under testdata/bad
		gen  func() string
		want string // FILE stands for the path; "" means it renders
	}{
		{name: "truncated", file: "truncated.json", want: "read results FILE: not a results file: line 1, near column 81: not valid JSON (unexpected end of JSON input): the file was cut, damaged or edited by hand; write it again with defersim run"},
		{name: "empty", file: "empty.json", want: "read results FILE: not a results file: the file is empty: write it again with defersim run"},
		{name: "no schema_version", file: "no-version.json", want: "read results FILE: not a defersim results file: no schema_version"},
		{name: "another schema_version", file: "version-2.json",
			want: "read results FILE: results schema_version 2 is not supported: this defersim reads version 1 (re-run the scenario, or use the defersim release that wrote the file)"},
		{name: "not an object", file: "not-an-object.json",
			want: "read results FILE: not a results file: line 1, near column 2: the top level holds a JSON array where an object belongs: the file was edited by hand or not written by defersim; write it again with defersim run"},
		{name: "invalid UTF-8", file: "invalid-utf8.json", want: "read results FILE: not a results file: invalid UTF-8 at byte offset 50"},
		{name: "NUL byte", file: "nul-byte.json", want: "read results FILE: not a results file: line 1, near column 50: not valid JSON (invalid character '\\x00' in string literal): the file was cut, damaged or edited by hand; write it again with defersim run"},
		{name: "number that overflows", file: "overflow.json",
			want: "read results FILE: decode results: line 1, near column 102: strategies.metrics.mean holds 1e400, out of a 64-bit float's range: the file was edited by hand or not written by defersim; write it again with defersim run"},
		{name: "integer that overflows", file: "overflow-int.json",
			want: "read results FILE: decode results: line 1, near column 55: sessions holds 99999999999999999999, out of a 64-bit integer's range: the file was edited by hand or not written by defersim; write it again with defersim run"},
		{name: "negative count", file: "negative-count.json", want: `read results FILE: results: strategy "a" metric cost_usd has a negative count`},
		{name: "negative sessions", file: "negative-sessions.json", want: "read results FILE: results: negative session count -1"},
		{name: "strategy twice", file: "duplicate-strategy.json", want: `read results FILE: results: strategy "a" appears twice`},
		{name: "no strategies", file: "no-strategies.json", want: "read results FILE: results hold no strategies"},
		{name: "quantile grid of the wrong size", file: "wrong-quantiles.json",
			want: `read results FILE: results: strategy "a" metric cost_usd has 3 quantiles, want 101 or none`},
		{name: "nested 100,000 levels", gen: func() string {
			return `{"schema_version": 1, "strategies": [{"name": "a"}], "x": ` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + "}"
		}, want: "read results FILE: not a results file: line 1, near column 10059: not valid JSON (invalid character '[' exceeded max depth): the file was cut, damaged or edited by hand; write it again with defersim run"},
		{name: "1,200 strategies (more than a scenario may have)", gen: func() string {
			var b strings.Builder
			b.WriteString(`{"schema_version": 1, "sessions": 2, "metrics": [{"name": "cost_usd"}], "strategies": [`)
			for i := range 1200 {
				if i > 0 {
					b.WriteString(",")
				}
				fmt.Fprintf(&b, `{"name": "s%d", "baseline": %v, "metrics": {"cost_usd": {"count": 2, "mean": %d, "min": 0, "max": 2400}}}`, i, i == 0, i)
			}
			b.WriteString("]}")
			return b.String()
		}, want: ""},
		{name: "50 MB generator string", gen: func() string {
			return `{"schema_version": 1, "generator": "` + strings.Repeat("g", 50<<20) + `", "strategies": [{"name": "a", "baseline": true}]}`
		}, want: ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join("testdata", "bad", tc.file)
			if tc.gen != nil {
				if testing.Short() {
					t.Skip("generates a large file")
				}
				path = filepath.Join(t.TempDir(), "results.json")
				if err := os.WriteFile(path, []byte(tc.gen()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			st, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			out := t.TempDir()
			res, err := bounded.Run(t, bounded.For(st.Size()), func() error {
				res, err := ReadResults(path)
				if err != nil {
					return err
				}
				return Render(res, out, RenderOptions{})
			})
			t.Logf("%d bytes: peak heap growth %d KiB, %v", st.Size(), res.PeakHeapGrowth>>10, res.Elapsed)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if want := strings.ReplaceAll(tc.want, "FILE", path); got != want {
				t.Errorf("error:\n got %q\nwant %q", got, want)
			}
		})
	}
}

// TestDecodeResultsRejectsInvalidUTF8 pins the fix for what the corpus
// found: a damaged results.json with bytes that are not UTF-8 was accepted,
// its strategy names silently changed to U+FFFD, and rendered.
func TestDecodeResultsRejectsInvalidUTF8(t *testing.T) {
	_, err := DecodeResults([]byte("{\"schema_version\": 1, \"strategies\": [{\"name\": \"\xff\"}]}"))
	if err == nil || err.Error() != "not a results file: invalid UTF-8 at byte offset 47" {
		t.Fatalf("DecodeResults = %v, want the invalid byte named", err)
	}
}
