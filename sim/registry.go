package sim

import (
	"fmt"
	"slices"
	"strings"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/component"
)

// Info describes a registered component (its kind is set by the Register
// method that adds it).
type Info = component.Info

// Param describes one parameter of a component.
type Param = component.Param

// Registry holds the named components a run can use, by kind: triggers,
// warm-set keyings and evictions, injections, directory formats, query
// models, search rankers, prompt-cache models and token counters, plus
// entries that are only described (importers, which traces/importers
// resolves). NewRegistry fills in the engine's built-in components; others
// are added with the Register methods before the engine is built, and the
// registry is read-only afterwards. Scenarios name components; the engine
// resolves every name once, when it is built (resolve.go).
type Registry struct {
	kinds map[component.Kind][]entry // in registration order
}

type entry struct {
	info component.Info
	v    any
}

// NewRegistry returns a registry holding the built-in components: every
// trigger, warm-set keying and eviction, injection, directory format, query
// model, cache model and counter of this package, and the "select" search
// mode. Rankers come from sim/search and srd/routed (see
// internal/runner.DefaultRegistry).
func NewRegistry() *Registry {
	r := &Registry{kinds: map[component.Kind][]entry{}}
	for _, reg := range []func(*Registry) error{
		registerTriggers, registerWarmPolicies, registerInjections, registerDirectories,
		registerQueryModels, registerSelect, registerCaches, registerCounters,
	} {
		if err := reg(r); err != nil {
			panic("sim: built-in components: " + err.Error()) // a programming error, caught by every test
		}
	}
	return r
}

// builtins is the registry of built-in components that Validate checks
// names against. It is never modified.
var builtins = NewRegistry()

func joinNames(names []string) string { return strings.Join(names, ", ") }

func (r *Registry) add(kind component.Kind, info Info, v any) error {
	info.Kind = kind
	if err := info.Check(); err != nil {
		return err
	}
	if _, ok := r.lookup(kind, info.Name); ok {
		return fmt.Errorf("%s %q registered twice", kind, info.Name)
	}
	if r.kinds == nil {
		r.kinds = map[component.Kind][]entry{}
	}
	r.kinds[kind] = append(r.kinds[kind], entry{info: info, v: v})
	return nil
}

func (r *Registry) lookup(kind component.Kind, name string) (entry, bool) {
	for _, e := range r.kinds[kind] {
		if e.info.Name == name {
			return e, true
		}
	}
	return entry{}, false
}

// Names lists the names registered under kind, in registration order.
func (r *Registry) Names(kind component.Kind) []string {
	var out []string
	for _, e := range r.kinds[kind] {
		out = append(out, e.info.Name)
	}
	return out
}

// Components describes every registered component: kinds in
// component.Kinds order, each kind's entries in registration order.
func (r *Registry) Components() []Info {
	var out []Info
	for _, k := range component.Kinds() {
		for _, e := range r.kinds[k] {
			info := e.info
			info.Params = slices.Clone(info.Params)
			out = append(out, info)
		}
	}
	return out
}

// Describe adds an entry that the registry lists but the engine does not
// resolve (an importer: traces/importers runs them).
func (r *Registry) Describe(kind component.Kind, info Info) error {
	return r.add(kind, info, nil)
}

// unknown is the error for a name that is not registered under kind.
func (r *Registry) unknown(field string, kind component.Kind, name string) *FieldError {
	want := strings.Join(r.Names(kind), "|")
	if name == "" {
		return fieldErr(field, "missing (want %s)", want)
	}
	return fieldErr(field, "%s", catalog.NearName(name, r.Names(kind)).WithHint(fmt.Sprintf("unknown %s %q (want %s)", kind, name, want)))
}

// RegisterTrigger adds a trigger: f builds it from a strategy's trigger
// block (and reports what is wrong with the block).
func (r *Registry) RegisterTrigger(info Info, f TriggerFactory) error {
	return r.add(component.Trigger, info, f)
}

// RegisterKeying adds a warm-set keying.
func (r *Registry) RegisterKeying(info Info, k Keying) error {
	info.Params = withEngineParams(info.Params, keyingParams)
	return r.add(component.Keying, info, k)
}

// RegisterEviction adds a warm-set eviction policy.
func (r *Registry) RegisterEviction(info Info, ev Eviction) error {
	info.Params = withEngineParams(info.Params, evictionParams)
	return r.add(component.Eviction, info, ev)
}

// RegisterInjection adds an injection.
func (r *Registry) RegisterInjection(info Info, in Injection) error {
	return r.add(component.Injection, info, in)
}

// RegisterDirectory adds a directory format.
func (r *Registry) RegisterDirectory(info Info, f DirectoryFactory) error {
	return r.add(component.Directory, info, f)
}

// RegisterQueryModel adds a query model.
func (r *Registry) RegisterQueryModel(info Info, q QueryModel) error {
	return r.add(component.QueryModel, info, q)
}

// RegisterCache adds a prompt-cache model.
func (r *Registry) RegisterCache(info Info, c CacheModel) error {
	return r.add(component.Cache, info, c)
}

// RegisterCounter adds a token counter family. A name ending in "/N"
// ("bytes/N") is a family: it resolves every name with that prefix.
func (r *Registry) RegisterCounter(info Info, c CounterFamily) error {
	return r.add(component.Counter, info, c)
}

// RegisterSearch adds a search mode: a ranker factory and the query model
// its searches use when the trace recorded no query (info.QueryModel; ""
// is DefaultQueryModel). The query model must be registered already.
func (r *Registry) RegisterSearch(info Info, f RankerFactory) error {
	if f == nil {
		return fmt.Errorf("search mode %q: no ranker factory", info.Name)
	}
	if info.QueryModel == "" {
		info.QueryModel = DefaultQueryModel
	}
	if _, ok := r.lookup(component.QueryModel, info.QueryModel); !ok {
		return fmt.Errorf("search mode %q: %v", info.Name, r.unknown("query_model", component.QueryModel, info.QueryModel))
	}
	if !validModeName(info.Name) {
		return fmt.Errorf("search mode %q: not a mode name (lower-case letters, digits, - and _)", info.Name)
	}
	info.Params = withEngineParams(info.Params, rankedSearchParams)
	return r.add(component.Ranker, info, f)
}

// RegisterRanker adds a search mode with no description and the default
// query model (DefaultQueryModel). It fails when name is taken. Prefer
// RegisterSearch, which says what the mode is and which query it expects.
func (r *Registry) RegisterRanker(name string, f RankerFactory) error {
	return r.RegisterSearch(Info{Name: name, Description: "a ranker registered without a description"}, f)
}

// Ranker returns the factory registered as search mode name ("select",
// which needs no ranker, has none).
func (r *Registry) Ranker(name string) (RankerFactory, bool) {
	e, ok := r.lookup(component.Ranker, name)
	if !ok {
		return nil, false
	}
	f, _ := e.v.(RankerFactory)
	return f, f != nil
}

// SearchModes lists the registered search modes, "select" first, the
// others in name order.
func (r *Registry) SearchModes() []string {
	out := r.Names(component.Ranker)
	slices.Sort(out[1:])
	return out
}

// registerSelect adds the exact-name search mode, which every registry has.
func registerSelect(r *Registry) error {
	return r.add(component.Ranker, Info{Name: searchSelect,
		Description: "exact names (select:a,b): always a hit; one round trip loads every cold tool of a step",
		QueryModel:  "", Params: []Param{}}, nil)
}
