package main

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// TestHelpIsWrapped pins that the help text of every command — its long
// help and its examples — is wrapped for an 80-column terminal (at most
// helpWidth columns a line): `calibrate --help` had a line of 114 columns,
// `srd eval --help` one of 119, `trace import --help` one of 100 and the
// rows of its format table up to 112, `sweep --help` one of 83, `trace gen
// --help` table rows of 97 and `catalog snapshot --help` an example of 93;
// only the catalog commands were checked (`catalog stats --help` had
// lines of 125). The one exemption is a line that holds a single word
// after its indentation (a URL or a path), which cannot be cut. Flag usage
// lines are checked by TestFlagUsagesAreWrapped. The walk includes the
// commands cobra adds when the binary runs (helpTree).
func TestHelpIsWrapped(t *testing.T) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, part := range []struct{ name, text string }{{"long help", c.Long}, {"examples", c.Example}} {
			for i, line := range strings.Split(part.text, "\n") {
				if !helpLineFits(line) {
					t.Errorf("%s --help, line %d of its %s is %d columns (over %d): %q",
						c.CommandPath(), i+1, part.name, utf8.RuneCountInString(line), helpWidth, line)
				}
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(helpTree(t))
}

// TestCommandListIsWrapped pins that the one-line summaries of a command
// list (defersim --help, defersim catalog --help, …) fit the help width as
// cobra prints them: the list ran to 116 columns (plan's summary).
func TestCommandListIsWrapped(t *testing.T) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if !c.HasAvailableSubCommands() {
			return
		}
		var out strings.Builder
		c.SetOut(&out)
		if err := c.Help(); err != nil {
			t.Fatal(err)
		}
		list := out.String()
		if _, after, ok := strings.Cut(list, "Available Commands:\n"); ok {
			list, _, _ = strings.Cut(after, "\n\n")
		} else {
			t.Fatalf("%s --help has no command list:\n%s", c.CommandPath(), list)
		}
		for line := range strings.SplitSeq(list, "\n") {
			if n := utf8.RuneCountInString(line); n > helpWidth {
				t.Errorf("%s --help lists a command in %d columns (over %d): %q", c.CommandPath(), n, helpWidth, line)
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(helpTree(t))
}

// TestFlagUsagesAreWrapped pins that every line of every command's full
// help, its flag lists included, fits helpWidth columns: cobra printed each
// flag's description on one line, up to 245 columns (run's
// --allow-unresolved). It also checks that wrapping loses no word: each
// flag's description is in the help, whitespace aside.
func TestFlagUsagesAreWrapped(t *testing.T) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		var out strings.Builder
		c.SetOut(&out)
		if err := c.Help(); err != nil {
			t.Fatal(err)
		}
		help := out.String()
		for i, line := range strings.Split(help, "\n") {
			if !helpLineFits(line) {
				t.Errorf("%s --help, line %d is %d columns (over %d): %q",
					c.CommandPath(), i+1, utf8.RuneCountInString(line), helpWidth, line)
			}
		}
		joined := strings.Join(strings.Fields(help), " ")
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if f.Hidden {
				return
			}
			usage := strings.Join(strings.Fields(strings.ReplaceAll(f.Usage, "`", "")), " ")
			if !strings.Contains(joined, usage) {
				t.Errorf("%s --help lost words of --%s's description %q", c.CommandPath(), f.Name, usage)
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(helpTree(t))
}

// helpLineFits says whether a line of help fits helpWidth columns, or is
// exempt: one word after its indentation. A tab, whose width depends on
// the terminal, never fits.
func helpLineFits(line string) bool {
	if strings.Contains(line, "\t") {
		return false
	}
	return utf8.RuneCountInString(line) <= helpWidth || !strings.Contains(strings.TrimLeft(line, " "), " ")
}

// TestHelpLineFits pins the width rule and its one exemption.
func TestHelpLineFits(t *testing.T) {
	tests := []struct {
		line string
		want bool
	}{
		{strings.Repeat("x", helpWidth), true},
		{strings.Repeat("é", helpWidth), true}, // columns, not bytes
		{strings.Repeat("x ", helpWidth/2+1), false},
		{"  https://example.com/" + strings.Repeat("a", helpWidth), true},
		{"  see https://example.com/" + strings.Repeat("a", helpWidth), false},
		{"\tshort", false},
	}
	for _, tc := range tests {
		if got := helpLineFits(tc.line); got != tc.want {
			t.Errorf("helpLineFits(%q) = %v, want %v", tc.line, got, tc.want)
		}
	}
}

// TestWrapHelp pins how the help built at run time is wrapped: words
// filled to the width, later lines indented to the prefix, a word wider
// than a line alone on its line, and the words themselves unchanged.
func TestWrapHelp(t *testing.T) {
	tests := []struct {
		prefix, text string
		width        int
		want         string
	}{
		{"", "one two three", 80, "one two three"},
		{"", "one two three", 7, "one two\nthree"},
		{"  name  ", "aa bb cc dd", 13, "  name  aa bb\n        cc dd"},
		{"- ", "a verylongword b", 6, "- a\n  verylongword\n  b"},
		{"", "  spaced\n words  ", 80, "spaced words"},
	}
	for _, tc := range tests {
		got := wrapHelp(tc.prefix, tc.text, tc.width)
		if got != tc.want {
			t.Errorf("wrapHelp(%q, %q, %d) = %q, want %q", tc.prefix, tc.text, tc.width, got, tc.want)
		}
		for _, l := range strings.Split(got, "\n") {
			if utf8.RuneCountInString(l) > tc.width && strings.Contains(strings.TrimLeft(l, " "), " ") {
				t.Errorf("wrapHelp(%q, %q, %d): line %q is over the width", tc.prefix, tc.text, tc.width, l)
			}
		}
	}
}

// helpTree returns the root command with the commands cobra adds when it
// executes (help, and completion with its shell subcommands), so that the
// help tests walk every help text the binary prints.
func helpTree(t *testing.T) *cobra.Command {
	t.Helper()
	root := newRootCmd()
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	return root
}

// TestCompletionHelpIsOurs pins that the help of `completion` and of its
// shell subcommands is walked by the help tests and fits helpWidth:
// TestHelpIsWrapped walked newRootCmd(), to which cobra adds completion
// only when it executes, so `defersim completion bash --help` printed a
// line of 81 columns and tab-indented examples, and `defersim completion
// --help` ended on a line of 80 columns.
func TestCompletionHelpIsOurs(t *testing.T) {
	root := helpTree(t)
	for _, path := range []string{"help", "completion", "completion bash", "completion zsh", "completion fish", "completion powershell"} {
		c, rest, err := root.Find(strings.Fields(path))
		if err != nil || len(rest) > 0 || c.CommandPath() != "defersim "+path {
			t.Errorf("defersim %s: not in the help tests' tree (found %v, %v)", path, c.CommandPath(), err)
			continue
		}
		if path == "help" {
			continue
		}
		if c.Long == "" || !strings.Contains(c.Long, "defersim") || strings.Contains(c.Long, "PROG") {
			t.Errorf("defersim %s: help %q, want completionHelp's with the program's name", path, c.Long)
		}
		var out strings.Builder
		c.SetOut(&out)
		if err := c.Help(); err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(out.String(), "\n") {
			if !helpLineFits(line) {
				t.Errorf("defersim %s --help, line %d is %d columns (over %d): %q",
					path, i+1, utf8.RuneCountInString(line), helpWidth, line)
			}
		}
	}
}
