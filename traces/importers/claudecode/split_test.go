package claudecode

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/importers/ingest"
	"github.com/defersim/defersim/traces/importers/internal/importtest"
)

// ccLine builds one Claude Code line of session "p" at second sec: members
// are the line's other members and its closing brace.
func ccLine(sec int, members string) string {
	return fmt.Sprintf(`{"sessionId":"p","timestamp":"2025-10-01T09:00:%02dZ",%s`, sec, members)
}

// ccAssistant is an assistant line of request req and model model with
// cache reads cacheRead, holding content blocks; side is the JSON of
// isSidechain (and any members after it).
func ccAssistant(sec int, side, req, model string, cacheRead int, content string) string {
	return ccLine(sec, fmt.Sprintf(`"type":"assistant","isSidechain":%s,"requestId":%q,"message":{"id":"m-%s","role":"assistant","model":%q,"content":[%s],"usage":{"input_tokens":3,"cache_read_input_tokens":%d,"output_tokens":9}}}`,
		side, req, req, model, content, cacheRead))
}

// TestSubAgentAndCompactionAreSessionsOfTheirOwn pins that sub-agent lines
// (isSidechain) and the lines after a compaction are imported as sessions of
// their own, not inline: inline, the sub-agent's requests were replayed with
// the parent's history and model, and a compacted session's later requests
// with the history the compaction dropped (2 sessions instead of 4, the
// haiku requests under the parent's model). Sub-agents of one sessionId are
// told apart by agentId, else by their chain of parentUuid; a compaction
// segment starts with the deferred tools its predecessor left.
func TestSubAgentAndCompactionAreSessionsOfTheirOwn(t *testing.T) {
	lines := []string{
		ccLine(0, `"type":"user","isSidechain":false,"uuid":"u1","message":{"role":"user","content":"why does CI fail?"}}`),
		ccLine(0, `"type":"attachment","uuid":"d1","attachment":{"type":"deferred_tools_delta","addedNames":["mcp__ci__logs","mcp__ci__runs"],"removedNames":[]}}`),
		ccAssistant(2, "false", "r1", "sonnet", 1000, `{"type":"tool_use","id":"t1","name":"Task","input":{"prompt":"read logs"}}`),
		// a sub-agent in the parent's file: its chain starts at parentUuid null
		ccLine(3, `"type":"user","isSidechain":true,"uuid":"s1","parentUuid":null,"message":{"role":"user","content":"read logs"}}`),
		ccAssistant(4, "true", "r2", "haiku", 0, `{"type":"tool_use","id":"t2","name":"mcp__ci__logs","input":{}}`),
		ccLine(5, `"type":"user","isSidechain":true,"uuid":"s2","parentUuid":"s1","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t2","content":"vet failed"}]}}`),
		ccAssistant(6, "true", "r3", "haiku", 500, `{"type":"text","text":"vet fails"}`),
		// a second sub-agent, started while the first was done
		ccLine(6, `"type":"user","isSidechain":true,"uuid":"x1","parentUuid":null,"message":{"role":"user","content":"other task"}}`),
		ccAssistant(7, "true", "r4", "haiku", 0, `{"type":"text","text":"done"}`),
		ccLine(8, `"type":"user","isSidechain":false,"uuid":"u2","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"vet fails"}]}}`),
		ccAssistant(9, "false", "r5", "sonnet", 1200, `{"type":"text","text":"go vet fails"}`),
		ccLine(10, `"type":"attachment","uuid":"d2","attachment":{"type":"deferred_tools_delta","addedNames":[],"removedNames":["mcp__ci__logs"]}}`),
		ccLine(20, `"type":"system","subtype":"compact_boundary","isSidechain":false,"content":"Conversation compacted","compactMetadata":{"trigger":"auto","preTokens":1300}}`),
		ccLine(21, `"type":"user","isSidechain":false,"isCompactSummary":true,"message":{"role":"user","content":"Summary: go vet fails."}}`),
		ccAssistant(23, "false", "r6", "sonnet", 200, `{"type":"text","text":"fixed"}`),
		// a sub-agent written to a file of its own names its agentId
		ccLine(30, `"type":"user","isSidechain":true,"agentId":"a7","uuid":"y1","message":{"role":"user","content":"late task"}}`),
		ccAssistant(31, `true,"agentId":"a7"`, "r7", "haiku", 0, `{"type":"text","text":"ok"}`),
		// a summary without a boundary before it is a compaction too
		ccLine(40, `"type":"user","isSidechain":false,"isCompactSummary":true,"message":{"role":"user","content":"Summary again."}}`),
		ccAssistant(41, "false", "r8", "sonnet", 100, `{"type":"text","text":"still fixed"}`),
	}
	var sink importtest.Sink
	rep := ingest.NewReport(Format)
	if err := New().Import("p.jsonl", strings.NewReader(strings.Join(lines, "\n")), &ingest.Options{}, &sink, rep); err != nil {
		t.Fatal(err)
	}
	importtest.Validate(t, importtest.Encode(t, sink.Sessions))
	type want struct {
		id, model, parent, continues string
		requests                     []string
		users                        []string
		deferred                     []string // added by a deferral_change before the first request
	}
	wants := []want{
		{id: "p", model: "sonnet", requests: []string{"r1", "r5"}, users: []string{"why does CI fail?"}, deferred: []string{"mcp__ci__logs", "mcp__ci__runs"}},
		{id: "p/sidechain-1", model: "haiku", parent: "p", requests: []string{"r2", "r3"}, users: []string{"read logs"}},
		{id: "p/sidechain-2", model: "haiku", parent: "p", requests: []string{"r4"}, users: []string{"other task"}},
		{id: "p/compact-1", model: "sonnet", continues: "p", requests: []string{"r6"}, users: []string{"Summary: go vet fails."}, deferred: []string{"mcp__ci__runs"}},
		{id: "p/agent-a7", model: "haiku", parent: "p", requests: []string{"r7"}, users: []string{"late task"}},
		{id: "p/compact-2", model: "sonnet", continues: "p/compact-1", requests: []string{"r8"}, users: []string{"Summary again."}, deferred: []string{"mcp__ci__runs"}},
	}
	if len(sink.Sessions) != len(wants) {
		var ids []string
		for _, s := range sink.Sessions {
			ids = append(ids, s.ID)
		}
		t.Fatalf("sessions = %q, want %d", ids, len(wants))
	}
	for i, w := range wants {
		s := sink.Sessions[i]
		st := s.Start()
		var reqs, users []string
		var deferred []string
		for _, ev := range s.Events {
			switch ev.Type {
			case traces.ModelRequest:
				reqs = append(reqs, ev.ID)
			case traces.UserMessage:
				users = append(users, ev.Text)
			case traces.DeferralChange:
				if len(reqs) == 0 {
					deferred = slices.DeleteFunc(append(deferred, ev.Added()...), func(n string) bool { return slices.Contains(ev.Removed(), n) })
				}
			}
		}
		if s.ID != w.id || st.Model() != w.model || st.Meta()["parent_session"] != w.parent || st.Meta()["continues_session"] != w.continues ||
			!slices.Equal(reqs, w.requests) || !slices.Equal(users, w.users) || !slices.Equal(deferred, w.deferred) {
			t.Errorf("session %d = %s model %s parent %q continues %q requests %q users %q deferred %q, want %+v",
				i, s.ID, st.Model(), st.Meta()["parent_session"], st.Meta()["continues_session"], reqs, users, deferred, w)
		}
	}
	if rep.Converted[sidechainNote] != 3 || rep.Converted[compactionNote] != 2 {
		t.Errorf("converted = %v, want 3 sub-agents and 2 compactions", rep.Converted)
	}
	for k := range rep.Unmapped {
		if strings.Contains(k, "isSidechain") || strings.Contains(k, "isCompactSummary") || strings.Contains(k, "agentId") {
			t.Errorf("not mapped %q: the field now places the line", k)
		}
	}
}
