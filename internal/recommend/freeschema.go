package recommend

import "fmt"

// freeSchemaErr refuses a recommendation whose dollars say nothing: under
// e's model a schema token in tools[] costs $0 per session (an input price
// of 0, or cache multipliers of 0 on every request), so deferring saves no
// dollars. The budget (its break-even is the loads' dollars over a
// token's: unbounded, or 0/0) and the always-defer list (cheaper deferred)
// weigh only dollars, and the first-reply rule (never-defer) prices one
// tool's prefill against a round trip: it sets no budget. A budget from
// time alone would need what loads cost after the first reply, which these
// economics do not model; the replay measures it (sweep). nil when a
// schema token costs something.
func freeSchemaErr(e *Economy) error {
	if e.perToken() > 0 {
		return nil
	}
	why := fmt.Sprintf("pricing.input_per_mtok is %v", e.Model.Pricing.InputPerMTok)
	if e.Model.Pricing.InputPerMTok > 0 {
		why = e.PriceCache()
	}
	return fmt.Errorf("under model %q a schema in tools[] costs $0 per session (%s): deferring saves no dollars, "+
		"and recommend's budget and always-defer list weigh those dollars (the budget's break-even would be unbounded), "+
		"while first-reply time alone (the never-defer rule) sets no budget; "+
		"give prompt tokens a price (model.pricing.input_per_mtok in --scenario; for a self-hosted model, what a token costs to serve), "+
		"or choose a budget by replay: defersim sweep --param strategy.trigger.budget=FROM:TO:STEP", e.Model.Name, why)
}
