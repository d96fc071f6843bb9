package check

import (
	"fmt"
	"strings"

	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/sim"
)

// exceptServers is the fingerprint of r's scenario without its servers
// block: run.scenario_fingerprint_except_servers, absent when the
// scenario has none (then it is the scenario fingerprint). A file of an
// earlier build, which records neither, gives its whole fingerprint: two
// files whose scenarios differ in their servers block then differ here
// too, and are not taken for a servers change alone.
func exceptServers(r *report.Results) string {
	if r.Run.FingerprintExceptServers != "" {
		return r.Run.FingerprintExceptServers
	}
	return r.Run.ScenarioFingerprint
}

// serversOnly reports whether the scenarios of base and cur differ in
// their servers blocks alone: every other part of the fingerprint
// (seed, model, params, strategies, baseline, permissions) is the same.
func serversOnly(base, cur *report.Results) bool {
	return base.Run.ScenarioFingerprint != cur.Run.ScenarioFingerprint && exceptServers(base) == exceptServers(cur)
}

// scenarioDiffsBesideServers is scenarioDiffs, without the catalogs
// assumption when the servers blocks differ (a servers change brings the
// catalogs of its versions), and whether they differ.
func scenarioDiffsBesideServers(base, cur *report.Results) ([]scenarioDiff, bool) {
	diffs := scenarioDiffs(base, cur)
	if !serversOnly(base, cur) && !serversDiffer(base, cur) {
		return diffs, false
	}
	var out []scenarioDiff
	for _, d := range diffs {
		if d.kind == diffAssumption && d.key == catalogsAssumption {
			continue
		}
		out = append(out, d)
	}
	return out, true
}

// serversDiffer reports whether the recorded servers blocks differ.
func serversDiffer(base, cur *report.Results) bool {
	return len(serverChanges(base, cur)) > 0
}

// serverChanges says, one entry per server whose servers block entry
// differs, how it differs: "chrome-devtools-mcp upgrades 0.17.0 → 1.11.0
// after session 0" when only the current scenario has an entry (the
// versions before it those of the baseline's catalogs), "NAME: BASE →
// CURRENT" otherwise.
func serverChanges(base, cur *report.Results) []string {
	bs, cs := serverMap(base), serverMap(cur)
	names := unionKeys(bs, cs)
	bv := catalogVersions(base)
	var out []string
	for _, n := range names {
		b, inB := bs[n]
		c, inC := cs[n]
		if inB && inC && serverText(b, "") == serverText(c, "") {
			continue
		}
		if !inB && !c.Local {
			from := ""
			if v := keys(bv[n]); len(v) > 0 {
				from = strings.Join(v, ",")
			}
			out = append(out, n+" "+serverText(c, from)+" (not in the baseline's scenario)")
			continue
		}
		bt, ct := "(no entry)", "(no entry)"
		if inB {
			bt = serverText(b, "")
		}
		if inC {
			ct = serverText(c, "")
		}
		out = append(out, fmt.Sprintf("servers.%s: %s → %s", n, bt, ct))
	}
	return out
}

// serverMap is r's recorded servers block by server name.
func serverMap(r *report.Results) map[string]sim.ScenarioServer {
	out := map[string]sim.ScenarioServer{}
	for _, s := range r.Run.Servers {
		out[s.Server] = s
	}
	return out
}

// serverText says one servers block entry in words: "local", "upgrades
// to 1.11.0 after session 0", with from ("0.17.0") before the first
// version when given ("upgrades 0.17.0 → 1.11.0 after session 0").
func serverText(s sim.ScenarioServer, from string) string {
	var parts []string
	if s.Local {
		parts = append(parts, "local")
	}
	if len(s.Upgrades) > 0 {
		var ups []string
		for i, u := range s.Upgrades {
			when := fmt.Sprintf("after session %d", u.AfterSession)
			if u.At != "" {
				when = "at " + u.At
			}
			to := u.To
			if i == 0 && from != "" {
				to = from + " → " + u.To
			}
			ups = append(ups, to+" "+when)
		}
		word := "upgrades to "
		if from != "" {
			word = "upgrades "
		}
		parts = append(parts, word+strings.Join(ups, ", then to "))
	}
	if len(parts) == 0 {
		return "(an empty entry)"
	}
	return strings.Join(parts, ", ")
}
