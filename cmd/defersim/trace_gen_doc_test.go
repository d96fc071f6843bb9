package main

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/shareddata"
)

// TestTraceGenDocLeftOutExample pins the example docs/generator.md gives
// under "Servers left out": over the shared catalogs the default draws
// sessions over the 11 series with two or more versions (42 server
// versions, 391 tools) and names the 31 of 42 servers it leaves out; with
// the --servers value it prints, sessions are drawn over all 42 servers (73
// server versions, 815 tools). Each figure must be what the page says.
func TestTraceGenDocLeftOutExample(t *testing.T) {
	cats := shareddata.Path(t, "catalogs")
	doc := docWords(t, "generator.md")
	tmp := t.TempDir()
	gen := func(name string, extra ...string) (stdout, stderr string) {
		args := append([]string{"trace", "gen", "--catalogs", cats, "-o", filepath.Join(tmp, name), "--sessions", "50"}, extra...)
		stdout, stderr, code := cliRun(t, args...)
		if code != 0 {
			t.Fatalf("%q: exit %d:\n%s%s", args, code, stdout, stderr)
		}
		return stdout, stderr
	}
	wrote := regexp.MustCompile(`sessions over (\d+) servers of \S+ \((\d+) server versions, (\d+) tools\), 50 sessions`)
	figures := func(stdout string) []string {
		m := wrote.FindStringSubmatch(stdout)
		if m == nil {
			t.Fatalf("no %q in:\n%s", wrote, stdout)
		}
		return m[1:]
	}

	stdout, stderr := gen("over")
	leftOut := regexp.MustCompile(`warning: (\d+) of (\d+) servers left out: .* --servers (\S+)`).FindStringSubmatch(stderr)
	if leftOut == nil {
		t.Fatalf("no left-out warning with a --servers value on stderr:\n%s", stderr)
	}
	f := figures(stdout)
	for _, want := range []string{
		fmt.Sprintf("warning: %s of %s servers left out", leftOut[1], leftOut[2]),
		fmt.Sprintf("sessions over %s servers of ../shared/data/catalogs (%s server versions, %s tools), 50 sessions", f[0], f[1], f[2]),
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("docs/generator.md does not say %q (the default over the shared catalogs)", want)
		}
	}

	stdout, _ = gen("all", "--servers", leftOut[3])
	f = figures(stdout)
	if want := fmt.Sprintf("all %s servers (%s server versions, %s tools)", f[0], f[1], f[2]); f[0] != leftOut[2] || !strings.Contains(doc, want) {
		t.Errorf("with --servers from the warning: sessions over %s of %s servers; docs/generator.md should say %q", f[0], leftOut[2], want)
	}
}
