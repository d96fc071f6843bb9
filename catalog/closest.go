package catalog

import (
	"cmp"
	"slices"
)

// CloseNameMaxShare is how far a name may be from another and still be
// suggested for it: at most this share of the shorter name's length in
// edits (bytes; two adjacent letters swapped count as one), and at least one edit. A third lets a
// dropped, doubled or swapped letter through ("githb" for "github") and
// keeps short unrelated names apart ("githb" is not
// offered "gitlab", two edits away).
const CloseNameMaxShare = 1.0 / 3

// ClosestNames returns up to n of names within CloseNameMaxShare of name,
// nearest first (then bytewise); nil when none is close. name itself is
// never returned.
func ClosestNames(name string, names []string, n int) []string {
	type near struct {
		name string
		d    int
	}
	var found []near
	for _, c := range names {
		if c == name || slices.ContainsFunc(found, func(f near) bool { return f.name == c }) {
			continue
		}
		limit := max(1, int(CloseNameMaxShare*float64(min(len(name), len(c)))))
		if d := editDistance(name, c, true); d <= limit {
			found = append(found, near{c, d})
		}
	}
	slices.SortFunc(found, func(a, b near) int {
		return cmp.Or(cmp.Compare(a.d, b.d), cmp.Compare(a.name, b.name))
	})
	var out []string
	for i := 0; i < len(found) && i < n; i++ {
		out = append(out, found[i].name)
	}
	return out
}
