package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestPerRequestCacheSplitUnderOpenAI pins the per-request CSV's cache
// columns: it gave each request's prompt tokens only, so an OpenAI fleet
// could not check the replay's cached split against its logs'
// prompt_tokens_details.cached_tokens. A hand-written chat-completions log
// (one conversation, a system prompt above the 1,024-token minimum) is
// imported with --from openai-messages and replayed under gpt-4o; each
// request's sim_cache_read_tokens must be what OpenAI's rule gives for the
// previous request's prompt (the conversation only appends, so the whole
// previous prompt is a cached prefix): 1,024 plus whole 128-token steps, 0
// below 1,024 or on the first request; sim_cache_write_tokens the
// cacheable part of the prompt beyond that; recorded_cache_read_tokens the
// log's cached_tokens, empty where it recorded none.
func TestPerRequestCacheSplitUnderOpenAI(t *testing.T) {
	dir := t.TempDir()
	cached := []int{0, 2048, 2048, 2176} // the log's cached_tokens per assistant message
	rule := "Policy: verify the account number, region and plan before changing any resource, and log every change. "
	msgs := []map[string]any{{"role": "system", "content": strings.Repeat(rule, 60)},
		{"role": "user", "content": "Resize my largest instance on account A-1234 to large."}}
	for i, c := range cached {
		usage := map[string]any{"prompt_tokens": 2100 + 60*i, "completion_tokens": 20, "prompt_tokens_details": map[string]any{"cached_tokens": c}}
		if i == len(cached)-1 {
			msgs = append(msgs, map[string]any{"role": "assistant", "content": "Done: i-2 is now large.", "usage": usage})
			break
		}
		id := fmt.Sprintf("c%d", i)
		msgs = append(msgs, map[string]any{"role": "assistant", "content": nil, "usage": usage,
			"tool_calls": []any{map[string]any{"id": id, "type": "function", "function": map[string]any{"name": "get_account", "arguments": `{"account_id":"A-1234"}`}}}},
			map[string]any{"role": "tool", "tool_call_id": id, "content": `{"plan":"pro","region":"eu-west","instances":["i-1","i-2"]}`})
	}
	conv := map[string]any{"id": "acme-1", "model": "gpt-4o-2024-08-06", "messages": msgs,
		"tools": []any{map[string]any{"type": "function", "function": map[string]any{"name": "get_account", "description": "Look up a customer account.",
			"parameters": map[string]any{"type": "object", "properties": map[string]any{"account_id": map[string]any{"type": "string"}}, "required": []string{"account_id"}}}}}}
	data, err := json.Marshal(conv)
	if err != nil {
		t.Fatal(err)
	}
	log, trace, pairs := filepath.Join(dir, "acme.json"), filepath.Join(dir, "acme.jsonl.gz"), filepath.Join(dir, "pairs.csv")
	scen := filepath.Join(dir, "gpt4o.yaml")
	if err := os.WriteFile(log, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(scen, []byte("model: gpt-4o\nstrategies: [eager]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"trace", "import", "--from", "openai-messages", log, "-o", trace, "-q"},
		{"run", scen, "--traces", trace, "--per-request", pairs, "--no-report", "--bootstrap", "-1", "-q", "-o", filepath.Join(dir, "run")},
	} {
		if out, errs, code := cliRun(t, args...); code != 0 {
			t.Fatalf("%v: exit %d\n%s%s", args, code, out, errs)
		}
	}
	rows := readCSV(t, pairs)
	num := func(r map[string]string, name string) int {
		t.Helper()
		v, ok := r[name]
		if !ok {
			t.Fatalf("no column %q in %v", name, r)
		}
		return int(atoi(t, v))
	}
	// OpenAI's rule (REFERENCE §3), with the gpt-4o preset's 1,024 and 128.
	cacheable := func(tokens int) int {
		if tokens < 1024 {
			return 0
		}
		return 1024 + (tokens-1024)/128*128
	}
	if len(rows) != len(cached) {
		t.Fatalf("%d pairs, want %d:\n%v", len(rows), len(cached), rows)
	}
	prev := 0
	for i, r := range rows {
		in, read, write := num(r, "sim_input_tokens"), num(r, "sim_cache_read_tokens"), num(r, "sim_cache_write_tokens")
		if want := cacheable(prev); read != want {
			t.Errorf("request %d: sim_cache_read_tokens %d, want %d (the previous prompt of %d tokens, cached in steps)", i, read, want, prev)
		}
		if want := cacheable(in) - read; write != want {
			t.Errorf("request %d: sim_cache_write_tokens %d, want %d (the cacheable %d of %d tokens beyond the %d read)", i, write, want, cacheable(in), in, read)
		}
		want := ""
		if cached[i] > 0 {
			want = strconv.Itoa(cached[i])
		}
		if got := r["recorded_cache_read_tokens"]; got != want {
			t.Errorf("request %d: recorded_cache_read_tokens %q, want %q", i, got, want)
		}
		prev = in
	}
}
