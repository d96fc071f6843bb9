package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/defersim/defersim/component"
	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/sim"
)

// TestComponentsListsEveryKind pins that `defersim components --format
// json` (and its alias --json) lists every kind of component, every entry
// of the default registry (importers included), each with a description
// and fully described parameters, and that the text form names them all
// and ends with the strategy keys the engine reads itself (sim.EngineKeys).
func TestComponentsListsEveryKind(t *testing.T) {
	out, code := runCLI(t, "components", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, out)
	}
	var got []component.Info
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	alias, code := runCLI(t, "components", "--json")
	if code != 0 || !strings.Contains(alias, out) {
		t.Errorf("--json (exit %d) does not print what --format json does", code)
	}
	reg, err := runner.DefaultRegistry()
	if err != nil {
		t.Fatal(err)
	}
	want := reg.Components()
	if len(got) != len(want) {
		t.Fatalf("%d components listed, the registry has %d", len(got), len(want))
	}
	kinds := map[component.Kind]int{}
	for i, in := range got {
		kinds[in.Kind]++
		if in.Kind != want[i].Kind || in.Name != want[i].Name {
			t.Errorf("entry %d: %s %s, want %s %s", i, in.Kind, in.Name, want[i].Kind, want[i].Name)
		}
		if err := in.Check(); err != nil {
			t.Error(err)
		}
	}
	for _, k := range component.Kinds() {
		if kinds[k] == 0 {
			t.Errorf("no component of kind %s listed", k)
		}
	}
	text, code := runCLI(t, "components")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, text)
	}
	for _, in := range want {
		if !strings.Contains(text, string(in.Kind)+"\n") || !strings.Contains(text, "  "+in.Name+" ") {
			t.Errorf("text listing lacks %s %s", in.Kind, in.Name)
		}
	}
	// The strategy keys no component declares follow, each with its readers.
	_, engine, ok := strings.Cut(text, "\nstrategy keys the engine reads")
	if !ok {
		t.Fatalf("text listing lacks the engine's strategy keys:\n%s", text)
	}
	for _, k := range sim.EngineKeys() {
		if !strings.Contains(engine, "  "+k.Name+" ") || !strings.Contains(engine, "read by "+k.Readers) {
			t.Errorf("text listing lacks engine key %s or its readers", k.Name)
		}
	}
}
