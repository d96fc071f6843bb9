package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestWriteLeavesNoPartialFile pins the atomic-output guarantee of
// docs/reliability.md: a write that fails half-way leaves neither a partial
// file under the final name nor a temporary file, and an existing file is
// kept as it was; a write that succeeds replaces it whole.
func TestWriteLeavesNoPartialFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "results.json")
	boom := errors.New("disk full")
	tests := []struct {
		name    string
		before  string // "" = no file
		fill    func(f *os.File) error
		wantErr bool
		want    string // content after; "" = no file
	}{
		{"new file", "", func(f *os.File) error { _, err := f.WriteString("new"); return err }, false, "new"},
		{"replaces", "old", func(f *os.File) error { _, err := f.WriteString("new"); return err }, false, "new"},
		{"fails before writing", "", func(*os.File) error { return boom }, true, ""},
		{"fails half-way, no file before", "", func(f *os.File) error { f.WriteString("{\"half\":"); return boom }, true, ""},
		{"fails half-way, old file kept", "old", func(f *os.File) error { f.WriteString("{\"half\":"); return boom }, true, "old"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			os.Remove(path)
			if tc.before != "" {
				if err := os.WriteFile(path, []byte(tc.before), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			err := Write(path, 0o644, tc.fill)
			if (err != nil) != tc.wantErr || (err != nil && !errors.Is(err, boom)) {
				t.Fatalf("Write error = %v, want error %v (wrapping the fill's)", err, tc.wantErr)
			}
			got, rerr := os.ReadFile(path)
			switch {
			case tc.want == "" && rerr == nil:
				t.Errorf("a file %q was left under the final name", got)
			case tc.want != "" && string(got) != tc.want:
				t.Errorf("content %q (%v), want %q", got, rerr, tc.want)
			}
			if tc.want != "" && !tc.wantErr {
				if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o644 {
					t.Errorf("mode %v (%v), want 0644", st.Mode().Perm(), err)
				}
			}
			entries, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range entries {
				if e.Name() != "results.json" {
					t.Errorf("left behind: %s", e.Name())
				}
			}
		})
	}
	if err := WriteFile(filepath.Join(dir, "missing", "x.json"), []byte("x"), 0o644); err == nil {
		t.Error("a write into a missing directory succeeded")
	}
}
