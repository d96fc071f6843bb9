package plan

import (
	"strings"
	"testing"

	"github.com/defersim/defersim/report"
)

// TestCheckPricesRefusesPricesThatDoNotGiveTheCost pins that a results
// file whose prices do not price its own tokens to its cost_usd is
// refused: with `"prices": {}` plan printed "prices (, USD per million
// tokens): input 0, …" and split $351 a day into $0 of every kind.
func TestCheckPricesRefusesPricesThatDoNotGiveTheCost(t *testing.T) {
	sonnet := &report.Prices{Model: "claude-sonnet-4.5", Input: 3, CacheWrite: 3.75, CacheRead: 0.30000000000000004, Output: 15}
	// 20000 uncached, 10000 written, 50000 read, 800 output tokens at
	// sonnet's prices: (60000 + 37500 + 15000 + 12000) / 1e6.
	const cost = 0.1245
	results := func(p *report.Prices, cost float64) *report.Results {
		return &report.Results{Prices: p, Strategies: []report.StrategyResult{{Name: "eager", Metrics: map[string]report.Distribution{
			"cost_usd": {Mean: cost}, "uncached_input_tokens": {Mean: 20000}, "cache_write_tokens": {Mean: 10000},
			"cache_read_tokens": {Mean: 50000}, "output_tokens": {Mean: 800}}}}}
	}
	for _, tc := range []struct {
		name string
		res  *report.Results
		want string // "" accepted
	}{
		{"the run's prices", results(sonnet, cost), ""},
		{"no prices: no split to get wrong", results(nil, cost), ""},
		{"a free model", results(&report.Prices{Model: "local"}, 0), ""},
		{"emptied prices", results(&report.Prices{}, cost),
			`results: the prices (model "": input 0, cache write 0, cache read 0, output 0 USD per million tokens) do not give the results' cost: strategy eager's mean tokens at these prices cost $0 per session, its cost_usd is $0.1245`},
		{"another model's prices", results(&report.Prices{Model: "gpt-4o", Input: 2.5, CacheWrite: 2.5, CacheRead: 1.25, Output: 10}, cost),
			"strategy eager's mean tokens at these prices cost $0.1455 per session, its cost_usd is $0.1245"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckPrices(tc.res)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
		})
	}
}
