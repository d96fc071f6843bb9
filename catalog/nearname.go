package catalog

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/defersim/defersim/internal/nouns"
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
	// NearTypo: names within CloseNameMaxShare edits (ClosestNames), those
	// at the nearest distance only, of the name or, when none is, of the
	// name less a prefix.
	NearTypo
	// NearPlural: the name with a word in the singular for the plural or
	// the reverse (English -s, -es, -ies; pluralMatches), when no name is
	// one edit away.
	NearPlural
	// NearPart: names (up to CloseNames) that hold the name as a part
	// between PartDelimiters or the name's ends ("github" in
	// "modelcontextprotocol__server-github"), when no other rule offers
	// one.
	NearPart
)

// PartDelimiters are the characters that end a part of a name for the
// part rule of NearName (NearPart), besides the name's start and end.
const PartDelimiters = "_-/."

// PartMinLen is the fewest letters a name needs for NearName to offer the
// names holding it as a part (NearPart): a shorter one ("id", "v2") is
// part of too many names to point at one.
const PartMinLen = 3

// Near is which names a name that resolves to nothing most likely means.
type Near struct {
	Kind NearKind
	// Names: one for NearCase and NearPrefix, up to CloseNames for
	// NearTypo (nearest first), NearPlural and NearPart (sorted).
	Names []string
	// Prefix is the prefix NearPrefix strips, and the one NearPlural and
	// NearTypo strip before their rule applies ("" when none).
	Prefix string
	// Written and Meant are, for NearPlural, the first word the name and
	// Names[0] differ in by number ("repository", "repositories"), and
	// Input the name less Prefix (a name of one word is said to be the
	// plural or the singular); for NearPart, Input is the name.
	Written, Meant, Input string
}

// NearName says which of names a name that matches none of them most
// likely means: a name equal but for case, else the name less a prefix
// ending in a NameSeparator (the mcp__<server>__<tool> form an agent
// runtime logs), else, when no name is one edit away, the name with a word
// in the singular for the plural or the reverse (search_repository for
// search_repositories, three edits apart), else the same after a prefix
// (mcp__x__search_repository for search_repositories), else the closest names by edit
// distance (a typo: up to CloseNames, all at the nearest distance, none a
// different word in the stretch where the names differ), else the same
// after a prefix (mcp__github__get_isue for get_issue), else the names
// holding the name as a part (github for
// modelcontextprotocol__server-github; only when CloseNames or fewer do,
// as a part of many names points at none). It walks every name: call it only for
// a name that does not resolve. names may hold duplicates and need not be
// sorted; the answer does not depend on their order.
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
	if near, ok := nearPlural(name, "", names); ok {
		return near
	}
	// The plural rule after a prefix (mcp__x__search_repository for
	// search_repositories).
	if near, ok := afterPrefix(name, func(rest, prefix string) (Near, bool) { return nearPlural(rest, prefix, names) }); ok {
		return near
	}
	if near := nearTypo(name, names); len(near) > 0 {
		return Near{Kind: NearTypo, Names: near}
	}
	// The typo rule after a prefix (mcp__github__get_isue for get_issue),
	// when the whole name is close to none.
	near, _ := afterPrefix(name, func(rest, prefix string) (Near, bool) {
		typo := nearTypo(rest, names)
		return Near{Kind: NearTypo, Names: typo, Prefix: prefix}, len(typo) > 0
	})
	if near.Kind != NearNone {
		return near
	}
	if parts := nearPart(name, names); len(parts) > 0 {
		return Near{Kind: NearPart, Names: parts, Input: name}
	}
	return Near{}
}

// nearPart is the part rule of NearName: the names (sorted) that hold
// name, in any case, as a part, between PartDelimiters or the ends of the
// name; nil when name is shorter than PartMinLen or more than CloseNames
// names hold it.
func nearPart(name string, names []string) []string {
	if len(name) < PartMinLen {
		return nil
	}
	lower := strings.ToLower(name)
	var out []string
	for _, n := range names {
		if holdsPart(strings.ToLower(n), lower) {
			out = append(out, n)
		}
	}
	if len(out) > CloseNames {
		return nil
	}
	return out
}

// holdsPart reports whether s holds part with a PartDelimiter, or an end
// of s, on each side of it.
func holdsPart(s, part string) bool {
	for from := 0; from+len(part) <= len(s); {
		i := strings.Index(s[from:], part)
		if i < 0 {
			return false
		}
		i += from
		end := i + len(part)
		if (i == 0 || strings.IndexByte(PartDelimiters, s[i-1]) >= 0) && (end == len(s) || strings.IndexByte(PartDelimiters, s[end]) >= 0) {
			return true
		}
		from = i + 1
	}
	return false
}

// afterPrefix is rule's answer for the first rest of name, less a prefix
// ending in a NameSeparator, that rule answers (ok): the longest rest
// first, as mcp__<server>__<tool> strips to <server>__<tool> before <tool>.
func afterPrefix(name string, rule func(rest, prefix string) (Near, bool)) (Near, bool) {
	for i := range len(name) {
		for _, sep := range NameSeparators {
			if strings.HasSuffix(name[:i], sep) {
				if near, ok := rule(name[i:], name[:i]); ok {
					return near, true
				}
			}
		}
	}
	return Near{}, false
}

