package traces

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestDocExampleIsValid checks the example session in docs/trace-format.md
// against Validate and the JSON Schema.
func TestDocExampleIsValid(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "trace-format.md"))
	if err != nil {
		t.Skipf("docs not present: %v", err)
	}
	_, rest, ok := bytes.Cut(doc, []byte("```jsonl\n"))
	example, _, ok2 := bytes.Cut(rest, []byte("```"))
	if !ok || !ok2 {
		t.Fatal("no ```jsonl block in docs/trace-format.md")
	}
	probs, counts, err := ValidateReader(bytes.NewReader(example), "example", ValidateOptions{Tools: toolSet{"issues/list_issues": true, "issues/search_issues": true}})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range probs {
		t.Error(p)
	}
	if counts.Events != 10 || counts.Sessions != 1 {
		t.Errorf("counts = %+v, want 10 events in 1 session", counts)
	}
	sch := compileSchema(t)
	for l := range bytes.SplitSeq(bytes.TrimSpace(example), []byte("\n")) {
		if !schemaAccepts(sch, l) {
			t.Errorf("schema rejects %s", l)
		}
	}
}
