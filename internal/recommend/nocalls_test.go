package recommend

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRecommendRefusesTracesWithoutCalls pins that recommend stops (an
// error, exit 2) on traces that record no tool call: it used to propose
// deferring every tool, with a validation that found the proposal "no
// worse" than every strategy, from sessions that said nothing about which
// tools open them (a trace whose importer kept no calls).
func TestRecommendRefusesTracesWithoutCalls(t *testing.T) {
	trace, cat := planted(t, 60)
	stripped := filepath.Join(t.TempDir(), "nocalls.jsonl")
	writeWithoutToolCalls(t, trace, stripped)
	for _, tc := range []struct {
		name    string
		trace   string
		wantErr bool
	}{
		{"with calls", trace, false},
		{"without calls", stripped, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Run(context.Background(), defaultConfig(t, tc.trace, cat))
			if (err != nil) != tc.wantErr {
				t.Fatalf("error %v, want error %v", err, tc.wantErr)
			}
			if err != nil && (!strings.Contains(err.Error(), "calls a tool") || !strings.Contains(err.Error(), "trace stats")) {
				t.Errorf("error %q does not say that no session calls a tool and how to check", err)
			}
		})
	}
}

// writeWithoutToolCalls copies the gzipped JSONL trace src to dst, plain
// JSONL, without its tool_call events.
func writeWithoutToolCalls(t *testing.T, src, dst string) {
	t.Helper()
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	zr, err := gzip.NewReader(in)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	for _, line := range lines {
		var ev struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatal(err)
		}
		if ev.Type != "tool_call" {
			kept = append(kept, line)
		}
	}
	if len(kept) == len(lines) || len(kept) == 0 {
		t.Fatalf("kept %d of %d events: the planted trace changed", len(kept), len(lines))
	}
	if err := os.WriteFile(dst, []byte(strings.Join(kept, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}
