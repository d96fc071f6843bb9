package recommend

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/nouns"
)

// VersionGap is where the catalog versions the rules price differ from
// the ones the training sessions used: tools the sessions call that the
// priced versions no longer define (removed or renamed since: no
// decision), and tools of the priced versions that no version the
// sessions named defines (added since: decided on sessions that could not
// call them).
type VersionGap struct {
	Gone  []GoneTool `json:"gone"`
	Added []string   `json:"added"`
}

// GoneTool is a tool the training sessions call that the version priced
// does not define, with its shares of training sessions (Gone lists the
// most needed before the first reply first, then by opens and calls).
type GoneTool struct {
	Tool             string  `json:"tool"`
	OpenShare        float64 `json:"open_share"`
	UseShare         float64 `json:"use_share"`
	BeforeReplyShare float64 `json:"before_first_reply_share"`
}

// versionGap compares the tools priced (schemas) with the versions the
// training sessions of u named and called; nil when they agree. A call of
// a tool no version in cat defines is not counted (the resolution note
// says so); a server whose sessions name no version adds nothing to Added.
func versionGap(cat *catalog.Catalog, s schemas, u *Usage) *VersionGap {
	g := &VersionGap{}
	n := float64(max(u.Sessions, 1))
	for _, k := range u.Keys() {
		t := u.Tools[k]
		if t.Uses == 0 || s[k] != nil || !definedIn(cat.Versions[k.Server], k.Tool) {
			continue
		}
		g.Gone = append(g.Gone, GoneTool{Tool: toolLabel(k), OpenShare: float64(t.Opens) / n,
			UseShare: float64(t.Uses) / n, BeforeReplyShare: float64(t.BeforeReply) / n})
	}
	// The most needed first: what the missing decisions cost.
	slices.SortStableFunc(g.Gone, func(a, b GoneTool) int {
		return cmp.Or(cmp.Compare(b.BeforeReplyShare, a.BeforeReplyShare), cmp.Compare(b.OpenShare, a.OpenShare), cmp.Compare(b.UseShare, a.UseShare))
	})
	// The versions the sessions named, per series.
	named := map[string][]*catalog.Server{}
	for server, byVersion := range u.Versions {
		for version := range byVersion {
			if v := cat.At(server, version); v != nil {
				named[v.Key()] = append(named[v.Key()], v)
			}
		}
	}
	keys := make([]toolKey, 0, len(s))
	for k := range s {
		keys = append(keys, k)
	}
	sortKeys(keys)
	for _, k := range keys {
		if vs := named[k.Server]; len(vs) > 0 && !definedIn(vs, k.Tool) {
			g.Added = append(g.Added, toolLabel(k))
		}
	}
	if len(g.Gone) == 0 && len(g.Added) == 0 {
		return nil
	}
	return g
}

// definedIn reports whether a version of vs defines tool.
func definedIn(vs []*catalog.Server, tool string) bool {
	for _, v := range vs {
		if v.Tool(tool) != nil {
			return true
		}
	}
	return false
}

// warning says what the gap leaves undecided or decided on no evidence,
// and what to do.
func (g *VersionGap) warning(training int) string {
	var parts []string
	if len(g.Gone) > 0 {
		var ts []string
		for i, t := range g.Gone {
			if i == 5 {
				ts = append(ts, fmt.Sprintf("… (%d more)", len(g.Gone)-5))
				break
			}
			ts = append(ts, fmt.Sprintf("%s (opens %.1f%%, called in %.1f%%, before the first reply in %.1f%%)",
				t.Tool, 100*t.OpenShare, 100*t.UseShare, 100*t.BeforeReplyShare))
		}
		parts = append(parts, fmt.Sprintf("%s the %s %s %s not in the catalog version priced (removed or renamed since), so the proposal decides nothing for %s: %s",
			nouns.Count(len(g.Gone), "tool"), nouns.Count(training, "training session"), nouns.Form(training, "calls", "call"), nouns.Form(len(g.Gone), "is", "are"), nouns.Form(len(g.Gone), "it", "them"), strings.Join(ts, ", ")))
	}
	if len(g.Added) > 0 {
		ts := g.Added[:min(len(g.Added), 5)]
		more := ""
		if len(g.Added) > 5 {
			more = fmt.Sprintf(", … (%d more)", len(g.Added)-5)
		}
		parts = append(parts, fmt.Sprintf("%s of the version priced %s in no version the sessions used (added, or renamed, since), so %s decided on sessions that could not call %s: %s%s",
			nouns.Count(len(g.Added), "tool"), nouns.Form(len(g.Added), "is", "are"), nouns.Form(len(g.Added), "it is", "they are"), nouns.Form(len(g.Added), "it", "them"), strings.Join(ts, ", "), more))
	}
	return "the sessions used other catalog versions than the ones priced: " + strings.Join(parts, "; ") +
		"; record sessions with the versions priced, or give --catalogs the versions the sessions used, before relying on the lists"
}
