package recommend

import (
	"context"
	"fmt"
	"io/fs"
	"math"
	"slices"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/inputnotes"
	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/scenarios"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
	"github.com/defersim/defersim/tokens"
	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/validation"
)

// Config is one recommendation.
type Config struct {
	Traces []string
	// Sources, when set, are the traces to read instead of the Traces
	// paths (a command passes its sources; they are made Rereadable).
	Sources []runner.Source
	// Catalogs are the catalog paths, read as run reads them
	// (runner.CatalogSources): "embedded:catalog" names the catalog of
	// Embedded, the data a build embeds (nil: none).
	Catalogs []string
	Embedded fs.FS
	// Model and Params price the rules and the validation replays.
	Model  sim.Model
	Params sim.Params
	// ModelPreset names the preset Model was built from ("" for an inline
	// model): a session recording a vendor's spelling of it is its model.
	ModelPreset string
	// Current is the strategy in use today (compared in the validation).
	Current sim.Strategy
	// Base gives the proposal its deferral mechanics (warm set, injection,
	// search, directory, rejected calls). Zero: Current when it defers,
	// else claude-code-default (inline) for an Anthropic-style cache and
	// codex-cli (tools-array) otherwise.
	Base      *sim.Strategy
	Seed      int64
	TestShare float64
	Rules     Rules
	// Presets compared in the validation (nil = every preset).
	Presets []string
	// Bootstrap resamples of the validation's intervals (0 = default).
	Bootstrap int
	// BootstrapMemory limits the validation's bootstrap (runner.Config's).
	BootstrapMemory int64
	Workers         int
	// AllowUnresolved lets the validation replay traces whose tool calls do
	// not resolve against the catalogs (runner.Config).
	AllowUnresolved bool
	// LocalServers are the scenario's local servers (servers.X.local): as
	// in a run, their tools are direct whatever the budget unless
	// always-deferred, in the rules, the budget and the validation.
	LocalServers []string
	// RunOnly is what the scenario sets that a run of it applies and
	// recommend does not: a warning names it.
	RunOnly RunOnly
	// Progress, when set, is called after each phase (1: learnt from the
	// training sessions, 2: validated on the held-out ones).
	Progress func(phase int)
}

// proposalName is the name of the proposed strategy.
const proposalName = "recommended"

