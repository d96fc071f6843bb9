package check

import (
	"fmt"
	"slices"
	"strings"

	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/report"
)

// Unreplayed is a catalog change of the current run that it never
// replayed: server versions its catalogs hold, newer than every version
// its sessions replayed (results.json run.resolution.unreplayed_versions),
// that the baseline's catalogs did not hold. The comparison's figures say
// nothing about them.
type Unreplayed struct {
	Server string `json:"server"`
	// Versions are the new versions no session replayed; Replayed the
	// versions the current run's sessions did replay.
	Versions []string `json:"versions"`
	Replayed []string `json:"replayed"`
	// Change is the server's catalog change, baseline → current
	// ("0.17.0 → 0.17.0,1.11.0").
	Change string `json:"change"`
}

// unreplayedChanges lists the current run's unreplayed catalog versions
// that the baseline did not hold. A launch variant's series
// ("name+variant") is looked up under its server's name, as results.json's
// inputs record it.
func unreplayedChanges(base, cur *report.Results) []Unreplayed {
	if cur.Run.Resolution == nil {
		return nil
	}
	bv, cv := catalogVersions(base), catalogVersions(cur)
	var out []Unreplayed
	for _, u := range cur.Run.Resolution.UnreplayedVersions {
		server, _, _ := strings.Cut(u.Server, "+")
		var fresh []string
		for _, v := range u.Versions {
			if _, ok := bv[server][v]; !ok {
				fresh = append(fresh, v)
			}
		}
		if len(fresh) == 0 {
			continue
		}
		before := "(absent)"
		if len(bv[server]) > 0 {
			before = strings.Join(keys(bv[server]), ",")
		}
		out = append(out, Unreplayed{Server: u.Server, Versions: fresh, Replayed: slices.Clone(u.Replayed),
			Change: before + " → " + strings.Join(keys(cv[server]), ",")})
	}
	return out
}

// unreplayedWarning says one unreplayed catalog change and how to test it.
func unreplayedWarning(u Unreplayed, allowed bool) string {
	it := "it"
	if len(u.Versions) > 1 {
		it = "them"
	}
	s := fmt.Sprintf("the catalog change %s %s was not replayed: no session used %s (the current run's sessions replayed %s), so this comparison says nothing about %s; to test %s, add servers.%s.upgrades to the current run's scenario and check with --allow servers, or record traces that name %s (docs/check.md#catalog-upgrades)",
		u.Server, u.Change, nouns.And(u.Versions), nouns.And(u.Replayed), it, it, u.Server, it)
	if !allowed {
		s += "; --allow unreplayed accepts " + it
	}
	return s
}

// unreplayedVerdict is the verdict's clause when the gate fails for
// unreplayed catalog changes ("" when none, or when they are allowed).
func (r *Report) unreplayedVerdict() string {
	if len(r.Unreplayed) == 0 || r.AllowUnreplayed {
		return ""
	}
	n := 0
	for _, u := range r.Unreplayed {
		n += len(u.Versions)
	}
	return fmt.Sprintf("UNTESTED: %s in the current catalogs no session replayed", nouns.CountAs(n, "new server version", "new server versions"))
}

// Why the gate fails (FailReasons; JSON fail_reasons): a check regressed,
// a catalog change was not replayed (and not allowed), and, for a refusal
// (exit status 2), the files cannot be compared or one cannot be read.
const (
	FailRegression   = "regression"
	FailUnreplayed   = "unreplayed"
	FailIncomparable = "incomparable"
	FailUnreadable   = "unreadable"
)

// FailReasons says why the gate fails, FailRegression then
// FailUnreplayed; none when it passes.
func (r *Report) FailReasons() []string {
	out := []string{}
	if r.Summary.Regressions > 0 {
		out = append(out, FailRegression)
	}
	if r.unreplayedVerdict() != "" {
		out = append(out, FailUnreplayed)
	}
	return out
}

// Failed says the gate fails: a check regressed, or a catalog change was
// not replayed and not allowed (exit status 1).
func (r *Report) Failed() bool { return len(r.FailReasons()) > 0 }
