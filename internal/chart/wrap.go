package chart

import (
	"strings"

	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
)

// headerSep separates the parts of a subtitle ("20 sessions · baseline
// eager · …"); a subtitle wider than its figure breaks there.
const headerSep = " · "

// wrapParts breaks s into lines no wider than width in sty, at headerSep
// only (a part wider than width on its own keeps its line). The lines are
// joined by newlines, which the plain text handler draws one under the
// other, each centred.
func wrapParts(sty text.Style, s string, width vg.Length) string {
	if sty.Width(s) <= width {
		return s
	}
	var lines []string
	line := ""
	for _, part := range strings.Split(s, headerSep) {
		switch {
		case line == "":
			line = part
		case sty.Width(line+headerSep+part) <= width:
			line += headerSep + part
		default:
			lines = append(lines, line)
			line = part
		}
	}
	return strings.Join(append(lines, line), "\n")
}