// Proposal is the recommendation and its evidence.
type Proposal struct {
	Strategy sim.Strategy `json:"strategy"`
	// For is what the proposal was chosen for, which the snippet records
	// under recommended_for: a run with another model or tokenizer warns.
	For      scenarios.RecommendedFor `json:"recommended_for"`
	BaseName string                   `json:"base"`
	// Tools assessed, in server then name order.
	Tools []Assessment `json:"tools"`
	// Budget: break-even deferrable schema tokens and the trigger budget
	// (in the trigger counter's estimated tokens) it gives.
	BreakEvenTokens float64 `json:"break_even_deferrable_tokens"`
	// ModeTokens: what deferred mode adds to every request under scope
	// mcp, which the budget turns on: the search tool's definition and
	// DirectoryTokens, the base's directory of every deferrable tool as a
	// run renders and counts it (sim.Engine.DirectoryTokens; 0 under
	// format none). OnlyDirectoryTokens is the directory of the
	// always-defer list alone, which alwaysDeferOnly prices scope
	// always-defer-only's mode with. DirectoryFormat is the base's format.
	ModeTokens          float64 `json:"deferred_mode_tokens"`
	DirectoryFormat     string  `json:"directory_format"`
	DirectoryTokens     int64   `json:"directory_tokens"`
	OnlyDirectoryTokens int64   `json:"always_defer_only_directory_tokens"`
	Budget              int64   `json:"budget"`
	RegistryEstimated   int64   `json:"registry_estimated_tokens"`
	// Mode says how the proposal turns deferral on for this catalog.
	Mode string `json:"mode"`
	// ListScope is the mode whose round trip and loads the always-defer
	// rule weighed (the tools' ModeDeferMs, ModeDeferUSD): the scope the
	// proposal runs, mcp or always-defer-only (decidePasses).
	ListScope string `json:"always_defer_rule_scope"`
	// Spread is how far the budget could move within the call shares'
	// bounds, and whether the mode could change there (BudgetSpread).
	Spread *BudgetSpread `json:"budget_spread"`
	// Economy figures the rules priced with.
	RoundTripMs float64 `json:"round_trip_ms"`
	// RoundTripCache says what the round trip and the dollars assumed
	// about the prompt cache (Economy.CacheAssumption).
	RoundTripCache string  `json:"round_trip_cache"`
	Economy        Economy `json:"-"`
	Rules          Rules   `json:"rules"`
	Expensive      int64   `json:"expensive_tokens"`
	Training       int     `json:"training_sessions"`
	HeldOut        int     `json:"held_out_sessions"`
	// TestShare is the share of sessions held apart (--test-share).
	TestShare float64 `json:"test_share"`
	// Seed split the sessions and seeded the validation's replay (its
	// random draws: a search's query, params.cold_call_prob): a run of
	// the held-out sessions under the snippet reproduces the validation's
	// figures at this seed only.
	Seed int64 `json:"seed"`
	// UncertainDecisions counts the tools whose decision is uncertain
	// (Assessment.Uncertain) in a way that could change a run of the
	// proposal's mode (Assessment.UncertainCounted); Warnings say what makes the proposal weak
	// (uncertain decisions, no held-out session) and what to do.
	UncertainDecisions int      `json:"uncertain_decisions"`
	Warnings           []string `json:"warnings,omitempty"`
	// UncertainLeftOut counts the uncertain decisions UncertainDecisions
	// leaves out: those that cannot change a run of the proposal's mode
	// (Assessment.UncertainCounted false), under scope always-defer-only
	// with the mode settled, never-defer against by budget. They take
	// effect above the budget.
	UncertainLeftOut int `json:"uncertain_decisions_left_out"`
	// UncertainAboveOnly counts, of UncertainDecisions, those that take
	// effect only above the budget (never-defer against by budget) when the
	// proposal runs scope always-defer-only and its mode is uncertain: they
	// are counted then, not left out, since the catalog could be above it.
	UncertainAboveOnly int `json:"uncertain_decisions_above_budget_only"`
	// ProposalUncertain and ProposalUncertainReasons are the proposal's
	// own uncertainty as the CSV ends every row with it: UncertainReasons,
	// set once the proposal is complete (settleVerdict); true exactly when
	// --fail-on-uncertain exits 1.
	ProposalUncertain        bool     `json:"proposal_uncertain"`
	ProposalUncertainReasons []string `json:"proposal_uncertain_reasons"`
	// VersionGap, when not nil, lists the tools the training sessions call
	// that the priced versions lack, and those of the priced versions no
	// session's version had (versionGap): a warning says so.
	VersionGap *VersionGap `json:"version_gap,omitempty"`
	// UnreplayedEntries lists the proposal's never_defer and always_defer
	// entries that no catalog version a training session is replayed on
	// serves (runner.UnreplayedEntries): in a run of those sessions they
	// change nothing. A warning says so.
	UnreplayedEntries []sim.UnreplayedEntry `json:"entries_unreplayed,omitempty"`
	// Unsettled, when not nil, says that the decisions did not settle
	// (decidePasses): the figures reported are those the last pass's
	// decisions were made with. A warning says so.
	Unsettled *Unsettled `json:"decisions_unsettled,omitempty"`
	// Validation on the held-out sessions (nil when there are none).
	Validation *Validation `json:"validation,omitempty"`
	// LocalServers are the scenario's local servers the catalogs hold
	// (Config.LocalServers): a note says how they were priced.
	LocalServers []string `json:"local_servers,omitempty"`
	// Notes state choices the proposal made that its inputs left open
	// (which version of a server without a release order it prices), the
	// sessions recorded with another model than Model and the calls that
	// did not resolve.
	Notes []string `json:"notes,omitempty"`
	// RecordedModels counts every session (training and held-out) by the
	// model its session_start records, as results.json's
	// run.recorded_models does.
	RecordedModels []sim.RecordedModel `json:"recorded_models,omitempty"`
	// ModelsNote is the note on the sessions recorded with another model
	// than the one priced ("" when none were): the command warns with it.
	ModelsNote string `json:"-"`
	// Inputs are the input problems of the traces and catalogs read (nil
	// when there are none).
	Inputs *inputnotes.Notes `json:"input_notes,omitempty"`
}

