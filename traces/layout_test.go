package traces

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// layoutSeeds are lines at the edges of what decodeLayout takes.
var layoutSeeds = []string{
	`{"type":"user","session":"s","t":"2026-01-01T00:00:00Z","TEXT":"upper-case key"}`,
	`{"type":"user","session":"s","session":"t","t":"2026-01-01T00:00:00Z"}`,
	`{"type":"tool_call","session":"s","t":"2026-01-01T00:00:00Z","args":{"a":[1,2,{"b":null}]}}`,
	`{"type":"tool_call","session":"s","t":"2026-01-01T00:00:00Z","args":null}`,
	`{"type":"tool_call","session":"s","t":"2026-01-01T00:00:00Z","args":"{\"a\":1}"}`,
	`{"type":"user","session":"s","t":"2026-01-01T00:00:00Z","text_tokens":1e3}`,
	`{"type":"user","session":"s","t":"2026-01-01T00:00:00Z","text_tokens":-0}`,
	`{"type":"user","session":"s","t":"2026-01-01T00:00:00Z","text_tokens":99999999999999999999}`,
	`{"type":"user","session":"s","t":"2026-01-01T00:00:00+25:00"}`,
	`{"type":"user","session":"s","t":"2026-01-01T00:00:00.123456789Z"}`,
	`{"type":"user","session":"s","t":"2026-01-01T00:00:00.1234567891Z"}`,
	`{"type":"user","session":"s","t":"2024-02-29T23:59:59.5Z"}`,
	`{"type":"user","session":"s","t":"2023-02-29T00:00:00Z"}`,
	`{"type":"user","session":"s","t":"2026-01-01T24:00:00Z"}`,
	`{"type":"user","session":"s","t":"2026-01-01t00:00:00z"}`,
	`{"type":"user","session":"s","t":"2026-01-01T00:00:00.Z"}`,
	`{"type":"user","session":"s","t":null}`,
	`{"type":"user","session":null,"t":"2026-01-01T00:00:00Z","meta":{"k":"v","k":"w"}}`,
	`{"type":"user","session":"s","t":"2026-01-01T00:00:00Z","meta":{"k":null}}`,
	`{"type":"user","session":"s","t":"2026-01-01T00:00:00Z","meta":{}}`,
	`{"type":"user","session":"s","t":"2026-01-01T00:00:00Z","text":"\ud800 lone surrogate"} `,
	`{"type":"user","session":"s","t":"2026-01-01T00:00:00Z","text":"tab\there \"quoted\" \\ \/ \u00e9 \u20ac \b\f\n\r"}`,
	`{"type":"user","session":"s","t":"2026-01-01T00:00:00Z"} {}`,
	` { "type" : "user" , "session" : "s" , "t" : "2026-01-01T00:00:00Z" } ` + "\t\r",
	`{"usage":{"input":1,"output":2,"extra":3},"servers":[{"name":"a"},{"NAME":"b"}]}`,
	`{"usage":{"input":1,"input":2}}`,
	`{"usage":{"Input":1}}`,
	`{"usage":null,"servers":null,"meta":null,"returned":null}`,
	`{"servers":[],"returned":[],"added":["a",""],"removed":["x"]}`,
	`{"servers":[null]}`,
	`{"servers":[{"name":"a","version":"1","x":{"y":[true,false,null]}}]}`,
	`{"returned":["a",null]}`,
	`{"x_ext":{"a":1},"x_Ext":[1.5e-3,-2,"s"],"type":"user"}`,
	`{"x_ext":{"a":1,"b":{"a":2,"a":3}},"type":"user"}`,
	`{"type":"tool_call","args":{"a":1,"A":2,"a":3}}`,
	`{"type":"tool_call","session":"s","t":"2026-01-01T00:00:00Z","args_unrecorded":true}`,
	`{"type":"tool_call","args_unrecorded":false,"args":{}}`,
	`{"type":"tool_call","args_unrecorded":truex}`,
	`{"type":"tool_call","args_unrecorded":"true"}`,
	`{"type":"tool_call","args_unrecorded":null}`,
	`{"type":"tool_call","args_unrecorded":true,"args_unrecorded":false}`,
	`{"type":"tool_call","args_unrecorded":tru`,
	`{"type":"tool_call","session":"s","t":"2026-01-01T00:00:00Z","result_unrecorded":true}`,
	`{"type":"tool_call","result_unrecorded":false,"result":""}`,
	`{"type":"tool_call","result_unrecorded":"true"}`,
	`{"type":"tool_call","result_unrecorded":true,"args_unrecorded":true,"result_unrecorded":false}`,
	`{"type":"tool_call","result_unrecorded":fals`,
	`{"type":"tool_call","args":[{"k":1},{"k":2,"k":3}]}`,
	`{"type":"tool_call","args":{"a\u0062":1,"ab":2}}`,
	`{"usage":{"input":1,"extra":1,"EXTRA":2}}`,
	`{"servers":[{"name":"a","x":1,"X":2}]}`,
	`{"meta":{"k":"v","K":"w"}}`,
	`{"t":"0000-01-01V00:00:00Z"}`,
	`{"t":"2026-01-01T00:00:00Z","t":null}`,
	`{"v":1,"V":2}`,
	`{"v":1.0}`,
	`{"v":01}`,
	`{"type":"session_start","status":"ok"}`,
	`{"type":5}`,
	`{"\u0074ype":"user"}`,
	`{"ſession":"s"}`,
	`{"type":"user",}`,
	`{"type":"user"`,
	`[]`,
	`{}`,
	`{"type":"tool_call","args":` + strings.Repeat("[", maxSkipDepth+1) + strings.Repeat("]", maxSkipDepth+1) + `}`,
}

