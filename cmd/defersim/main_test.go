package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// TestErrorIsTerminalSafe pins that the error ending a command reaches
// stderr with the control characters of the input names it quotes
// escaped: a trace path holding an escape sequence was printed raw, so a
// file name could clear the screen or forge a line.
func TestErrorIsTerminalSafe(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t\x1b[2J.jsonl")
	var stderr bytes.Buffer
	code := run([]string{"trace", "stats", path}, &stderr)
	if code != 2 {
		t.Fatalf("exit %d, want 2; stderr %q", code, stderr.String())
	}
	got := stderr.String()
	if strings.Contains(got, "\x1b") || !strings.Contains(got, `t\x1b[2J.jsonl`) {
		t.Errorf("stderr %q: want the name with its escape character escaped", got)
	}
}
