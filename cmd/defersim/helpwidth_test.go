package main

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/spf13/cobra"
)

// maxHelpLine is the widest line a command's long help may print: the
// paragraphs are wrapped for an 80-column terminal.
const maxHelpLine = 80

// TestCatalogHelpIsWrapped pins that the long help of every catalog command
// is wrapped for an 80-column terminal: `catalog stats --help` had a
// paragraph whose lines ran to 125 columns ("…counted once (stderr names
// it); with other tools in each it is an error. Tokens are counted …")
// between lines of 75, and `catalog diff --help` a line of 81.
func TestCatalogHelpIsWrapped(t *testing.T) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for i, line := range strings.Split(c.Long, "\n") {
			if n := utf8.RuneCountInString(line); n > maxHelpLine {
				t.Errorf("%s --help, line %d of its long help is %d columns (over %d): %q", c.CommandPath(), i+1, n, maxHelpLine, line)
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	root := newRootCmd()
	cat, _, err := root.Find([]string{"catalog"})
	if err != nil || cat == root {
		t.Fatalf("no catalog command: %v", err)
	}
	walk(cat)
}
