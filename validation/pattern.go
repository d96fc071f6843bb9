package validation

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode"
)

// patternString returns a string of at least minLen runes that re matches,
// built by walking the parsed expression: literals as written, one rune of
// each character class ('a', '0', 'A' or '-' when the class holds one, else
// its first printable rune), each repetition its minimum count, the first
// alternative that yields a string; when that string is shorter than
// minLen, repetitions that allow more repeat until it is long enough. ok is
// false when the pattern does not compile as RE2 or the string built this
// way does not match (assertions such as \b the walk ignores): the caller
// then names the schema as one it cannot satisfy.
func patternString(pattern string, minLen int) (string, bool) {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return "", false
	}
	parsed, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return "", false
	}
	parsed = parsed.Simplify()
	w := &patternWalk{}
	s, ok := w.build(parsed)
	if !ok {
		return "", false
	}
	if short := len([]rune(s)); short < minLen {
		// Runes after the last repetition count toward the target too late
		// (^ab*c$ to 4 runes builds abbbc): lower the target while the
		// string stays long enough.
		best := ""
		for target := minLen; target > short && minLen-target <= maxTargetSteps; target-- {
			w.n, w.target = 0, target
			t, ok := w.build(parsed)
			if !ok || len([]rune(t)) < minLen {
				break
			}
			best = t
		}
		if best == "" {
			return "", false
		}
		s = best
	}
	if len([]rune(s)) < minLen || !re.MatchString(s) {
		return "", false
	}
	return s, true
}

// patternWalk builds a matching string: n is the runes built so far;
// repetitions repeat past their minimum while n is below target.
type patternWalk struct {
	n, target int
}

// maxTargetSteps bounds the shorter targets patternString tries.
const maxTargetSteps = 64

// maxPatternRepeat bounds the repetitions one node contributes, so a
// pattern such as a{1000}{1000} cannot make a huge string.
const maxPatternRepeat = 4096

func (w *patternWalk) build(re *syntax.Regexp) (string, bool) {
	switch re.Op {
	case syntax.OpNoMatch:
		return "", false
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText,
		syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return "", true
	case syntax.OpLiteral:
		w.n += len(re.Rune)
		return string(re.Rune), true
	case syntax.OpCharClass:
		r, ok := classRune(re.Rune)
		w.n++
		return string(r), ok
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		w.n++
		return "a", true
	case syntax.OpCapture:
		return w.build(re.Sub[0])
	case syntax.OpConcat:
		var b strings.Builder
		for _, sub := range re.Sub {
			s, ok := w.build(sub)
			if !ok {
				return "", false
			}
			b.WriteString(s)
		}
		return b.String(), true
	case syntax.OpAlternate:
		n := w.n
		for _, sub := range re.Sub {
			if s, ok := w.build(sub); ok {
				return s, true
			}
			w.n = n
		}
		return "", false
	case syntax.OpStar:
		return w.repeat(re.Sub[0], 0, -1)
	case syntax.OpPlus:
		return w.repeat(re.Sub[0], 1, -1)
	case syntax.OpQuest:
		return w.repeat(re.Sub[0], 0, 1)
	case syntax.OpRepeat:
		return w.repeat(re.Sub[0], re.Min, re.Max)
	}
	return "", false
}

// repeat builds sub lo times, then again (up to hi; -1 is no bound)
// while the walk is below its target length and a repetition adds runes.
func (w *patternWalk) repeat(sub *syntax.Regexp, lo, hi int) (string, bool) {
	if lo > maxPatternRepeat {
		return "", false
	}
	var b strings.Builder
	n := 0
	for ; n < lo; n++ {
		s, ok := w.build(sub)
		if !ok {
			return "", false
		}
		b.WriteString(s)
	}
	for w.n < w.target && (hi < 0 || n < hi) && n < maxPatternRepeat {
		saved := w.n
		s, ok := w.build(sub)
		if !ok || s == "" {
			w.n = saved
			break
		}
		b.WriteString(s)
		n++
	}
	return b.String(), true
}

// classPreferred are the runes a character class is represented by, when
// it holds one, in this order.
var classPreferred = []rune{'a', '0', 'A', '-', '_', '.'}

// classRune picks one rune of the character class ranges (pairs lo, hi):
// a preferred one, else the first printable one.
func classRune(ranges []rune) (rune, bool) {
	in := func(c rune) bool {
		for i := 0; i+1 < len(ranges); i += 2 {
			if ranges[i] <= c && c <= ranges[i+1] {
				return true
			}
		}
		return false
	}
	for _, c := range classPreferred {
		if in(c) {
			return c, true
		}
	}
	for i := 0; i+1 < len(ranges); i += 2 {
		for c := ranges[i]; c <= ranges[i+1] && c-ranges[i] < 256; c++ {
			if unicode.IsPrint(c) {
				return c, true
			}
		}
	}
	return 0, false
}
