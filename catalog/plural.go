package catalog

import (
	"slices"
	"strings"
)

// PluralMinStem is the fewest letters a word keeps once NearName strips an
// English plural ending (-s, -es, -ies) from it: a shorter stem ("bus",
// "gas", "lies", "uses" less "es") is as likely a word of its own as a
// plural, and the ending is left on.
const PluralMinStem = 3

// pluralMatches returns the names (sorted) that are name with one or more
// of its words in the singular for the plural or the reverse (English -s,
// -es and -ies endings), every other word the same but for case and every
// character between words the same: `search_repository` matches
// `search_repositories`, `getEntries` matches `getEntry`.
func pluralMatches(name string, names []string) []string {
	words := nameWords(name)
	var out []string
	for _, n := range names {
		if n != name && sameButNumber(words, nameWords(n)) {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// sameButNumber reports whether two names' chunks (nameWords) agree: the
// same separators, and words equal but for case or for an English plural
// ending, at least one of them by its ending.
func sameButNumber(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	number := false
	for i := range a {
		x, y := strings.ToLower(a[i]), strings.ToLower(b[i])
		switch {
		case x == y:
		case isWord(a[i]) && isWord(b[i]) && slices.ContainsFunc(singulars(x), func(s string) bool { return slices.Contains(singulars(y), s) }):
			number = true
		default:
			return false
		}
	}
	return number
}

// pluralPair is the first word a (written) and b (meant) differ in by
// number, as written in each ("" when none): `"repository"`,
// `"repositories"`.
func pluralPair(a, b string) (written, meant string) {
	wa, wb := nameWords(a), nameWords(b)
	for i := range min(len(wa), len(wb)) {
		if !strings.EqualFold(wa[i], wb[i]) {
			return wa[i], wb[i]
		}
	}
	return "", ""
}

// singulars returns lower-case word and the singulars it may be the plural
// of: less -ies plus y ("entries": "entry"), less -es after s, x, z, ch or
// sh ("boxes": "box"), less -s but not -ss, -us or -is ("movies":
// "movie"; "address", "status", "analysis" are left alone), each only
// when PluralMinStem letters remain.
func singulars(w string) []string {
	out := []string{w}
	n := len(w)
	if strings.HasSuffix(w, "ies") && n-3 >= PluralMinStem {
		out = append(out, w[:n-3]+"y")
	}
	if strings.HasSuffix(w, "es") && n-2 >= PluralMinStem {
		stem := w[:n-2]
		for _, end := range []string{"s", "x", "z", "ch", "sh"} {
			if strings.HasSuffix(stem, end) {
				out = append(out, stem)
				break
			}
		}
	}
	if strings.HasSuffix(w, "s") && n-1 >= PluralMinStem {
		if c := w[n-2]; c != 's' && c != 'u' && c != 'i' {
			out = append(out, w[:n-1])
		}
	}
	return out
}

// nameWords splits a name into chunks: words (runs of ASCII letters, a run
// broken before an upper-case letter that follows a lower-case one, as in
// camelCase) and the runs of other characters between them.
func nameWords(name string) []string {
	var out []string
	start := 0
	for i := 1; i <= len(name); i++ {
		if i == len(name) || isLetter(name[i]) != isLetter(name[i-1]) ||
			isLower(name[i-1]) && name[i] >= 'A' && name[i] <= 'Z' {
			out = append(out, name[start:i])
			start = i
		}
	}
	return out
}

// isWord reports whether a chunk of nameWords is a word.
func isWord(chunk string) bool { return chunk != "" && isLetter(chunk[0]) }

func isLetter(c byte) bool { return isLower(c) || c >= 'A' && c <= 'Z' }

func isLower(c byte) bool { return c >= 'a' && c <= 'z' }
