package runner

import (
	"fmt"
	"strings"
	"testing"

	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

// TestVersionMissingNamesTheVersions pins that a run stopped (or warned)
// because calls name a server version the catalogs lack says which
// versions the sessions asked for — the first five, most calls first, then
// how many more — and which versions the catalogs hold: it said only
// "modelcontextprotocol__server-github/search_repositories (version missing,
// 232)", per tool, without the version asked for or the versions there.
func TestVersionMissingNamesTheVersions(t *testing.T) {
	inputs := []sim.Input{
		{Kind: "catalog", Path: "c/gh@2025.4.8.json", Server: "gh", Version: "2025.4.8"},
		{Kind: "catalog", Path: "c/gh@2025.1.23.json", Server: "gh", Version: "2025.1.23"},
		{Kind: "trace", Path: "t.jsonl"},
	}
	tests := []struct {
		name     string
		versions map[sim.ServerVersion]int64
		want     []string // in the error and in the resolution table
		not      []string
	}{
		{"none", nil, nil, []string{"versions the sessions asked for", "asked for that the catalogs lack"}},
		{"one", map[sim.ServerVersion]int64{{Server: "gh", Version: "2025.5.1"}: 878},
			[]string{`gh "2025.5.1" (878 calls); the catalogs hold gh 2025.1.23, 2025.4.8`}, nil},
		{"seven: five named, most calls first, and a count", func() map[sim.ServerVersion]int64 {
			m := map[sim.ServerVersion]int64{}
			for i := range 7 {
				m[sim.ServerVersion{Server: "gh", Version: fmt.Sprintf("9.%d", i)}] = int64(10 + i)
			}
			return m
		}(), []string{`gh "9.6" (16 calls), gh "9.5" (15 calls), gh "9.4" (14 calls)`, `; the catalogs hold gh 2025.1.23, 2025.4.8`}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var missing int64
			for _, n := range tc.versions {
				missing += n
			}
			r := &sim.Resolution{Calls: 1000, Resolved: 1000 - missing, VersionMissing: missing, MissingVersions: tc.versions}
			if missing == 0 {
				r.Resolved, r.UnknownTool = 900, 100
			}
			info := SummarizeResolution(r, DefaultMaxUnresolved, false, heldVersions(inputs))
			msg := (&UnresolvedError{Resolution: info}).Error()
			var table strings.Builder
			if err := report.WriteResolution(&table, info); err != nil {
				t.Fatal(err)
			}
			// The error names five, the table ten.
			if len(tc.versions) == 7 && (!strings.Contains(msg, `gh "9.2" (12 calls), … (2 more); the catalogs hold`) || strings.Contains(msg, `"9.1"`)) {
				t.Errorf("the error does not name the first five and count the rest:\n%s", msg)
			}
			for _, out := range []string{msg, table.String()} {
				for _, w := range tc.want {
					if !strings.Contains(out, w) {
						t.Errorf("lacks %q:\n%s", w, out)
					}
				}
				for _, w := range tc.not {
					if strings.Contains(out, w) {
						t.Errorf("has %q:\n%s", w, out)
					}
				}
			}
		})
	}
}
