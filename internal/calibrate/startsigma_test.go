package calibrate

import (
	"testing"
)

// TestStartSigmaRobust pins that under huber and lad the linear start's
// interval reads the robust fit's σ (startSigma), not the residuals' root
// mean square: on TestScaleProfileHonoursLoss's data, where three of 200
// requests record 3,000 tokens too many, the first grid is narrower and
// the profile replays fewer grid scales, with its estimate and interval
// unchanged. The root mean square, inflated by the three, made the
// linear interval ± 0.022 and the profile replay 91 grid scales.
func TestStartSigmaRobust(t *testing.T) {
	reqs := outlierRows()
	rows := make([]*Request, len(reqs))
	rec, y, msg, tool := make([]float64, len(reqs)), make([]float64, len(reqs)), make([]float64, len(reqs)), make([]float64, len(reqs))
	for i := range reqs {
		r := &reqs[i]
		rows[i] = r
		rec[i], y[i] = float64(r.RecordedInput()), float64(r.RecordedInput()-r.Sim0)
		msg[i], tool[i] = float64(r.MsgUnits), float64(r.ToolUnits)
	}
	for _, loss := range []Loss{Huber, LAD} {
		t.Run(string(loss), func(t *testing.T) {
			var profs [2]scaleProfile
			var halves [2]float64
			var replays [2]int
			// [0]: the interval from the root mean square, as before;
			// [1]: from the robust fit.
			for j, il := range []Loss{OLS, loss} {
				lin, half, note := linearTokenScale(rows, y, msg, tool, true, false, 1, loss, il)
				if note != "" {
					t.Fatal(note)
				}
				sims := newScaleSims(rows, linearReplay(reqs))
				p, note, err := profileTokenScale(sims, rec, msg, tool, true, false, loss, lin, half/1.96, 2*MaxScaleHalfWidth)
				if err != nil || note != "" {
					t.Fatal(err, note)
				}
				profs[j], halves[j], replays[j] = p, half, len(sims.byK)
			}
			t.Logf("--loss %s: linear interval ± %.4f from the root mean square, ± %.4f robust; grid scales replayed %d, %d; profile %.3f (%.3f to %.3f)",
				loss, halves[0], halves[1], replays[0], replays[1], profs[1].Est, profs[1].Lo, profs[1].Hi)
			if halves[1] >= halves[0]/2 {
				t.Errorf("robust linear interval ± %.4f, want under half the root mean square's ± %.4f", halves[1], halves[0])
			}
			if replays[1] >= replays[0] {
				t.Errorf("the profile replayed %d grid scales, %d before: want fewer", replays[1], replays[0])
			}
			a, b := profs[0], profs[1]
			if a.kEst != b.kEst || a.kLo != b.kLo || a.kHi != b.kHi {
				t.Errorf("profile %d (%d..%d), %d (%d..%d) before: the estimate and interval must not move", b.kEst, b.kLo, b.kHi, a.kEst, a.kLo, a.kHi)
			}
		})
	}
}
