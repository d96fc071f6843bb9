package calibrate

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/shareddata"
	"github.com/defersim/defersim/sim/presets"
	"github.com/defersim/defersim/traces/importers"
)

// The shared tau2-bench runs with per-request timestamps.
var (
	tau2Telecom = []string{"sessions", "tau2-bench", "data", "simulations",
		"2025-08-10T02:44:06.496849_telecom_llm_agent_gpt-4o_user_simulator_gpt-4o.json"}
	tau2Airline = []string{"sessions", "tau2-bench", "web", "leaderboard", "public", "submissions",
		"gpt-oss-120b_openai_2025-11-26", "trajectories", "langchain_agent_airline_2025-11-26_00-37-06.json"}
)

// importTau2 imports one tau2 results file with the leaderboard's tool
// listing, as docs/calibrate.md does.
func importTau2(t *testing.T, elems ...string) (string, string) {
	t.Helper()
	src := shareddata.Path(t, elems...)
	tools := shareddata.Path(t, "sessions", "tau2-bench", "web", "leaderboard", "public", "task-data", "tools-data.json")
	out := filepath.Join(t.TempDir(), "tau2.jsonl.gz")
	if _, err := importers.Run(importers.Request{Format: "tau2", Inputs: []string{src}, Out: out, ToolFiles: []string{tools}}); err != nil {
		t.Fatal(err)
	}
	return out, out + ".catalog"
}

// calibrateTau2 calibrates an imported tau2 run from model, with request
// kinds or without.
func calibrateTau2(t *testing.T, trace, cat, model string, fitOn FitOn, kinds bool) *ModelFit {
	t.Helper()
	cfg := config(t, trace, cat, model, fitOn)
	cfg.NoKinds = !kinds
	cfg.AllowUnresolved = true // the shared listing lacks some of the tools these runs call (docs/calibrate.md)
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Models) != 1 || res.Models[0].Latency == nil || res.Models[0].HeldOut == nil {
		t.Fatalf("%d groups; problems %v", len(res.Models), res.Models[0].Problems)
	}
	return res.Models[0]
}

// TestTau2TelecomEvenOdd pins the figures docs/fidelity.md reports for the
// gpt-4o telecom run (usage and timestamps), calibrated on the sessions at
// even positions and judged on the odd ones: no negative rate, prompt
// tokens within 1% at the median, request time within 8% at the median and
// 25% at p90 (issue 16's bound), and the request-kind terms no worse than
// one overhead for every request.
func TestTau2TelecomEvenOdd(t *testing.T) {
	trace, cat := importTau2(t, tau2Telecom...)
	mf := calibrateTau2(t, trace, cat, "gpt-4o", FitOn{Kind: FitEven}, true)
	if mf.FitSessions != 10 || mf.HeldSessions != 10 || mf.WithUsage != mf.Requests {
		t.Fatalf("%d fit, %d held-out sessions; %d of %d requests with usage", mf.FitSessions, mf.HeldSessions, mf.WithUsage, mf.Requests)
	}
	if o := mf.Overhead; o == nil || o.After.InputMedianAbsRelErr > 0.01 || o.After.InputP90AbsRelErr > 0.02 {
		t.Errorf("held-out prompt tokens: %+v", o)
	}
	l, ev := mf.Latency, mf.HeldOut
	noNegativeRate(t, l)
	if !l.Kinds || ev.Requests.Requests != 108 || ev.Requests.MedianAbsRel > 0.08 || ev.Requests.P90AbsRel > 0.25 {
		t.Errorf("held-out request time (kinds %v): %+v", l.Kinds, ev.Requests)
	}
	if !(ev.RequestKS < ev.RequestKSBefore) || ev.FirstReply.Requests != 10 {
		t.Errorf("KS %v (scenario %v); %d first replies", ev.RequestKS, ev.RequestKSBefore, ev.FirstReply.Requests)
	}
	one := calibrateTau2(t, trace, cat, "gpt-4o", FitOn{Kind: FitEven}, false).HeldOut.Requests
	if ev.Requests.MedianAbsRel > one.MedianAbsRel || ev.Requests.P90AbsRel > one.P90AbsRel {
		t.Errorf("request kinds %+v, one overhead %+v", ev.Requests, one)
	}
}

// TestTau2AirlineEvenOdd pins what the gpt-oss-120b airline run (timestamps,
// no usage) allows, calibrated on either half of the sessions and judged on
// the other: no negative rate; the request-kind terms lower the held-out
// median and p90 errors below one overhead's, on both halves; yet issue
// 16's per-request bound is out of reach — even fitted on the held-out
// requests themselves the formula's p90 stays far above 25%
// (docs/fidelity.md says why).
func TestTau2AirlineEvenOdd(t *testing.T) {
	trace, cat := importTau2(t, tau2Airline...)
	for _, fitOn := range []FitOn{{Kind: FitEven}, {Kind: FitOdd}} {
		mf := calibrateTau2(t, trace, cat, "gpt-4o", fitOn, true)
		if mf.Overhead != nil || mf.WithUsage != 0 || mf.FitSessions != 25 || mf.HeldSessions != 25 {
			t.Errorf("%s: overhead %v, %d requests with usage, %d/%d sessions", fitOn, mf.Overhead, mf.WithUsage, mf.FitSessions, mf.HeldSessions)
		}
		l, ev := mf.Latency, mf.HeldOut
		if l.Split != SplitReplay || !l.Kinds {
			t.Errorf("%s: latency fit %+v", fitOn, l)
		}
		noNegativeRate(t, l)
		one := calibrateTau2(t, trace, cat, "gpt-4o", fitOn, false).HeldOut
		if !(ev.Requests.MedianAbsRel < one.Requests.MedianAbsRel && ev.Requests.P90AbsRel < one.Requests.P90AbsRel && ev.RequestKS < one.RequestKS) {
			t.Errorf("%s: request kinds %+v (KS %v), one overhead %+v (KS %v)", fitOn, ev.Requests, ev.RequestKS, one.Requests, one.RequestKS)
		}
		if ev.InSample == nil || ev.InSample.P90AbsRel <= 0.25 {
			t.Errorf("%s: best in-sample fit %+v: the docs say no parameter choice reaches p90 25%%", fitOn, ev.InSample)
		}
	}
}

