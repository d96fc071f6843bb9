package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSRDLintReadsCatalogsAsRunDoes pins that srd lint --catalogs reads its
// catalogs as run does (runner.CatalogSources): embedded:catalog is the
// embedded sample, and checks the tool groups as the same directory on
// disk does. It failed with "open embedded:catalog: no such file or
// directory", while run, recommend and calibrate accept it.
func TestSRDLintReadsCatalogsAsRunDoes(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "calendar.yaml")
	const doc = `srd_version: 1
server_id: calendar
domain: scheduling
display_name: Calendar
summary: Plans events.
intent_triggers: [plan a meeting]
tool_groups:
  events: [assign_event, no_such_tool]
`
	if err := os.WriteFile(file, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	embedded, code := runSRDCmd(t, "lint", file, "--catalogs", "embedded:catalog")
	if code != 1 || !strings.Contains(embedded, "no_such_tool") || strings.Contains(embedded, `"assign_event"`) {
		t.Fatalf("lint --catalogs embedded:catalog: exit %d, want 1 naming no_such_tool only:\n%s", code, embedded)
	}
	onDisk, code := runSRDCmd(t, "lint", file, "--catalogs", filepath.Join("..", "..", "scenarios", "default", "catalog"))
	if code != 1 || onDisk != embedded {
		t.Errorf("lint --catalogs DIR: exit %d, output\n%s\nwant exit 1 and the embedded catalog's\n%s", code, onDisk, embedded)
	}
}
