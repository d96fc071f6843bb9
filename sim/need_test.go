package sim

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/traces"
)

func TestExtractNeed(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	type stepSummary struct {
		Kind  StepKind
		Calls []string
		Text  string
		Pause float64
	}
	tests := []struct {
		name    string
		events  []traces.Event
		want    []stepSummary
		removed int
		queries map[string]string
	}{
		{
			name: "recorder's own search round trip and rejected call are removed",
			events: []traces.Event{
				{Type: traces.SessionStart, T: at(0)},
				{Type: traces.UserMessage, T: at(1), Text: "find the weather"},
				{Type: traces.ModelRequest, T: at(2), ID: "r1", DurationMs: 500},
				{Type: traces.ToolCall, T: at(2.5), Request: "r1", Tool: "weather_now", Status: traces.StatusRejected},
				{Type: traces.ModelRequest, T: at(3), ID: "r2", DurationMs: 500},
				{Type: traces.ToolSearch, T: at(3.5), Request: "r2", ChangeFields: &traces.ChangeFields{Query: "weather", Returned: []string{"weather_now", "weather_week"}}},
				{Type: traces.ModelRequest, T: at(4), ID: "r3", DurationMs: 500},
				{Type: traces.ToolCall, T: at(4.5), Request: "r3", Tool: "weather_now", Status: traces.StatusOK},
				{Type: traces.ModelRequest, T: at(5), ID: "r4", DurationMs: 500},
				{Type: traces.AssistantMessage, T: at(5.5), Request: "r4", Text: "sunny"},
				{Type: traces.SessionEnd, T: at(6)},
			},
			want: []stepSummary{
				{Kind: StepUser, Text: "find the weather", Pause: 1000},
				{Kind: StepModel, Calls: []string{"weather_now"}},
				{Kind: StepModel, Text: "sunny"},
			},
			// the rejected call, r1 (empty after removal), the search, r2 (empty after removal)
			removed: 4,
			queries: map[string]string{"weather_now": "weather", "weather_week": "weather"},
		},
		{
			// Pins issue 15: a recorded search whose results were not
			// recorded (a search tool's call, a tool_search without
			// returned) keeps its query for the tools called next.
			name: "a search without recorded results gives its query to the calls after it",
			events: []traces.Event{
				{Type: traces.SessionStart},
				{Type: traces.UserMessage, Text: "plan a trip"},
				{Type: traces.ToolCall, Tool: "tool_search", Args: []byte(`{"query":"flights"}`)},
				{Type: traces.ToolCall, Tool: "search_flights"},
				{Type: traces.ToolCall, Tool: "book_flight"},
				{Type: traces.ToolSearch, ChangeFields: &traces.ChangeFields{Query: "hotels"}},
				{Type: traces.ToolCall, Tool: "search_flights"},
				{Type: traces.ToolCall, Tool: "find_hotel"},
				{Type: traces.UserMessage, Text: "and a car"},
				{Type: traces.ToolCall, Tool: "rent_car"},
				{Type: traces.ToolCall, Tool: "tool_search", Args: []byte(`{"pattern":"weather"}`)},
				{Type: traces.ToolCall, Tool: "weather_now"},
			},
			want: []stepSummary{
				{Kind: StepUser, Text: "plan a trip", Pause: -1},
				{Kind: StepModel, Calls: []string{"search_flights", "book_flight", "search_flights", "find_hotel"}},
				{Kind: StepUser, Text: "and a car", Pause: -1},
				{Kind: StepModel, Calls: []string{"rent_car", "weather_now"}},
			},
			removed: 3,
			queries: map[string]string{"search_flights": "flights", "book_flight": "flights", "find_hotel": "hotels", "weather_now": "weather"},
		},
		{
			name: "no model_request events: implicit steps; text after calls starts a new step",
			events: []traces.Event{
				{Type: traces.SessionStart},
				{Type: traces.UserMessage, Text: "hi"},
				{Type: traces.AssistantMessage, Text: "let me look"},
				{Type: traces.ToolCall, Tool: "lookup"},
				{Type: traces.AssistantMessage, Text: "found it"},
				{Type: traces.UserMessage, Text: "thanks"},
				{Type: traces.AssistantMessage, Text: "bye"},
			},
			want: []stepSummary{
				{Kind: StepUser, Text: "hi", Pause: -1},
				{Kind: StepModel, Text: "let me look", Calls: []string{"lookup"}},
				{Kind: StepModel, Text: "found it"},
				{Kind: StepUser, Text: "thanks", Pause: -1},
				{Kind: StepModel, Text: "bye"},
			},
		},
		{
			name: "calls of interleaved requests go to their own steps, in order",
			events: []traces.Event{
				{Type: traces.SessionStart},
				{Type: traces.UserMessage, Text: "go"},
				{Type: traces.ModelRequest, ID: "r1"},
				{Type: traces.ModelRequest, ID: "r2"},
				{Type: traces.ToolCall, Request: "r1", Tool: "a"},
				{Type: traces.ToolCall, Request: "r2", Tool: "b"},
				{Type: traces.ToolCall, Request: "r1", Tool: "c"},
				{Type: traces.ToolCall, Request: "r2", Tool: "tool_search"},
				{Type: traces.ToolCall, Request: "r2", Tool: "d", Status: traces.StatusRejected},
				{Type: traces.ToolCall, Request: "r1", Tool: "e"},
			},
			want: []stepSummary{
				{Kind: StepUser, Text: "go", Pause: -1},
				{Kind: StepModel, Calls: []string{"a", "c", "e"}},
				{Kind: StepModel, Calls: []string{"b"}},
			},
			removed: 2,
		},
		{
			name: "assistant text outside any request is a canned message when requests are recorded",
			events: []traces.Event{
				{Type: traces.SessionStart, T: at(0)},
				{Type: traces.AssistantMessage, T: at(0), Text: "Hello!"},
				{Type: traces.UserMessage, T: at(3), Text: "help"},
				{Type: traces.ModelRequest, T: at(4), ID: "r1", DurationMs: 1000},
				{Type: traces.AssistantMessage, T: at(5), Request: "r1", Text: "sure"},
				{Type: traces.CatalogChange, T: at(6), Server: "fs", ChangeFields: &traces.ChangeFields{Version: "2"}},
			},
			want: []stepSummary{
				{Kind: StepCanned, Text: "Hello!"},
				{Kind: StepUser, Text: "help", Pause: 3000},
				{Kind: StepModel, Text: "sure"},
				{Kind: StepCatalogChange},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n := ExtractNeed(&traces.Session{ID: "s", Events: tc.events})
			var got []stepSummary
			for _, st := range n.Steps {
				ss := stepSummary{Kind: st.Kind, Text: st.Text}
				if st.Kind == StepUser {
					ss.Pause = st.PauseMs
				}
				for _, c := range st.Calls {
					ss.Calls = append(ss.Calls, c.Tool)
				}
				got = append(got, ss)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("steps (-want +got):\n%s", d)
			}
			if n.Removed != tc.removed {
				t.Errorf("removed = %d, want %d", n.Removed, tc.removed)
			}
			if tc.queries != nil {
				if d := cmp.Diff(tc.queries, n.QueryFor); d != "" {
					t.Errorf("queries (-want +got):\n%s", d)
				}
			}
		})
	}
}

// TestExtractNeedSyntheticTiming pins that placeholder timestamps of
// importers (meta timing=synthetic) are not read as zero-length pauses.
func TestExtractNeedSyntheticTiming(t *testing.T) {
	epoch := time.Unix(0, 0).UTC()
	s := &traces.Session{ID: "s", Events: []traces.Event{
		{Type: traces.SessionStart, T: epoch, StartFields: &traces.StartFields{Meta: map[string]string{"timing": "synthetic"}}},
		{Type: traces.UserMessage, T: epoch, Text: "a"},
		{Type: traces.AssistantMessage, T: epoch, Text: "b"},
		{Type: traces.UserMessage, T: epoch, Text: "c"},
	}}
	n := ExtractNeed(s)
	for _, st := range n.Steps {
		if st.Kind == StepUser && st.PauseMs != -1 {
			t.Errorf("pause = %v, want -1 (unknown) for synthetic timing", st.PauseMs)
		}
	}
}
