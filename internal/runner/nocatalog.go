package runner

import (
	"fmt"
	"strings"

	"github.com/defersim/defersim/internal/nouns"
	tracesPkg "github.com/defersim/defersim/traces"
)

// NoCatalogError stops a job whose traces name no catalog of their own,
// have none beside them (traces.CatalogsFor), and were given no
// --catalogs: recommend and calibrate, which have no other catalogs to
// take, and run, sweep and plan --growth over --traces when the scenario's
// catalogs are all embedded (catalogsFor): written for the embedded sample
// sessions, not the user's. Sample, when set, are those embedded catalogs,
// which the message names to replay over on purpose. Generated are the
// traces among them that `trace gen --catalogs` wrote before it named
// their catalog (traces.GeneratedOverCatalogs): the message says they
// need the directory they were generated with.
type NoCatalogError struct {
	Sample    []string
	Generated []string
}

// NewNoCatalogError is NoCatalogError for the traces at paths, with
// Generated filled from them (a trace that cannot be read is not one).
func NewNoCatalogError(sample, paths []string) NoCatalogError {
	e := NoCatalogError{Sample: sample}
	for _, p := range paths {
		if gen, err := tracesPkg.GeneratedOverCatalogs(p); err == nil && gen {
			e.Generated = append(e.Generated, p)
		}
	}
	return e
}

func (e NoCatalogError) Error() string {
	if len(e.Generated) > 0 {
		return fmt.Sprintf("no catalog: %s %s generated over real catalogs (session_start meta %s %q) before trace gen named its catalog in the trace (meta %s), and nothing records which: pass --catalogs DIR, the catalog directory (or manifest) %s generated with",
			nouns.And(e.Generated), nouns.Form(len(e.Generated), "was", "were"), tracesPkg.MetaGenerator, tracesPkg.GeneratorOverCatalogs,
			tracesPkg.MetaCatalog, nouns.Form(len(e.Generated), "it was", "they were"))
	}
	msg := "no catalog: pass --catalogs DIR (the traces name none and none is beside them)"
	if len(e.Sample) > 0 {
		msg += ", or --catalogs " + strings.Join(e.Sample, ",") + " to replay them over the embedded sample catalog on purpose"
	}
	return msg
}