// Run learns from the training sessions, proposes a strategy and validates
// it on the held-out sessions.
func Run(ctx context.Context, cfg Config) (*Proposal, error) {
	if cfg.TestShare < 0 || cfg.TestShare >= 1 {
		return nil, fmt.Errorf("test share %v: want a value in [0, 1)", cfg.TestShare)
	}
	if c := cfg.Rules.Confidence; !(c > 0.5 && c < 1) {
		return nil, fmt.Errorf("confidence %v: want a one-sided level in (0.5, 1), e.g. 0.95", c)
	}
	catSrcs, err := runner.CatalogSources(cfg.Catalogs, cfg.Embedded)
	if err != nil {
		return nil, err
	}
	cat, err := runner.LoadCatalogs(catSrcs)
	if err != nil {
		return nil, err
	}
	if len(cat.ServerNames()) == 0 {
		return nil, fmt.Errorf("no catalog: the rules need the tools' schemas (--catalogs)")
	}
	content, err := tokens.ByName(cfg.Params.Tokenizer)
	if err != nil {
		return nil, err
	}
	base, baseName, err := chooseBase(cfg)
	if err != nil {
		return nil, err
	}
	// The round trip asks the model's cache what it reads (Economy.RoundTripRead).
	if _, err := cfg.Model.FollowUpRead(base.CacheLayout, 0, 0, 0); err != nil {
		return nil, fmt.Errorf("model cache: %w", err)
	}
	trigger, err := tokens.ByName(sim.DefaultCounter)
	if err != nil {
		return nil, err
	}
	schemas := newSchemas(cat, content, trigger, cfg.Params.ToolOverheadTokens, nil)
	local := heldLocal(cat, cfg.LocalServers)
	eager, err := presets.Strategy("eager")
	if err != nil {
		return nil, err
	}
	srcs := cfg.Sources
	if srcs == nil {
		srcs = runner.PathSources(cfg.Traces...)
	}
	// Read twice (learn, then validate): a FIFO is spooled, not copied
	// anywhere under a name.
	srcs, release, err := runner.Rereadable(srcs)
	if err != nil {
		return nil, err
	}
	defer release()
	var tally inputnotes.Tally
	eng, err := newEngine(cat, cfg.Model, cfg.Params, eager, cfg.Seed, local, runner.RunModel(cfg.Model.Name, cfg.ModelPreset))
	if err != nil {
		return nil, err
	}
	l, err := learn(runner.TalliedSessionSource(srcs, traces.ReadOptions{}, &tally), cat, eng, cfg.Seed, cfg.TestShare, schemas.Resolver(local))
	if err != nil {
		return nil, err
	}
	if l.Usage.Sessions == 0 {
		return nil, fmt.Errorf("no training session (%d held out): lower --test-share", l.HeldOut)
	}
	if l.Usage.WithCalls == 0 {
		return nil, fmt.Errorf("none of the %s learnt from calls a tool (%d held out): the rules learn which tools open sessions "+
			"and how often each is called from the sessions' tool calls, and these traces record none, so every tool would be "+
			"deferred on no evidence; check that the traces hold their tool_call events (defersim trace stats counts them)",
			nouns.Count(l.Usage.Sessions, "session"), l.HeldOut)
	}
	// Every session's calls, training and held-out, are held to the limit
	// a run holds them to: a tool no catalog defines gets no decision, the
	// rules learn nothing of it, and the validation leaves it out.
	held := runner.CatalogVersions(cat)
	res := runner.SummarizeResolution(&l.Resolution, runner.DefaultMaxUnresolved, cfg.AllowUnresolved, held)
	if res.PastLimit() && !cfg.AllowUnresolved {
		return nil, fmt.Errorf("the sessions (%d learnt from, %d held out): %w", l.Usage.Sessions, l.HeldOut, &runner.UnresolvedError{Resolution: res, FixedLimit: true, Held: held})
	}
	// A server whose versions have no release order has no latest: price
	// the version the training sessions use.
	chosen, notes := chooseVersions(cat, l.Usage)
	if len(chosen) > 0 {
		schemas = newSchemas(cat, content, trigger, cfg.Params.ToolOverheadTokens, chosen)
	}
	p, err := propose(cfg, schemas, l, base, baseName, directoryOf(eng, chosen))
	if err != nil {
		return nil, err
	}
	p.Notes = notes
	if len(local) > 0 {
		p.LocalServers = local
		p.Notes = append(p.Notes, localNote(local, cfg.RunOnly.Scenario))
	}
	entries := runner.ServingVersions(p.Strategy.Name, "never_defer", p.Strategy.NeverDefer, cat)
	entries = append(entries, runner.ServingVersions(p.Strategy.Name, "always_defer", p.Strategy.AlwaysDefer, cat)...)
	if u := runner.UnreplayedEntries(entries, l.Usage.Offered()); len(u) > 0 {
		p.UnreplayedEntries = u
		p.Warnings = append(p.Warnings, unreplayedEntriesWarning(u))
	}
	if n := lazyDiscoveryNote(baseName, base.Discovery); n != "" {
		p.Notes = append(p.Notes, n)
	}
	if fewer, series := l.Usage.fewerServers(); fewer > 0 {
		p.Notes = append(p.Notes, fewerServersNote(fewer, series, l.Usage.Sessions))
	}
	if n := defaultLocalNote(heldLocal(cat, cfg.RunOnly.DefaultLocal), cfg.RunOnly.Scenario); n != "" {
		p.Notes = append(p.Notes, n)
	}
	if w := cfg.RunOnly.warning(); w != "" {
		p.Warnings = append(p.Warnings, w)
	}
	if g := versionGap(cat, chosen, schemas, l.Usage); g != nil {
		p.VersionGap = g
		p.Warnings = append(p.Warnings, g.warning(l.Usage.Sessions))
		for i := range p.Tools {
			if slices.Contains(g.Added, toolLabel(p.Tools[i].Key)) {
				p.Tools[i].Why += "; in no version the sessions used (added, or renamed, since)"
			}
		}
	}
	p.RecordedModels = runner.RecordedModels(&l.Resolution, cfg.Model.Name, cfg.ModelPreset)
	beyond := runner.OtherModels(&l.Resolution)
	_, total, _ := report.OtherModels(p.RecordedModels, beyond)
	if n := otherModelsNote(p.RecordedModels, beyond, cfg.Model.Name); n != "" {
		p.ModelsNote = n
		p.Notes = append(p.Notes, p.ModelsNote)
	} else if none := report.WithoutModel(p.RecordedModels); none > 0 {
		p.ModelsNote = fmt.Sprintf("%d of %s %s no model: the rules and the validation price and time them as %s (its prices, prompt cache and latency), "+
			"which they do not name; --model or --scenario chooses the model they ran with", none, nouns.Count(int(total), "session"), nouns.Form(int(none), "records", "record"), cfg.Model.Name)
		p.Notes = append(p.Notes, p.ModelsNote)
	}
	// Calls --allow-unresolved let through: tools no catalog serves get no
	// decision, and the validation leaves them out.
	if w := report.ResolutionPastLimit(res); w != "" {
		tools := ""
		if t := report.ResolutionTools(res, 5); t != "" {
			tools = ": " + t
		}
		p.Notes = append(p.Notes, fmt.Sprintf("over all %s (%d learnt from, %d held out): %s, so the rules decide nothing for those tools (no catalog defines them) "+
			"and the validation does not count what they cost%s", nouns.Count(l.Usage.Sessions+l.HeldOut, "session"), l.Usage.Sessions, l.HeldOut, w, tools))
	}
	if n := notExactNote(res, l); n != "" {
		p.Notes = append(p.Notes, n)
	}
	p.Inputs = tally.Notes(catalog.Notes(cat.All(), validation.SchemaCheck)).OrNil()
	if cfg.Progress != nil {
		cfg.Progress(1)
	}
	if l.HeldOut > 0 {
		v, err := validate(ctx, cfg, p, srcs)
		if err != nil {
			return nil, fmt.Errorf("validate on held-out sessions: %w", err)
		}
		p.Validation = v
		if v.SmallSample {
			p.Warnings = append(p.Warnings, v.smallWarning())
		}
	}
	if cfg.Progress != nil {
		cfg.Progress(2)
	}
	settleVerdict(p)
	return p, nil
}

