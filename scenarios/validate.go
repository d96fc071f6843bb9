package scenarios

import "github.com/defersim/defersim/sim"

// Validation of decoded values, with component names resolved in the
// decoder's registry (the engine's built-ins when it has none).

func (d *decoder) validateStrategy(st sim.Strategy) error {
	if d.reg == nil {
		return st.Validate()
	}
	return d.reg.ValidateStrategy(st)
}

func (d *decoder) validateParams(p sim.Params) error {
	if d.reg == nil {
		return p.Validate()
	}
	return d.reg.ValidateParams(p)
}

func (d *decoder) validateModel(m sim.Model) error {
	if d.reg == nil {
		return m.Validate()
	}
	return d.reg.ValidateModel(m)
}

func (d *decoder) cacheKeyUnread(m sim.Model, key string) string {
	if d.reg == nil {
		return m.CacheKeyUnread(key)
	}
	return d.reg.CacheKeyUnread(m, key)
}

func (d *decoder) inlineModelKeys(m sim.Model) []string {
	if d.reg == nil {
		return m.InlineModelKeys()
	}
	return d.reg.InlineModelKeys(m)
}
