package plan

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/traces/gen"
)

// TestGrowthFactorsNeedTodaysCatalog pins what --growth takes: factors
// of 1 or more holding 1 (today's catalog, which every size is compared
// with) and one above it, each once. `--growth 2` and `--growth 2,4`
// used to replay and report every rule as never breaking down (growth
// 1.00 from ×2 to ×2), `--growth 1,1` to replay today's catalog twice, and
// `--growth 1` a series of one point; a list read as percentages
// (100,150,200) is refused with the hint.
func TestGrowthFactorsNeedTodaysCatalog(t *testing.T) {
	for _, tc := range []struct {
		given []float64
		want  []float64 // nil: refused
		err   string
	}{
		{[]float64{1, 2, 4}, []float64{1, 2, 4}, ""},
		{[]float64{4, 1, 2}, []float64{1, 2, 4}, ""},
		{[]float64{1, 1.5}, []float64{1, 1.5}, ""},
		{nil, nil, "no growth factor"},
		{[]float64{2}, nil, "which the list lacks"},
		{[]float64{2, 4}, nil, "add 1 (--growth 1,2,4;"},
		{[]float64{100, 150, 200}, nil, "not percentages: 150% is 1.5"},
		{[]float64{1}, nil, "only today's catalog: add a factor above 1"},
		{[]float64{1, 1, 2}, nil, "1 is given twice"},
		{[]float64{1, 2, 2}, nil, "2 is given twice"},
		{[]float64{-1, 2}, nil, "-1 is below 1"},
		{[]float64{0, 1, 2}, nil, "0 is below 1"},
	} {
		got, err := growthFactors(tc.given)
		if tc.err == "" {
			if err != nil || !slices.Equal(got, tc.want) {
				t.Errorf("%v: %v, %v; want %v", tc.given, got, err, tc.want)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%v: error %v, want one containing %q", tc.given, err, tc.err)
		}
	}
	// Growth refuses before it replays anything.
	sc := small(t, 3)
	rc, err := runner.FromScenario(sc, runner.Overrides{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, _, err := Growth(context.Background(), GrowthConfig{Base: rc, Factors: []float64{2}, Seed: 5, Dir: dir}); err == nil ||
		!strings.Contains(err.Error(), "which the list lacks") {
		t.Errorf("Growth(--growth 2): %v, want refused", err)
	}
}

// TestGrowthBeyondTheGeneratorSaysWhatToDo pins the error of a growth
// the generator cannot draw: a server drawn with more tools than its
// domain's word list names. It used to end the plan with the generator's
// own words ("generate servers: generate catalog: server files-147: the
// "files" word list names only 160 tools, fewer than the 176 asked for"),
// which say neither what was asked nor what to do.
func TestGrowthBeyondTheGeneratorSaysWhatToDo(t *testing.T) {
	// Servers of 2 and 400 tools: tools per server fit with a wide log-sd,
	// so a few hundred drawn servers hold one beyond every word list.
	var latest []*catalog.Server
	for i, n := range []int{2, 400} {
		s := &catalog.Server{Name: fmt.Sprintf("s%d", i), Version: "1.0.0"}
		for j := range n {
			s.Tools = append(s.Tools, &catalog.Tool{Name: fmt.Sprintf("t%d", j), Wire: make([]byte, 600)})
		}
		latest = append(latest, s)
	}
	_, err := generatedPool(latest, 20000, 5)
	var wl *gen.WordListError
	if !errors.As(err, &wl) {
		t.Fatalf("generatedPool: %v, want a server beyond its word list", err)
	}
	for _, want := range []string{"cannot generate 20000 more tools in servers like the catalog's", "grow by smaller factors, or add real servers with --growth-from DIR"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}
