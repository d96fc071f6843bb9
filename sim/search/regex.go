package search

import (
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/defersim/defersim/sim"
)

// MaxRegexChars is the longest pattern the Anthropic API accepts (REFERENCE
// §2); longer patterns find nothing.
const MaxRegexChars = 200

// Regex ranks tools whose name, description, or any parameter name or
// parameter description (depth ≤ MaxParamDepth) matches a Go RE2 pattern,
// case-insensitively: the fields the Anthropic API's regex tool search
// reads (REFERENCE §2). Matches come in corpus order. It is immutable and
// safe for concurrent use.
type Regex struct {
	maxChars int
	docs     [][]string // per tool: name, description, parameter names and descriptions
}

// NewRegex builds a regex ranker; patterns longer than maxChars characters
// find nothing (maxChars = 0: no limit).
func NewRegex(docs []sim.ToolDoc, maxChars int) *Regex {
	x := &Regex{maxChars: maxChars, docs: make([][]string, len(docs))}
	for i, d := range docs {
		ps := schemaParams(d.Schema)
		fields := append([]string{d.Name, d.Description}, ps.names...)
		x.docs[i] = append(fields, ps.descs...)
	}
	return x
}

// Rank returns up to k tools matching the pattern, in corpus order. An
// empty, over-long or invalid pattern finds nothing.
func (x *Regex) Rank(pattern string, k int) []int {
	if k <= 0 || strings.TrimSpace(pattern) == "" {
		return nil
	}
	if x.maxChars > 0 && utf8.RuneCountInString(pattern) > x.maxChars {
		return nil
	}
	re, err := regexp.Compile("(?i)" + pattern)
	if err != nil {
		return nil
	}
	var out []int
	for i, fields := range x.docs {
		for _, f := range fields {
			if re.MatchString(f) {
				out = append(out, i)
				break
			}
		}
		if len(out) == k {
			break
		}
	}
	return out
}

// Nested implements sim.NestedRanker: a ranking is the first k matches
// in corpus order.
func (x *Regex) Nested() bool { return true }