func chooseBase(cfg Config) (sim.Strategy, string, error) {
	if cfg.Base != nil {
		return *cfg.Base, cfg.Base.Name, nil
	}
	if cfg.Current.Name != "" && cfg.Current.Trigger.Mode != sim.TriggerNever {
		return cfg.Current, cfg.Current.Name, nil
	}
	name := "codex-cli"
	if cfg.Model.Cache.Kind == "anthropic" {
		name = "claude-code-default"
	}
	s, err := presets.Strategy(name)
	return s, name, err
}

// propose applies the rules to every catalog tool and builds the strategy;
// it refuses when a schema token costs no dollars (freeSchemaErr).
func propose(cfg Config, schemas schemas, l *Learnt, base sim.Strategy, baseName string, dir directoryPricer) (*Proposal, error) {
	n := float64(l.Usage.Sessions)
	e := Economy{Model: cfg.Model, Params: cfg.Params, Injection: base.Injection, CacheLayout: base.CacheLayout,
		Requests: float64(l.Requests) / n, FirstPrompt: float64(l.FirstPrompt) / n,
		MeanPrompt: float64(l.Prompt) / math.Max(float64(l.Requests), 1), SearchOutput: searchOutputTokens}
	if err := freeSchemaErr(&e); err != nil {
		return nil, err
	}
	keys := make([]toolKey, 0, len(schemas))
	var all int64
	for k, s := range schemas {
		keys = append(keys, k)
		all += s.Tokens
	}
	sortKeys(keys)
	served := l.Usage.Served(keys)
	expensive := cfg.Rules.Expensive
	if expensive <= 0 {
		expensive = schemas.quantileTokens(0.75)
	}
	// Decide until the figures settle: the round trip's and the loads'
	// prompts depend on what stays direct, which leaves the deferred
	// schemas and the directory (scope mcp's, as a run of the proposal
	// renders it; at first every tool's), and the always-defer rule's on
	// the mode the proposal runs, which the decisions choose —
	// decidePasses.
	assessAll := func(e, list *Economy) []Assessment {
		out := make([]Assessment, 0, len(keys))
		for _, k := range keys {
			out = append(out, assess(e, list, cfg.Rules, expensive, k, l.Usage.Tools[k], served[k], l.Usage.Sessions, *schemas[k], slices.Contains(cfg.LocalServers, k.Server)))
		}
		return out
	}
	newProposal := func(tools []Assessment, e Economy) (*Proposal, error) {
		p := &Proposal{BaseName: baseName, Tools: tools, Economy: e, RoundTripMs: e.RoundTripMs(), RoundTripCache: e.CacheAssumption(), Rules: cfg.Rules,
			Expensive: expensive, Training: l.Usage.Sessions, HeldOut: l.HeldOut, TestShare: cfg.TestShare, Seed: cfg.Seed}
		return p, priceBudget(p, all, base, dir)
	}
	p, err := decidePasses(e, all, assessAll, newProposal, base, dir)
	if err != nil {
		return nil, err
	}
	p.Strategy = proposalStrategy(base, p.Tools, p)
	spreadBudget(p)
	summarize(p)
	return p, nil
}

