package importers_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/defersim/defersim/traces/importers"
)

// TestSkipBadSkipsMalformedConversations pins trace import --skip-bad: a
// line of an openai-messages or anthropic-messages JSON Lines input that is
// not valid JSON is skipped, counted and named in the report (input, line,
// column, reason), and every other conversation imports as it does once the
// line is repaired, under the same id; without --skip-bad the import stops
// at the line. The flag did not exist ("unknown flag: --skip-bad"), so one
// damaged line of a large log stopped the whole import.
func TestSkipBadSkipsMalformedConversations(t *testing.T) {
	for _, tc := range []struct{ format, sample string }{
		{"openai-messages", filepath.Join("openaimsg", "testdata", "conversations.jsonl")},
		{"anthropic-messages", filepath.Join("anthropicmsg", "testdata", "conversations.jsonl")},
	} {
		t.Run(tc.format, func(t *testing.T) {
			data, err := os.ReadFile(tc.sample)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.SplitAfter(strings.TrimSuffix(string(data), "\n"), "\n")
			if len(lines) < 2 {
				t.Fatalf("%s: want at least 2 lines", tc.sample)
			}
			last := strings.TrimSuffix(lines[len(lines)-1], "\n")
			// The bad line: the last conversation cut after 30 bytes (the
			// error's column is just past them, as encoding/json counts); the
			// repaired one: that conversation whole.
			bad := slices.Concat(lines[:len(lines)-1], []string{last[:30] + "\n", last + "\n"})
			repaired := slices.Concat(lines[:len(lines)-1], []string{last + "\n", last + "\n"})
			badLine := len(lines)
			dir := t.TempDir()
			write := func(sub string, l []string) string {
				p := filepath.Join(dir, sub, "log.jsonl")
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(strings.Join(l, "")), 0o644); err != nil {
					t.Fatal(err)
				}
				return p
			}
			badIn, goodIn := write("bad", bad), write("good", repaired)

			_, err = importers.Run(importers.Request{Format: tc.format, Inputs: []string{badIn}, Out: filepath.Join(dir, "stop.jsonl")})
			wantErr := "log.jsonl: line " + strconv.Itoa(badLine) + " col 31: unexpected end of JSON input"
			if err == nil || err.Error() != wantErr {
				t.Fatalf("without --skip-bad: error = %v\nwant %s", err, wantErr)
			}

			skipOut, goodOut := filepath.Join(dir, "bad", "t.jsonl"), filepath.Join(dir, "good", "t.jsonl")
			rep, err := importers.Run(importers.Request{Format: tc.format, Inputs: []string{badIn}, Out: skipOut, SkipBad: true})
			if err != nil {
				t.Fatal(err)
			}
			goodRep, err := importers.Run(importers.Request{Format: tc.format, Inputs: []string{goodIn}, Out: goodOut})
			if err != nil {
				t.Fatal(err)
			}
			if rep.SkippedLines != 1 || len(rep.Skipped) != 1 ||
				rep.Skipped[0] != "log.jsonl: line "+strconv.Itoa(badLine)+" col 31: unexpected end of JSON input" {
				t.Errorf("skipped = %d %q", rep.SkippedLines, rep.Skipped)
			}
			if rep.Sessions != goodRep.Sessions-1 {
				t.Errorf("sessions = %d, want %d (the repaired file's but one)", rep.Sessions, goodRep.Sessions-1)
			}
			var text bytes.Buffer
			if err := rep.WriteText(&text); err != nil {
				t.Fatal(err)
			}
			if want := "lines skipped (--skip-bad):  1 (not valid JSON; each a conversation not imported)\n" +
				"  log.jsonl: line " + strconv.Itoa(badLine) + " col 31"; !strings.Contains(text.String(), want) {
				t.Errorf("report text lacks %q:\n%s", want, text.String())
			}
			// Every event of the skipping import is one of the repaired
			// file's, session ids included.
			got, want := readLines(t, skipOut), readLines(t, goodOut)
			for _, l := range got {
				if !slices.Contains(want, l) {
					t.Errorf("event not in the repaired file's import: %s", l)
				}
			}
		})
	}
}

// TestSkipBadRefusedWhereALineIsPartOfASession pins that --skip-bad stops
// the formats whose lines are parts of sessions, or whose inputs are one
// JSON document, before anything is read: a session imported without the
// line would replay other requests than the recorded ones.
func TestSkipBadRefusedWhereALineIsPartOfASession(t *testing.T) {
	for _, s := range formatSamples {
		if slices.Contains(importers.SkipBadFormats, s.format) {
			continue
		}
		t.Run(s.name, func(t *testing.T) {
			_, err := importers.Run(importers.Request{Format: s.format, Inputs: s.inputs, Out: filepath.Join(t.TempDir(), "t.jsonl"), SkipBad: true})
			want := "--skip-bad does not apply to " + s.format + ": a bad line of it is part of a session (or of a JSON document), " +
				"which would be imported without it and replay other requests than the recorded ones; repair the line " +
				"(--skip-bad applies to openai-messages and anthropic-messages, whose JSON Lines hold one conversation a line)"
			if err == nil || err.Error() != want {
				t.Fatalf("error = %v\nwant %s", err, want)
			}
		})
	}
}

// TestSkipBadNothingLeft pins the error of a --skip-bad import whose every
// line was skipped: no session, and the lines it skipped.
func TestSkipBadNothingLeft(t *testing.T) {
	in := filepath.Join(t.TempDir(), "cut.jsonl")
	if err := os.WriteFile(in, []byte(`{"messages": [`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := importers.Run(importers.Request{Format: "openai-messages", Inputs: []string{in}, Out: in + ".out.jsonl", SkipBad: true})
	want := in + ": no openai-messages session in it: 0 sessions to import (is --from openai-messages the format of the input?); " +
		"skipped as not valid JSON (--skip-bad): 1 line, the first cut.jsonl: line 1 col 15: unexpected end of JSON input"
	if err == nil || err.Error() != want {
		t.Fatalf("error = %v\nwant %s", err, want)
	}
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(data)), "\n")
}

// TestSkipBadRefusesADamagedDocument pins that --skip-bad does not skip
// the lines of one JSON document spread over lines (an array of
// conversations, one of them damaged): it skipped "[", "]" and the good
// conversation (bad only for its trailing comma) one line at a time,
// imported what was left and exited 0. The import stops, naming where.
func TestSkipBadRefusesADamagedDocument(t *testing.T) {
	in := filepath.Join(t.TempDir(), "chats.json")
	doc := "[\n" +
		`{"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}]},` + "\n" +
		`{"messages":[{"role":"user","content":"bye"},{"role":"assistant","content":` + "\n" +
		"]\n"
	if err := os.WriteFile(in, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := importers.Run(importers.Request{Format: "openai-messages", Inputs: []string{in}, Out: in + ".out.jsonl", SkipBad: true})
	if err == nil || !strings.Contains(err.Error(), "chats.json: line 4 col 2: invalid character ']'") {
		t.Fatalf("error = %v, want the document's error at line 4", err)
	}
	if _, serr := os.Stat(in + ".out.jsonl"); !os.IsNotExist(serr) {
		t.Errorf("an output was written (%v)", serr)
	}
}