// nearTypo is the typo rule of NearName: the names (up to CloseNames)
// closest to name by edit distance, all at the nearest distance; nil when
// none is close.
func nearTypo(name string, names []string) []string {
	// Not a name whose edits fill the stretch where the two differ (a
	// different word, not a typo): the share is taken of the longer
	// stretch left once the common prefix and suffix go ("acme-alias" is
	// not offered "acme-files"); a stretch one side lacks (letters added
	// or dropped) stays bounded by ClosestNames alone.
	near := slices.DeleteFunc(ClosestNames(name, names, len(names)), func(n string) bool {
		short, long := differing(name, n)
		return short > 0 && editDistance(name, n, true) > max(1, int(CloseNameMaxShare*float64(long)))
	})
	if len(near) == 0 {
		return nil
	}
	// Only the nearest (ClosestNames sorts them so): with long names
	// sharing a prefix (modelcontextprotocol__server-…) the share lets
	// unrelated names through, and a name one edit away is the likelier
	// meaning.
	d := editDistance(name, near[0], true)
	near = slices.DeleteFunc(near, func(n string) bool { return editDistance(name, n, true) > d })
	return near[:min(len(near), CloseNames)]
}

// nearPlural is the plural rule of NearName for name, written after
// prefix ("" for none): the names that are name with a word in the
// singular for the plural or the reverse, when no name is one edit away
// from name (a typo, which the typo rule offers).
func nearPlural(name, prefix string, names []string) (Near, bool) {
	plural := pluralMatches(name, names)
	if len(plural) == 0 || slices.ContainsFunc(names, func(n string) bool { return editDistance(name, n, true) == 1 }) {
		return Near{}, false
	}
	w, m := pluralPair(name, plural[0])
	return Near{Kind: NearPlural, Names: plural[:min(len(plural), CloseNames)], Written: w, Meant: m, Input: name, Prefix: prefix}, true
}

// differing is the lengths, shorter and longer, of a and b once their
// common prefix and suffix are gone.
func differing(a, b string) (short, long int) {
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	a, b = a[p:], b[p:]
	s := 0
	for s < len(a) && s < len(b) && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	return min(len(a), len(b)) - s, max(len(a), len(b)) - s
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
		if n.Prefix != "" {
			return fmt.Sprintf("did you mean %s (the name without its prefix %q, spelled closely: %s)?", orList(n.Names), n.Prefix, orList(n.Full()))
		}
		return "did you mean " + orList(n.Names) + "?"
	case NearPlural:
		prefix := ""
		if n.Prefix != "" {
			prefix = fmt.Sprintf("the name without its prefix %q, ", n.Prefix)
		}
		if len(n.Names) > 1 {
			return "did you mean " + orList(n.Names) + " (" + prefix + "a word in the singular for the plural, or the reverse)?"
		}
		return fmt.Sprintf("did you mean %q (%s%s)?", n.Names[0], prefix, n.PluralWords())
	case NearPart:
		if len(n.Names) > 1 {
			return fmt.Sprintf("did you mean %s (names holding %q as a part)?", orList(n.Names), n.Input)
		}
		return fmt.Sprintf("did you mean %q (a name holding %q as a part)?", n.Names[0], n.Input)
	}
	return ""
}

// PluralWords says, for NearPlural, how the name differs from Names[0] in
// number: `"repositories" for "repository"`, or `the plural` (`the
// singular`) of a name of one word.
func (n Near) PluralWords() string {
	if n.OneWord() {
		if len(n.Meant) < len(n.Written) {
			return "the singular"
		}
		return "the plural"
	}
	return fmt.Sprintf("%q for %q", n.Meant, n.Written)
}

// OneWord reports whether, for NearPlural, the name (less Prefix) is the
// one word that differs in number: PluralWords then says "the plural" or
// "the singular".
func (n Near) OneWord() bool { return n.Written == n.Input }

// Full is Names as the user wrote the name, each after Prefix
// ("mcp__github__get_issue" for "get_issue").
func (n Near) Full() []string {
	full := make([]string, len(n.Names))
	for i, name := range n.Names {
		full[i] = n.Prefix + name
	}
	return full
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
	return nouns.Or(q)
}

// NearServer is NearName of server among the server names c holds (a
// launch variant's series key counts under its server's name too, as
// HasTool matches it).
func (c *Catalog) NearServer(server string) Near {
	var names []string
	for _, k := range c.ServerNames() {
		base, _, _ := strings.Cut(k, "+")
		names = append(names, k, base)
	}
	return NearName(server, names)
}

// NearTool is NearName of tool among the tools any version of server (or
// of a launch variant of it, as HasTool matches) serves; server "" means
// every server's tools.
func (c *Catalog) NearTool(server, tool string) Near {
	var names []string
	for k, vs := range c.Versions {
		if server != "" && k != server && !strings.HasPrefix(k, server+"+") {
			continue
		}
		for _, s := range vs {
			for _, t := range s.Tools {
				names = append(names, t.Name)
			}
		}
	}
	return NearName(tool, names)
}
