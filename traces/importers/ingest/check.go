package ingest

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/defersim/defersim/traces"
)

// CheckSession verifies the invariants every imported session must hold: it
// opens with session_start and closes with session_end, every event names
// the session and a known type, model requests have unique ids, events name
// only earlier requests, tool calls and searches name their tool or query
// shape, arguments are valid JSON, and known times never go backwards.
func CheckSession(s *traces.Session) error {
	n := len(s.Events)
	if s.ID == "" {
		return fmt.Errorf("session without id")
	}
	if n < 2 || s.Events[0].Type != traces.SessionStart || s.Events[n-1].Type != traces.SessionEnd {
		return fmt.Errorf("session %q: must open with session_start and close with session_end", s.ID)
	}
	reqs := map[string]bool{}
	var last traces.Event
	for i := range s.Events {
		ev := &s.Events[i]
		at := func(format string, args ...any) error {
			return fmt.Errorf("session %q event %d (%s): %s", s.ID, i, ev.Type, fmt.Sprintf(format, args...))
		}
		if ev.Session != s.ID {
			return at("session %q differs", ev.Session)
		}
		if !slices.Contains(traces.KnownEventTypes, ev.Type) {
			return at("unknown event type")
		}
		if (ev.Type == traces.SessionStart) != (i == 0) || (ev.Type == traces.SessionEnd) != (i == n-1) {
			return at("session_start/session_end out of place")
		}
		if i == 0 && ev.V != traces.Version {
			return at("session_start without format version")
		}
		switch ev.Type {
		case traces.ModelRequest:
			if ev.ID == "" || reqs[ev.ID] {
				return at("model request id %q empty or repeated", ev.ID)
			}
			reqs[ev.ID] = true
		case traces.ToolCall:
			if ev.Tool == "" {
				return at("tool call without tool name")
			}
		case traces.DeferralChange:
			if len(ev.Added())+len(ev.Removed()) == 0 {
				return at("deferral change without names")
			}
		}
		if ev.Request != "" && !reqs[ev.Request] {
			return at("request %q not recorded before", ev.Request)
		}
		if len(ev.Args) > 0 && !json.Valid(ev.Args) {
			return at("arguments are not valid JSON")
		}
		if ev.Usage != nil && (ev.Usage.Input < 0 || ev.Usage.CacheRead < 0 || ev.Usage.CacheWrite < 0 || ev.Usage.Output < 0) {
			return at("negative token usage")
		}
		if ev.DurationMs < 0 || ev.TTFTMs < 0 || ev.ResultBytes < 0 {
			return at("negative duration or size")
		}
		if !ev.T.IsZero() {
			if !last.T.IsZero() && ev.T.Before(last.T) {
				return at("time %s before the previous event's %s", ev.T.Format("15:04:05.000"), last.T.Format("15:04:05.000"))
			}
			last = *ev
		}
	}
	return nil
}
