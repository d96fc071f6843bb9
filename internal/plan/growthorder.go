package plan

import (
	"fmt"
	"strings"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/nouns"
)

// mixedOrder is what a note says of series whose versions mix dates and
// release numbers (catalog.Catalog.MixedSchemes), in catalog diff's words
// (catalog.UnknownOrder).
const mixedOrder = "mix dates and release numbers, " + catalog.UnknownOrder + ", so which is newest is unknown"

// baseOrderNotes says which series of the base catalog have versions of
// unknown order: named by content hash (catalog.Unordered: the last by
// spelling is taken), or mixing dates and release numbers
// (catalog.MixedSchemes: a date is read as a release number). The
// catalog's size, and the sizes generated servers are drawn like, count
// them at the version taken. Nil when there is none.
func baseOrderNotes(base *catalog.Catalog) []string {
	var out []string
	if items, n := seriesItems(base, base.Unordered, true); n > 0 {
		out = append(out, fmt.Sprintf("the catalog's size counts %s at the last version by spelling: the versions of %s are content hashes, with no release order, so which is newest is unknown (sessions that name a version replay that version)",
			items, nouns.Form(n, "this server", "these servers")))
	}
	if items, n := seriesItems(base, base.MixedSchemes, false); n > 0 {
		out = append(out, fmt.Sprintf("the catalog's size counts %s as the latest: the versions of %s %s (sessions that name a version replay that version)",
			items, nouns.Form(n, "this server", "these servers"), mixedOrder))
	}
	return out
}

// seriesItems names the series of c for which is holds at the version
// Latest takes, with its tool count and, for counted, the number of its
// versions ("fs@2024-09-01 (12 tools, of 2 versions)"), or else the
// versions in the order taken ("fs@2024-09-01 (12 tools; versions 1.2.0,
// 2024-09-01)"); at most catalog.MaxNoteItems, and how many there are.
func seriesItems(c *catalog.Catalog, is func(string) bool, counted bool) (string, int) {
	var items []string
	n := 0
	for _, key := range c.ServerNames() {
		if !is(key) {
			continue
		}
		n++
		if len(items) == catalog.MaxNoteItems {
			continue
		}
		s := c.Latest(key)
		if counted {
			items = append(items, fmt.Sprintf("%s@%s (%s, of %d versions)", key, s.Version, nouns.Count(len(s.Tools), "tool"), len(c.Versions[key])))
			continue
		}
		items = append(items, fmt.Sprintf("%s@%s (%s; versions %s)", key, s.Version, nouns.Count(len(s.Tools), "tool"), versionList(c, key)))
	}
	if more := n - len(items); more > 0 {
		items = append(items, fmt.Sprintf("… (%d more)", more))
	}
	return strings.Join(items, ", "), n
}

// versionList lists the versions of series key in the order the catalog
// sorts them.
func versionList(c *catalog.Catalog, key string) string {
	var vs []string
	for _, s := range c.Versions[key] {
		vs = append(vs, s.Version)
	}
	return strings.Join(vs, ", ")
}

// addedOrderNotes says which servers added from the --growth-from catalog
// pool were taken at a version of unknown order (baseOrderNotes' two
// kinds). Nil when none was, or for generated servers (pool nil).
func addedOrderNotes(added []*catalog.Server, pool *catalog.Catalog) []string {
	if pool == nil {
		return nil
	}
	var hashed, mixed []string
	for _, s := range added {
		switch key := s.Key(); {
		case pool.Unordered(key):
			hashed = append(hashed, s.Name+"@"+s.Version)
		case pool.MixedSchemes(key):
			mixed = append(mixed, fmt.Sprintf("%s@%s (versions %s)", s.Name, s.Version, versionList(pool, key)))
		}
	}
	var out []string
	if len(hashed) > 0 {
		out = append(out, fmt.Sprintf("added %s at the last version by spelling: the pool's versions of %s are content hashes, with no release order, so which is newest is unknown",
			strings.Join(hashed, ", "), nouns.Form(len(hashed), "this server", "these servers")))
	}
	if len(mixed) > 0 {
		out = append(out, fmt.Sprintf("added %s at the version taken as the latest: the pool's versions of %s %s",
			strings.Join(mixed, ", "), nouns.Form(len(mixed), "this server", "these servers"), mixedOrder))
	}
	return out
}
