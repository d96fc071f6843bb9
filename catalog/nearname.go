package catalog

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// NameSeparators end the prefixes a user may write before a name
// (mcp__server__tool, server.tool, server:tool, server/tool): NearName
// strips such a prefix to find the name meant.
var NameSeparators = []string{"__", ".", ":", "/"}

// CloseNames is how many close names (ClosestNames) a name that resolves
// to nothing is offered when none matches but for case or a prefix.
const CloseNames = 3

// NearKind says how a name that resolves to nothing is near one that does.
type NearKind int

const (
	// NearNone: no name is near.
	NearNone NearKind = iota
	// NearCase: a name equal but for case.
	NearCase
	// NearPrefix: the name less a prefix ending in a NameSeparator.
	NearPrefix
	// NearTypo: names within CloseNameMaxShare edits (ClosestNames).
	NearTypo
)

// Near is which names a name that resolves to nothing most likely means.
type Near struct {
	Kind NearKind
	// Names: one for NearCase and NearPrefix, up to CloseNames for
	// NearTypo, nearest first.
	Names []string
	// Prefix is the prefix NearPrefix strips.
	Prefix string
}

// NearName says which of names a name that matches none of them most
// likely means: a name equal but for case, else the name less a prefix
// ending in a NameSeparator (the mcp__<server>__<tool> form an agent
// runtime logs), else the closest names by edit distance (a typo). It
// walks every name: call it only for a name that does not resolve. names
// may hold duplicates and need not be sorted; the answer does not depend
// on their order.
func NearName(name string, names []string) Near {
	names = slices.Clone(names)
	slices.Sort(names)
	names = slices.Compact(names)
	if slices.Contains(names, name) {
		return Near{}
	}
	for _, n := range names {
		if strings.EqualFold(n, name) {
			return Near{Kind: NearCase, Names: []string{n}}
		}
	}
	lower := strings.ToLower(name)
	var best Near
	for _, n := range names {
		ln := strings.ToLower(n)
		if len(lower) <= len(ln) || !strings.HasSuffix(lower, ln) {
			continue
		}
		prefix := name[:len(name)-len(n)]
		for _, sep := range NameSeparators {
			// The longest name a prefix strips to wins (server.a.b is "a.b" before "b").
			if strings.HasSuffix(prefix, sep) && (best.Kind == NearNone || len(n) > len(best.Names[0])) {
				best = Near{Kind: NearPrefix, Names: []string{n}, Prefix: prefix}
			}
		}
	}
	if best.Kind != NearNone {
		return best
	}
	if near := ClosestNames(name, names, CloseNames); len(near) > 0 {
		return Near{Kind: NearTypo, Names: near}
	}
	return Near{}
}

// Hint is the near names as a clause a message appends after "; "
// ("" when none): `did you mean "x"?` and why, for a user who typed the
// name.
func (n Near) Hint() string {
	switch n.Kind {
	case NearCase:
		return fmt.Sprintf("did you mean %q (the same name in another case)?", n.Names[0])
	case NearPrefix:
		return fmt.Sprintf("did you mean %q (the name without its prefix %q)?", n.Names[0], n.Prefix)
	case NearTypo:
		return "did you mean " + orList(n.Names) + "?"
	}
	return ""
}

// WithHint appends n's Hint to msg after "; " (msg unchanged when none).
func (n Near) WithHint(msg string) string {
	if h := n.Hint(); h != "" {
		return msg + "; " + h
	}
	return msg
}

// orList quotes names, joined by commas and a last "or".
func orList(names []string) string {
	q := make([]string, len(names))
	for i, s := range names {
		q[i] = strconv.Quote(s)
	}
	if len(q) <= 1 {
		return strings.Join(q, "")
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}
