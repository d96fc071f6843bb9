package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/scenarios"
)

// TestREADMEModelRowStatesTheSeeds pins that README's "try presets on your
// own data" row, which offers `--model` and a scenario file as two ways to
// choose a model, says that they draw with different seeds, and that the
// seeds it names are the ones used: the embedded default's (which --model
// keeps) and the default of a file without seed:. The row offered both
// ways without a word, and their results.json differ.
func TestREADMEModelRowStatesTheSeeds(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var row string
	for line := range strings.Lines(string(readme)) {
		if strings.HasPrefix(line, "| try presets on your own data |") {
			row = line
		}
	}
	if !strings.Contains(row, "--model gpt-4o") {
		t.Fatalf("README has no model row offering --model gpt-4o: %q", row)
	}
	def, err := scenarios.Default()
	if err != nil {
		t.Fatal(err)
	}
	file, err := scenarios.Parse([]byte("traces: [my.jsonl.gz]\nmodel: gpt-4o\nstrategies: [eager, codex-cli]\n"), "it", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if def.Seed == file.Seed {
		t.Fatalf("the default's seed and a file's default are both %d: the README's clause is moot", def.Seed)
	}
	for _, want := range []string{
		fmt.Sprintf("`--model` keeps the default scenario's `seed: %d`", def.Seed),
		fmt.Sprintf("a file without `seed:` gets seed %d", file.Seed),
		"docs/scenarios.md#top-level-keys",
	} {
		if !strings.Contains(row, want) {
			t.Errorf("README's model row lacks %q:\n%s", want, row)
		}
	}
}
