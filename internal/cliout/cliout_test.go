package cliout

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

func TestFormatFlag(t *testing.T) {
	c := &cobra.Command{Use: "x"}
	f := AddFormat(c, Text, JSON)
	AddJSONAlias(c, f)
	if err := c.Flags().Parse([]string{"--format", "csv"}); err == nil || !strings.Contains(err.Error(), "want text or json") {
		t.Errorf("--format csv on a text|json command: %v", err)
	}
	if err := c.Flags().Parse([]string{"--json"}); err != nil || *f != JSON {
		t.Errorf("--json alias: %v, format %q", err, *f)
	}
	var warn bytes.Buffer
	WarnDeprecated(c, &warn)
	if !strings.Contains(warn.String(), "--json is deprecated: use --format json") {
		t.Errorf("warning %q", warn.String())
	}
	if c.Flags().Lookup("json").Hidden != true {
		t.Error("the deprecated flag is listed in the help")
	}
}

func TestSinkWritesFileOnlyOnCommit(t *testing.T) {
	var stdout bytes.Buffer
	if s, err := Open("-", &stdout); err != nil || s.ToFile() {
		t.Errorf("- is not stdout (err %v)", err)
	}
	path := filepath.Join(t.TempDir(), "out.txt")
	s, err := Open(path, &stdout)
	if err != nil {
		t.Fatal(err)
	}
	s.Write([]byte("hello"))
	if _, err := os.Stat(path); err == nil {
		t.Error("file written before Commit")
	}
	if err := s.Commit(); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); string(data) != "hello" || stdout.Len() != 0 {
		t.Errorf("file %q, stdout %q", data, stdout.String())
	}
}

// TestSinkRefusesAnInput pins issue 18's "every command that writes
// refuses to write onto any of its inputs" for the -o FILE of the commands
// that print a report (trace stats, trace validate, tokens, catalog
// stats/diff/history once overwrote their input and exited 0).
func TestSinkRefusesAnInput(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.txt")
	if err := os.WriteFile(in, []byte("input"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout bytes.Buffer
	for _, out := range []string{in, filepath.Join(dir, ".", "in.txt")} {
		if _, err := Open(out, &stdout, "other", in); err == nil {
			t.Errorf("Open(%s) over the input was allowed", out)
		}
	}
	if _, err := Open(filepath.Join(dir, "out.txt"), &stdout, in); err != nil {
		t.Errorf("a new file was refused: %v", err)
	}
	if _, err := Open(filepath.Join(dir, "x.txt"), &stdout, dir); err == nil {
		t.Error("a file inside an input directory was allowed")
	}
}

func TestStdinOnce(t *testing.T) {
	in := &Inputs{Stdin: strings.NewReader("data")}
	got, err := in.ReadFile("-")
	if err != nil || string(got) != "data" {
		t.Fatalf("%q %v", got, err)
	}
	if _, err := in.ReadFile("-"); err == nil {
		t.Error("stdin read twice without an error")
	}
	if _, err := in.ReadFile(filepath.Join(t.TempDir(), "missing")); err == nil || strings.Count(err.Error(), "missing") != 1 {
		t.Errorf("missing file: %v", err)
	}
}

func TestCSVEscapesFormulas(t *testing.T) {
	var b bytes.Buffer
	if err := WriteCSV(&b, []string{"a", "b"}, [][]string{{"=SUM(A1)", "-3.5"}, {"@cmd", "plain"}}); err != nil {
		t.Fatal(err)
	}
	want := "a,b\n'=SUM(A1),-3.5\n'@cmd,plain\n"
	if b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}

// TestOpenRefusesADirectory pins that a directory given where a command
// reads a file is an open error (exit 2: cannot be read) that says so:
// `trace validate DIR` used to report "read error: read DIR: is a
// directory" as a problem at line 1 of an invalid trace (exit 1), and
// `trace stats DIR` the same.
func TestOpenRefusesADirectory(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f.txt")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path    string
		wantErr bool
	}{{dir, true}, {file, false}} {
		var in Inputs
		r, _, err := in.Open(tc.path)
		if r != nil {
			r.Close()
		}
		if got := err != nil; got != tc.wantErr {
			t.Errorf("Open(%s): error %v, want an error: %v", tc.path, err, tc.wantErr)
			continue
		}
		var pe *fs.PathError
		if tc.wantErr && (!errors.Is(err, ErrDirectory) || !errors.As(err, &pe) || pe.Path != tc.path) {
			t.Errorf("Open(%s): %v, want a *fs.PathError naming it, wrapping ErrDirectory", tc.path, err)
		}
	}
}
