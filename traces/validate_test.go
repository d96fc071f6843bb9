package traces

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// toolSet is a ToolIndex of "server/tool" names; server "" means any.
type toolSet map[string]bool

func (ts toolSet) HasTool(server, tool string) bool {
	if server == "" {
		for k := range ts {
			if strings.HasSuffix(k, "/"+tool) {
				return true
			}
		}
		return false
	}
	return ts[server+"/"+tool]
}

func TestValidateTools(t *testing.T) {
	data := lines(
		ev("session_start", "s1", 0, ""),
		ev("model_request", "s1", 1, `"id":"r1"`),
		ev("tool_call", "s1", 2, `"request":"r1","call_id":"c1","tool":"read_file","server":"files"`),
		ev("tool_call", "s1", 3, `"request":"r1","call_id":"c2","tool":"delete_everything","server":"files"`),
		ev("tool_call", "s1", 4, `"request":"r1","call_id":"c3","tool":"read_file","server":"other"`),
		ev("session_end", "s1", 5, ""),
	)
	tests := []struct {
		name  string
		tools ToolIndex
		want  []string
	}{
		{name: "no catalog: tools unchecked"},
		{name: "catalog", tools: toolSet{"files/read_file": true}, want: []string{
			`f.jsonl:4: session "s1": tool_call of tool "delete_everything" of server "files", which no catalog knows`,
			`f.jsonl:5: session "s1": tool_call of tool "read_file" of server "other", which no catalog knows`,
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			probs, counts, err := ValidateReader(bytes.NewReader(data), "f.jsonl", ValidateOptions{Tools: tc.tools})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range probs {
				got = append(got, p.String())
				if p.Kind != KindUnknownTool {
					t.Errorf("problem %s has kind %s", p, p.Kind)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
			if counts.Lines != 6 || counts.Events != 6 || counts.Sessions != 1 {
				t.Errorf("counts = %+v", counts)
			}
		})
	}
}

// TestValidateGenerated checks that generated traces, sequential and
// interleaved, plain and gzip, are valid.
func TestValidateGenerated(t *testing.T) {
	sessions := genSessions(11, 25)
	tools := toolSet{}
	for srv, names := range testTools {
		for _, n := range names {
			tools[srv+"/"+n] = true
		}
	}
	for _, compress := range []bool{false, true} {
		for _, group := range []int{1, 4} {
			data := encodeSessions(t, sessions, compress, group)
			probs, counts, err := ValidateReader(bytes.NewReader(data), "gen.jsonl", ValidateOptions{Tools: tools})
			if err != nil {
				t.Fatal(err)
			}
			if len(probs) > 0 {
				t.Fatalf("gzip=%v group=%d: %d problems, first %s", compress, group, len(probs), probs[0])
			}
			if counts.Sessions != 25 || counts.Skipped != 0 {
				t.Errorf("counts = %+v", counts)
			}
		}
	}
}

func TestValidateFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "t.jsonl")
	if err := os.WriteFile(path, lines(ev("session_start", "s", 0, ""), "{oops", ev("session_end", "s", 1, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	probs, _, err := Validate(path, ValidateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []Problem{{File: path, Line: 2, Kind: KindBadJSON, Reason: "invalid JSON at column 2: invalid character 'o' looking for beginning of object key string"}}
	if diff := cmp.Diff(want, probs); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	if _, _, err := Validate(filepath.Join(dir, "absent"), ValidateOptions{}); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: err = %v", err)
	}
	if _, _, err := Validate(dir, ValidateOptions{}); err == nil {
		t.Error("Validate of a directory: no error")
	}
	if _, err := Open(dir, ReadOptions{}); err == nil {
		t.Error("Open of a directory: no error")
	}
}

// TestEventFieldsKnown keeps isEventField in step with the json tags of Event.
func TestEventFieldsKnown(t *testing.T) {
	var tags []string
	typ := reflect.TypeFor[Event]()
	for _, f := range reflect.VisibleFields(typ) { // the fields of StartFields and ChangeFields too
		if f.Anonymous {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		tags = append(tags, name)
		if !isEventField(name) {
			t.Errorf("field %q of Event is not known to isEventField", name)
		}
	}
	for _, extra := range []string{"x", "sesion", "Type", "usage.input"} {
		if isEventField(extra) && !slices.Contains(tags, extra) {
			t.Errorf("isEventField(%q) = true", extra)
		}
	}
}

// searchResolver is a CallResolver that finds every name a tool_search
// returns unresolved, and everything else resolved.
type searchResolver struct{}

func (searchResolver) Session() SessionResolver { return searchResolver{} }

func (searchResolver) Event(ev *Event, _ int, out []Unresolved) []Unresolved {
	if ev.Type == ToolSearch {
		for _, name := range ev.Returned() {
			out = append(out, Unresolved{Kind: KindUnknownTool, Reason: "returned " + name})
		}
	}
	return out
}

// TestValidateResolverReplacesTools pins how Validate combines its
// options: with a Resolver, every name the resolver returns for an event
// is a problem at its line (several per line), and Tools, which matches any
// version, is not consulted for the sessions it resolves (it would
// pass a search result or a rejected call the version in force does not
// serve); a session that does not begin with session_start, which no
// resolver follows, is still checked against Tools.
func TestValidateResolverReplacesTools(t *testing.T) {
	data := lines(
		ev("session_start", "s1", 0, ""),
		ev("model_request", "s1", 1, `"id":"r1"`),
		ev("tool_search", "s1", 2, `"request":"r1","query":"q","returned":["a","b"]`),
		ev("tool_call", "s1", 3, `"request":"r1","call_id":"c1","tool":"nowhere","server":"files","status":"rejected"`),
		ev("session_end", "s1", 4, ""),
		ev("model_request", "s2", 5, `"id":"r1"`),
		ev("tool_call", "s2", 6, `"request":"r1","call_id":"c1","tool":"nowhere","server":"files"`),
		ev("session_end", "s2", 7, ""),
	)
	probs, _, err := ValidateReader(bytes.NewReader(data), "f.jsonl", ValidateOptions{Tools: toolSet{}, Resolver: searchResolver{}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range probs {
		got = append(got, string(p.Kind)+" "+p.String())
	}
	want := []string{
		`unknown_tool f.jsonl:3: session "s1": returned a`,
		`unknown_tool f.jsonl:3: session "s1": returned b`,
		`order f.jsonl:6: session "s2": first event is model_request, not session_start`,
		`unknown_tool f.jsonl:7: session "s2": tool_call of tool "nowhere" of server "files", which no catalog knows`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
}

// TestValidateCountsSessionsWithoutUser pins that validate counts the
// sessions holding no user event, at their first line: it called such a
// trace valid with no word, and a run then measured their first reply
// from no user message (63 s p95 on tau-bench's sessions with the user
// lines removed, where the whole trace gave 2.5 s).
func TestValidateCountsSessionsWithoutUser(t *testing.T) {
	noUser := []string{
		ev("session_start", "s2", 0, `"model":"m"`),
		ev("model_request", "s2", 1, `"id":"r1"`),
		ev("session_end", "s2", 2, ""),
	}
	open := []string{ev("session_start", "s3", 0, `"model":"m"`)} // no session_end either
	for _, tc := range []struct {
		name      string
		data      []byte
		wantCount int64
		wantFirst []string
	}{
		{"every session has a user message", lines(okSession("s1", 0)...), 0, nil},
		{"one of two has none", lines(append(okSession("s1", 0), noUser...)...), 1, []string{`f.jsonl:6: session "s2" has no user message`}},
		{"an unended session without one", lines(append(noUser, open...)...), 2,
			[]string{`f.jsonl:1: session "s2" has no user message`, `f.jsonl:4: session "s3" has no user message`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, counts, err := ValidateReader(bytes.NewReader(tc.data), "f.jsonl", ValidateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var first []string
			for _, p := range counts.FirstNoUser {
				if p.Kind != KindNoUserMessage {
					t.Errorf("%s has kind %s", p, p.Kind)
				}
				first = append(first, p.String())
			}
			if counts.NoUser != tc.wantCount || !slices.Equal(first, tc.wantFirst) {
				t.Errorf("NoUser %d %q, want %d %q", counts.NoUser, first, tc.wantCount, tc.wantFirst)
			}
		})
	}
}
