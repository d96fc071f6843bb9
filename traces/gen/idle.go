package gen

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/defersim/defersim/internal/nouns"
)

// idleKeys names the parameters of p that differ from their defaults but
// change nothing under the others: the drift keys when drift.servers is 0
// (a generated catalog only; over a catalog every drift key is refused),
// long_pause_sec when long_pause_prob is 0, over.mid_session on the latest
// schedule, schema_bytes_per_token when recorded is false. It returns how many keys
// it found and a description of each group with the setting that idles it.
func (p *Params) idleKeys(over bool) (n int, groups []string) {
	d := Defaults()
	if !over && p.Drift.Servers == 0 {
		var keys []string
		for _, k := range catalogKeys {
			if strings.HasPrefix(k.key, "drift.") && k.key != "drift.servers" && !reflect.DeepEqual(k.get(p), k.get(&d)) {
				keys = append(keys, k.key)
			}
		}
		if len(keys) > 0 {
			n += len(keys)
			groups = append(groups, fmt.Sprintf("%s: not used when drift.servers is 0 (no server has a second version)", nouns.And(keys)))
		}
	}
	if p.LongPauseProb == 0 && p.LongPauseSec != d.LongPauseSec {
		n++
		groups = append(groups, "long_pause_sec: not used when long_pause_prob is 0 (no pause is long)")
	}
	if over && p.Over != nil && p.Over.Schedule == ScheduleLatest && p.Over.MidSession != DefaultOver().MidSession {
		n++
		groups = append(groups, "over.mid_session: not used when over.schedule is latest (every session starts on the latest versions: there is no upgrade to resume across)")
	}
	if !p.Recorded && p.SchemaBytesPerToken != d.SchemaBytesPerToken {
		n++
		groups = append(groups, "schema_bytes_per_token: not used when recorded is false (it converts schemas to the usage tokens recorded: true writes)")
	}
	return n, groups
}

// idleError is the error for what idleKeys found.
func idleError(n int, groups []string) error {
	return fmt.Errorf("invalid generator parameters: %s; remove %s, leave %s at %s, or set the key that would use %s",
		strings.Join(groups, "; "), nouns.Form(n, "it", "them"), nouns.Form(n, "it", "them"),
		nouns.Form(n, "its default", "their defaults"), nouns.Form(n, "it", "them"))
}
