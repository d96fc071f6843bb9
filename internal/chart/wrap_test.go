package chart

import (
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
)

// TestSubtitleWrapsAtParts pins that a subtitle wider than its figure
// breaks into lines at its " · " separators: the report's subtitles (run
// size, baseline, tokenizer, cache model, model, SMALL SAMPLE) ran past
// both edges of a 960-pixel plot and were cut off ("0 sessions · … SMALL
// SAMPL").
func TestSubtitleWrapsAtParts(t *testing.T) {
	long := "20 sessions · baseline eager · tokenizer o200k_base · cache anthropic (ttl 300s, min 1024 tokens, write 1.25x, read 0.1x) · model claude-sonnet-4.5 · SMALL SAMPLE"
	tests := []struct {
		name  string
		s     string
		width vg.Length
		lines int
	}{
		{"fits", "20 sessions · baseline eager", vg.Points(500), 1},
		{"too wide for the figure", long, vg.Points(700), 2},
		{"narrow", long, vg.Points(250), 3},
		{"a part wider than the figure keeps its line", "a · " + strings.Repeat("x", 200) + " · b", vg.Points(100), 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := wrapParts(subtitleStyle, tc.s, tc.width)
			lines := strings.Split(got, "\n")
			if len(lines) != tc.lines {
				t.Errorf("%d lines, want %d:\n%s", len(lines), tc.lines, got)
			}
			if strings.Join(lines, headerSep) != tc.s {
				t.Errorf("the lines do not make up the subtitle:\n%s", got)
			}
			for _, l := range lines {
				if w := subtitleStyle.Width(l); w > tc.width && strings.Contains(l, headerSep) {
					t.Errorf("line %q is %v wide, more than %v", l, w, tc.width)
				}
			}
		})
	}
}
