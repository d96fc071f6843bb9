package calibrate

import (
	"context"
	"strings"
	"testing"

	"github.com/defersim/defersim/traces"
)

// bare drops the usage and times of a session's model requests.
func bare(s *traces.Session) {
	for i := range s.Events {
		if s.Events[i].Type == traces.ModelRequest {
			s.Events[i].Usage, s.Events[i].DurationMs, s.Events[i].TTFTMs = nil, 0, 0
		}
	}
}

// TestGroupWithNothingToCalibrateSaysSo pins that a model group none of
// whose requests records usage or a duration is "nothing to calibrate"
// however its sessions split (the swe-agent groups fitted on only said "2
// session(s) to fit on and 0 to judge on"), that a group with no model is
// named "(none recorded)" as the importer names it (it showed as ""), and
// that the "no preset" warning is given only for groups calibrated.
func TestGroupWithNothingToCalibrateSaysSo(t *testing.T) {
	_, cat := recorded(t)
	trace := rewrite(t, "g.jsonl.gz", func(i int, s *traces.Session) {
		switch i {
		case 0, 2: // fitted on only (--fit-on even)
			s.Start().EnsureStart().Model = "acme-bare"
			bare(s)
		case 4:
			s.Start().EnsureStart().Model = ""
			bare(s)
		}
	})
	cfg := config(t, trace, cat, "claude-sonnet-4.5", FitOn{Kind: FitEven})
	cfg.UseRecorded = true
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range res.Models {
		if mf.Recorded != "acme-bare" && mf.Recorded != "" {
			continue
		}
		if p := strings.Join(mf.Problems, "; "); !strings.Contains(p, "nothing to calibrate: none of its") || strings.Contains(p, "to judge on") {
			t.Errorf("group %q: problems %q", mf.Recorded, p)
		}
	}
	if len(res.Warnings) > 0 {
		t.Errorf("warnings for groups not calibrated: %q", res.Warnings)
	}
	var b strings.Builder
	if err := WriteText(&b, res); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "recorded model (none recorded)") {
		t.Errorf("text does not name the group with no model:\n%s", b.String())
	}
	// With every group bare, the error names each, the unnamed one in words.
	allBare := rewrite(t, "b.jsonl.gz", func(i int, s *traces.Session) {
		if i%3 == 0 {
			s.Start().EnsureStart().Model = ""
		}
		bare(s)
	})
	cfg.Traces = []string{allBare}
	_, err = Run(context.Background(), cfg)
	if err == nil || !strings.Contains(err.Error(), "sessions of model (none recorded): nothing to calibrate") {
		t.Errorf("error %v, want the group with no model named (none recorded)", err)
	}
}

// TestUnknownModelStandInInHeader pins that a scenario calibrated for a
// recorded model the presets do not know says in its header (and in the
// group's --json warnings) that another model's preset, prices and cache
// model stand in: only a stderr warning said so (acme-llm-70b).
func TestUnknownModelStandInInHeader(t *testing.T) {
	_, cat := recorded(t)
	trace := rewrite(t, "u.jsonl.gz", func(_ int, s *traces.Session) { s.Start().EnsureStart().Model = "acme-llm-70b" })
	cfg := config(t, trace, cat, "claude-sonnet-4.5", FitOn{Kind: FitEven})
	cfg.UseRecorded = true
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	mf := res.Models[0]
	const want = `the sessions record model "acme-llm-70b", which has no preset: the claude-sonnet-4.5 preset stands in for it, with its prices, prompt-cache model`
	if !strings.Contains(strings.Join(mf.Warnings, "\n"), want) {
		t.Errorf("warnings lack %q: %q", want, mf.Warnings)
	}
	if h := header(res, mf); !strings.Contains(h, "Warning: "+want) {
		t.Errorf("header lacks the stand-in:\n%s", h)
	}
}
