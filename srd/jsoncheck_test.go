package srd

import (
	"strings"
	"testing"
)

// TestParseJSONFileMustBeJSON pins that a file named .json is refused,
// at the line of the fault, when it is not JSON: JSON is read as YAML, so
// a trailing comma (and comments, unquoted or single-quoted strings, two
// values) was taken silently and the file linted clean, though every JSON
// tool the same SRD is given to refuses it. A byte order mark and Windows
// line endings stay accepted, and a .yaml file keeps YAML's freedoms.
func TestParseJSONFileMustBeJSON(t *testing.T) {
	valid := "{\"srd_version\": 1,\n \"server_id\": \"s\",\n \"domain\": \"d\",\n \"display_name\": \"D\",\n" +
		" \"intent_triggers\": [\"a\"],\n \"disambiguation\": [{\"domain\": \"e\", \"differs\": \"x\"}]\n}\n"
	for _, tc := range []struct {
		name, file string
		data       []byte
		want       string // the only problem; "" none
		srds       int    // SRDs decoded
	}{
		{"valid", "f.json", []byte(valid), "", 1},
		{"BOM", "f.json", append([]byte{0xEF, 0xBB, 0xBF}, valid...), "", 1},
		{"CRLF", "f.json", []byte(strings.ReplaceAll(valid, "\n", "\r\n")), "", 1},
		{"UTF-16 with BOM", "f.json", utf16LE(valid), "", 1},
		{"upper-case extension", "F.JSON", []byte(strings.Replace(valid, `["a"]`, `["a",]`, 1)),
			"F.JSON:5: invalid JSON: a comma before ']' at column 25 (JSON allows no trailing comma)", 1},
		{"trailing comma in a list", "f.json", []byte(strings.Replace(valid, `["a"]`, `["a",]`, 1)),
			"f.json:5: invalid JSON: a comma before ']' at column 25 (JSON allows no trailing comma)", 1},
		{"trailing comma in an object, CRLF", "f.json", []byte(strings.ReplaceAll(strings.Replace(valid, `"x"}]`, `"x"}],`, 1), "\n", "\r\n")),
			"f.json:6: invalid JSON: a comma before '}' at column 53 (JSON allows no trailing comma)", 1},
		{"comment", "f.json", []byte(strings.Replace(valid, "1,", "1, // v1", 1)),
			"f.json:1: invalid JSON: invalid character '/' looking for beginning of object key string at column 20", 0},
		{"single quotes", "f.json", []byte(strings.Replace(valid, `"D"`, `'D'`, 1)),
			"f.json:4: invalid JSON: invalid character '\\'' looking for beginning of value at column 18", 1},
		{"two values", "f.json", []byte(valid + valid),
			"f.json:8: invalid JSON: a second value at column 1 (a JSON file holds one SRD; write several as YAML documents separated by ---)", 1},
		{"a .yaml file may have a trailing comma", "f.yaml", []byte(strings.Replace(valid, `["a"]`, `["a",]`, 1)), "", 1},
		{"empty", "f.json", nil, "f.json: no SRD in file", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srds, probs := Parse(tc.file, tc.data)
			var got string
			if len(probs) > 1 {
				t.Fatalf("problems %v, want at most one", probs)
			}
			if len(probs) == 1 {
				got = probs[0].String()
				if tc.want != "" && !probs[0].Unreadable && !strings.HasSuffix(tc.want, "no SRD in file") {
					t.Errorf("%q is not marked unreadable", got)
				}
			}
			if got != tc.want {
				t.Errorf("problem %q, want %q", got, tc.want)
			}
			if len(srds) != tc.srds {
				t.Errorf("%d SRDs decoded, want %d", len(srds), tc.srds)
			}
		})
	}
}
