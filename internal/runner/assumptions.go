package runner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/component"
	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
)

// assumptions lists every parameter and modelling choice in force, so each
// reported number can say what produced it: every key of the model and of
// params (TestAssumptionsStateEveryKey), a key the run does not read
// stated as notRead with the reason, not as a value in force.
func assumptions(cfg Config, eng *sim.Engine, reg *sim.Registry) []sim.Assumption {
	m, p := cfg.Model, cfg.Params
	f := func(v float64) string { return fmt.Sprintf("%g", v) }
	a := []sim.Assumption{{Name: "tokenizer", Value: p.Tokenizer, Source: tokenizerSource(m, cfg.ModelPreset)}}
	a = append(a, modelAssumptions(m, latencySource(m, cfg.ModelPreset), reg)...)
	// param states a params key, or notRead with the reason when the other
	// values leave it unread (sim.ParamUnread).
	param := func(key, value, source string) sim.Assumption {
		if why, on := sim.ParamUnread(m, p, key); why != "" {
			return sim.Assumption{Name: key, Value: notRead, Source: fmt.Sprintf("params: %s (read when %s allows it)", why, on)}
		}
		if why, fix := reg.ParamUnreadBy(eng.Strategies(), key); why != "" {
			return sim.Assumption{Name: key, Value: notRead, Source: fmt.Sprintf("params: %s (read when you %s)", why, fix)}
		}
		return sim.Assumption{Name: key, Value: value, Source: source}
	}
	connect, list, versions := eng.TimingDefaults()
	a = append(a,
		param("token_scale", f(p.TokenScale), "params (every count of params.tokenizer times it, each rounded to a whole token; 1: as the tokenizer counts)"),
		param("message_overhead_tokens", fmt.Sprint(p.MessageOverheadTokens), "params"),
		param("tool_overhead_tokens", fmt.Sprint(p.ToolOverheadTokens), "params"),
		param("request_overhead_tokens", fmt.Sprint(p.RequestOverheadTokens), "params"),
		param("search_tool_tokens", fmt.Sprint(p.SearchToolTokens), "params (a count of params.tokenizer: each request carries it times token_scale, as every definition)"),
		param("default_tool_ms", f(p.DefaultToolMs), "params (used when a call has no recorded duration)"),
		param("search_exec_ms", f(p.SearchExecMs), "params"),
		param("user_think_ms", f(p.UserThinkMs), "params (used when a trace has no timestamps)"),
		param("connect_ms", f(p.ConnectMs), fmt.Sprintf("params (a server's connection time, used when its catalog metadata records none: %d of the catalogs' %d server versions)", connect, versions)),
		param("list_ms", f(p.ListMs), fmt.Sprintf("params (a server's tools/list time, used when its catalog metadata records none: %d of the catalogs' %d server versions)", list, versions)),
		param("nudge_prob", f(p.NudgeProb), "params"),
		param("nudge_tokens", fmt.Sprint(p.NudgeTokens), "params"),
		param("cold_call_prob", f(p.ColdCallProb), "params"),
		param("cold_call_well_formed_prob", f(p.ColdCallWellFormedProb), "params"),
		param("select_prob", f(p.SelectProb), "params"),
		param("bytes_per_token", f(p.BytesPerToken), "params (sizes-only results)"),
		param("cache_warm_start", f(p.CacheWarmStart), "params (probability that a session starts with its static prefix already in the prompt cache, written by other sessions of the fleet; 0: every session starts cold)"),
		param("relist_prob", f(p.RelistProb), "params (probability that a version change of a server the session listed by a tools/list call makes the client list it again, delaying the next request; 0: it lists nothing)"),
		sim.Assumption{Name: "tool_calls_in_a_step", Value: "executed one after another", Source: "engine"},
		sim.Assumption{Name: "distinct_schemas_counted", Value: fmt.Sprint(eng.Tools()), Source: "engine"},
		sim.Assumption{Name: "catalogs", Value: catalogsFrom(cfg), Source: "run"},
		sim.Assumption{Name: "permissions", Value: permissionsNote(cfg), Source: "scenario permissions (checked at execution for every call, deferred or not)"},
		sim.Assumption{Name: "session_without_servers", Value: "offered every catalog server at its latest version (counted in the input resolution)", Source: "engine"},
	)
	a = append(a, searchAssumptions(eng, reg)...)
	return append(a, cfg.Notes...)
}

// tokenizerSource says where the tokenizer assumption comes from: the
// scenario's params.tokenizer, and, when the model's preset (the one it
// was built from, else the one its name resolves to) has no tokenizer of
// its own (Claude's is not published), that it is a stand-in and which
// parameter sweeps the gap.
func tokenizerSource(m sim.Model, preset string) string {
	const src = "scenario params.tokenizer"
	if note := presets.StandInFor(preset, m.Name, presets.TokenizerStandIn); note != "" {
		return src + "; " + note
	}
	return src
}

