package runner

import (
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/search"
	"github.com/defersim/defersim/sim/validation"
)

// DefaultRegistry returns the registry of built-in components: the exact
// select mode and every ranker of sim/search.
func DefaultRegistry() (*sim.Registry, error) {
	r := sim.NewRegistry()
	if err := search.Register(r); err != nil {
		return nil, err
	}
	return r, nil
}

// defaultValidator is the JSON Schema validator of sim/validation.
func defaultValidator() sim.ArgValidator { return validation.New() }
