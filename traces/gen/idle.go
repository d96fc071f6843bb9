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
// drift.kinds when drift.changed_fraction is 0, long_pause_sec when
// long_pause_prob is 0, the keys of tool calls (noCallKeys) when neither
// first_turn_tool_prob nor tool_turn_prob is above 0, over.mid_session on
// the latest schedule, schema_bytes_per_token when recorded is false. It
// returns how many keys it found and a description of each group with the
// setting that idles it.
func (p *Params) idleKeys(over bool) (n int, groups []string) {
	d := Defaults()
	if !over && p.Drift.Servers > 0 && p.Drift.ChangedFraction == 0 && p.Drift.Kinds != d.Drift.Kinds {
		n++
		groups = append(groups, "drift.kinds: not used when drift.changed_fraction is 0 (no tool changes, so no change kind is drawn)")
	}
	if p.FirstTurnToolProb == 0 && p.ToolTurnProb == 0 {
		var keys []string
		for _, k := range noCallKeys {
			if !reflect.DeepEqual(k.get(p), k.get(&d)) {
				keys = append(keys, k.key)
			}
		}
		if len(keys) > 0 {
			n += len(keys)
			groups = append(groups, fmt.Sprintf("%s: not used when first_turn_tool_prob and tool_turn_prob are 0 (no turn calls a tool)", nouns.And(keys)))
		}
	}
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

// noCallKeys are the parameters of tool calls: with no turn calling a tool
// they change nothing (TestNoCallKeysAreIdle generates with each changed
// and gets the same files).
var noCallKeys = []paramKey{
	{"steps_per_tool_turn", func(p *Params) any { return p.StepsPerToolTurn }},
	{"calls_per_step", func(p *Params) any { return p.CallsPerStep }},
	{"locality", func(p *Params) any { return p.Locality }},
	{"optional_arg_prob", func(p *Params) any { return p.OptionalArgProb }},
	{"keyword_prob", func(p *Params) any { return p.KeywordProb }},
	{"error_rate", func(p *Params) any { return p.ErrorRate }},
	{"result_bytes", func(p *Params) any { return p.ResultBytes }},
	{"result_bytes_per_token", func(p *Params) any { return p.ResultBytesPerToken }},
	{"tool_ms", func(p *Params) any { return p.ToolMs }},
}

// idleError is the error for what idleKeys found.
func idleError(n int, groups []string) error {
	return fmt.Errorf("invalid generator parameters: %s; remove %s, leave %s at %s, or set the key that would use %s",
		strings.Join(groups, "; "), nouns.Form(n, "it", "them"), nouns.Form(n, "it", "them"),
		nouns.Form(n, "its default", "their defaults"), nouns.Form(n, "it", "them"))
}
