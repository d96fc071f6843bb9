package retrieval

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestTaskFileEncodingAndSize pins srd eval's checks of a task file as
// those of an SRD file: a file that is not UTF-8 names the line and column
// of its first bad byte (it said "yaml: incomplete UTF-8 octet sequence",
// at no line), and a file over MaxTaskFileSize is refused with its own
// size before it is parsed (a 17 MB file of 200,000 tasks took 657 MB).
func TestTaskFileEncodingAndSize(t *testing.T) {
	const head = "name: t\nqueries:\n"
	task := func(i int) string {
		return "  - id: q" + strconv.Itoa(i) + "\n    q: \"query " + strconv.Itoa(i) + "\"\n    want: [s/tool]\n"
	}
	big := func(size int) []byte {
		var b bytes.Buffer
		b.WriteString(head)
		for i := 0; b.Len() < size; i++ {
			b.WriteString(task(i))
		}
		return b.Bytes()[:size]
	}
	tests := []struct {
		name    string
		content []byte
		want    string // the error, after the file's path; "" = it reads
	}{
		{"Latin-1 byte", []byte(head + task(1) + "  - id: q2\n    q: \"caf\xe9 near me\"\n    want: [s/tool]\n"),
			":7: not UTF-8: byte 0xE9 at column 12 is not UTF-8 text (save the file as UTF-8)"},
		{"over the limit", big(MaxTaskFileSize + 10),
			": file is " + strconv.Itoa(MaxTaskFileSize+10) + " bytes, more than the " + strconv.Itoa(MaxTaskFileSize) + " allowed"},
		{"at the limit", big(MaxTaskFileSize), ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "tasks.yaml")
			if err := os.WriteFile(file, tc.content, 0o644); err != nil {
				t.Fatal(err)
			}
			data, err := ReadTaskFile(file)
			if err == nil {
				_, err = ParseHardSet(file, data)
			}
			if tc.want == "" {
				// A file cut at the limit may end inside a task: only the
				// size check must pass.
				if err != nil && strings.Contains(err.Error(), "allowed") {
					t.Errorf("a file at the limit refused: %v", err)
				}
				return
			}
			if err == nil || !strings.HasPrefix(err.Error(), file+tc.want) {
				t.Errorf("error %v\nwant it to start %s%s", err, file, tc.want)
			}
			// Through LoadNamed, as srd eval --set FILE reads it.
			_, err = LoadNamed(file, Sources{}, nil)
			if err == nil || !strings.HasPrefix(err.Error(), file+tc.want) {
				t.Errorf("LoadNamed: %v\nwant it to start %s%s", err, file, tc.want)
			}
		})
	}
}
