package sim

import (
	"testing"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/traces"
)

// TestServerAddedMidSession pins that a server a catalog_change adds to a
// started session comes up as the servers present at the start do: under
// discovery eager it is connected and listed at the change (its connect and
// list delay the next request) and, under the never trigger, its tools are
// sent direct, so calling one needs no search; under cached it is known
// without a list call; under discovery lazy it stays unlisted until a
// search lists it; a deferring strategy defers it like the others. The
// reference replayer agrees. (Before, the added server stayed unlisted
// under every discovery, so eager paid a search for it.)
func TestServerAddedMidSession(t *testing.T) {
	servers := twoServers(t)
	never, always := Trigger{Mode: "never"}, Trigger{Mode: "always"}
	strategies := []Strategy{
		{Name: "eager", Trigger: never},
		{Name: "cached", Trigger: never, Discovery: "cached"},
		{Name: "lazy-cached", Trigger: never, Transport: "lazy", Discovery: "cached"},
		{Name: "lazy-discovery", Trigger: never, Discovery: "lazy"},
		{Name: "deferred", Trigger: always, Directory: Directory{Format: "by-server"}},
	}
	for i := range strategies {
		fillTestDefaults(&strategies[i])
	}
	params := testParams()
	params.ConnectMs, params.ListMs = 300, 10
	e, err := NewEngine(Config{Strategies: strategies, Model: testModel(), Params: params, Catalog: catalog.New(servers...)})
	if err != nil {
		t.Fatal(err)
	}

	// session returns a session that starts with servers, gets the
	// catalog change after its first user message, then calls b's tool.
	session := func(id string, change traces.Event, start ...traces.ServerRef) *traces.Session {
		change.Type = traces.CatalogChange
		return &traces.Session{ID: id, Events: []traces.Event{
			{Type: traces.SessionStart, StartFields: &traces.StartFields{Servers: start}},
			{Type: traces.UserMessage, Text: "find the thing"},
			change,
			{Type: traces.ModelRequest, ID: "r1"},
			{Type: traces.ToolCall, Request: "r1", CallID: "c1", Tool: "find", Server: "b", Args: []byte(`{"q":"thing"}`), Status: "ok"},
			{Type: traces.ModelRequest, ID: "r2"},
			{Type: traces.AssistantMessage, Request: "r2", Text: "found it"},
			{Type: traces.SessionEnd},
		}}
	}
	a1, b1 := traces.ServerRef{Name: "a", Version: "1"}, traces.ServerRef{Name: "b", Version: "1"}
	added := session("added", traces.Event{Server: "b", ChangeFields: &traces.ChangeFields{Version: "1"}}, a1)
	upgraded := session("upgraded", traces.Event{Server: "b", ChangeFields: &traces.ChangeFields{Version: "2"}}, a1, b1)

	type metrics struct{ searches, connect, firstList float64 }
	for _, tc := range []struct {
		session *traces.Session
		want    map[string]metrics // by strategy
	}{
		// b is added after the start.
		{added, map[string]metrics{
			"eager":          {0, 300 + 10 + 300 + 10, 0}, // a at the start, b at the change
			"cached":         {0, 300 + 300, 0},           // connected, no list call
			"lazy-cached":    {0, 300, 0},                 // b connects at its call; a is never used
			"lazy-discovery": {1, 300 + 300 + 10, 10},     // b connects at the change, is listed by the search
			"deferred":       {1, 300 + 10 + 300 + 10, 0}, // b's tool deferred like a's
		}},
		// b is there from the start and upgraded: a version change lists
		// nothing (lazy discovery lists b@2 at its search, once).
		{upgraded, map[string]metrics{
			"eager":          {0, 300 + 10, 0},
			"cached":         {0, 300, 0},
			"lazy-cached":    {0, 300, 0},
			"lazy-discovery": {1, 300 + 10, 10},
			"deferred":       {1, 300 + 10, 0},
		}},
	} {
		t.Run(tc.session.ID, func(t *testing.T) {
			if err := e.NewReferenceCheck().Session(tc.session, 0); err != nil {
				t.Fatal(err)
			}
			out := e.ReplayNeed(ExtractNeed(tc.session))
			for si, s := range e.Strategies() {
				w := tc.want[s.Name]
				check(t, s.Name, out[si], want{MSearches: w.searches, MExtraRoundTrips: w.searches, MConnectMs: w.connect,
					MFirstReplyListMs: w.firstList, MCallsWithoutSchema: 0, MMalformedCalls: 0})
			}
		})
	}
}

// twoServers is the catalog of the added-server and re-list tests: server
// a at version 1, and server b at versions 1 and 2 (find's description
// reworded).
func twoServers(t *testing.T) []*catalog.Server {
	t.Helper()
	var servers []*catalog.Server
	for _, s := range []struct{ name, version, tools string }{
		{"a", "1", `{"name":"get_x","description":"Get x.","inputSchema":{"type":"object"}}`},
		{"b", "1", `{"name":"find","description":"Find things.","inputSchema":{"type":"object","properties":{"q":{"type":"string"}}}}`},
		{"b", "2", `{"name":"find","description":"Find things by query.","inputSchema":{"type":"object","properties":{"q":{"type":"string"}}}}`},
	} {
		srv, err := catalog.Parse([]byte(`{"tools":[`+s.tools+`]}`), s.name, s.version, "")
		if err != nil {
			t.Fatal(err)
		}
		servers = append(servers, srv)
	}
	return servers
}
