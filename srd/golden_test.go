package srd

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/atomicfile"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// golden compares got with testdata/name, rewriting it under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := atomicfile.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s changed (-want +got); rerun with -update if intended:\n%s", name, diff)
	}
}

// TestLintGolden lints every file under testdata/lint against the small
// catalog beside them: each SRD rule is broken by some file there.
func TestLintGolden(t *testing.T) {
	cat, err := catalog.LoadDir(filepath.Join("testdata", "lint", "catalogs"))
	if err != nil {
		t.Fatal(err)
	}
	srds, probs, err := LoadPaths([]string{filepath.Join("testdata", "lint")})
	if err != nil {
		t.Fatal(err)
	}
	probs = append(probs, Lint(srds, LintOptions{Catalog: cat})...).Sort()
	var sb strings.Builder
	for _, p := range probs {
		sb.WriteString(filepath.ToSlash(p.String()) + "\n")
	}
	golden(t, "lint.golden", sb.String())

	// Every rule of the issue shows up at least once.
	for _, want := range []string{
		"disambiguation: missing or empty",
		"names no known domain",
		"without distinguishing it",
		"out of bounds",
		"unknown tool",
		"duplicate trigger",
		"also claimed by server",
	} {
		if !strings.Contains(sb.String(), want) {
			t.Errorf("no problem mentions %q", want)
		}
	}
}

// TestLintCleanSet checks that the clean file alone has no problems, and
// that the catalog check finds tools in any version: save_doc, which only
// acme-files@1.0.0 serves, is a warning, not an error.
func TestLintCleanSet(t *testing.T) {
	cat, err := catalog.LoadDir(filepath.Join("testdata", "lint", "catalogs"))
	if err != nil {
		t.Fatal(err)
	}
	srds, probs, err := LoadFile(filepath.Join("testdata", "lint", "good.yaml"))
	if err != nil || len(probs) > 0 {
		t.Fatalf("load: %v %v", err, probs)
	}
	ps := Lint(srds, LintOptions{Catalog: cat})
	if errs := ps.Errors(); len(errs) > 0 {
		t.Errorf("good.yaml: %v", errs)
	}
	if len(ps) != 1 || !ps[0].Warning || !strings.Contains(ps[0].Msg, `tool "save_doc" is not in the latest version`) {
		t.Errorf("good.yaml: want one warning (save_doc), got %v", ps)
	}
	// Without the other SRD, "chat" is not a known domain (and only that:
	// it is still a neighbouring domain, TestLintDisambiguationMessages).
	if ps := Lint(srds[:1], LintOptions{}); len(ps) != 1 || !strings.Contains(ps[0].Msg, `names no known domain: "chat"`) {
		t.Errorf("acme-files alone: want 1 problem (unknown domain), got %v", ps)
	}
	if ps := Lint(srds[:1], LintOptions{KnownDomains: []string{"chat"}}); len(ps) != 0 {
		t.Errorf("acme-files with chat known: %v", ps)
	}
}

func TestLintKnownServers(t *testing.T) {
	src := `srd_version: 1
server_id: a
domain: d
display_name: A
intent_triggers: [x]
disambiguation:
  - {domain: d, server: b, differs: other one}
  - {domain: e, differs: elsewhere}
`
	srds, probs := Parse("k.yaml", []byte(src))
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	opt := LintOptions{KnownDomains: []string{"e"}}
	if ps := Lint(srds, opt); len(ps) != 1 || !strings.Contains(ps[0].Msg, `names server "b", which no SRD describes`) {
		t.Errorf("unknown server b: %v", ps)
	}
	opt.KnownServers = []string{"b"}
	if ps := Lint(srds, opt); len(ps) != 0 {
		t.Errorf("b known: %v", ps)
	}
}
