package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/shareddata"
)

// TestCheckDocOutput pins the worked example of docs/check.md — the
// tau-bench import, the re-run that passes, the policy change refused
// without --allow policy (exit 2) and found with it (exit 1), the start of
// its Markdown summary, and the Context7 catalog diff that fails on
// breaking drift — to what the commands print and exit with now. The page
// had drifted: the import prints more (usage, servers, error results), the
// check counts 36 checks where it quoted 33, and lists the changed outcome
// digest. It pins too the JSON refusal of a cut results file, which the
// page quoted at "line 101, near column 2" after results.json's layout had
// moved the cut to line 96. And the gate's failure on a catalog upgrade no
// session replayed (Catalog upgrades), whose quote was not tested: the
// catalogs it is run on are made by the cp lines before it. And the gate
// that follows the warning's advice (gate.yaml, gate-up.yaml: the upgrade
// refused without --allow servers, compared paired with it). `go test ./cmd/defersim -run TestCheckDocOutput
// -update` rewrites the quotes that elide nothing.
func TestCheckDocOutput(t *testing.T) {
	t.Setenv("DEFERSIM_SHARED_DATA", shareddata.Dir(t))
	doc, raw := docPage(t, "check.md")
	// The page quotes taubench.yaml and says taubench-pr.yaml is it with
	// `warm: {max_tools: 2}` under ours.
	scen := checkDocYAML(t, raw, "`taubench.yaml`:")
	const base, warm = "    base: codex-cli\n", "    warm: {max_tools: 2}\n"
	if strings.Count(scen, base) != 1 {
		t.Fatalf("docs/check.md: taubench.yaml has not one %q line", strings.TrimSpace(base))
	}
	t.Chdir(t.TempDir())
	files := map[string]string{"taubench.yaml": scen, "taubench-pr.yaml": strings.Replace(scen, base, base+warm, 1)}
	// The upgrade gate's two scenarios, quoted whole.
	for _, f := range []string{"gate.yaml", "gate-up.yaml"} {
		files[f] = checkDocYAML(t, raw, "`"+f+"`:")
	}
	for file, text := range files {
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	shell := map[string]func() error{
		"mkdir old new": func() error { return errors.Join(os.Mkdir("old", 0o755), os.Mkdir("new", 0o755)) },
		// The first 3,000 bytes of a run's results: a file cut short.
		"head -c 3000 base/results.json > cut.json": func() error {
			data, err := os.ReadFile(filepath.Join("base", "results.json"))
			if err != nil {
				return err
			}
			return os.WriteFile("cut.json", data[:min(len(data), 3000)], 0o644)
		},
	}
	data := func(rel string) string { return shareddata.Path(t, filepath.FromSlash(rel)) }
	for _, line := range strings.Split(raw, "\n") {
		if c, ok := strings.CutPrefix(line, "$ cp "); ok {
			shell["cp "+c] = func() error { return docCopy(strings.Fields(c), data) }
		}
	}
	docRun(t, doc, data, shell)
}

// docCopy does what `cp SRC... DIR/` does with args, a source starting
// "../shared/data/" read from data and one holding a * globbed.
func docCopy(args []string, data func(rel string) string) error {
	dir := args[len(args)-1]
	var srcs []string
	for _, a := range args[:len(args)-1] {
		if rel, ok := strings.CutPrefix(a, "../shared/data/"); ok {
			srcs = append(srcs, data(rel))
			continue
		}
		m, err := filepath.Glob(a)
		if err != nil || len(m) == 0 {
			return fmt.Errorf("cp: %s matches no file (%v)", a, err)
		}
		srcs = append(srcs, m...)
	}
	for _, src := range srcs {
		b, err := os.ReadFile(src)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(src)), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// checkDocYAML returns the fenced yaml block after the line intro of doc.
func checkDocYAML(t *testing.T, doc, intro string) string {
	t.Helper()
	_, after, ok := strings.Cut(doc, "\n"+intro+"\n\n```yaml\n")
	if !ok {
		t.Fatalf("docs/check.md: no yaml block after %q", intro)
	}
	block, _, ok := strings.Cut(after, "\n```\n")
	if !ok {
		t.Fatalf("docs/check.md: the yaml block after %q is not closed", intro)
	}
	return block + "\n"
}
