package traces

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// This file generates realistic in-memory traces for tests and benchmarks,
// so no big input is committed.

var testServers = []ServerRef{{Name: "files", Version: "1.4.0"}, {Name: "issues", Version: "2.0.1"}, {Name: "browser", Version: "0.9.3"}}

var testTools = map[string][]string{
	"files":   {"read_file", "write_file", "list_directory", "search_files", "move_file"},
	"issues":  {"create_issue", "get_issue", "list_issues", "add_comment", "close_issue", "search_issues"},
	"browser": {"browser_navigate", "browser_click", "browser_snapshot", "browser_type"},
}

const words = "the a report build failing test config update file issue branch review change deploy " +
	"check error log fix add remove rename open close list find value user request page click"

// genText returns about n bytes of words.
func genText(rng *rand.Rand, n int) string {
	ws := strings.Fields(words)
	var b strings.Builder
	for b.Len() < n {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(ws[rng.IntN(len(ws))])
	}
	return b.String()
}

// genSessions returns n sessions with every event type, seeded.
func genSessions(seed uint64, n int) []*Session {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	base := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	out := make([]*Session, 0, n)
	for i := range n {
		id := fmt.Sprintf("sess-%05d", i)
		t := base.Add(time.Duration(i) * 37 * time.Second)
		step := func(ms int) time.Time {
			t = t.Add(time.Duration(ms) * time.Millisecond)
			return t
		}
		s := &Session{ID: id}
		add := func(ev Event) {
			ev.Session = id
			s.Events = append(s.Events, ev)
		}
		add(Event{V: Version, Type: SessionStart, T: t, StartFields: &StartFields{Model: "model-large-2026", SystemPrompt: genText(rng, 300), SystemPromptTokens: 2400 + int64(rng.IntN(400)), Servers: testServers, RecordedStrategy: "budget-8000", Meta: map[string]string{"source": "gen"}}})
		req := 0
		turns := 1 + rng.IntN(3)
		for turn := range turns {
			add(Event{Type: UserMessage, T: step(500 + rng.IntN(4000)), Text: genText(rng, 80+rng.IntN(200)),
				TextTokens: int64(20 + rng.IntN(60))})
			calls := rng.IntN(5)
			for c := 0; c <= calls; c++ {
				req++
				rid := fmt.Sprintf("r%d", req)
				add(Event{Type: ModelRequest, T: step(20), ID: rid, TTFTMs: int64(300 + rng.IntN(900)),
					DurationMs: int64(900 + rng.IntN(3000)), Usage: &Usage{Input: int64(50 + rng.IntN(500)),
						CacheRead: int64(8000 + rng.IntN(4000)), CacheWrite: int64(rng.IntN(2000)), Output: int64(30 + rng.IntN(400))}})
				if c == calls {
					add(Event{Type: AssistantMessage, T: step(900), Request: rid, Text: genText(rng, 150+rng.IntN(400)),
						TextTokens: int64(40 + rng.IntN(100))})
					break
				}
				srv := testServers[rng.IntN(len(testServers))].Name
				tools := testTools[srv]
				tool := tools[rng.IntN(len(tools))]
				if rng.IntN(6) == 0 {
					add(Event{Type: ToolSearch, T: step(700), Request: rid, CallID: fmt.Sprintf("ts-%d-%d", turn, c),
						ChangeFields: &ChangeFields{Query: "select:" + tool, Returned: []string{tool}}, DurationMs: int64(rng.IntN(20))})
					req++
					rid = fmt.Sprintf("r%d", req)
					add(Event{Type: ModelRequest, T: step(15), ID: rid, TTFTMs: int64(300 + rng.IntN(500)),
						DurationMs: int64(700 + rng.IntN(1500)), Usage: &Usage{Input: 120, CacheRead: 9000, Output: 60}})
				}
				status, errText := StatusOK, ""
				if rng.IntN(12) == 0 {
					status, errText = StatusError, "upstream returned 502"
				}
				args := fmt.Sprintf(`{"path":"src/%s.go","query":%q,"limit":%d}`, genText(rng, 8), genText(rng, 30), 1+rng.IntN(50))
				result := genText(rng, 200+rng.IntN(1500))
				add(Event{Type: ToolCall, T: step(800), Request: rid, CallID: fmt.Sprintf("call-%d-%d", turn, c),
					Tool: tool, Server: srv, Args: json.RawMessage(args), Status: status, Error: errText,
					Result: result, ResultBytes: int64(len(result)), ResultTokens: int64(len(result) / 4),
					DurationMs: int64(5 + rng.IntN(900))})
			}
		}
		if rng.IntN(10) == 0 {
			add(Event{Type: CatalogChange, T: step(100), Server: "issues", ChangeFields: &ChangeFields{Version: "2.1.0"}})
		}
		if rng.IntN(10) == 0 {
			add(Event{Type: DeferralChange, T: step(1), ChangeFields: &ChangeFields{Added: []string{"browser_click"}, Removed: []string{"read_file"}}})
		}
		add(Event{Type: SessionEnd, T: step(50)})
		out = append(out, s)
	}
	return out
}

// encodeSessions writes sessions as a trace. With interleave > 1 the events
// of that many consecutive sessions are interleaved round-robin.
func encodeSessions(tb testing.TB, sessions []*Session, compress bool, interleave int) []byte {
	tb.Helper()
	var buf bytes.Buffer
	w := NewWriter(&buf, compress)
	interleave = max(interleave, 1)
	for i := 0; i < len(sessions); i += interleave {
		group := sessions[i:min(i+interleave, len(sessions))]
		for k := 0; ; k++ {
			wrote := false
			for _, s := range group {
				if k < len(s.Events) {
					if err := w.Write(&s.Events[k]); err != nil {
						tb.Fatal(err)
					}
					wrote = true
				}
			}
			if !wrote {
				break
			}
		}
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}
