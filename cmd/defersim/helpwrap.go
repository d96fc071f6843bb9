package main

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// helpWidth is the widest line, in columns, a command's help text (its
// Long and Example) prints: 79, so that an 80-column terminal shows every
// line whole instead of wrapping it at the last column.
// TestHelpIsWrapped holds every command to it.
const helpWidth = 79

// wrapHelp wraps the words of text into lines of at most width columns:
// the first starts after prefix, the others are indented to the prefix's
// width. A word wider than a line gets a line of its own. It wraps the
// help built from names known only when the command is made (srd eval's
// sets, trace import's formats), which a fixed text cannot wrap.
func wrapHelp(prefix, text string, width int) string {
	indent := strings.Repeat(" ", utf8.RuneCountInString(prefix))
	var b strings.Builder
	line, n := prefix, utf8.RuneCountInString(prefix)
	empty := true // line holds no word yet
	for _, w := range strings.Fields(text) {
		wn := utf8.RuneCountInString(w)
		if !empty && n+1+wn > width {
			b.WriteString(line + "\n")
			line, n, empty = indent, len(indent), true
		}
		if !empty {
			line += " "
			n++
		}
		line += w
		n += wn
		empty = false
	}
	b.WriteString(line)
	return b.String()
}

// wrapFlagUsages returns cobra's usage template with its flag lists
// wrapped at helpWidth columns (pflag's FlagUsagesWrapped: a description
// goes on under itself) instead of printed as one line per flag, which
// ran to 245 columns. The template is inherited by every subcommand.
func wrapFlagUsages(template string) string {
	return strings.ReplaceAll(template, ".FlagUsages |", fmt.Sprintf(".FlagUsagesWrapped %d |", helpWidth))
}

// shortenMoreLine returns cobra's usage template with its last line, which
// ran to 80 columns under `defersim completion`, in fewer words.
func shortenMoreLine(template string) string {
	return strings.ReplaceAll(template, "--help\" for more information about a command.", "--help\" for a command's help.")
}
