package main

import (
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
// moved the cut to line 96. `go test ./cmd/defersim -run TestCheckDocOutput
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
	for file, text := range map[string]string{"taubench.yaml": scen, "taubench-pr.yaml": strings.Replace(scen, base, base+warm, 1)} {
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	shell := map[string]func() error{
		// The first 3,000 bytes of a run's results: a file cut short.
		"head -c 3000 base/results.json > cut.json": func() error {
			data, err := os.ReadFile(filepath.Join("base", "results.json"))
			if err != nil {
				return err
			}
			return os.WriteFile("cut.json", data[:min(len(data), 3000)], 0o644)
		},
	}
	docRun(t, doc, func(rel string) string { return shareddata.Path(t, filepath.FromSlash(rel)) }, shell)
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
