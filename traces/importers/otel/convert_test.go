package otel

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/importers/ingest"
	"github.com/defersim/defersim/traces/importers/internal/importtest"
)

// testSpan is a span for otlpSpans: its name, conversation id and
// attributes with integer and string values.
type testSpan struct {
	name string
	conv string
	ints map[string]int
	strs map[string]string
}

// otlpSpans builds a one-resource OTLP export of spans, one second apart.
func otlpSpans(spans ...testSpan) string {
	var out []string
	for i, sp := range spans {
		var attrs []string
		if sp.conv != "" {
			attrs = append(attrs, `{"key":"gen_ai.conversation.id","value":{"stringValue":`+strconv.Quote(sp.conv)+`}}`)
		}
		for _, k := range sortedKeys(anyMap(sp.ints)) {
			attrs = append(attrs, `{"key":`+strconv.Quote(k)+`,"value":{"intValue":"`+strconv.Itoa(sp.ints[k])+`"}}`)
		}
		for _, k := range sortedKeys(anyMap(sp.strs)) {
			attrs = append(attrs, `{"key":`+strconv.Quote(k)+`,"value":{"stringValue":`+strconv.Quote(sp.strs[k])+`}}`)
		}
		start := strconv.Itoa((i + 1) * 1000000000)
		out = append(out, `{"traceId":"t`+strconv.Itoa(i)+`","spanId":"s`+strconv.Itoa(i)+`","name":`+strconv.Quote(sp.name)+
			`,"startTimeUnixNano":"`+start+`","endTimeUnixNano":"`+start+`","attributes":[`+strings.Join(attrs, ",")+`]}`)
	}
	return `{"resourceSpans":[{"scopeSpans":[{"spans":[` + strings.Join(out, ",") + `]}]}]}`
}

func anyMap[V any](m map[string]V) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		out[k] = v
	}
	return out
}

func usageAttrs(in, cacheRead, cacheWrite int) map[string]int {
	return map[string]int{
		"gen_ai.usage.input_tokens": in, "gen_ai.usage.output_tokens": 10,
		"gen_ai.usage.cache_read.input_tokens": cacheRead, "gen_ai.usage.cache_creation.input_tokens": cacheWrite,
	}
}

// TestCacheConventionPerSession pins that whether input_tokens includes
// cached tokens is decided per session: one request proving the producer
// excludes them (input_tokens < cache_read + cache_creation) makes every
// request of that session read so, also an earlier ambiguous one (it was
// read under the default, 2,000 tokens off); a session without such a
// request keeps the default (input − cache_read − cache_creation); the
// report counts the sessions read the other way under "converted".
func TestCacheConventionPerSession(t *testing.T) {
	data := otlpSpans(
		testSpan{name: "chat m", conv: "mixed", ints: usageAttrs(3000, 500, 500)},     // ambiguous alone
		testSpan{name: "chat m", conv: "mixed", ints: usageAttrs(1000, 2000, 1000)},   // proves "excludes"
		testSpan{name: "chat m", conv: "default", ints: usageAttrs(3000, 500, 500)},   // ambiguous alone
		testSpan{name: "chat m", conv: "default", ints: usageAttrs(4000, 1000, 1000)}, // ambiguous alone
	)
	var sink importtest.Sink
	rep := ingest.NewReport(Format)
	if err := New().Import("u.json", strings.NewReader(data), &ingest.Options{}, &sink, rep); err != nil {
		t.Fatal(err)
	}
	got := map[string][]traces.Usage{}
	for _, s := range sink.Sessions {
		for _, ev := range s.Events {
			if ev.Type == traces.ModelRequest {
				got[s.ID] = append(got[s.ID], *ev.Usage)
			}
		}
	}
	want := map[string][]traces.Usage{
		"mixed": {
			{Input: 3000, CacheRead: 500, CacheWrite: 500, Output: 10},
			{Input: 1000, CacheRead: 2000, CacheWrite: 1000, Output: 10},
		},
		"default": {
			{Input: 2000, CacheRead: 500, CacheWrite: 500, Output: 10},
			{Input: 2000, CacheRead: 1000, CacheWrite: 1000, Output: 10},
		},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("usage by session (-want +got):\n%s", d)
	}
	if n := rep.Converted[excludesCachedNote]; n != 1 {
		t.Errorf("sessions counted as read excluding cached tokens = %d, want 1: %v", n, rep.Converted)
	}
	for k := range rep.Unmapped {
		if strings.Contains(k, "usage") {
			t.Errorf("unmapped %q: the convention is reported per session under converted", k)
		}
	}
	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), excludesCachedNote) {
		t.Errorf("text report does not name the sessions read excluding cached tokens:\n%s", text.String())
	}
}

// TestAgentSpanAttributesCounted pins that an invoke_agent (create_agent)
// span's attributes other than the operation, conversation id, agent name
// and id are counted as not mapped (they were dropped without a count).
func TestAgentSpanAttributesCounted(t *testing.T) {
	data := otlpSpans(
		testSpan{name: "invoke_agent a", conv: "c", strs: map[string]string{
			"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "a", "gen_ai.agent.id": "id-1",
			"gen_ai.input.messages":    `[{"role":"user","parts":[{"type":"text","content":"hi"}]}]`,
			"gen_ai.agent.description": "helps",
		}},
		testSpan{name: "create_agent a", conv: "c", strs: map[string]string{"gen_ai.request.model": "m"}},
		testSpan{name: "chat m", conv: "c"},
	)
	var sink importtest.Sink
	rep := ingest.NewReport(Format)
	if err := New().Import("a.json", strings.NewReader(data), &ingest.Options{}, &sink, rep); err != nil {
		t.Fatal(err)
	}
	want := map[string]int{
		"invoke_agent span attribute gen_ai.agent.description": 1,
		"invoke_agent span attribute gen_ai.input.messages":    1,
		"create_agent span attribute gen_ai.request.model":     1,
	}
	if d := cmp.Diff(want, rep.Unmapped); d != "" {
		t.Errorf("unmapped (-want +got):\n%s", d)
	}
	if st := sink.Sessions[0].Start(); st.Meta()["agent.name"] != "a" || st.Meta()["agent.id"] != "id-1" {
		t.Errorf("session_start meta = %v", st.Meta())
	}
}
