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
// whose components do not read it (scenarios.Scenario.CheckReads). The
// keys no component declares, the engine reads itself, each under the
// strategies its EngineKey says (enginekeys.go).

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
		{Name: "warm.max_tools", Type: "int", Default: "0", Meaning: "most schemas the warm set holds (0: unbounded)", Zero: "unbounded"},
		{Name: "warm.max_tokens", Type: "int", Default: "0", Meaning: "most schema tokens the warm set holds (0: unbounded)", Zero: "unbounded"},
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
// too, under every strategy that can load a tool: the tools it lists are
// deferred whenever deferred mode is on, local tools included
// (computeDeferrable), and a ranked search ranks the deferrable tools,
// also under discovery: lazy whatever the trigger. Only a strategy that
// never loads a tool (neverLoads) leaves it unread.
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
// deferrable-tool rule, and for a key the engine reads itself (EngineKeys)
// it says under which strategies. Empty for a key neither declares (such
// a key is taken to be read by every strategy).
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
		out = append(out, `every trigger but "never" (the tools it lists are deferred whenever deferred mode is on), and "never" too under discovery: lazy`)
	}
	if ek, ok := engineKey(key); ok && len(out) == 0 {
		out = append(out, "the engine, under "+ek.Readers)
	}
	return out
}

// KeyZero is what the value 0 of the strategy key stands for when it is
// not a quantity of zero, as a component of r declares it (Param.Zero):
// "unbounded" for warm.max_tools. "" when 0 is a value like the others.
func (r *Registry) KeyZero(key string) string {
	for _, info := range r.Components() {
		for _, p := range info.Params {
			if p.Name == key && p.Zero != "" {
				return p.Zero
			}
		}
	}
	return ""
}

// KeyDefault reports whether v, a value of the strategy key, is that
// key's zero value or the default a component of r (or the engine,
// EngineKeys) declares for it: a
// value that, written in a scenario, sets nothing a reader would miss.
func (r *Registry) KeyDefault(key, v string) bool {
	switch v {
	case "", "0", "false", "[]":
		return true
	}
	if ek, ok := engineKey(key); ok && ek.Default != "" && ek.Default == v {
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

// NotReading says why strategy s does not read the strategy key, or ""
// when it does: "its trigger \"count\" does not read trigger.budget". For
// a key some component of r declares, uses are the strategy's components
// of the kinds that declare key, with their parameters, sorted by kind and
// name. A strategy that never loads a tool (trigger never without the
// categorical rule, discovery not lazy) reads no key of the components
// that act only when one is loaded (search, warm set, directory,
// injection), whatever they are: then uses is nil. For a key the engine
// reads itself (EngineKeys) the engine's rule decides, and uses is nil. A
// key neither declares is taken to be read by every strategy; so is a
// declared key when one of the strategy's components of a declaring kind
// is not registered in r (the run reports the unknown name).
func (r *Registry) NotReading(s Strategy, key string) (why string, uses []Info) {
	why, _, uses = r.notReading(s, key)
	return why, uses
}

// UnreadFix says what would make strategy s read the key, when
// NotReading says it does not and names none of its components: "give the
// strategy a trigger that turns deferred mode on".
func (r *Registry) UnreadFix(s Strategy, key string) string {
	_, fix, _ := r.notReading(s, key)
	return fix
}

func (r *Registry) notReading(s Strategy, key string) (why, fix string, uses []Info) {
	s.Normalize()
	if ek, ok := engineKey(key); ok {
		why, fix = ek.unread(key, s)
		return why, fix, nil
	}
	declares := r.declaring(key)
	if len(declares) == 0 {
		return "", "", nil
	}
	never := neverLoads(s)
	if key == engineReadsAlwaysDefer && !never {
		return "", "", nil
	}
	if never && onlyInDeferredMode(declares) {
		why, fix = neverLoadsWhy(key)
		return why, fix, nil
	}
	used := s.Components()
	for kind := range declares {
		for _, name := range used[kind] {
			e, ok := r.lookup(kind, name)
			if !ok || declares[kind][name] {
				return "", "", nil
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
	return fmt.Sprintf("its %s does not read %s", strings.Join(names, ", "), key), "choose a component that reads it", uses
}
