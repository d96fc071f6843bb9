package sim

// TriggerRule decides whether deferred mode is on. A strategy's trigger
// block (Trigger) names one by trigger.mode; trigger.categorical ORs the
// "categorical" rule with it. Whatever the rule, deferred mode stays off
// while the registry holds no deferrable tool.
type TriggerRule interface {
	// On reports whether deferred mode is on for a registry. The engine
	// asks once per registry and strategy (registries are shared by
	// sessions), so On must be a function of its argument.
	On(r RegistryStats) bool
}

// RegistryStats is what a trigger reads of a registry (the servers of a
// session at their current versions).
type RegistryStats struct {
	// Tools in the registry, and how many of them the strategy may defer.
	Tools, DeferrableTools int
	// DeferrableTokens: the deferrable tools' schema tokens (wire form
	// plus tool_overhead_tokens, content counter).
	DeferrableTokens int64
	// EstimatedTokens: every tool's OpenAI function form counted with the
	// counter the rule names (EstimatingTrigger); 0 for other rules.
	// EstimatedDeferrableTokens: the same, over the deferrable tools only.
	EstimatedTokens, EstimatedDeferrableTokens int64
	// ContextWindow of the model, in tokens.
	ContextWindow int64
}

// EstimatingTrigger is a rule that reads RegistryStats.EstimatedTokens;
// EstimateCounter names the registered counter the engine counts every
// schema with (once per distinct schema).
type EstimatingTrigger interface {
	TriggerRule
	EstimateCounter() string
}

// SessionTrigger is a rule that also depends on the session: when On is
// false, the engine asks OnNow before every request.
type SessionTrigger interface {
	TriggerRule
	OnNow(s TriggerState) bool
}

// TriggerState is what a session trigger can read of the session.
type TriggerState interface {
	// ColdAlwaysDefer reports whether a tool of the registry that the
	// strategy always defers (always_defer, not never_defer) is cold.
	ColdAlwaysDefer() bool
	// ColdDeferrable reports whether a tool of the registry that the
	// strategy may defer is cold (not loaded).
	ColdDeferrable() bool
}

// TriggerFactory builds a trigger from a strategy's trigger block; its
// error (a *FieldError naming the field) says what is wrong with the block.
type TriggerFactory func(cfg Trigger) (TriggerRule, error)

type neverTrigger struct{}

func (neverTrigger) On(RegistryStats) bool { return false }

type alwaysTrigger struct{}

func (alwaysTrigger) On(RegistryStats) bool { return true }

type countTrigger struct{ n int }

func (t countTrigger) On(r RegistryStats) bool { return r.Tools > t.n }

type tokensTrigger struct {
	budget  int64
	counter string
}

func (t tokensTrigger) On(r RegistryStats) bool { return r.EstimatedTokens > t.budget }
func (t tokensTrigger) EstimateCounter() string { return t.counter }

type percentTrigger struct {
	percent float64
	counter string
}

func (t percentTrigger) On(r RegistryStats) bool {
	return r.ContextWindow > 0 && float64(r.EstimatedDeferrableTokens) >= t.percent/100*float64(r.ContextWindow)
}
func (t percentTrigger) EstimateCounter() string { return t.counter }

// anyColdTrigger is on while some deferrable tool is cold: once every
// deferrable tool is loaded, tool_search and the directory leave the
// prompt (the anchor runtime from E7 on).
type anyColdTrigger struct{}

func (anyColdTrigger) On(RegistryStats) bool     { return false }
func (anyColdTrigger) OnNow(s TriggerState) bool { return s.ColdDeferrable() }

type categoricalTrigger struct{}

func (categoricalTrigger) On(RegistryStats) bool     { return false }
func (categoricalTrigger) OnNow(s TriggerState) bool { return s.ColdAlwaysDefer() }

// anyTrigger is on when any of its rules is.
type anyTrigger []TriggerRule

func (a anyTrigger) On(r RegistryStats) bool {
	for _, t := range a {
		if t.On(r) {
			return true
		}
	}
	return false
}

func (a anyTrigger) OnNow(s TriggerState) bool {
	for _, t := range a {
		if st, ok := t.(SessionTrigger); ok && st.OnNow(s) {
			return true
		}
	}
	return false
}

func (a anyTrigger) EstimateCounter() string {
	for _, t := range a {
		if et, ok := t.(EstimatingTrigger); ok {
			return et.EstimateCounter()
		}
	}
	return ""
}

// counterOf is a trigger block's counter (DefaultCounter when unset).
func counterOf(c Trigger) string {
	if c.Counter == "" {
		return DefaultCounter
	}
	return c.Counter
}

func registerTriggers(r *Registry) error {
	counter := Param{Name: "trigger.counter", Type: "counter", Default: DefaultCounter,
		Meaning: "counter applied to each tool's OpenAI function form (a registered counter)"}
	for _, t := range []struct {
		info Info
		f    TriggerFactory
	}{
		{Info{Name: TriggerNever, Description: "deferred mode is never on: every schema is sent on every request (eager)"},
			func(Trigger) (TriggerRule, error) { return neverTrigger{}, nil }},
		{Info{Name: TriggerAlways, Description: "deferred mode is on whenever the registry holds a deferrable tool"},
			func(Trigger) (TriggerRule, error) { return alwaysTrigger{}, nil }},
		{Info{Name: TriggerCount, Description: "deferred mode when the registry holds more than trigger.count tools",
			Params: []Param{{Name: "trigger.count", Type: "int", Default: "0", Meaning: "tool count above which deferred mode is on"}}},
			func(c Trigger) (TriggerRule, error) { return countTrigger{c.Count}, nil }},
		{Info{Name: TriggerTokens, Description: "deferred mode when the estimated schema tokens of all registry tools exceed trigger.budget (strictly)",
			Params: []Param{{Name: "trigger.budget", Type: "int", Default: "0", Meaning: "token budget above which deferred mode is on"}, counter}},
			func(c Trigger) (TriggerRule, error) {
				return tokensTrigger{budget: c.Budget, counter: counterOf(c)}, nil
			}},
		{Info{Name: TriggerPercent, Description: "deferred mode when the estimated schema tokens of the deferrable tools reach trigger.percent % of the model's context window",
			Params: []Param{{Name: "trigger.percent", Type: "float", Meaning: "share of the context window, in (0,100]"}, counter}},
			func(c Trigger) (TriggerRule, error) {
				if c.Percent == 0 {
					return nil, fieldErr("trigger.percent", "%v is outside (0,100]", c.Percent)
				}
				return percentTrigger{percent: c.Percent, counter: counterOf(c)}, nil
			}},
		{Info{Name: TriggerAnyCold, Description: "deferred mode while any deferrable tool is cold (not loaded): once all are loaded, tool_search and the directory leave the prompt"},
			func(Trigger) (TriggerRule, error) { return anyColdTrigger{}, nil }},
		{Info{Name: triggerCategorical, Description: "deferred mode while any always-defer tool is cold; trigger.categorical: true ORs it with the mode",
			Params: []Param{{Name: "trigger.categorical", Type: "bool", Default: "false", Meaning: "OR this rule with trigger.mode"},
				{Name: "always_defer", Type: "[]pattern", Meaning: "the categories: tool names or prefixes (\"browser_*\")"}}},
			func(Trigger) (TriggerRule, error) { return categoricalTrigger{}, nil }},
	} {
		if err := r.RegisterTrigger(t.info, t.f); err != nil {
			return err
		}
	}
	return nil
}
