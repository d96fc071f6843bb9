package calibrate

import (
	"maps"
	"math"
	"slices"
	"testing"
)

// TestStudentT975 pins the t quantile the token_scale profile's interval
// bound uses against tabulated values (97.5% of Student's t).
func TestStudentT975(t *testing.T) {
	for _, tc := range []struct{ df, want float64 }{
		{10, 2.2281}, {16, 2.1199}, {30, 2.0423}, {100, 1.9840}, {1000, 1.9623},
	} {
		if got := studentT975(tc.df); math.Abs(got-tc.want) > 0.001*tc.want {
			t.Errorf("df %g: %.4f, want %.4f", tc.df, got, tc.want)
		}
	}
}

// TestNearTiedObjectivesTie pins that grid scales whose objectives differ
// by rounding count as tied (ScaleProfileTieTolerance), so that the
// estimate, the middle of the tied scales, does not depend on the order
// of the sums: compared exactly, a scale 1e-12 above the least was not
// tied, and the estimate was whichever rounding came out lower. A
// difference of 1e-6 of the objective is a real one and does not tie.
func TestNearTiedObjectivesTie(t *testing.T) {
	const least = 5321.75
	for _, tc := range []struct {
		name     string
		obj      map[int]float64
		ties     []int
		estimate int
	}{
		{"1e-12 apart: tied", map[int]float64{998: 2 * least, 999: least * (1 + 1e-12), 1000: least, 1001: least * (1 + 3e-12), 1002: 2 * least}, []int{999, 1000, 1001}, 1000},
		{"the least last, 1e-12 apart: the same estimate", map[int]float64{998: 2 * least, 999: least * (1 + 3e-12), 1000: least * (1 + 1e-12), 1001: least, 1002: 2 * least}, []int{999, 1000, 1001}, 1000},
		{"1e-6 apart: not tied", map[int]float64{998: 2 * least, 999: least * (1 + 1e-6), 1000: least, 1001: least * (1 + 1e-6), 1002: 2 * least}, []int{1000}, 1000},
		{"an even number tied: the greater middle one", map[int]float64{998: least, 999: least * (1 + 1e-12), 1000: 2 * least, 1001: least * (1 + 2e-12), 1002: 2 * least}, []int{998, 999, 1001}, 999},
		{"four tied", map[int]float64{998: least, 999: least * (1 + 1e-12), 1000: least, 1001: least * (1 + 2e-12), 1002: 2 * least}, []int{998, 999, 1000, 1001}, 1000},
		{"least 0: only exact zeros tie", map[int]float64{998: 1e-300, 999: 0, 1000: 0, 1001: 1, 1002: 2}, []int{999, 1000}, 1000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			best, ties := gridMinimum(tc.obj, 998, 1002, noTokenCap)
			if want := slices.Min(slices.Collect(maps.Values(tc.obj))); best != want {
				t.Errorf("least %v, want %v", best, want)
			}
			if !slices.Equal(ties, tc.ties) {
				t.Errorf("tied %v, want %v", ties, tc.ties)
			}
			if e := middleTie(ties); e != tc.estimate {
				t.Errorf("estimate %d, want %d", e, tc.estimate)
			}
		})
	}
}

// noTokenCap is a token weight that leaves the relative tie tolerance.
func noTokenCap(int) float64 { return math.Inf(1) }

// TestTieToleranceAtScale pins that objectives one token apart do not
// tie at any scale: the tolerance was a relative 1e-9 alone, and a lad
// objective near 1e9 (1e5 requests ~1e4 tokens off) tied a scale whose
// sum was one token more, as ols near 1e14 and huber with a σ of 3e4 did
// (the estimate was the middle of scales a token apart, not the least).
// The tolerance is now at most ScaleProfileTieTokens of one token's
// weight (tokenWeight); sums equal but for their order still tie.
func TestTieToleranceAtScale(t *testing.T) {
	for _, tc := range []struct {
		name   string
		loss   Loss
		sigma  float64
		center float64
	}{
		{"lad", LAD, 0, 1e4},
		{"ols", OLS, 0, 3e4},
		{"huber", Huber, 3e4, 3e4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := make([]float64, 100_000)
			for i := range res {
				res[i] = tc.center + float64(i%37)*0.1 - 1.7
			}
			rev := slices.Clone(res)
			slices.Reverse(rev)
			a, b := lossObjective(res, tc.loss, tc.sigma), lossObjective(rev, tc.loss, tc.sigma)
			moved := slices.Clone(res)
			moved[0]++ // one request one token further off
			c := lossObjective(moved, tc.loss, tc.sigma)
			best := min(a, b)
			if c-best > ScaleProfileTieTolerance*best {
				t.Fatalf("one token adds %g to %g: outside the relative tolerance, no scale to test", c-best, best)
			}
			token := func(int) float64 { return tokenWeight(res, tc.loss, tc.sigma) }
			obj := map[int]float64{1: c, 2: a, 3: b, 4: c}
			if _, ties := gridMinimum(obj, 1, 4, token); !slices.Equal(ties, []int{2, 3}) {
				t.Errorf("%v and %v, one token more %v: tied %v, want [2 3]", a, b, c, ties)
			}
		})
	}
}

