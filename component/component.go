// Package component owns the vocabulary in which defersim describes its
// named, pluggable components: the kinds of component, and for each
// registered one its name, a one-line description and its parameters. The
// registries themselves live where the components are used (sim.Registry
// for the engine's, traces/importers for importers); this package only lets
// both describe their entries alike, without an import between them, so
// that `defersim components` lists them together.
package component

import "fmt"

// Kind is a kind of component.
type Kind string

// The kinds of component, in the order `defersim components` lists them.
const (
	Trigger    Kind = "trigger"     // turns deferred mode on
	Keying     Kind = "warm-key"    // which loaded schemas survive a catalog change
	Eviction   Kind = "eviction"    // which warm entry leaves a full warm set
	Injection  Kind = "injection"   // where a loaded schema reaches the model
	Directory  Kind = "directory"   // what the model is shown of deferred tools
	QueryModel Kind = "query-model" // what query the model writes for a needed tool
	Ranker     Kind = "ranker"      // search mode: ranks tools for a query
	Cache      Kind = "cache"       // prompt-cache model
	Counter    Kind = "counter"     // token counter
	Importer   Kind = "importer"    // reads traces of another format
)

// Kinds lists every kind in listing order.
func Kinds() []Kind {
	return []Kind{Trigger, Keying, Eviction, Injection, Directory, QueryModel, Ranker, Cache, Counter, Importer}
}

// Param describes one parameter of a component, in the spelling a user
// writes it (a scenario key such as "trigger.count", or a flag).
type Param struct {
	Name    string `json:"name"`
	Type    string `json:"type"`
	Default string `json:"default,omitempty"`
	Meaning string `json:"meaning"`
	// Zero is what the value 0 stands for when it is not a quantity of
	// zero ("unbounded" for a cap); empty when 0 is a value like others.
	// A sweep whose range holds 0 says so at that point.
	Zero string `json:"zero,omitempty"`
}

// Info describes one registered component.
type Info struct {
	Kind        Kind    `json:"kind"`
	Name        string  `json:"name"`
	Description string  `json:"description"`
	Params      []Param `json:"params,omitempty"`
	// QueryModel names, for a ranker, the query model its searches use
	// when the trace recorded no query and the scenario says "auto".
	QueryModel string `json:"query_model,omitempty"`
}

// Check reports what is missing from an entry about to be registered.
func (i Info) Check() error {
	switch {
	case i.Name == "":
		return fmt.Errorf("%s component without a name", i.Kind)
	case i.Description == "":
		return fmt.Errorf("%s %q: no description", i.Kind, i.Name)
	}
	for _, p := range i.Params {
		if p.Name == "" || p.Type == "" || p.Meaning == "" {
			return fmt.Errorf("%s %q: parameter %+v needs a name, a type and a meaning", i.Kind, i.Name, p)
		}
	}
	return nil
}
