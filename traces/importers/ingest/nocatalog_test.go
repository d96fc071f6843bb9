package ingest

import (
	"strings"
	"testing"
)

// TestReportSaysRunNeedsCatalogs pins that an import that writes no
// catalog says the trace will need --catalogs: run, recommend and
// calibrate stop on a trace with no catalog of its own, and the report
// said only "catalog: none written".
func TestReportSaysRunNeedsCatalogs(t *testing.T) {
	var b strings.Builder
	if err := NewReport("openai-messages").WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if want := "catalog: none written (no tool schemas in the source or --tools): run, recommend and calibrate will need --catalogs DIR for this trace"; !strings.Contains(b.String(), want) {
		t.Errorf("report lacks %q:\n%s", want, b.String())
	}
}
