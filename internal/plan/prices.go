package plan

import (
	"fmt"
	"math"

	"github.com/defersim/defersim/report"
)

// pricesTolerance is the relative difference allowed between a strategy's
// mean cost_usd and its mean tokens of each kind at the results' prices:
// the replay prices every request linearly at those prices, so the two
// agree to rounding (about 1e-15 of the cost); a file whose prices were
// edited, or are another model's, differs by far more.
const pricesTolerance = 1e-6

// CheckPrices refuses results whose prices do not give their own cost:
// the plan splits each strategy's dollars by token kind with the results'
// prices, so a file whose prices were emptied or edited (`"prices": {}`)
// was projected with a split of $0 per kind under a cost of $351 a day,
// and a price list titled "prices (, USD per million tokens)". Results
// without prices are not refused: the plan then prints no split.
func CheckPrices(res *report.Results) error {
	pr := res.Prices
	if pr == nil {
		return nil
	}
	for _, s := range res.Strategies {
		cost, ok := s.Metrics["cost_usd"]
		if !ok {
			continue // Project names the missing metric
		}
		var split float64
		for i, price := range []float64{pr.Input, pr.CacheWrite, pr.CacheRead, pr.Output} {
			split += s.Metrics[tokenKinds[i].Metric].Mean * price / 1e6
		}
		if d := math.Abs(split - cost.Mean); d > pricesTolerance*math.Max(math.Abs(cost.Mean), math.Abs(split)) && d > 1e-12 {
			return fmt.Errorf("results: the prices (model %q: input %g, cache write %g, cache read %g, output %g USD per million tokens) do not give the results' cost: "+
				"strategy %s's mean tokens at these prices cost $%.4g per session, its cost_usd is $%.4g; the plan splits dollars by token kind with them: "+
				"the file's prices were edited, or are not its run's; write the file again with defersim run",
				pr.Model, pr.Input, pr.CacheWrite, pr.CacheRead, pr.Output, s.Name, split, cost.Mean)
		}
	}
	return nil
}
