package runner

import (
	"encoding/gob"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/internal/streamstats"
)

var updateShape = flag.Bool("update", false, "rewrite testdata/stateshape.golden")

// stateShapeFile lists the shape of what WriteState encodes.
var stateShapeFile = filepath.Join("testdata", "stateshape.golden")

// gobWires maps the project's types with their own GobEncode to the type
// that encoding writes, so that stateShape lists its fields too.
var gobWires = map[reflect.Type]reflect.Type{
	reflect.TypeFor[streamstats.Series](): streamstats.SeriesWire(),
}

// stateShape lists, for StateVersion, every struct type reachable from
// ts as gob encodes them: its exported fields' names and types, one a line,
// sorted by type. A type with its own GobEncode is listed as such, with
// the type that encoding writes where gobWires names it (streamstats'
// Series), whose fields are then listed as well; time.Time's encoding is
// the standard library's.
func stateShape(ts ...reflect.Type) string {
	types := map[string][]string{}
	gobEncoder := reflect.TypeFor[gob.GobEncoder]()
	var visit func(t reflect.Type)
	visit = func(t reflect.Type) {
		if t.Implements(gobEncoder) || reflect.PointerTo(t).Implements(gobEncoder) {
			for t.Kind() == reflect.Pointer {
				t = t.Elem()
			}
			name := t.PkgPath() + "." + t.Name()
			if _, ok := types[name]; ok {
				return
			}
			types[name] = []string{"\t(its own GobEncode)"}
			if wire, ok := gobWires[t]; ok {
				types[name] = []string{"\t(its own GobEncode, as " + wire.String() + ")"}
				visit(wire)
			}
			return
		}
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array:
			visit(t.Elem())
		case reflect.Map:
			visit(t.Key())
			visit(t.Elem())
		case reflect.Struct:
			name := t.PkgPath() + "." + t.Name()
			if _, ok := types[name]; ok {
				return
			}
			types[name] = nil
			var fields []string
			for f := range t.Fields() {
				if !f.IsExported() || f.Type.Kind() == reflect.Func || f.Type.Kind() == reflect.Chan {
					continue // gob encodes neither
				}
				fields = append(fields, fmt.Sprintf("\t%s %s", f.Name, f.Type))
				visit(f.Type)
			}
			types[name] = fields
		}
	}
	for _, t := range ts {
		visit(t)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "StateVersion %d\n", StateVersion)
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for k := range types {
			if !yield(k) {
				return
			}
		}
	}) {
		fmt.Fprintf(&b, "%s\n%s\n", name, strings.Join(types[name], "\n"))
	}
	return b.String()
}

// TestStateShape pins that the shape of a state file's encoding (every
// field name and type reachable from StateFile, and those of the form
// streamstats.Series encodes itself as) does not change without
// StateVersion changing: a file written before the change would decode
// with the new fields at zero, and a merge or resume would silently miss
// what they count. Refresh testdata/stateshape.golden with -update after
// bumping StateVersion.
func TestStateShape(t *testing.T) {
	got := stateShape(reflect.TypeFor[stateHeader](), reflect.TypeFor[StateFile]())
	if *updateShape {
		if err := os.WriteFile(stateShapeFile, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	b, err := os.ReadFile(stateShapeFile)
	if err != nil {
		t.Fatal(err)
	}
	want := string(b)
	diff := cmp.Diff(want, got)
	if diff == "" {
		return
	}
	wantVersion, _, _ := strings.Cut(want, "\n")
	gotVersion, _, _ := strings.Cut(got, "\n")
	if wantVersion == gotVersion {
		t.Fatalf("the encoded shape of state files (shard.bin, checkpoints) changed but StateVersion is still %d: "+
			"bump StateVersion in state.go, so that files of earlier builds are refused rather than read with the new fields at zero, "+
			"then refresh %s with go test ./internal/runner -run TestStateShape -update (-want +got):\n%s", StateVersion, stateShapeFile, diff)
	}
	t.Fatalf("StateVersion changed: refresh %s with go test ./internal/runner -run TestStateShape -update (-want +got):\n%s", stateShapeFile, diff)
}
