package sim

import (
	"fmt"
	"slices"
	"strings"

	"github.com/defersim/defersim/component"
)

// Which strategy keys a strategy reads. A component declares the strategy
// keys it reads as its parameters (`defersim components`): the count
// trigger reads trigger.count, a ranked search mode search.k, exact select
// none. `defersim sweep` refuses a strategy.* key no strategy of the run
// reads, and a run refuses a key its scenario file writes on a strategy
// whose components do not read it (scenarios.Scenario.CheckReads).

// Components names the components strategy s uses, by kind, after
// Normalize: its trigger (and the categorical rule when
// trigger.categorical ORs it in), warm keying and eviction, injection,
// directory format and search mode.
func (s Strategy) Components() map[component.Kind][]string {
	s.Normalize()
	trig := []string{s.Trigger.Mode}
	if s.Trigger.Categorical && s.Trigger.Mode != triggerCategorical {
		trig = append(trig, triggerCategorical)
	}
	return map[component.Kind][]string{
		component.Trigger:   trig,
		component.Keying:    {s.Warm.Key},
		component.Eviction:  {s.Warm.Eviction},
		component.Injection: {s.Injection},
		component.Directory: {s.Directory.Format},
		component.Ranker:    {s.Search.Mode},
	}
}

// Strategy keys the engine itself reads for every component of a kind,
// whatever the component: it asks every ranked search mode for search.k
// results and retries a miss search.keyword_retries times (load.go); it
// caps the warm set and asks the eviction only which entry leaves; it
// empties the warm set on warm.clear whatever the keying. Registering a
// component of these kinds declares them for it (withEngineParams), so
// that `defersim components` and the reads check see them.
var (
	rankedSearchParams = []Param{
		{Name: "search.k", Type: "int", Default: "5", Meaning: "results a search returns (and loads)"},
		{Name: "search.keyword_retries", Type: "int", Default: "0", Meaning: "searches with the tool's name words after a miss, before an exact select"},
	}
	evictionParams = []Param{
		{Name: "warm.max_tools", Type: "int", Default: "0", Meaning: "most schemas the warm set holds (0: unbounded)"},
		{Name: "warm.max_tokens", Type: "int", Default: "0", Meaning: "most schema tokens the warm set holds (0: unbounded)"},
		{Name: "warm.counter", Type: "counter", Default: "",
			Meaning: "counter of warm.max_tokens, applied to each tool's OpenAI function form (empty: the tokens of its definition in tools[], content counter plus tool_overhead_tokens)"},
	}
	keyingParams = []Param{{Name: "warm.clear", Type: "string", Default: warmClearNever,
		Meaning: "never, or registry-change: at each run start (user message) empty the whole set when the registry's fingerprint changed since the last run start (the anchor runtime's rule)"}}
)

// withEngineParams is params with each of engine's that it does not
// declare appended.
func withEngineParams(params, engine []Param) []Param {
	out := slices.Clone(params)
	for _, e := range engine {
		if !slices.ContainsFunc(params, func(p Param) bool { return p.Name == e.Name }) {
			out = append(out, e)
		}
	}
	return out
}

// engineReadsAlwaysDefer: always_defer is a parameter of the categorical
// trigger (its categories), and the engine's deferrable-tool rule reads it
// too, under every trigger that can turn deferred mode on: the tools it
// lists are deferred whenever deferred mode is on, local tools included
// (computeDeferrable). Only the never trigger, without the categorical
// rule, leaves it unread.
const engineReadsAlwaysDefer = "always_defer"

// deferredKinds are the kinds of component that act only in deferred
// mode: a strategy whose trigger never turns it on reads none of their
// keys.
var deferredKinds = []component.Kind{component.Ranker, component.Keying, component.Eviction, component.Injection, component.Directory}