// latencySource says where the model's latency parameters come from: a
// model preset's defaults (not calibrated on the run's traces) or the
// scenario. The preset is the one the model was built from (preset, which
// a scenario may rename: {preset: gpt-4o, name: my-gpt}), else the one its
// name resolves to.
func latencySource(m sim.Model, preset string) string {
	for _, name := range []string{preset, m.Name} {
		if name == "" {
			continue
		}
		if p, err := presets.Model(name); err == nil && p.Latency == m.Latency {
			return fmt.Sprintf("model preset %s's defaults (docs/presets.md), not calibrated on these traces (defersim calibrate fits them)", p.Name)
		}
	}
	return "scenario model latency (set or calibrated)"
}

func catalogsFrom(cfg Config) string {
	from := cfg.CatalogsFrom
	if from == "" {
		from = CatalogsFromScenario
	}
	var paths []string
	for _, c := range cfg.Catalogs {
		paths = append(paths, c.Path)
	}
	return fmt.Sprintf("%s: %s", from, strings.Join(paths, ", "))
}

func permissionsNote(cfg Config) string {
	switch {
	case len(cfg.Allow) == 0 && len(cfg.Deny) == 0:
		return "every call allowed"
	case len(cfg.Allow) == 0:
		return fmt.Sprintf("deny %s; a denied call pays its request, not the tool's result or time", strings.Join(cfg.Deny, ", "))
	case len(cfg.Deny) == 0:
		return fmt.Sprintf("allow only %s; a call outside it is denied and pays its request, not the tool's result or time", strings.Join(cfg.Allow, ", "))
	}
	return fmt.Sprintf("allow only %s, deny %s (deny wins); a denied call pays its request, not the tool's result or time",
		strings.Join(cfg.Allow, ", "), strings.Join(cfg.Deny, ", "))
}

// searchAssumptions says, from the engine's resolved strategies, which
// query each ranked search mode writes: the recorded query when the trace
// has one, else the registered query model's (one entry per query model,
// naming the strategies and modes that use it).
func searchAssumptions(eng *sim.Engine, reg *sim.Registry) []sim.Assumption {
	desc := map[string]string{}
	for _, info := range reg.Components() {
		if info.Kind == component.QueryModel {
			desc[info.Name] = info.Description
		}
	}
	type use struct{ strategies, modes []string }
	uses := map[string]*use{}
	var order []string
	var selects []string
	for si, s := range eng.Strategies() {
		q := eng.QueryModelOf(si)
		if q == "" {
			selects = append(selects, s.Name)
			continue
		}
		u := uses[q]
		if u == nil {
			u = &use{}
			uses[q] = u
			order = append(order, q)
		}
		u.strategies = append(u.strategies, s.Name)
		if mode := s.Search.Mode; !slices.Contains(u.modes, mode) {
			u.modes = append(u.modes, mode)
		}
	}
	var out []sim.Assumption
	for _, q := range order {
		u := uses[q]
		out = append(out, sim.Assumption{Name: "query_model." + q,
			Value: fmt.Sprintf("%s — the query of ranked searches (%s) of %s when the trace recorded none; a recorded query is replayed as recorded",
				desc[q], strings.Join(u.modes, ", "), strings.Join(u.strategies, ", ")),
			Source: "engine (search mode's registered query model, or params.query_model)"})
	}
	if len(selects) > 0 {
		out = append(out, sim.Assumption{Name: "search.select",
			Value:  fmt.Sprintf("exact names (select:), always a hit, for %s", strings.Join(selects, ", ")),
			Source: "engine (search.mode select)"})
	}
	return out
}

// catalogAssumptions states what tool fingerprints cover and, when any tool
// had a null or missing input schema, how many were read as
// {"type":"object"} and which (at most catalog.MaxNoteItems named).
func catalogAssumptions(c *catalog.Catalog, scope catalog.FingerprintScope) []sim.Assumption {
	a := []sim.Assumption{{Name: "catalog.fingerprint", Value: string(scope),
		Source: "scenario catalog_fingerprint (model: name, description, input schema; served: the whole tool)"}}
	if ws := catalog.Warnings(c.All()); len(ws) > 0 {
		listed := ws[:min(len(ws), catalog.MaxNoteItems)]
		more := ""
		if n := len(ws) - len(listed); n > 0 {
			more = fmt.Sprintf("; … (%d more)", n)
		}
		a = append(a, sim.Assumption{Name: "catalog.schema_read_as_object",
			Value:  fmt.Sprintf("%s: %s%s", nouns.Count(len(ws), "tool"), strings.Join(listed, "; "), more),
			Source: `catalog (a null or missing inputSchema is read as {"type":"object"})`})
	}
	return a
}
