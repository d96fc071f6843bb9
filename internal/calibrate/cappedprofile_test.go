package calibrate

import (
	"strings"
	"testing"
)

// TestCappedProfileSaysSo pins the rule when huber's σ has not settled
// after ScaleProfileScalePasses profiles: the pass with the greatest σ is
// kept (the first of them on a tie), marked Capped, and calibrate's note
// says so with that σ. The last pass was kept, silently: which of two
// alternating minima calibrate wrote hung on the pass limit's parity.
func TestCappedProfileSaysSo(t *testing.T) {
	pass := func(k int, sigma float64) scaleProfile {
		return scaleProfile{Est: gridScale(k), Lo: gridScale(k - 3), Hi: gridScale(k + 3), kEst: k, kLo: k - 3, kHi: k + 3, Sigma: sigma}
	}
	for _, tc := range []struct {
		name   string
		passes []scaleProfile
		want   int // kEst kept
	}{
		{"alternating", []scaleProfile{pass(997, 4.22), pass(1002, 4.34), pass(997, 4.30), pass(1002, 4.31)}, 1002},
		{"tie keeps the first", []scaleProfile{pass(1300, 4.0), pass(1301, 4.1), pass(1300, 4.1), pass(1302, 3.9)}, 1301},
		{"the first", []scaleProfile{pass(1168, 4.4), pass(1169, 4.1), pass(1167, 4.2), pass(1169, 4.3)}, 1168},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := cappedProfile(tc.passes)
			if p.kEst != tc.want || !p.Capped || p.Passes != len(tc.passes) {
				t.Errorf("kept %d (capped %v, %d passes), want %d (capped, %d passes)", p.kEst, p.Capped, p.Passes, tc.want, len(tc.passes))
			}
			note := fitScaleNote(profiledScale(p))
			if want := "huber's σ had not settled after 4 profiles (calibrate.ScaleProfileScalePasses), so the one at the greatest σ"; !strings.Contains(note, want) {
				t.Errorf("note %q lacks %q", note, want)
			}
		})
	}
	if note := fitScaleNote(profiledScale(pass(1300, 4))); strings.Contains(note, "settled") {
		t.Errorf("a settled profile's note %q speaks of σ", note)
	}
}
