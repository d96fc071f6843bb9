package main

import (
	"regexp"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// TestFlagHelpNamesOwnFlags pins that a flag's help names only flags its
// command has: recommend's and plan's --allow-unresolved said "than
// --max-unresolved", a flag run has and they do not (they hold the calls
// to run's default limit, 1%).
func TestFlagHelpNamesOwnFlags(t *testing.T) {
	ref := regexp.MustCompile(`(?:^|[\s(])--([a-z][a-z0-9-]*)`)
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			for _, m := range ref.FindAllStringSubmatch(f.Usage, -1) {
				if c.Flags().Lookup(m[1]) == nil && c.InheritedFlags().Lookup(m[1]) == nil {
					t.Errorf("%s --%s: its help names --%s, which %s has not: %q", c.CommandPath(), f.Name, m[1], c.CommandPath(), f.Usage)
				}
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd())
}