// TestNearTiesFromSummationOrder pins that two grid scales whose
// objectives are the same sum added in another order tie: the sums differ
// in their last bits here, and compared exactly the estimate was the
// scale whose order happened to round lower.
func TestNearTiesFromSummationOrder(t *testing.T) {
	res := make([]float64, 500)
	for i := range res {
		res[i] = float64(i%37)*0.1 - 1.7
	}
	rev := slices.Clone(res)
	slices.Reverse(rev)
	a, b := lossObjective(res, OLS, 0), lossObjective(rev, OLS, 0)
	if a == b {
		t.Fatalf("the two orders sum to the same %v: no rounding to test", a)
	}
	obj := map[int]float64{1: 2 * a, 2: a, 3: b, 4: 2 * a}
	if _, ties := gridMinimum(obj, 1, 4, noTokenCap); !slices.Equal(ties, []int{2, 3}) {
		t.Errorf("%v and %v: tied %v, want [2 3]", a, b, ties)
	}
}

// TestProfileReplayedCountsEveryReplay pins that scaleProfile.Replayed and
// scaleFit.Replays count every replay at a grid scale the profile and the
// fit took, counted at the replay itself: Replayed was the last pass's
// grid (len(obj)), short of the scales an earlier huber pass, σ's
// look-ups or a grid grown past the first replayed. A second profile on
// the same replays replays, and counts, none.
func TestProfileReplayedCountsEveryReplay(t *testing.T) {
	reqs := outlierRows()
	rows := make([]*Request, len(reqs))
	rec, y, msg, tool := make([]float64, len(reqs)), make([]float64, len(reqs)), make([]float64, len(reqs)), make([]float64, len(reqs))
	for i := range reqs {
		r := &reqs[i]
		rows[i] = r
		rec[i], y[i] = float64(r.RecordedInput()), float64(r.RecordedInput()-r.Sim0)
		msg[i], tool[i] = float64(r.MsgUnits), float64(r.ToolUnits)
	}
	for _, tc := range []struct {
		name string
		loss Loss
		// se is the linear start's standard error: 0 starts from the
		// fewest grid steps, which the interval outgrows.
		se float64
	}{
		{"huber", Huber, -1}, {"lad", LAD, -1}, {"ols", OLS, -1},
		{"ols, the grid grown", OLS, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lin, half, note := linearTokenScale(rows, y, msg, tool, true, false, 1, tc.loss, tc.loss)
			if note != "" {
				t.Fatal(note)
			}
			se := half / 1.96
			if tc.se >= 0 {
				se = tc.se
			}
			replays, calls := 0, 0
			inner := linearReplay(reqs)
			counted := func(scales []float64) ([]map[reqKey]int64, error) {
				replays, calls = replays+len(scales), calls+1
				return inner(scales)
			}
			sims := newScaleSims(rows, counted)
			p, note, err := profileTokenScale(sims, rec, msg, tool, true, false, tc.loss, lin, se, 2*MaxScaleHalfWidth)
			if err != nil || note != "" {
				t.Fatal(err, note)
			}
			t.Logf("%d grid scales replayed in %d calls, %d passes", replays, calls, p.Passes)
			if p.Replayed != replays || replays == 0 {
				t.Errorf("Replayed %d, the replay was asked for %d scales", p.Replayed, replays)
			}
			if first := 2*ScaleProfileMinPoints + 1; tc.se == 0 && replays <= first {
				t.Errorf("%d grid scales replayed, the first grid's %d: it was meant to grow", replays, first)
			}
			again, _, err := profileTokenScale(sims, rec, msg, tool, true, false, tc.loss, lin, se, 2*MaxScaleHalfWidth)
			if err != nil || again.Replayed != 0 || replays != p.Replayed {
				t.Errorf("a second profile on the same replays: Replayed %d (err %v), %d replays in all", again.Replayed, err, replays)
			}
			replays = 0
			f, err := fitTokenScale(rows, y, msg, tool, true, false, 1, tc.loss, counted)
			if err != nil || f.Note != "" {
				t.Fatal(err, f.Note)
			}
			if f.Replays != replays {
				t.Errorf("the fit counts %d replays, the replay was asked for %d scales", f.Replays, replays)
			}
		})
	}
}
