package main

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// TestFlagHelpStatesDefaultOnce pins that no flag's help states a default
// that cobra prints again: `run --help` read "(default: the scenario's
// max_unresolved, else 0.01) (default 0.01)". Every flag of every command
// whose usage says "default" must have a default cobra does not print (the
// zero value of its type); a flag whose default cobra prints leaves it to
// cobra.
func TestFlagHelpStatesDefaultOnce(t *testing.T) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		check := func(f *pflag.Flag) {
			if !strings.Contains(strings.ToLower(f.Usage), "default") {
				return
			}
			// Render the flag alone, as cobra's help does, and see
			// whether pflag appends its default.
			fs := pflag.NewFlagSet(c.CommandPath(), pflag.ContinueOnError)
			fs.AddFlag(f)
			if got := fs.FlagUsages(); strings.Count(got, "(default ") > strings.Count(f.Usage, "(default ") {
				t.Errorf("%s --%s states a default and cobra prints another:\n%s", c.CommandPath(), f.Name, strings.TrimRight(got, "\n"))
			}
		}
		c.LocalFlags().VisitAll(check)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd())
}