// onlyInDeferredMode reports whether every component declaring a key (by
// kind, from declaring) is of a kind that acts only in deferred mode.
func onlyInDeferredMode(declares map[component.Kind]map[string]bool) bool {
	for kind := range declares {
		if !slices.Contains(deferredKinds, kind) {
			return false
		}
	}
	return len(declares) > 0
}

// declaring returns the registered components that declare key as a
// parameter, by kind and name.
func (r *Registry) declaring(key string) map[component.Kind]map[string]bool {
	out := map[component.Kind]map[string]bool{}
	for _, info := range r.Components() {
		for _, p := range info.Params {
			if p.Name == key {
				if out[info.Kind] == nil {
					out[info.Kind] = map[string]bool{}
				}
				out[info.Kind][info.Name] = true
			}
		}
	}
	return out
}

// KeyReaders names the components of r that read the strategy key, as
// `kind "name"` in listing order; for always_defer it adds the engine's
// deferrable-tool rule. Empty when no component declares key (such a key
// is taken to be read by every strategy).
func (r *Registry) KeyReaders(key string) []string {
	var out []string
	for _, info := range r.Components() {
		for _, p := range info.Params {
			if p.Name == key {
				out = append(out, fmt.Sprintf("%s %q", info.Kind, info.Name))
			}
		}
	}
	if key == engineReadsAlwaysDefer && len(out) > 0 {
		out = append(out, `every trigger but "never" (the tools it lists are deferred whenever deferred mode is on)`)
	}
	return out
}

// KeyDefault reports whether v, a value of the strategy key, is that
// key's zero value or the default a component of r declares for it: a
// value that, written in a scenario, sets nothing a reader would miss.
func (r *Registry) KeyDefault(key, v string) bool {
	switch v {
	case "", "0", "false", "[]":
		return true
	}
	for _, info := range r.Components() {
		for _, p := range info.Params {
			if p.Name == key && p.Default != "" && p.Default == v {
				return true
			}
		}
	}
	return false
}

// NotReading says why no component of strategy s reads the strategy key
// (a parameter some component of r declares), or "" when one does: "its
// trigger \"count\" does not read trigger.budget". uses are the
// strategy's components of the kinds that declare key, with their
// parameters, sorted by kind and name. A strategy whose trigger is never
// (without the categorical rule) reads no key of the components that act
// only in deferred mode (search, warm set, directory, injection), whatever
// they are: then uses is nil. A key no component of r declares
// is taken to be read by every strategy; so is any key when one of those
// components is not registered in r (the run reports the unknown name).
func (r *Registry) NotReading(s Strategy, key string) (why string, uses []Info) {
	declares := r.declaring(key)
	if len(declares) == 0 {
		return "", nil
	}
	s.Normalize()
	deferredOff := s.Trigger.Mode == TriggerNever && !s.Trigger.Categorical
	if key == engineReadsAlwaysDefer && !deferredOff {
		return "", nil
	}
	if deferredOff && onlyInDeferredMode(declares) {
		return fmt.Sprintf("its trigger %q never turns deferred mode on, and %s is read only in deferred mode (by the search, the warm set, the directory or the injection of loaded schemas)", TriggerNever, key), nil
	}
	used := s.Components()
	for kind := range declares {
		for _, name := range used[kind] {
			e, ok := r.lookup(kind, name)
			if !ok || declares[kind][name] {
				return "", nil
			}
			info := e.info
			info.Params = slices.Clone(info.Params)
			uses = append(uses, info)
		}
	}
	slices.SortFunc(uses, func(a, b Info) int {
		return strings.Compare(fmt.Sprintf("%s %q", a.Kind, a.Name), fmt.Sprintf("%s %q", b.Kind, b.Name))
	})
	names := make([]string, len(uses))
	for i, u := range uses {
		names[i] = fmt.Sprintf("%s %q", u.Kind, u.Name)
	}
	return fmt.Sprintf("its %s does not read %s", strings.Join(names, ", "), key), uses
}
