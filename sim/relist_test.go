package sim

import (
	"testing"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/traces"
)

// TestRelistOnVersionChange pins params.relist_prob: at 1 a version change
// of a server the session has listed by a tools/list call costs one list
// of the new version (list_ms), which delays the next request — it adds
// list_ms to first_reply_list_ms and connect_ms, to first_reply_ms when
// the change comes before the first reply and to session_ms — and changes
// nothing else; a server not yet listed (lazy discovery before its
// search), one known without a list call (discovery cached) and a change
// before the session starts cost nothing; at 0 (the default) a change
// lists nothing. The reference replayer agrees at 0, 0.5 and 1.
func TestRelistOnVersionChange(t *testing.T) {
	servers := twoServers(t)
	never, always := Trigger{Mode: "never"}, Trigger{Mode: "always"}
	engine := func(t *testing.T, relist float64) *Engine {
		t.Helper()
		strategies := []Strategy{
			{Name: "eager", Trigger: never},
			{Name: "lazy-transport", Trigger: never, Transport: "lazy"},
			{Name: "cached", Trigger: never, Discovery: "cached"},
			{Name: "lazy-discovery", Trigger: never, Discovery: "lazy"},
			{Name: "deferred", Trigger: always, Directory: Directory{Format: "by-server"}},
		}
		for i := range strategies {
			fillTestDefaults(&strategies[i])
		}
		params := testParams()
		params.ConnectMs, params.ListMs, params.RelistProb = 300, 7, relist
		e, err := NewEngine(Config{Strategies: strategies, Model: testModel(), Params: params, Catalog: catalog.New(servers...)})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	a1, b1 := traces.ServerRef{Name: "a", Version: "1"}, traces.ServerRef{Name: "b", Version: "1"}
	change := traces.Event{Type: traces.CatalogChange, Server: "b", ChangeFields: &traces.ChangeFields{Version: "2"}}
	user := func(text string) traces.Event { return traces.Event{Type: traces.UserMessage, Text: text} }
	request := func(id string) traces.Event { return traces.Event{Type: traces.ModelRequest, ID: id} }
	call := func(req string) traces.Event {
		return traces.Event{Type: traces.ToolCall, Request: req, CallID: "c-" + req, Tool: "find", Server: "b", Args: []byte(`{"q":"thing"}`), Status: "ok"}
	}
	text := func(req string) traces.Event {
		return traces.Event{Type: traces.AssistantMessage, Request: req, Text: "done"}
	}
	session := func(id string, evs ...traces.Event) *traces.Session {
		evs = append([]traces.Event{{Type: traces.SessionStart, StartFields: &traces.StartFields{Servers: []traces.ServerRef{a1, b1}}}}, evs...)
		return &traces.Session{ID: id, Events: append(evs, traces.Event{Type: traces.SessionEnd})}
	}
	const list = 7
	type delta struct{ firstReply, session float64 } // ms the re-list adds
	for _, tc := range []struct {
		session *traces.Session
		want    map[string]delta // by strategy
	}{
		// b changes after the first user message, before any request.
		{session("before-first-request", user("find the thing"), change, request("r1"), call("r1"), request("r2"), text("r2")),
			map[string]delta{"eager": {list, list}, "lazy-transport": {list, list}, "cached": {}, "lazy-discovery": {}, "deferred": {list, list}}},
		// b is listed (by a search under lazy discovery), then changes.
		{session("after-a-call", user("find the thing"), request("r1"), call("r1"), change, request("r2"), call("r2"), request("r3"), text("r3")),
			map[string]delta{"eager": {list, list}, "lazy-transport": {list, list}, "cached": {}, "lazy-discovery": {list, list}, "deferred": {list, list}}},
		// b changes after the first reply: the first reply is unchanged.
		{session("after-first-reply", user("hello"), request("r1"), text("r1"), change, user("find the thing"), request("r2"), call("r2"), request("r3"), text("r3")),
			map[string]delta{"eager": {0, list}, "lazy-transport": {0, list}, "cached": {}, "lazy-discovery": {}, "deferred": {0, list}}},
		// b changes before the session starts: the start lists version 2.
		{session("before-start", change, user("find the thing"), request("r1"), call("r1"), request("r2"), text("r2")),
			map[string]delta{}},
	} {
		t.Run(tc.session.ID, func(t *testing.T) {
			off, on := engine(t, 0), engine(t, 1)
			for _, e := range []*Engine{off, on, engine(t, 0.5)} {
				if err := e.NewReferenceCheck().Session(tc.session, 0); err != nil {
					t.Fatalf("relist_prob %v: %v", e.params.RelistProb, err)
				}
			}
			base, got := off.ReplayNeed(ExtractNeed(tc.session)), on.ReplayNeed(ExtractNeed(tc.session))
			for si, s := range on.Strategies() {
				d := tc.want[s.Name]
				add := map[int]float64{MFirstReplyMs: d.firstReply, MFirstReplyListMs: d.firstReply, MSessionMs: d.session, MConnectMs: d.session}
				for m := range NumMetrics {
					if w := base[si].Values[m] + add[m]; !approx(got[si].Values[m], w) {
						t.Errorf("%s: %s = %v at relist_prob 1, want %v (%v at 0 + %v)", s.Name, Metrics[m].Name, got[si].Values[m], w, base[si].Values[m], add[m])
					}
				}
			}
		})
	}
}