// FuzzLayoutDecoderAgreement checks the premise of decodeLayout: every line
// it takes is valid UTF-8 with no NUL byte and no duplicate key
// (decodeJSON checks no further) and is accepted by encoding/json too, with
// the same Event.
func FuzzLayoutDecoderAgreement(f *testing.F) {
	for _, l := range okSession("s1", 0) {
		f.Add([]byte(l))
	}
	for _, l := range layoutSeeds {
		f.Add([]byte(l))
	}
	for _, l := range []string{"{\"text\":\"a\xffb\"}", "{\"text\":\"\xed\xa0\x80\"}", "{\"text\":\"\xe2\x82\"}",
		"{\"x_a\":[\"\xc3\"]}", "{\"text\":\"a\x00\"}", "{\"type\":\"user\"}\x00", "{\"text\":\"\u00e9t\u00e9 \xc3\xa9t\xc3\xa9\"}"} {
		f.Add([]byte(l))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		var fast Event
		tab := newStrtab()
		if !decodeLayout(line, &fast, tab) {
			return
		}
		if bytes.IndexByte(line, 0) >= 0 || !utf8.Valid(line) {
			t.Fatalf("layout decoder takes %q, which has a NUL byte or is not valid UTF-8", line)
		}
		if d, dup := findDuplicateKey(line); dup {
			t.Fatalf("layout decoder takes %q, which has a duplicate key (%s)", line, d.reason())
		}
		var std Event
		if err := json.Unmarshal(line, &std); err != nil {
			t.Fatalf("layout decoder takes %q, encoding/json rejects it: %v", line, err)
		}
		var again Event // through the caches the first decoding filled
		if !decodeLayout(line, &again, tab) {
			t.Fatalf("layout decoder takes %q once only", line)
		}
		for _, got := range []Event{fast, again} {
			if diff := cmp.Diff(std, got); diff != "" {
				t.Fatalf("decoders disagree on %q (-encoding/json +layout):\n%s", line, diff)
			}
			if !sameZone(std.T, got.T) {
				t.Fatalf("time zones differ on %q: %v and %v", line, std.T.Location(), got.T.Location())
			}
		}
	})
}

// sameZone reports whether a and b are in the same time zone: the same
// *time.Location, or two unnamed fixed zones of one offset. time.Parse
// makes a new fixed zone for an offset it does not keep (whole hours from
// −12 to +14 it keeps), so two parses of "…+20:00" — encoding/json's and
// the layout decoder's, which hands such times to time.Time's own parser —
// give equal zones at two addresses (the CI fuzz finding
// testdata/fuzz/FuzzLayoutDecoderAgreement/4df0a024342be34d, which failed
// the pointer comparison this replaces). UTC and Local stay distinct from
// any fixed zone.
func sameZone(a, b time.Time) bool {
	la, lb := a.Location(), b.Location()
	if la == lb {
		return true
	}
	special := func(l *time.Location) bool { return l == time.UTC || l == time.Local }
	an, ao := a.Zone()
	bn, bo := b.Zone()
	return !special(la) && !special(lb) && an == bn && ao == bo
}

