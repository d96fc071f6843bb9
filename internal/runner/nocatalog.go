package runner

import "strings"

// NoCatalogError stops a job whose traces name no catalog of their own,
// have none beside them (traces.CatalogsFor), and were given no
// --catalogs: recommend and calibrate, which have no other catalogs to
// take, and run, sweep and plan --growth over --traces when the scenario's
// catalogs are all embedded (catalogsFor): written for the embedded sample
// sessions, not the user's. Sample, when set, are those embedded catalogs,
// which the message names to replay over on purpose.
type NoCatalogError struct{ Sample []string }

func (e NoCatalogError) Error() string {
	msg := "no catalog: pass --catalogs DIR (the traces name none and none is beside them)"
	if len(e.Sample) > 0 {
		msg += ", or --catalogs " + strings.Join(e.Sample, ",") + " to replay them over the embedded sample catalog on purpose"
	}
	return msg
}
