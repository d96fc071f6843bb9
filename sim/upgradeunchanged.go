package sim

// UnchangedUpgrade is a scenario upgrade (servers.NAME.upgrades) to a
// catalog version that serves the same tools as the version before it, in
// what the replay reads of them (names and tool fingerprints, of the run's
// catalog_fingerprint scope): it changes nothing in the replay of a
// session that was at From. A scenario key that changes nothing must be
// visible, so RunInfo.UnchangedUpgrades records it and the report says it.
type UnchangedUpgrade struct {
	Server string `json:"server"`
	From   string `json:"from"`
	To     string `json:"to"`
}

// unchangedUpgrades returns the engine's upgrades whose version serves the
// same tools as the catalog version before it, in upgrade order; an upgrade
// to a server's first version has nothing to compare with.
func (e *Engine) unchangedUpgrades() []UnchangedUpgrade {
	var out []UnchangedUpgrade
	for _, u := range e.upgrades {
		from := e.versionBefore(u.Server, u.To)
		a, b := e.tables.byKey[u.Server+"@"+from], e.tables.byKey[u.Server+"@"+u.To]
		if from == "" || a == nil || b == nil || !sameTools(a, b) {
			continue
		}
		out = append(out, UnchangedUpgrade{Server: u.Server, From: from, To: u.To})
	}
	return out
}

// sameTools reports whether two versions of a server serve the same tool
// names with the same fingerprints.
func sameTools(a, b *serverTable) bool {
	if len(a.tools) != len(b.tools) {
		return false
	}
	fps := make(map[string]string, len(a.tools))
	for _, t := range a.tools {
		fps[t.name] = t.fp
	}
	for _, t := range b.tools {
		if fp, ok := fps[t.name]; !ok || fp != t.fp {
			return false
		}
	}
	return true
}

// UnchangedUpgrades returns the run's upgrades that change nothing in the
// replay (unchangedUpgrades, computed when the engine is built).
func (e *Engine) UnchangedUpgrades() []UnchangedUpgrade { return e.unchanged }
