package recommend

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/nouns"
)

// VersionGap is where the catalog versions the rules price are none of
// the ones the training sessions used: tools the sessions call that the
// priced versions no longer define (removed or renamed since: no
// decision), and tools of the priced versions that no version the replay
// offers the sessions defines (added since: decided on no session that
// could call them).
type VersionGap struct {
	// Servers: each server priced at a version no training session is
	// replayed on, with the versions they are ("srv@2.0.0 (the sessions:
	// 1.0.0)").
	Servers []string   `json:"servers"`
	Gone    []GoneTool `json:"gone"`
	Added   []string   `json:"added"`
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

// versionGap compares the tools priced (schemas: each server's version in
// chosen, else its latest) with the versions the replay offers the
// training sessions of u (sim.Engine.NeedVersions, as the shares count
// them: the versions a session_start names, a server's latest for a
// version no catalog holds, every server at its latest for a session
// naming none, and the versions catalog changes move to) and the tools
// they called, for the servers none of whose training sessions is offered
// the version priced; nil when there are none, or when their tools are
// the same (drift alone, which the table lists). A call of a tool no
// version in cat defines is left out (the resolution note says so).
// Sessions offered the version priced are what the rules learn its tools
// from: a log spanning an upgrade is no gap. It read the versions the
// session_starts name, so sessions naming no server, or moved to the
// version priced by a catalog change, were not counted as using it.
func versionGap(cat *catalog.Catalog, chosen map[string]*catalog.Server, s schemas, u *Usage) *VersionGap {
	// The versions the replay offers the sessions, per series.
	offered := u.offeredServers()
	g := &VersionGap{}
	gap := map[string]bool{}
	for _, name := range cat.ServerNames() {
		vs := cat.Versions[name]
		priced := vs[len(vs)-1]
		if c := chosen[name]; c != nil {
			priced = c
		}
		used := offered[name]
		if len(used) == 0 || slices.Contains(used, priced) {
			continue
		}
		gap[name] = true
		var versions []string
		for _, v := range used {
			versions = append(versions, v.Version)
		}
		slices.SortFunc(versions, catalog.CompareVersions)
		g.Servers = append(g.Servers, fmt.Sprintf("%s@%s (the sessions: %s)", name, priced.Version, strings.Join(versions, ", ")))
	}
	if len(gap) == 0 {
		return nil
	}
	// Shares over the sessions that could call each tool, as the
	// decisions' (Usage.Served): they were over every training session.
	keys := u.Keys()
	served := u.Served(keys)
	for _, k := range keys {
		t := u.Tools[k]
		if t.Uses == 0 || !gap[k.Server] || s[k] != nil || !definedIn(cat.Versions[k.Server], k.Tool) {
			continue
		}
		n := float64(max(served[k], 1))
		g.Gone = append(g.Gone, GoneTool{Tool: toolLabel(k), OpenShare: float64(t.Opens) / n,
			UseShare: float64(t.Uses) / n, BeforeReplyShare: float64(t.BeforeReply) / n})
	}
	// The most needed first: what the missing decisions cost.
	slices.SortStableFunc(g.Gone, func(a, b GoneTool) int {
		return cmp.Or(cmp.Compare(b.BeforeReplyShare, a.BeforeReplyShare), cmp.Compare(b.OpenShare, a.OpenShare), cmp.Compare(b.UseShare, a.UseShare))
	})
	added := make([]toolKey, 0, len(s))
	for k := range s {
		added = append(added, k)
	}
	sortKeys(added)
	for _, k := range added {
		if gap[k.Server] && !definedIn(offered[k.Server], k.Tool) {
			g.Added = append(g.Added, toolLabel(k))
		}
	}
	if len(g.Gone) == 0 && len(g.Added) == 0 {
		return nil // the same tools: drift alone, which the table lists
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
		parts = append(parts, fmt.Sprintf("%s of the version priced %s in no version the sessions used (added, or renamed, since), so the sessions that used the server could not call %s and %s shares leave them out (%s why says over how many sessions %s decided): %s%s",
			nouns.Count(len(g.Added), "tool"), nouns.Form(len(g.Added), "is", "are"), nouns.Form(len(g.Added), "it", "them"), nouns.Form(len(g.Added), "its", "their"),
			nouns.Form(len(g.Added), "its", "each"), nouns.Form(len(g.Added), "it is", "each is"), strings.Join(ts, ", "), more))
	}
	return "no training session used the catalog version priced of " + strings.Join(g.Servers, ", ") + ": " + strings.Join(parts, "; ") +
		"; record sessions with the versions priced, or give --catalogs the versions the sessions used, before relying on the lists"
}
