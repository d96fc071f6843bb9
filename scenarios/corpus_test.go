package scenarios

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/bounded"
)

// TestBadScenarioCorpus loads every file of the hostile-scenario corpus:
// each gives its exact error with file, line and field, never panics,
// finishes, and keeps the heap within 4× the file size + 64 MiB.
func TestBadScenarioCorpus(t *testing.T) {
	tests := []struct {
		name string
		file string // under testdata/bad
		// gen, when set, returns the file's content instead.
		gen  func() string
		want string // FILE stands for the path
	}{
		{name: "billion laughs", file: "alias-bomb.yaml", want: "FILE:4: assumptions[1]: want a string, got a list"},
		{name: "merge keys doubling 40 times", file: "merge-bomb.yaml",
			want: "FILE:19: check.metrics: alias expansion exceeds 100000 nodes (a YAML alias bomb?)"},
		{name: "alias fan-out", gen: func() string {
			var b strings.Builder
			b.WriteString("strategies: [eager]\nmatrix:\n  base: eager\n  vary:\n    always_defer:\n      - &l [")
			for i := range 5000 {
				if i > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, "t%d", i)
			}
			b.WriteString("]\n")
			for range 100 {
				b.WriteString("      - *l\n")
			}
			return b.String()
		}, want: "FILE:27: matrix.vary.always_defer[21][79]: alias expansion exceeds 100000 nodes (a YAML alias bomb?)"},
		{name: "integer that overflows", file: "overflow-int.yaml", want: "FILE:1: seed: want an integer, got number 99999999999999999999"},
		{name: "count that overflows", file: "overflow-count.yaml",
			want: "FILE:3: strategies[0].trigger.count: want an integer, got number 99999999999999999999"},
		{name: "float that overflows", file: "overflow-float.yaml", want: "FILE:2: params.nudge_prob: want a finite number, got 1e400 (out of range)"},
		{name: "not a number", file: "nan.yaml", want: "FILE:2: params.nudge_prob: want a finite number, got .nan"},
		{name: "negative duration", file: "negative-durations.yaml", want: "FILE:2: params.default_tool_ms: -5: want a finite number >= 0"},
		{name: "negative latency", file: "negative-latency.yaml", want: "FILE:3: model.latency.overhead_ms: -250: want a finite number >= 0"},
		// Issue 18.7: values that pass sim's own rules yet overflow a replay
		// failed only after it, without a line.
		{name: "a rate that overflows every time", file: "tiny-rate.yaml",
			want: "FILE:5: model.latency.decode_tps: 1e-300 is outside [0.001, 1e+12]: it would overflow the replay's times, tokens or costs"},
		{name: "a price that overflows every cost", file: "huge-price.yaml",
			want: "FILE:4: model.pricing.input_per_mtok: 1e+308 is outside [0, 1e+12]: it would overflow the replay's times, tokens or costs"},
		{name: "bytes per token that overflows token counts", file: "tiny-bytes-per-token.yaml",
			want: "FILE:3: params.bytes_per_token: 1e-200 is outside [0.001, 1e+12] (or 0): it would overflow the replay's times, tokens or costs"},
		{name: "invalid UTF-8", file: "invalid-utf8.yaml", want: "FILE:1: invalid UTF-8 at column 10"},
		{name: "NUL byte", file: "nul-byte.yaml", want: "FILE:1: control character U+0000 at column 8"},
		{name: "duplicate key", file: "duplicate-key.yaml", want: "FILE:3: seed: key repeated (first at line 1)"},
		{name: "tab indentation", file: "tabs.yaml", want: "FILE:2: YAML syntax: found character that cannot start any token"},
		{name: "not a mapping", file: "not-a-mapping.yaml", want: "FILE:1: a scenario is a mapping of keys, got a list"},
		{name: "empty file", file: "empty.yaml", want: "FILE: empty scenario"},
		{name: "nested 100,000 levels", gen: func() string {
			return "strategies: [eager]\nassumptions: " + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + "\n"
		}, want: "FILE:2: YAML syntax: exceeded max depth of 10000"},
		{name: "5 MiB file", gen: func() string {
			return "strategies: [eager]\ndescription: " + strings.Repeat("x", 5<<20) + "\n"
		}, want: "FILE: larger than 4194304 bytes"},
		{name: "100,000 strategies", gen: func() string {
			var b strings.Builder
			b.WriteString("strategies:\n")
			for i := range 100000 {
				fmt.Fprintf(&b, "  - {name: s%d, trigger: {mode: never}}\n", i)
			}
			return b.String()
		}, want: "FILE: larger than 4194304 bytes"},
		{name: "a matrix of a million strategies", gen: func() string {
			nums := make([]string, 100)
			for i := range nums {
				nums[i] = fmt.Sprint(i + 1)
			}
			list := "[" + strings.Join(nums, ", ") + "]"
			return "strategies: [eager]\nmatrix:\n  base: anchor-e0-count30\n  name: \"m-{search.k}-{warm.max_tools}-{trigger.count}\"\n" +
				"  vary:\n    search.k: " + list + "\n    warm.max_tools: " + list + "\n    trigger.count: " + list + "\n"
		}, want: "FILE:3: matrix: expands to more than 999 strategies"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join("testdata", "bad", tc.file)
			if tc.gen != nil {
				path = filepath.Join(t.TempDir(), "gen.yaml")
				if err := os.WriteFile(path, []byte(tc.gen()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			st, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			res, err := bounded.Run(t, bounded.For(st.Size()), func() error {
				_, err := Load(path)
				return err
			})
			t.Logf("%d bytes: peak heap growth %d KiB", st.Size(), res.PeakHeapGrowth>>10)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if want := strings.ReplaceAll(tc.want, "FILE", path); got != want {
				t.Errorf("Load error:\n got %q\nwant %q", got, want)
			}
		})
	}
}

// TestEncodingErrorsHaveALine pins the fix for what the corpus found: a
// scenario with a byte that is not UTF-8, or a NUL or other control
// character, was rejected by the YAML parser without a line ("YAML syntax:
// invalid trailing UTF-8 octet"); and a number too large for a float64 was
// reported as a string ("want a number, got string \"1e400\""). Both now say
// where and what.
func TestEncodingErrorsHaveALine(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"strategies: [eager]\nname: caf\xe9\n", "s.yaml:2: invalid UTF-8 at column 10"},
		{"strategies: [eager]\n\nname: a\x01\n", "s.yaml:3: control character U+0001 at column 8"},
		{"strategies: [eager]\nname: \"\x7f\"\n", "s.yaml:2: control character U+007F at column 8"},
		{"strategies: [eager]\nparams: {nudge_prob: -1e999}\n", "s.yaml:2: params.nudge_prob: want a finite number, got -1e999 (out of range)"},
		{"strategies: [eager]\nparams: {nudge_prob: \"1e400\"}\n", `s.yaml:2: params.nudge_prob: want a number, got string "1e400"`},
	} {
		_, err := Parse([]byte(tc.in), "s.yaml", "")
		if err == nil || err.Error() != tc.want {
			t.Errorf("Parse(%q) = %v, want %q", tc.in, err, tc.want)
		}
	}
	if _, err := Parse([]byte("strategies: [eager]\r\nname: caf\u00e9\tx\r\n"), "s.yaml", ""); err != nil {
		t.Errorf("CRLF, tab and UTF-8 rejected: %v", err)
	}
}
