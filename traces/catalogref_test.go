package traces

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestCatalogFor pins how commands find the catalog of a trace: the
// session_start meta "catalog" on the first line (relative to the trace),
// else TRACE.catalog, else a "catalog" directory beside the trace.
func TestCatalogFor(t *testing.T) {
	dir := t.TempDir()
	mkdir := func(p string) string {
		p = filepath.Join(dir, p)
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write := func(name string, gz bool, first string) string {
		p := filepath.Join(dir, name)
		data := lines(first, ev("session_end", "s", 1, ""))
		if gz {
			var b bytes.Buffer
			w := gzip.NewWriter(&b)
			w.Write(data)
			w.Close()
			data = b.Bytes()
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	start := func(catalog string) string {
		if catalog == "" {
			return ev("session_start", "s", 0, "")
		}
		return ev("session_start", "s", 0, `"meta":{"catalog":"`+catalog+`"}`)
	}
	shared := mkdir("cats/shared")
	mkdir("b/t.jsonl.catalog")
	mkdir("b/t2.jsonl.catalog")
	mkdir("c/catalog")
	if err := os.WriteFile(filepath.Join(dir, "c", "catalog", "s@1.json"), []byte(`{"tools":[]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	mkdir("e/catalog") // holds no catalog file (say, a Go package)
	if err := os.WriteFile(filepath.Join(dir, "e", "catalog", "catalog.go"), []byte("package catalog\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		path    string
		want    string
		ok      bool
		wantErr string
	}{
		{"meta, relative", write("a/t.jsonl", false, start("../cats/shared")), shared, true, ""},
		{"meta, gzip", write("a/t.jsonl.gz", true, "\n"+start("../cats/shared")), shared, true, ""},
		{"meta wins over beside", write("b/t.jsonl", false, start("../cats/shared")), shared, true, ""},
		{"another trace's catalog is not this one's", write("b/u.jsonl", false, start("")), "", false, ""},
		{"TRACE.catalog", write("b/t2.jsonl", false, start("")), filepath.Join(dir, "b", "t2.jsonl.catalog"), true, ""},
		{"DIR/catalog", write("c/t.jsonl", false, start("")), filepath.Join(dir, "c", "catalog"), true, ""},
		{"DIR/catalog without catalog files", write("e/t.jsonl", false, start("")), "", false, ""},
		{"meta naming a missing directory", write("a/m.jsonl", false, start("gone")), "", false, `its catalog "gone"`},
		{"first line not a session_start", write("a/n.jsonl", false, ev("user", "s", 0, "")), "", false, ""},
		{"nothing", write("d/t.jsonl", false, start("")), "", false, ""},
		{"unreadable", filepath.Join(dir, "absent.jsonl"), "", false, "open trace"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok, err := CatalogFor(tc.path)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want || ok != tc.ok {
				t.Errorf("CatalogFor = %q, %v; want %q, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
	all, err := CatalogsFor([]string{tests[0].path, tests[1].path, tests[5].path, tests[8].path})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{shared, filepath.Join(dir, "c", "catalog")}, all); d != "" {
		t.Errorf("CatalogsFor (-want +got):\n%s", d)
	}
}

func TestCatalogRef(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ trace, cat, want string }{
		{"out/t.jsonl", "out/t.jsonl.catalog", "t.jsonl.catalog"},
		{"out/t.jsonl", "cats/x", "../cats/x"},
		{filepath.Join(dir, "t.jsonl"), filepath.Join(dir, "c"), "c"},
	} {
		if got, err := CatalogRef(tc.trace, tc.cat); got != tc.want || err != nil {
			t.Errorf("CatalogRef(%q, %q) = %q, %v; want %q", tc.trace, tc.cat, got, err, tc.want)
		}
	}
}

// TestCatalogRefWithoutRelativePath pins that CatalogRef gives no
// reference, and an error naming both paths, when no relative path leads
// from the trace to its catalog: it returned the absolute path (or, when
// the working directory could not be read, the path as given), a
// machine's path inside a trace that is shared. filepath.Rel fails on
// Linux only for a relative path against an absolute one (relRef's
// inputs); filepath.Abs fails when the working directory is gone.
func TestCatalogRefWithoutRelativePath(t *testing.T) {
	if ref, err := relRef("/data/traces", "cats"); ref != "" || err == nil || !strings.Contains(err.Error(), "no path from /data/traces to its catalog cats") {
		t.Errorf("relRef = %q, %v; want no reference and an error naming both", ref, err)
	}
	gone := removeWorkingDir(t)
	ref, err := CatalogRef("out/t.jsonl", "cats")
	if ref != "" || err == nil || !strings.Contains(err.Error(), "no path from out/t.jsonl to its catalog cats") {
		t.Errorf("in removed %s: CatalogRef = %q, %v; want no reference and an error naming both", gone, ref, err)
	}
}

// TestValidateSearchesAndCatalogMeta pins two rules: with catalogs, a
// tool_search returning a tool no server serves is a problem; the sessions
// of a file that name a catalog name the same one.
func TestValidateSearchesAndCatalogMeta(t *testing.T) {
	data := lines(
		ev("session_start", "s1", 0, `"meta":{"catalog":"a.catalog"}`),
		ev("tool_search", "s1", 1, `"query":"q","returned":["read_file","ghost"]`),
		ev("session_end", "s1", 2, ""),
		ev("session_start", "s2", 3, ""),
		ev("session_end", "s2", 4, ""),
		ev("session_start", "s3", 5, `"meta":{"catalog":"b.catalog"}`),
		ev("session_end", "s3", 6, ""),
	)
	probs, _, err := ValidateReader(bytes.NewReader(data), "f.jsonl", ValidateOptions{Tools: toolSet{"files/read_file": true}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range probs {
		got = append(got, string(p.Kind)+" "+p.String())
	}
	want := []string{
		`unknown_tool f.jsonl:2: session "s1": tool_search returned tool "ghost", which no catalog knows`,
		`catalog_mismatch f.jsonl:6: session "s3" names catalog "b.catalog", but line 1 names "a.catalog" (one catalog per file)`,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("problems (-want +got):\n%s", d)
	}
}

// TestCatalogForDoesNotReadAFIFO pins that looking for a trace's catalog
// does not read a FIFO (issue 18.1: its first line would be lost to the
// replay that reads it next; with no writer yet, opening it blocks).
func TestCatalogForDoesNotReadAFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "t.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if _, ok, err := CatalogFor(fifo); ok || err != nil {
			t.Errorf("CatalogFor(FIFO) = %v, %v", ok, err)
		}
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("CatalogFor opened the FIFO (it blocks without a writer)")
	}
}

// TestGeneratedOverCatalogs pins which traces run calls generated over
// real catalogs that nothing records: a first session_start whose meta
// generator is "defersim trace gen --catalogs" (what trace gen --catalogs
// wrote before it wrote meta catalog) and that has no meta catalog. Such
// a trace got run's generic "no catalog: pass --catalogs DIR".
func TestGeneratedOverCatalogs(t *testing.T) {
	dir := t.TempDir()
	for i, tc := range []struct {
		name  string
		first string
		want  bool
	}{
		{"before meta catalog", ev("session_start", "s", 0, `"meta":{"generator":"defersim trace gen --catalogs"}`), true},
		{"with meta catalog", ev("session_start", "s", 0, `"meta":{"generator":"defersim trace gen --catalogs","catalog":"../cats"}`), false},
		{"generated with its own catalog", ev("session_start", "s", 0, `"meta":{"generator":"defersim trace gen"}`), false},
		{"no meta", ev("session_start", "s", 0, ""), false},
		{"first line not a session_start", ev("session_end", "s", 0, ""), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, strings.Repeat("t", i+1)+".jsonl")
			if err := os.WriteFile(p, lines(tc.first, ev("session_end", "s", 1, "")), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := GeneratedOverCatalogs(p)
			if err != nil || got != tc.want {
				t.Errorf("GeneratedOverCatalogs = %v, %v; want %v", got, err, tc.want)
			}
		})
	}
	if _, err := GeneratedOverCatalogs(filepath.Join(dir, "missing.jsonl")); err == nil {
		t.Error("a missing trace: no error")
	}
}

// removeWorkingDir makes the working directory, for the rest of the test,
// one that no longer exists, so that filepath.Abs of a relative path
// fails; it skips the test where the platform still answers.
func removeWorkingDir(t *testing.T) string {
	t.Helper()
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
	return gone
}
