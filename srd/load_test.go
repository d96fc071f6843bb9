package srd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadPathsReadsAFileOnce pins that a file named twice — a directory
// and one of its files, or one file in two spellings — is read once. It was
// read twice and lint reported the server as "also described" at the very
// same file and line, a duplicate the user never wrote.
func TestLoadPathsReadsAFileOnce(t *testing.T) {
	dir := t.TempDir()
	const a = "srd_version: 1\nserver_id: a\ndomain: chat\ndisplay_name: A\nintent_triggers: [x]\n" +
		"disambiguation:\n  - {domain: mail, differs: not mail}\n"
	const b = "srd_version: 1\nserver_id: b\ndomain: mail\ndisplay_name: B\nintent_triggers: [y]\n" +
		"disambiguation:\n  - {domain: chat, differs: not chat}\n"
	for name, src := range map[string]string{"a.yaml": a, "b.yaml": b} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	aFile := filepath.Join(dir, "a.yaml")
	for _, tc := range []struct {
		name  string
		paths []string
		want  int // SRDs read
	}{
		{"directory", []string{dir}, 2},
		{"directory and one of its files", []string{dir, aFile}, 2},
		{"file twice", []string{aFile, aFile}, 1},
		{"file in two spellings", []string{aFile, filepath.Join(dir, ".", "a.yaml")}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srds, probs, err := LoadPaths(tc.paths)
			if err != nil || len(probs) > 0 {
				t.Fatal(err, probs)
			}
			if len(srds) != tc.want {
				t.Fatalf("read %d SRDs, want %d", len(srds), tc.want)
			}
			if lint := Lint(srds, LintOptions{KnownDomains: []string{"mail", "chat"}}); len(lint) > 0 {
				t.Errorf("lint: %v", lint)
			}
		})
	}
	// Two different files describing one server are still a duplicate.
	other := filepath.Join(t.TempDir(), "a-again.yaml")
	if err := os.WriteFile(other, []byte(a), 0o644); err != nil {
		t.Fatal(err)
	}
	srds, _, err := LoadPaths([]string{dir, other})
	if err != nil {
		t.Fatal(err)
	}
	if lint := Lint(srds, LintOptions{}); !strings.Contains(lint.Error(), "also described at "+aFile) {
		t.Errorf("a server in two files: %v", lint)
	}
}

// TestLoadFileTooLargeSaysItsSize pins that an SRD file over MaxFileSize is
// reported with its own size: the reader stops one byte past the limit and
// reported that (1048577 bytes) for a file of any size.
func TestLoadFileTooLargeSaysItsSize(t *testing.T) {
	file := filepath.Join(t.TempDir(), "big.yaml")
	if err := os.WriteFile(file, []byte(strings.Repeat("# padding\n", 300_000)), 0o644); err != nil {
		t.Fatal(err)
	}
	srds, probs, err := LoadFile(file)
	if err != nil || len(srds) > 0 || len(probs) != 1 {
		t.Fatal(srds, probs, err)
	}
	if want := "file is 3000000 bytes, more than the 1048576 allowed"; probs[0].Msg != want {
		t.Errorf("got %q, want %q", probs[0].Msg, want)
	}
}

// TestParseNotUTF8 pins that a file that is not UTF-8 (saved as Latin-1 or
// Windows-1252) is reported at the line and column of its first such byte;
// the YAML reader's message ("invalid trailing UTF-8 octet") had no line.
func TestParseNotUTF8(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"latin-1 e-acute", "srd_version: 1\nserver_id: s\ndisplay_name: Caf\xe9\n", "f:3: not UTF-8: byte 0xE9 at column 18"},
		{"after multibyte text", "summary: naïve \x92quoted\x92\n", "f:1: not UTF-8: byte 0x92 at column 16"},
		{"first byte", "\xff\n", "f:1: not UTF-8: byte 0xFF at column 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srds, probs := Parse("f", []byte(tc.src))
			if len(srds) > 0 || len(probs) != 1 || !strings.HasPrefix(probs[0].String(), tc.want) {
				t.Errorf("got %v, want one problem starting %q", probs, tc.want)
			}
		})
	}
	// UTF-8 text, and UTF-16 with a byte order mark, are read as before.
	utf16 := []byte{0xFF, 0xFE}
	for _, r := range "display_name: X\n" {
		utf16 = append(utf16, byte(r), 0)
	}
	for name, src := range map[string][]byte{"utf-8": []byte("display_name: Café\n"), "utf-16 with BOM": utf16} {
		if srds, probs := Parse("f", src); len(srds) != 1 || len(probs) > 0 {
			t.Errorf("%s: %d SRDs, problems %v", name, len(srds), probs)
		}
	}
}
