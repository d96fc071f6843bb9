package privacytest

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSetScan(t *testing.T) {
	s := NewSet("ab")
	a, b := s.Add("user.text"), s.Add("args.path")
	if a == b || len(a) != len(b) || s.Add("user.text") != a {
		t.Fatalf("canaries %q %q are not distinct, fixed-length and stable", a, b)
	}
	tests := []struct {
		name string
		data string
		want []string // fields found
	}{
		{"clean", "nothing to see", nil},
		{"plain", "x " + a + " y", []string{"user.text"}},
		{"upper case", strings.ToUpper(b), []string{"args.path"}},
		{"both, repeated", a + a + b, []string{"user.text", "args.path"}},
		{"in a data URI", `<img src="data:image/png;base64,` + base64.StdEncoding.EncodeToString([]byte("..."+b)) + `">`, []string{"args.path"}},
		{"another set's canary", NewSet("xy").Add("user.text"), nil},
		{"truncated", "..." + a[:len(a)-3], []string{"an unknown field"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, l := range s.Scan("out", []byte(tc.data)) {
				got = append(got, l.Field)
			}
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("Scan found %v, want %v", got, tc.want)
			}
		})
	}
}

func TestScanDir(t *testing.T) {
	s := NewSet("cd")
	c := s.Add("meta.team")
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "plots"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "a.json"), []byte("{}"), 0o644)
	os.WriteFile(filepath.Join(dir, "plots", "b.svg"), []byte("<svg>"+c+"</svg>"), 0o644)
	leaks, err := s.ScanDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(leaks) != 1 || leaks[0].Where != filepath.Join(dir, "plots", "b.svg") || leaks[0].Field != "meta.team" {
		t.Errorf("ScanDir = %v, want one leak of meta.team in plots/b.svg", leaks)
	}
	files, err := Files(dir)
	if err != nil || strings.Join(files, ",") != "a.json,plots/b.svg" {
		t.Errorf("Files = %v, %v", files, err)
	}
}

// TestScanDirDecompresses pins that a canary inside a gzip file, or inside
// a state file (a header line, then gzip), is found: plan --growth's
// trace copy (issue 18.3) was a .jsonl.gz the scan could not read.
func TestScanDirDecompresses(t *testing.T) {
	cs := NewSet("gz")
	c := cs.Add("field")
	dir := t.TempDir()
	var plain, state bytes.Buffer
	for _, b := range []*bytes.Buffer{&plain, &state} {
		if b == &state {
			b.WriteString("defersim-state\n")
		}
		zw := gzip.NewWriter(b)
		zw.Write([]byte(`{"text":"` + c + `"}`))
		zw.Close()
	}
	for name, b := range map[string][]byte{"t.jsonl.gz": plain.Bytes(), "shard.bin": state.Bytes()} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	leaks, err := cs.ScanDir(dir)
	if err != nil || len(leaks) != 2 {
		t.Errorf("leaks %v (%v), want the canary in both files", leaks, err)
	}
}
