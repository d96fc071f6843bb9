package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/shareddata"
)

// TestTraceGenOverCatalogsNamesItsCatalog pins that a trace generated with
// --catalogs DIR names DIR in its session_start meta catalog (relative to
// the trace, as trace import does), so `run --traces OUT/trace.jsonl.gz`
// without --catalogs replays it over DIR — the same results as with
// --catalogs DIR — where it stopped with "no catalog: pass --catalogs DIR";
// and that a trace moved away from its catalog stops run with an error
// naming the catalog it needs.
func TestTraceGenOverCatalogsNamesItsCatalog(t *testing.T) {
	if testing.Short() {
		t.Skip("generates over and replays the shared catalogs")
	}
	src := shareddata.Path(t, "catalogs")
	root := t.TempDir()
	cats := filepath.Join(root, "cats")
	copyDirFiles(t, src, cats)
	out := filepath.Join(root, "gen", "out")
	if got, code := runCLIMsg(t, "trace", "gen", "-o", out, "--catalogs", cats, "--sessions", "12", "-q"); code != 0 {
		t.Fatalf("trace gen: exit %d:\n%s", code, got)
	}
	trace := filepath.Join(out, "trace.jsonl.gz")
	if ref := firstSessionMeta(t, trace)["catalog"]; ref != "../../cats" {
		t.Errorf("session_start meta catalog = %q, want ../../cats", ref)
	}
	run := func(name string, extra ...string) []byte {
		t.Helper()
		dir := filepath.Join(root, name)
		args := append([]string{"run", "-q", "--no-report", "--traces", trace, "--strategies", "eager,claude-code-default", "-o", dir}, extra...)
		if got, code := runCLIMsg(t, args...); code != 0 {
			t.Fatalf("%s: exit %d:\n%s", strings.Join(args, " "), code, got)
		}
		b, err := os.ReadFile(filepath.Join(dir, "results.json"))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	own := run("own")
	given := run("given", "--catalogs", cats)
	// Only the assumption saying where the catalogs came from differs.
	own = bytes.Replace(own, []byte(`"the traces' own catalogs (the catalog each trace names, or the one beside it: docs/trace-format.md#catalog): `), []byte(`"--catalogs: `), 1)
	if !bytes.Equal(own, given) {
		t.Errorf("run without --catalogs differs from run --catalogs %s beyond the catalogs assumption", cats)
	}

	moved := filepath.Join(root, "moved")
	if err := os.Rename(out, moved); err != nil {
		t.Fatal(err)
	}
	got, code := runCLIMsg(t, "run", "-q", "--no-report", "--traces", filepath.Join(moved, "trace.jsonl.gz"), "-o", filepath.Join(root, "r3"))
	if code != 2 || !strings.Contains(got, `its catalog "../../cats" (session_start meta catalog)`) {
		t.Errorf("moved trace: exit %d, want 2 naming its catalog:\n%s", code, got)
	}
}

// copyDirFiles copies the regular files of src into a new directory dst.
func copyDirFiles(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// firstSessionMeta returns the meta of the first line (a session_start)
// of the gzip trace at path.
func firstSessionMeta(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(zr).ReadBytes('\n')
	if err != nil {
		t.Fatal(err)
	}
	var ev struct {
		Type string            `json:"type"`
		Meta map[string]string `json:"meta"`
	}
	if err := json.Unmarshal(line, &ev); err != nil || ev.Type != "session_start" {
		t.Fatalf("first line %.200s: %v", line, err)
	}
	return ev.Meta
}

// TestCatalogRefForManifest pins that a trace generated over a manifest
// names the manifest's directory only when loading that directory reads
// that manifest; otherwise it names no catalog and the warning says which
// --catalogs run needs.
func TestCatalogRefForManifest(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"a/catalog.yaml", "b/catalog.yaml", "b/manifest.json"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, f), []byte("servers: []\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(root, "out")
	for _, tc := range []struct {
		path, ref, why string
	}{
		{filepath.Join(root, "a"), "../a", ""},
		{filepath.Join(root, "a", "catalog.yaml"), "../a", ""},
		{filepath.Join(root, "b", "catalog.yaml"), "../b", ""},
		{filepath.Join(root, "b", "manifest.json"), "", "its directory would load catalog.yaml, not manifest.json; replay with --catalogs " + filepath.Join(root, "b", "manifest.json")},
	} {
		ref, why := catalogRefFor(tc.path, out)
		if ref != tc.ref || !strings.HasSuffix(why, tc.why) || (why == "") != (tc.why == "") {
			t.Errorf("catalogRefFor(%s) = %q, %q; want %q, …%q", tc.path, ref, why, tc.ref, tc.why)
		}
	}
}

// TestTraceGenNoRelativeCatalogPath pins that trace gen --catalogs, when
// no relative path leads from the trace to the catalog (here: the working
// directory is gone, so relative paths have no absolute form), writes no
// reference and says run needs --catalogs with the path given: the trace
// got the path as given, which names nothing from the trace's directory
// (and, when only filepath.Rel failed, a machine's absolute path).
func TestTraceGenNoRelativeCatalogPath(t *testing.T) {
	gone := filepath.Join(t.TempDir(), "gone")
	if err := os.Mkdir(gone, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(gone)
	if err := os.Remove(gone); err != nil {
		t.Skipf("cannot remove the working directory: %v", err)
	}
	if _, err := filepath.Abs("x"); err == nil {
		t.Skip("filepath.Abs answers in a removed working directory here")
	}
	ref, why := catalogRefFor("cats", "out")
	if want := "the trace names no catalog (no path from " + filepath.Join("out", "trace.jsonl.gz") + " to its catalog cats: "; ref != "" || !strings.HasPrefix(why, want) || !strings.HasSuffix(why, "): replay with --catalogs cats") {
		t.Errorf("catalogRefFor = %q, %q; want no reference and %q…: replay with --catalogs cats", ref, why, want)
	}
}