// TestTau2AirlineCeiling pins docs/fidelity.md's ceiling for the airline
// run: no prediction that depends only on a request's kind and the octaves
// (⌊log2⌋) of its visible output, its prompt and its uncached prompt tokens
// — even one chosen per cell with the held-out times in hand — puts 90% of
// the odd sessions' requests within 25% of their time, so none meets the
// p90 bound; on the telecom run the coarsest of these cells already do.
// The page's figures — the held-out requests, the cells and those of one
// request, the shares within 25% — are checked against what it computes
// (the cell counts were counted by hand; all are current).
func TestTau2AirlineCeiling(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "docs", "fidelity.md"))
	if err != nil {
		t.Fatal(err)
	}
	page := strings.Join(strings.Fields(string(raw)), " ")
	for _, tc := range []struct {
		name     string
		elems    []string
		atMost   float64 // share of held-out requests within 25% in the finest cells
		atLeast  float64 // share in the coarsest (kind) cells
		requests int
		// says writes what the page says of the requests, the finest
		// cells (how many, how many of one request) and the two shares.
		says func(requests, cells, single int, fine, coarse string) string
	}{
		{"airline", tau2Airline, 0.90, 0, 467, func(requests, cells, single int, fine, coarse string) string {
			return fmt.Sprintf("On the %d held-out airline requests (%d cells, %d of them a single request), at most %s can then be within 25%% of their time — so the p90 error of any model that depends on these features stays above 25%% — and per kind alone at most %s.",
				requests, cells, single, fine, coarse)
		}},
		{"telecom", tau2Telecom, 1.01, 0.90, 108, func(_, _, _ int, _, coarse string) string { // no ceiling: at most 100%
			return fmt.Sprintf("On telecom the kinds alone already allow %s.", coarse)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			trace, cat := importTau2(t, tc.elems...)
			cfg := config(t, trace, cat, "gpt-4o", FitOn{Kind: FitEven})
			strat, err := presets.Strategy("eager")
			if err != nil {
				t.Fatal(err)
			}
			setup := &Setup{Model: cfg.Model, Catalog: cfg.Catalog, Strategy: strat, Seed: cfg.Seed}
			groups, _, err := scanGroups(&cfg.Data)
			if err != nil {
				t.Fatal(err)
			}
			reqs, _, _, err := setup.collect(cfg.source(groups[0].key, false), cfg.Params)
			if err != nil {
				t.Fatal(err)
			}
			rows, _ := latencyRows(reqs, SplitReplay)
			var held []latencyRow
			for _, r := range rows {
				if r.role == HeldOut {
					held = append(held, r)
				}
			}
			if len(held) != tc.requests {
				t.Fatalf("%d held-out requests, want %d", len(held), tc.requests)
			}
			oct := func(v float64) int { return int(math.Log2(v + 1)) }
			coarse := withinInCells(held, 0.25, func(r latencyRow) string { return r.kind.String() })
			fineKey := func(r latencyRow) string { return fmt.Sprint(r.kind, oct(r.out), oct(r.unc+r.read), oct(r.unc)) }
			fine := withinInCells(held, 0.25, fineKey)
			t.Logf("within 25%%: %.1f%% (kind cells), %.1f%% (kind × output, prompt, uncached octaves)", 100*coarse, 100*fine)
			size := map[string]int{}
			for _, r := range held {
				size[fineKey(r)]++
			}
			single := 0
			for _, n := range size {
				if n == 1 {
					single++
				}
			}
			pct := func(v float64) string { return fmt.Sprintf("%.1f%%", 100*v) }
			if want := tc.says(len(held), len(size), single, pct(fine), pct(coarse)); !strings.Contains(page, want) {
				t.Errorf("docs/fidelity.md does not say %q", want)
			}
			if fine >= tc.atMost || coarse < tc.atLeast {
				t.Errorf("within 25%%: %.3f in the kind cells (want ≥ %v), %.3f in the finest (want < %v)", coarse, tc.atLeast, fine, tc.atMost)
			}
		})
	}
}

// withinInCells is the largest share of rows whose time any prediction
// constant within each cell of key can put within tol (|pred − rec| / rec):
// per cell, the most times inside one window [p/(1+tol), p/(1−tol)].
func withinInCells(rows []latencyRow, tol float64, key func(latencyRow) string) float64 {
	cells := map[string][]float64{}
	for _, r := range rows {
		cells[key(r)] = append(cells[key(r)], r.ms)
	}
	n := 0
	for _, v := range cells {
		sort.Float64s(v)
		best, j := 0, 0
		for i := range v {
			for j < len(v) && v[j] <= v[i]*(1+tol)/(1-tol) {
				j++
			}
			best = max(best, j-i)
		}
		n += best
	}
	return float64(n) / float64(len(rows))
}