// priceBudget fills p's directories, mode tokens, catalog size, break-even
// and budget from its tools' decisions and economy: deferring the
// deferrable tools pays when their per-session direct cost exceeds the
// expected cost of loading the ones sessions use. Deferred mode itself
// costs the tool_search definition and the base's directory of the
// deferred tools on every request, as a run of the proposal shows it
// (priceDirectories). all is every tool's schema tokens. With
// --usd-per-second each side weighs its first-reply time too (Rules.worth):
// a schema token its prefill, a load its before-reply share of the round
// trip.
func priceBudget(p *Proposal, all int64, base sim.Strategy, dir directoryPricer) error {
	if err := priceDirectories(p, base, dir); err != nil {
		return err
	}
	var loads float64
	var neverTok, est int64
	for _, a := range p.Tools {
		est += a.Schema.Estimated
		if a.direct() {
			neverTok += a.Schema.Tokens
			continue
		}
		loads += p.Rules.worth(a.DeferUSD, a.DeferMs)
	}
	p.RegistryEstimated = est
	p.BreakEvenTokens = loads/p.tokenWorth() + p.ModeTokens
	ratio := float64(est) / math.Max(float64(all), 1)
	p.Budget = max(1, int64(math.Ceil((p.BreakEvenTokens+float64(neverTok))*ratio)))
	return nil
}

// searchOutputTokens is the output of one tool_search call: a short JSON
// argument object and its framing.
const searchOutputTokens = 15