// TestLayoutDecoderTakesTraceLines pins that the fast path is the path:
// decodeLayout takes every line the Writer writes for generated sessions
// (every event type and field), and lines with escapes and other time forms.
func TestLayoutDecoderTakesTraceLines(t *testing.T) {
	data := encodeSessions(t, genSessions(7, 50), false, 3)
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	lines = append(lines,
		`{"type":"user","session":"s","t":"2026-01-01T00:00:00+02:00","text":"a \"b\"\n\u00e9"}`,
		`{"type":"tool_call","session":"s","t":"2026-01-01T00:00:00.5Z","args":{"q":"x\\y"},"x_vendor":{"Trace":[1]}}`)
	for i, l := range lines {
		var ev Event
		if !decodeLayout([]byte(l), &ev, nil) {
			t.Errorf("line %d not taken by the layout decoder: %s", i+1, l)
		}
	}
}

func TestParseUTCTime(t *testing.T) {
	for _, s := range []string{"2026-03-02T09:00:00Z", "2026-03-02T09:00:06.342Z", "2024-02-29T23:59:59.999999999Z",
		"0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z"} {
		got, ok := parseUTCTime([]byte(s))
		want, err := time.Parse(time.RFC3339Nano, s)
		if !ok || err != nil || !got.Equal(want) || got.Location() != want.Location() {
			t.Errorf("parseUTCTime(%s) = %v, %v; time.Parse: %v, %v", s, got, ok, want, err)
		}
	}
	for _, s := range []string{"2023-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-01-01T00:60:00Z",
		"2026-01-01T00:00:60Z", "2026-01-01T00:00:00", "2026-01-01T00:00:00+00:00", "2026-01-01 00:00:00Z",
		"2026-01-01T00:00:00.Z", "2026-01-01T00:00:00.1234567890Z"} {
		if _, ok := parseUTCTime([]byte(s)); ok {
			t.Errorf("parseUTCTime(%s) took a time it should leave to time.Parse", s)
		}
	}
}

// TestMinuteCache pins the cache of decodeTime (minuteCache): times parsed
// one after another through one cache, whose minutes repeat or change and
// some of which are rejected after their minute matched, come out as
// parsed alone.
func TestMinuteCache(t *testing.T) {
	var c minuteCache
	for _, s := range []string{"2026-03-02T09:00:00Z", "2026-03-02T09:00:06.342Z", "2026-03-02T09:00:60Z",
		"2026-03-02T09:00:59.999999999Z", "2026-03-02T09:00:5Z", "2026-03-02T09:00:07+00:00", "2026-03-02T09:01:00Z",
		"2026-03-02T09:00:07Z", "2023-02-29T09:00:07Z", "2026-03-02T09:00:07.Z", "2026-03-02T09:00:07.1Z",
		"2026-03-02T09:00", "2026-03-02T09:00:00Z"} {
		got, ok := c.parse([]byte(s))
		want, wantOK := parseUTCTime([]byte(s))
		if ok != wantOK || got != want {
			t.Errorf("through the cache %s = %v, %v; alone %v, %v", s, got, ok, want, wantOK)
		}
		if std, err := time.Parse(time.RFC3339Nano, s); ok && (err != nil || !std.Equal(got)) {
			t.Errorf("through the cache %s = %v; time.Parse: %v, %v", s, got, std, err)
		}
	}
}

// TestDaysSinceEpoch checks the date arithmetic of parseUTCTime against
// time.Date for every day of years 0 to 9999.
func TestDaysSinceEpoch(t *testing.T) {
	d := time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC)
	for d.Year() < 10000 {
		y, m, day := d.Date()
		if got, want := daysSinceEpoch(y, int(m), day), d.Unix()/86400; got != want {
			t.Fatalf("daysSinceEpoch(%d, %d, %d) = %d, want %d", y, m, day, got, want)
		}
		d = d.AddDate(0, 0, 1)
	}
}

// TestFirstSpecial checks the eight-bytes-at-a-time search of scanString
// against a byte loop: the index of the first special byte, 8 for none.
func TestFirstSpecial(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	special := []byte{'"', '\\', 0, 0x1f, ' ', '!', '#', '[', ']', 0x7f, 0x80, 0xff, 'a'}
	for range 200000 {
		var w [8]byte
		for k := range w {
			if rng.IntN(4) == 0 {
				w[k] = special[rng.IntN(len(special))]
			} else {
				w[k] = byte(rng.IntN(256))
			}
		}
		want := 8
		for k, c := range w {
			if c == '"' || c == '\\' || c < 0x20 || c >= 0x80 {
				want = k
				break
			}
		}
		if got := firstSpecial(binary.LittleEndian.Uint64(w[:])); got != want {
			t.Fatalf("firstSpecial(% x) = %d, want %d", w, got, want)
		}
	}
}
