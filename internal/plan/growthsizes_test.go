package plan

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/internal/shareddata"
)

// TestGrowthSizesNeverRepeat pins that plan --growth gives every factor a
// catalog it grew to, or refuses the factors before any replay: a
// --growth-from pool that ran out gave ×2 and ×4 the same 134 tools, each
// with only a note, and the breakdowns measured growth between duplicate
// points; two factors that one whole server reaches both were the same
// catalog twice (written to the same tools=N directory).
func TestGrowthSizesNeverRepeat(t *testing.T) {
	server := func(name string, tools int) *catalog.Server {
		s := &catalog.Server{Name: name, Version: "1"}
		for i := range tools {
			s.Tools = append(s.Tools, &catalog.Tool{Name: fmt.Sprintf("t%d", i)})
		}
		return s
	}
	pool := []*catalog.Server{server("a", 30), server("b", 37), server("c", 10)}
	tests := []struct {
		name    string
		factors []float64
		from    string
		want    []growthSize
		err     string
	}{
		{"every factor reached", []float64{1, 1.4, 2}, "pool", []growthSize{{0, 67}, {1, 97}, {2, 134}}, ""},
		{"the whole pool", []float64{1, 2.14}, "pool", []growthSize{{0, 67}, {3, 144}}, ""},
		{"the pool runs out", []float64{1, 2, 4, 8}, "pool", nil,
			"the servers of --growth-from pool add 77 tools to the catalog's 67: at most 144 tools, ×2.14, short of ×4 (268 tools) and ×8 (536 tools); " +
				"each factor past it would replay that same catalog: give factors up to 2.14, or a --growth-from directory with more servers the catalog lacks"},
		{"generated servers run out", []float64{1, 3}, "", nil,
			"the generated servers add 77 tools to the catalog's 67: at most 144 tools, ×2.14, short of ×3 (201 tools); each factor past it would replay that same catalog: give factors up to 2.14"},
		{"one server reaches two factors", []float64{1, 1.1, 1.3, 2}, "pool", nil,
			"×1.1 and ×1.3 both come to 97 tools: servers are added whole, and the one that reaches ×1.1 (30 tools) reaches ×1.3 too; " +
				"each factor would replay the same catalog: keep one of them, or give factors further apart"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := growthSizes(tc.factors, 67, pool, tc.from)
			msg := ""
			if err != nil {
				msg = err.Error()
			}
			if msg != tc.err {
				t.Fatalf("error\n got  %s\n want %s", msg, tc.err)
			}
			if d := cmp.Diff(tc.want, got, cmp.AllowUnexported(growthSize{})); d != "" {
				t.Errorf("sizes (-want +got):\n%s", d)
			}
		})
	}
}

// TestGrowthFromAPoolTooSmallReplaysNothing pins that Growth refuses a
// factor its --growth-from pool cannot reach before any replay: no size
// directory is written.
func TestGrowthFromAPoolTooSmallReplaysNothing(t *testing.T) {
	rc, err := runner.FromScenario(small(t, 3), runner.Overrides{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	rc.Bootstrap = -1
	dir := t.TempDir()
	pool := shareddata.Path(t, "catalogs")
	_, _, err = Growth(context.Background(), GrowthConfig{Base: rc, Factors: []float64{1, 2, 100000}, Pool: pool, Seed: 1, Dir: dir})
	if err == nil || !strings.Contains(err.Error(), "the servers of --growth-from "+pool+" add ") || !strings.Contains(err.Error(), "short of ×100000 (") {
		t.Fatalf("err %v, want the factor the pool cannot reach refused", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("%d entries written under the growth directory, want none", len(ents))
	}
}
