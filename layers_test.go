package defersim

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/defersim/defersim/"

// layers lists the module's packages by layer, lowest first, as
// docs/architecture.md draws them; a package is in the layer of its
// longest listed prefix.
var layers = [][]string{
	{"tokens", "validation", "component", "internal/atomicfile", "internal/streamstats", "internal/stats",
		"internal/chart", "internal/redact", "internal/bounded", "internal/shareddata", "internal/privacytest",
		"internal/termsafe", "internal/csvsafe", "internal/nouns", "internal/yamlerr", "internal/jsonpos", "internal/progress", "internal/version", "internal/outguard", "internal/interrupt",
		"srd/data", "scenarios/default", "scenarios/real-drift", "traces/schema", "traces/importers/toolschema",
		"internal/retrieval/hardsets", "internal/mcpsnap/fakemcp"},
	{"traces", "catalog", "internal/cliout", "internal/embeddings", "internal/variantdata"},
	{"traces/gen", "traces/importers", "srd", "internal/mcpsnap", "internal/sharedtexts", "internal/inputnotes"},
	{"sim"},
	{"sim/search", "sim/presets"},
	{"scenarios", "report", "srd/routed", "internal/embeddings/embedtest"},
	{"internal/runner", "internal/calibrate", "internal/retrieval", "internal/runsummary"},
	{"internal/check", "internal/plan", "internal/recommend"},
	{"cmd", "."},
}

func layerOf(pkg string) (int, bool) {
	best, layer := -1, 0
	for l, prefixes := range layers {
		for _, p := range prefixes {
			if (pkg == p || strings.HasPrefix(pkg, p+"/")) && len(p) > best {
				best, layer = len(p), l
			}
		}
	}
	return layer, best >= 0
}

// packageImports maps every package directory of the module to what its
// non-test files import.
func packageImports(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != "." || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() && path != "." {
			// A directory with its own go.mod (beam/) is another module, as
			// for `go list ./...`: its packages are not this module's.
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir
			}
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly|parser.ParseComments)
		if err != nil {
			return err
		}
		for _, c := range f.Comments { // files only `go run` builds are not part of the packages
			if slices.ContainsFunc(c.List, func(c *ast.Comment) bool { return strings.HasPrefix(c.Text, "//go:build ignore") }) {
				return nil
			}
		}
		dir := filepath.ToSlash(filepath.Dir(path))
		out[dir] = append(out[dir], "")
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			out[dir] = append(out[dir], p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestLayers pins the layering of docs/architecture.md: a package imports
// only packages of lower layers (format importers may build on each
// other), and the command does not link the testing package.
func TestLayers(t *testing.T) {
	imports := packageImports(t)
	for dir, imps := range imports {
		from, ok := layerOf(dir)
		if !ok {
			t.Errorf("package %s is in no layer (add it to layers and to docs/architecture.md)", dir)
			continue
		}
		for _, imp := range imps {
			to, internal := strings.CutPrefix(imp, module)
			if !internal {
				continue
			}
			l, ok := layerOf(to)
			siblings := strings.HasPrefix(dir+"/", "traces/importers/") && strings.HasPrefix(to, "traces/importers/")
			if ok && l >= from && !siblings {
				t.Errorf("%s (layer %d) imports %s (layer %d): an arrow up the layers", dir, from, to, l)
			}
		}
	}
	// The command's closure within the module imports no testing package
	// (no standard library package outside testing/ imports it either).
	seen := map[string]bool{}
	queue := []string{"cmd/defersim"}
	for len(queue) > 0 {
		dir := queue[0]
		queue = queue[1:]
		if seen[dir] {
			continue
		}
		seen[dir] = true
		for _, imp := range imports[dir] {
			if imp == "testing" || strings.HasPrefix(imp, "testing/") {
				t.Errorf("%s, linked into the defersim binary, imports %s", dir, imp)
			}
			if to, ok := strings.CutPrefix(imp, module); ok && !slices.Contains(queue, to) {
				queue = append(queue, to)
			}
		}
	}
	if len(seen) < 10 {
		t.Errorf("the command's closure holds only %d packages: the walk is broken", len(seen))
	}
}

// TestBinaryLinksNoTesting pins that no package the defersim binary links —
// the module's or a dependency's — imports package testing. (A stemmer
// dependency once did, through a helper kept in a non-test file.)
func TestBinaryLinksNoTesting(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("go command not on PATH: %v", err)
	}
	out, err := exec.Command(gobin, "list", "-deps", "-f", "{{.ImportPath}}", "./cmd/defersim").Output()
	if err != nil {
		t.Fatalf("go list -deps ./cmd/defersim: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 100 {
		t.Fatalf("go list gave %d packages: the listing is broken", len(deps))
	}
	for _, d := range deps {
		if d == "testing" || strings.HasPrefix(d, "testing/") {
			t.Errorf("the defersim binary links %s", d)
		}
	}
}
