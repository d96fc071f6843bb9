package runner

import "github.com/defersim/defersim/sim"

// DefaultRegistry returns the registry of built-in components.
func DefaultRegistry() (*sim.Registry, error) {
	r := sim.NewRegistry()
	return r, nil
}

func defaultValidator() sim.ArgValidator { return nil }
