package runner

import (
	"fmt"

	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/search"
	"github.com/defersim/defersim/srd"
	srddata "github.com/defersim/defersim/srd/data"
	"github.com/defersim/defersim/srd/routed"
	"github.com/defersim/defersim/traces/importers"
	"github.com/defersim/defersim/validation"
)

// DefaultRegistry returns the registry of every component a run can name:
// the engine's built-ins (sim.NewRegistry), every ranker of sim/search, the
// routed modes ("routed", "routed-hard") over the project's routing
// descriptions of the real catalogs' servers (srd/data; a server without
// one is its own domain), the fielded ("bm25f") and fused router
// ("routed-fused") modes over the same descriptions, and, described only,
// the trace importers of traces/importers.
func DefaultRegistry() (*sim.Registry, error) {
	srds, err := embeddedSRDs()
	if err != nil {
		return nil, err
	}
	return RegistryWith(srds)
}

// RegistryWith is DefaultRegistry with the routed, fielded and fused modes
// over srds (a user's routing descriptions: run --srd) instead of the
// embedded ones.
func RegistryWith(srds []*srd.SRD) (*sim.Registry, error) {
	r := sim.NewRegistry()
	if err := search.Register(r); err != nil {
		return nil, err
	}
	if err := routed.RegisterWith(r, srds, routed.BM25()); err != nil {
		return nil, err
	}
	if err := routed.RegisterFused(r, srds); err != nil {
		return nil, err
	}
	for _, info := range importers.Components() {
		if err := r.Describe(info.Kind, info); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// defaultValidator is the JSON Schema validator of validation.
func defaultValidator() sim.ArgValidator { return validation.New() }

func embeddedSRDs() ([]*srd.SRD, error) {
	srds, problems, err := srd.LoadFS(srddata.FS, srddata.Catalogs)
	if err != nil {
		return nil, fmt.Errorf("load routing descriptions: %w", err)
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("embedded routing descriptions: %v", problems[0])
	}
	return srds, nil
}

// DefaultDomains returns the routing domains of the embedded routing
// descriptions, for the by-domain directory and activation notices.
func DefaultDomains() (sim.Domains, error) {
	srds, err := embeddedSRDs()
	if err != nil {
		return nil, err
	}
	return domainsOf(srds)
}

// srdDomains adapts srd.Set to sim.Domains.
type srdDomains struct{ set *srd.Set }

func (d srdDomains) DomainOf(server, tool string) string { return d.set.DomainOf(server, tool) }

func (d srdDomains) ActivationNotice(domain string) string { return d.set.ActivationNotice(domain) }

func (d srdDomains) DirectoryText(tools [][2]string) string {
	refs := make([]srd.ToolRef, len(tools))
	for i, t := range tools {
		refs[i] = srd.ToolRef{Server: t[0], Name: t[1]}
	}
	return d.set.DirectoryText(refs)
}
