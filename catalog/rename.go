package catalog

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// A property rename needs evidence that the added property succeeds the
// removed one; JSON Schema has no renames, so without evidence the change
// is a removal and an addition. The two must have the same "type" (after
// resolving local $refs), and one of:
//
//   - the same name once case, '_' and '-' are ignored (per_page → perPage);
//   - descriptions at least minDescShare alike (shared words over all
//     words, ignoring short and common ones);
//   - names at least minNameShare alike (1 − edit distance / longer length
//     of the normalised names: pageIdx → pageId).
//
// Candidates are paired best first (normalised-name match, then the sum of
// the two likenesses), so each removed property gets the successor with the
// strongest evidence, not merely the nearest name.
const (
	minDescShare = 0.5
	minNameShare = 0.75
)

// rename is a removed property paired with its successor.
type rename struct {
	from, to, evidence string
	score              float64
}

// renames pairs removed properties of a with added properties of b.
func (w *walker) renames(a, b *value, removed, added []string) []rename {
	var cands []rename
	for _, r := range removed {
		ra := w.resolve(a.get(r), 0)
		for _, n := range added {
			nb := w.resolve(b.get(n), 1)
			if c, ok := renameEvidence(r, n, ra, nb); ok {
				cands = append(cands, c)
			}
		}
	}
	slices.SortStableFunc(cands, func(x, y rename) int {
		switch {
		case x.score != y.score:
			if x.score > y.score {
				return -1
			}
			return 1
		case x.from != y.from:
			return strings.Compare(x.from, y.from)
		}
		return strings.Compare(x.to, y.to)
	})
	var out []rename
	used := map[string]bool{}
	for _, c := range cands {
		if used["-"+c.from] || used["+"+c.to] {
			continue
		}
		used["-"+c.from], used["+"+c.to] = true, true
		out = append(out, c)
	}
	slices.SortFunc(out, func(x, y rename) int { return strings.Compare(x.from, y.from) })
	return out
}

// renameEvidence judges whether property to (schema b) may succeed property
// from (schema a).
func renameEvidence(from, to string, a, b *value) (rename, bool) {
	if !equal(schemaType(a), schemaType(b)) {
		return rename{}, false
	}
	nf, nt := normaliseName(from), normaliseName(to)
	desc := wordShare(describe(a), describe(b))
	name := 1 - float64(editDistance(nf, nt, false))/float64(max(len(nf), len(nt), 1))
	r := rename{from: from, to: to, score: desc + name}
	switch {
	case nf == nt:
		r.score += 2
		r.evidence = "same name ignoring case and separators"
	case desc >= minDescShare:
		r.evidence = likeness("description", desc)
	case name >= minNameShare:
		r.evidence = likeness("name", name)
	default:
		return rename{}, false
	}
	return r, true
}

func likeness(what string, share float64) string {
	if share >= 1 {
		return "same " + what
	}
	return fmt.Sprintf("%s %d%% alike", what, int(share*100))
}

// schemaType returns the "type" keyword of a schema (nil when absent or not
// an object schema).
func schemaType(v *value) *value { return v.get("type") }

// describe returns a schema's description, or "".
func describe(v *value) string {
	if d := v.get("description"); d != nil && d.kind == kString {
		return d.text
	}
	return ""
}

// normaliseName lower-cases an identifier and drops '_', '-' and '.'.
func normaliseName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || r == '.' {
			return -1
		}
		return unicode.ToLower(r)
	}, s)
}

// commonWords are left out of description likeness.
var commonWords = setOf("the", "and", "for", "with", "from", "this", "that", "are", "not", "its", "into",
	"will", "can", "you", "your", "when", "use", "used", "which", "return", "returns", "whether", "optional", "defaults")

// wordShare is the share of distinct words the two texts have in common
// (Jaccard index), counting words of three or more letters that are not
// common; 0 when either text has none.
func wordShare(a, b string) float64 {
	wa, wb := descWords(a), descWords(b)
	if len(wa) == 0 || len(wb) == 0 {
		return 0
	}
	common := 0
	for w := range wa {
		if wb[w] {
			common++
		}
	}
	return float64(common) / float64(len(wa)+len(wb)-common)
}

func descWords(s string) map[string]bool {
	out := map[string]bool{}
	for _, f := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if len(f) >= 3 && !commonWords[f] {
			out[f] = true
		}
	}
	return out
}

// editDistance is the Levenshtein distance between two strings (bytes);
// with swaps, two adjacent bytes swapped count as one edit (optimal string
// alignment distance), as a typo does.
func editDistance(a, b string, swaps bool) int {
	// rows i-2, i-1 and i of the table.
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if swaps && i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// renameAt is a rename found under the "properties" keyword at path.
type renameAt struct{ path, from, to string }

// PropertyRename is a property of a tool's input schema that the newer
// version renamed (with evidence, as Diff reports it): in the object the
// property names Parent lead to from the root of the arguments (empty: the
// root), From became To.
type PropertyRename struct {
	Parent   []string
	From, To string
}

// PropertyRenames lists the renames Diff reports between two definitions
// of a tool (a older, b newer) in the properties of objects nested through
// "properties" alone (renames under items, unions, pattern properties or
// definitions are left out), in Diff's order. It is nil when the input
// schemas are equal or cannot be read.
func PropertyRenames(a, b *Tool) []PropertyRename {
	av, aerr := toolValue(a)
	bv, berr := toolValue(b)
	if aerr != nil || berr != nil {
		return nil
	}
	as, bs := readSchema(av.get("inputSchema")), readSchema(bv.get("inputSchema"))
	if equal(as, bs) {
		return nil
	}
	budget := maxSteps
	w := &walker{budget: &budget, refs: map[[2]string]bool{}, roots: [2]*value{as, bs}}
	w.changed, w.reaches = changedDefs(w.roots), map[*value]bool{}
	w.schema("inputSchema", as, bs)
	var out []PropertyRename
	for _, r := range w.renamed {
		if parent, ok := propertyParent(r.path); ok {
			out = append(out, PropertyRename{Parent: parent, From: r.from, To: r.to})
		}
	}
	return out
}

// propertyParent reads a path of the form inputSchema(.properties.KEY)*
// .properties and returns the KEYs; ok is false for any other path.
func propertyParent(path string) (parent []string, ok bool) {
	segs, ok := splitPath(path)
	if !ok || len(segs) < 2 || segs[0] != "inputSchema" || len(segs)%2 != 0 {
		return nil, false
	}
	for i := 1; i < len(segs); i += 2 {
		if segs[i] != "properties" {
			return nil, false
		}
		if i+1 < len(segs) {
			parent = append(parent, segs[i+1])
		}
	}
	return parent, true
}

// splitPath splits a path built by joinKey into its keys; ok is false when
// it holds an array index or cannot be read.
func splitPath(p string) (keys []string, ok bool) {
	for i := 0; i < len(p); {
		switch p[i] {
		case '.':
			i++
			fallthrough
		default:
			j := i
			for j < len(p) && p[j] != '.' && p[j] != '[' {
				j++
			}
			if j == i {
				return nil, false
			}
			keys = append(keys, p[i:j])
			i = j
		case '[':
			q, err := strconv.QuotedPrefix(p[i+1:])
			if err != nil {
				return nil, false // an index, or not a quoted key
			}
			key, err := strconv.Unquote(q)
			end := i + 1 + len(q)
			if err != nil || end >= len(p) || p[end] != ']' {
				return nil, false
			}
			keys = append(keys, key)
			i = end + 1
		}
	}
	return keys, true
}
