package report

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/defersim/defersim/sim"
)

// syntheticNames are strategy names shaped like the presets'.
var syntheticNames = []string{
	"eager", "anchor-e0-count30", "anchor-e1-budget8k", "anchor-e4-budget-or-categorical",
	"anchor-e6-never-defer-openers", "anchor-e7-per-tool", "anchor-e9-warm-capped",
	"claude-code-default", "claude-code-auto10", "anthropic-api-inline", "copilot-cli-30",
	"fingerprint-warm-lru",
}

var syntheticPrices = Prices{Model: "synthetic-model", Input: 3, CacheWrite: 3.75, CacheRead: 0.3, Output: 15}

// syntheticOutcomes builds outcomes for the first strategies of
// syntheticNames over sessions sessions from a seeded RNG. Strategy 0 is
// eager-like (large prompts, no extra round trips); later strategies send
// fewer schema tokens but add round trips, latency and some malformed calls.
func syntheticOutcomes(strategies, sessions int, seed uint64) *sim.Outcomes {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	o := &sim.Outcomes{
		Strategies:     make([]sim.Strategy, strategies),
		SessionIDs:     make([]string, sessions),
		Values:         make([][sim.NumMetrics][]float64, strategies),
		ByRequestIndex: make([][]sim.RequestIndexStat, strategies),
	}
	for s := range strategies {
		name := syntheticNames[s%len(syntheticNames)]
		if s >= len(syntheticNames) {
			name = fmt.Sprintf("%s-%d", name, s/len(syntheticNames))
		}
		o.Strategies[s] = sim.Strategy{Name: name, Trigger: sim.Trigger{Mode: "count", Count: 30 + s}, Injection: "tools-array"}
		if s == 0 {
			o.Strategies[s].Trigger = sim.Trigger{Mode: "never"}
		}
		for m := range sim.NumMetrics {
			o.Values[s][m] = make([]float64, sessions)
		}
		o.ByRequestIndex[s] = make([]sim.RequestIndexStat, 12)
	}
	for i := range sessions {
		o.SessionIDs[i] = fmt.Sprintf("session-%04d", i)
		requests := 2 + rng.IntN(9)
		schema := 4000 + 6000*rng.Float64()
		convo := 1500 + 3000*rng.ExpFloat64()
		output := 200 + 400*rng.Float64()
		latency := 1200 * math.Exp(0.5*rng.NormFloat64())
		u := rng.Float64()
		for s := range strategies {
			v := &o.Values[s]
			shrink := 1 - 0.06*float64(s%7)
			extra := 0.0
			if s > 0 {
				extra = math.Floor(float64(s%4)*0.6*rng.Float64() + 0.3*rng.Float64())
			}
			reqs := float64(requests) + extra
			promptPer := schema*shrink + convo
			input := math.Round(promptPer * reqs)
			write := math.Round(promptPer * (1 + 0.3*extra) * (0.8 + 0.1*float64(s%3)))
			read := math.Max(0, math.Round((input-write)*(0.9-0.02*float64(s%5))))
			uncached := input - write - read
			out := math.Round(output * reqs)
			malformed := 0.0
			if s%5 == 3 && u < 0.08 {
				malformed = 1
			}
			vals := map[int]float64{
				sim.MInputTokens:      input,
				sim.MUncachedTokens:   uncached,
				sim.MCacheWriteTokens: write,
				sim.MCacheReadTokens:  read,
				sim.MOutputTokens:     out,
				sim.MSchemaTokens:     math.Round(schema * shrink * reqs),
				sim.MCostUSD: (uncached*syntheticPrices.Input + write*syntheticPrices.CacheWrite +
					read*syntheticPrices.CacheRead + out*syntheticPrices.Output) / 1e6,
				sim.MFirstReplyMs:             latency*(1+0.02*float64(s)) + extra*900*rng.Float64(),
				sim.MSessionMs:                latency*reqs + 2000*extra,
				sim.MRequests:                 reqs,
				sim.MExtraRoundTrips:          extra,
				sim.MSearches:                 extra,
				sim.MMalformedCalls:           malformed,
				sim.MMalformedType:            malformed * float64(i%2),
				sim.MMalformedMissingRequired: malformed * float64(1-i%2),
				sim.MCacheHitRatio:            read / input,
			}
			for m, x := range vals {
				v[m][i] = x
			}
			for k := 0; k < int(reqs) && k < len(o.ByRequestIndex[s]); k++ {
				st := &o.ByRequestIndex[s][k]
				st.Sessions++
				in := int64(promptPer)
				st.Input += in
				if k > 0 && !(extra > 0 && k == 1) {
					st.CacheRead += int64(float64(in) * (0.95 - 0.03*float64(s%4)))
				}
				if extra > 0 && k == 1 {
					st.Extra++
				}
			}
			// Model steps: an extra request (k = 1) joins the step after it.
			step, last := 0, -1
			for k := 0; k < int(reqs) && step < len(o.ByRequestIndex[s]); k++ {
				st := &o.ByRequestIndex[s][step]
				if step != last {
					st.StepSessions++
					last = step
				}
				st.StepRequests++
				in := int64(promptPer)
				st.StepInput += in
				if k > 0 && !(extra > 0 && k == 1) {
					st.StepCacheRead += int64(float64(in) * (0.95 - 0.03*float64(s%4)))
				}
				if !(extra > 0 && k == 1) {
					step++
				}
			}
		}
	}
	return o
}

func syntheticInfo() sim.RunInfo {
	return sim.RunInfo{
		Scenario:            "synthetic",
		ScenarioFingerprint: "sha256:0000",
		Seed:                7,
		Baseline:            "eager",
		Tokenizer:           "o200k_base",
		Model:               "synthetic-model",
		CacheModel:          "anthropic-5m",
		Assumptions: []sim.Assumption{
			{Name: "latency.overhead_ms", Value: "400", Source: "default"},
			{Name: "cold_call_guess", Value: "reject", Source: "scenario"},
		},
		Inputs: []sim.Input{
			{Kind: "trace", Path: "traces/synthetic.jsonl.gz", SHA256: "ab12", Bytes: 1234},
			{Kind: "catalog", Path: "catalogs/files", SHA256: "cd34", Bytes: 99, Server: "files", Version: "1.0.0", Tools: 11},
		},
		Counts: sim.Counts{Files: 2, LinesRead: 500, EventsRead: 480, SessionsRead: 42, SessionsReplayed: 40,
			SessionsSkipped: 2, LinesSkipped: 3, SkipReasons: map[string]int{"truncated session": 2, "bad json": 1}},
	}
}

func testAssumption(name, value string) sim.Assumption {
	return sim.Assumption{Name: name, Value: value, Source: "test"}
}
