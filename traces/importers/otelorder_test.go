package importers_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/traces/importers"
)

// otelChat is one OTLP chat span line in trace trace with span id id,
// starting at second start, with conversation id conv when set.
func otelChat(trace, id, conv string, start int) string {
	attrs := `{"key":"gen_ai.operation.name","value":{"stringValue":"chat"}}` +
		`,{"key":"gen_ai.usage.input_tokens","value":{"intValue":"900"}},{"key":"gen_ai.usage.output_tokens","value":{"intValue":"30"}}`
	if conv != "" {
		attrs += `,{"key":"gen_ai.conversation.id","value":{"stringValue":"` + conv + `"}}`
	}
	ns := func(s int) string { return `"17593092` + string(rune('0'+s)) + `0000000000"` }
	return `{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"` + trace + `","spanId":"` + id + `","name":"chat m",` +
		`"startTimeUnixNano":` + ns(start) + `,"endTimeUnixNano":` + ns(start+1) + `,"attributes":[` + attrs + `]}]}]}]}` + "\n"
}

// TestOTelImportIndependentOfFileOrder pins that `import --from otel A B`
// and `import --from otel B A` write byte-identical traces and catalogs:
// since the spans of every file are grouped together, sessions whose
// first spans start at the same time kept the order their files were
// given in, and a trace whose spans name two conversation ids went to the
// one read first. Ties are now broken by session id, and a trace's
// conversation id is that of its earliest span (start, end, span id).
func TestOTelImportIndependentOfFileOrder(t *testing.T) {
	dir := t.TempDir()
	// Sessions conv-z (in a) and conv-a (in b) start together; trace t3's
	// later span (in a) names conv-late, its earlier (in b) conv-early.
	a := otelChat("t1", "a1", "conv-z", 0) + otelChat("t3", "c2", "conv-late", 5)
	b := otelChat("t2", "b1", "conv-a", 0) + otelChat("t3", "c1", "conv-early", 3) + otelChat("t3", "c3", "", 7)
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	pa, pb := write("a.jsonl", a), write("b.jsonl", b)
	read := func(name string, inputs ...string) (trace string, catalog map[string]string) {
		t.Helper()
		out := filepath.Join(dir, name, "t.jsonl")
		if _, err := importers.Run(importers.Request{Format: "otel", Inputs: inputs, Out: out}); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		catalog = map[string]string{}
		files, _ := filepath.Glob(filepath.Join(out+".catalog", "*"))
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			catalog[filepath.Base(f)] = string(b)
		}
		return string(data), catalog
	}
	ab, catAB := read("ab", pa, pb)
	ba, catBA := read("ba", pb, pa)
	if d := cmp.Diff(ab, ba); d != "" {
		t.Errorf("import a b and import b a differ (-ab +ba):\n%s", d)
	}
	if d := cmp.Diff(catAB, catBA); d != "" {
		t.Errorf("catalogs differ (-ab +ba):\n%s", d)
	}
	// conv-a before conv-z (same start, by id); trace t3 under conv-early
	// (its earliest span's), except the span naming conv-late.
	var got []string
	for _, line := range strings.Split(ab, "\n") {
		if i := strings.Index(line, `"session":"`); i >= 0 && strings.Contains(line, `"session_start"`) {
			got = append(got, strings.SplitN(line[i+len(`"session":"`):], `"`, 2)[0])
		}
	}
	if want := []string{"conv-a", "conv-z", "conv-early", "conv-late"}; !cmp.Equal(got, want) {
		t.Errorf("sessions = %v, want %v\n%s", got, want, ab)
	}
}
