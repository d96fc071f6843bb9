package mcpsnap

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestToolsOfPages(t *testing.T) {
	tests := []struct {
		name    string
		pages   []string
		want    int
		wantErr string
	}{
		{"two pages", []string{`{"tools":[{"name":"a"}],"nextCursor":"x"}`, `{"tools":[{"name":"b"},{"name":"c"}]}`}, 3, ""},
		{"empty list", []string{`{"tools":[]}`}, 0, ""},
		{"no tools member", []string{`{"items":[]}`}, 0, `no "tools" array`},
		{"tools not array", []string{`{"tools":{}}`}, 0, "invalid tools/list result"},
		{"tool not object", []string{`{"tools":[1]}`}, 0, "tools[0] is not an object"},
		{"null tool", []string{`{"tools":[null]}`}, 0, "tools[0] is not an object"},
		{"second page bad", []string{`{"tools":[]}`, `[]`}, 0, "page 2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var raws []json.RawMessage
			for _, p := range tc.pages {
				raws = append(raws, json.RawMessage(p))
			}
			got, err := toolsOfPages(raws)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || len(got) != tc.want {
				t.Fatalf("got %d tools, %v; want %d", len(got), err, tc.want)
			}
		})
	}
}

func FuzzToolsOfPages(f *testing.F) {
	f.Add([]byte(`{"tools":[{"name":"a","inputSchema":{"type":"object"}}],"nextCursor":"2"}`))
	f.Add([]byte(`{"tools":[]}`))
	f.Add([]byte(`{"tools":[null,1,"x"]}`))
	f.Fuzz(func(t *testing.T, page []byte) {
		tools, err := toolsOfPages([]json.RawMessage{page})
		if err != nil {
			return
		}
		for _, tool := range tools {
			if !json.Valid(tool) || bytes.TrimSpace(tool)[0] != '{' {
				t.Fatalf("accepted a tool that is not a JSON object: %q", tool)
			}
		}
		// The catalog file built from them is valid JSON.
		if !json.Valid(toolsFile(tools, true)) {
			t.Fatalf("catalog file from %q is not valid JSON", page)
		}
	})
}
