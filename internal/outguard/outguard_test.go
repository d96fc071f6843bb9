package outguard

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestCheck pins issue 18.2: an output is refused when it is an input by
// file identity (same path, another spelling, a symbolic or hard link) or
// lies directly in an input directory; other outputs, "" and "-" pass.
func TestCheck(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "trace.jsonl")
	cat := filepath.Join(dir, "catalog")
	if err := os.WriteFile(in, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(cat, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(in, filepath.Join(dir, "link.jsonl")); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(in, filepath.Join(dir, "hard.jsonl")); err != nil {
		t.Fatal(err)
	}
	inputs := []string{in, cat, filepath.Join(dir, "missing.jsonl"), "-", ""}
	for _, tc := range []struct {
		out, want string
	}{
		{in, "refusing to write " + in + ": it is one of the inputs (choose another output path)"},
		{dir + "/./trace.jsonl", "refusing to write " + dir + "/./trace.jsonl: it is one of the inputs (choose another output path)"},
		{dir + "/../" + filepath.Base(dir) + "/trace.jsonl", "refusing to write " + dir + "/../" + filepath.Base(dir) + "/trace.jsonl: it is one of the inputs (choose another output path)"},
		{filepath.Join(dir, "link.jsonl"), "refusing to write " + filepath.Join(dir, "link.jsonl") + ": it is the input " + in + " (choose another output path)"},
		{filepath.Join(dir, "hard.jsonl"), "refusing to write " + filepath.Join(dir, "hard.jsonl") + ": it is the input " + in + " (choose another output path)"},
		{filepath.Join(cat, "results.json"), "refusing to write " + filepath.Join(cat, "results.json") + ": it is inside the input directory " + cat + " (choose another output path)"},
		{filepath.Join(dir, "out", "results.json"), ""},
		{filepath.Join(dir, "missing.jsonl"), ""},
		{"-", ""},
		{"", ""},
	} {
		err := Check(inputs, tc.out)
		got := ""
		if err != nil {
			got = err.Error()
			var ce *ClashError
			if !errors.As(err, &ce) {
				t.Errorf("%s: error is not a *ClashError", tc.out)
			}
		}
		if got != tc.want {
			t.Errorf("Check(%s)\n got %q\nwant %q", tc.out, got, tc.want)
		}
	}
}
