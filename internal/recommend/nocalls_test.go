package recommend

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/json"
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
	stripped := filepath.Join(t.TempDir(), "nocalls.jsonl.gz")
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

// writeWithoutToolCalls copies the gzipped JSONL trace src to dst without
// its tool_call events.
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
	out, err := os.Create(dst)
	if err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(out)
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	kept, dropped := 0, 0
	for sc.Scan() {
		var ev struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatal(err)
		}
		if ev.Type == "tool_call" {
			dropped++
			continue
		}
		kept++
		if _, err := zw.Write(append(sc.Bytes(), '\n')); err != nil {
			t.Fatal(err)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	if dropped == 0 || kept == 0 {
		t.Fatalf("kept %d events, dropped %d tool calls: the planted trace changed", kept, dropped)
	}
}
