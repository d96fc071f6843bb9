package gen

import (
	"fmt"
	"reflect"

	"github.com/defersim/defersim/internal/nouns"
)

// catalogKeys are the parameters that shape a generated catalog. A
// generation over an external catalog (NewOver) does not use them.
var catalogKeys = []paramKey{
	{"servers", func(p *Params) any { return p.Servers }},
	{"server_specs", func(p *Params) any { return p.ServerSpecs }},
	{"tools_per_server", func(p *Params) any { return p.ToolsPerServer }},
	{"schema_bytes", func(p *Params) any { return p.SchemaBytes }},
	{"description_share", func(p *Params) any { return p.DescriptionShare }},
	{"planted", func(p *Params) any { return p.Planted }},
	{"drift.servers", func(p *Params) any { return p.Drift.Servers }},
	{"drift.versions", func(p *Params) any { return p.Drift.Versions }},
	{"drift.changed_fraction", func(p *Params) any { return p.Drift.ChangedFraction }},
	{"drift.added_fraction", func(p *Params) any { return p.Drift.AddedFraction }},
	{"drift.removed_fraction", func(p *Params) any { return p.Drift.RemovedFraction }},
	{"drift.kinds", func(p *Params) any { return p.Drift.Kinds }},
	{"drift.mid_session", func(p *Params) any { return p.Drift.MidSession }},
}

// ValidateOver reports the first problem with p for a generation over a
// catalog (NewOver): first the catalog-shaping parameters set to anything
// but their defaults, which it would not use, then Validate's problems,
// then parameters the others leave idle (idleKeys).
func (p *Params) ValidateOver() error {
	if keys := p.unusedOverKeys(); len(keys) > 0 {
		return unusedOverError(keys)
	}
	if err := p.Validate(); err != nil {
		return fmt.Errorf("invalid generator parameters: %w", err)
	}
	if n, idle := p.idleKeys(true); n > 0 {
		return idleError(n, idle)
	}
	return nil
}

// unusedOverKeys names the catalog-shaping parameters of p that differ
// from their defaults: over a catalog they would change nothing, so a
// value other than the default is a mistake to report, not to ignore.
func (p *Params) unusedOverKeys() []string {
	d := Defaults()
	var out []string
	for _, k := range catalogKeys {
		if !reflect.DeepEqual(k.get(p), k.get(&d)) {
			out = append(out, k.key)
		}
	}
	return out
}

// unusedOverError is the error for keys unusedOverKeys found.
func unusedOverError(keys []string) error {
	hint := ""
	for _, k := range keys {
		if k == "drift.mid_session" {
			hint = "; over a catalog, over.mid_session sets the share of sessions resumed across an upgrade"
		}
	}
	n := len(keys)
	return fmt.Errorf("invalid generator parameters: %s %s a generated catalog and %s not used over a catalog (--catalogs): remove %s, or leave %s at %s %s%s",
		nouns.And(keys), nouns.Form(n, "shapes", "shape"), nouns.Form(n, "is", "are"),
		nouns.Form(n, "it", "them"), nouns.Form(n, "it", "them"), nouns.Form(n, "its", "their"), nouns.Form(n, "default", "defaults"), hint)
}

// overParamsHeader starts the params.yaml of a generation over a catalog:
// the catalog-shaping keys are written (at their defaults, the only values
// it accepts) so that the file is complete, but they were not used.
const overParamsHeader = `# Generated over a catalog (trace gen --catalogs): servers, server_specs,
# tools_per_server, schema_bytes, description_share, planted and drift were
# not used (they are at their defaults, the only values accepted over a
# catalog); the over: block and the session parameters were.
`

// paramKey is a parameter's key and how to read its value, for the lists
// of parameters a generation does not use (noCallKeys, catalogKeys).
type paramKey struct {
	key string
	get func(p *Params) any
}
