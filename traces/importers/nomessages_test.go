package importers_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/traces/importers"
)

// TestRequestResponsePairsSayWhatToWrite pins that a gateway-style log
// line ({"request": …, "response": …}, one API call) given to a messages
// importer said only `conversation without "messages"`, which does not
// tell the user to stitch the calls into conversations; and that an object
// without either keeps the plain message.
func TestRequestResponsePairsSayWhatToWrite(t *testing.T) {
	const pair = `{"request":{"model":"m","messages":[{"role":"user","content":"hi"}]},"response":{"role":"assistant","content":"yo","usage":{"input_tokens":3,"output_tokens":1}}}`
	for _, tc := range []struct {
		format, line, want, not string
	}{
		{"anthropic-messages", pair, `line 1: a request/response pair (one API call, as gateways log it), not a conversation`, `without "messages"`},
		{"openai-messages", pair, `line 1: a request/response pair`, `without "messages"`},
		{"openai-messages", `{"id":"x","response":{}}`, `conversation without "messages"`, "request/response"},
	} {
		t.Run(tc.format+"/"+tc.want, func(t *testing.T) {
			dir := t.TempDir()
			in := filepath.Join(dir, "in.jsonl")
			if err := os.WriteFile(in, []byte(tc.line+"\n"+tc.line+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := importers.Run(importers.Request{Format: tc.format, Inputs: []string{in}, Out: filepath.Join(dir, "out.jsonl")})
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), tc.not) {
				t.Fatalf("error = %v, want one containing %q and not %q", err, tc.want, tc.not)
			}
			if _, err := os.Stat(filepath.Join(dir, "out.jsonl")); !os.IsNotExist(err) {
				t.Errorf("an output was written: %v", err)
			}
		})
	}
}
