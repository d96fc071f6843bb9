package tokens

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
)

// proseAndJSON returns realistic long texts: prose with punctuation, numbers
// and newlines, and the compact JSON of a large tool list.
func proseAndJSON() map[string]string {
	words := []string{"the", "Read", "file", "from", "disk,", "return", "its", "contents.", "42", "3.14",
		"naïve", "café", "日本語", "(optional)", "user's", "don't", "e-mail:", "https://example.com/a/b?c=d", "\t", "—", "\"quoted\""}
	r := rand.New(rand.NewPCG(1, 2))
	var prose strings.Builder
	for i := range 6000 {
		if i > 0 {
			switch r.IntN(12) {
			case 0:
				prose.WriteString("\n")
			case 1:
				prose.WriteString("\n\n")
			case 2:
				prose.WriteString("  ")
			default:
				prose.WriteString(" ")
			}
		}
		prose.WriteString(words[r.IntN(len(words))])
	}
	var tools []map[string]any
	for i := range 300 {
		tools = append(tools, map[string]any{"name": fmt.Sprintf("tool_%d", i), "description": "Does thing number " + fmt.Sprint(i) + " for the user; see the docs.",
			"inputSchema": map[string]any{"type": "object", "properties": map[string]any{"path": map[string]any{"type": "string", "description": "A path."}}}})
	}
	js, _ := json.Marshal(map[string]any{"tools": tools})
	indented, _ := json.MarshalIndent(map[string]any{"tools": tools[:100]}, "", "  ")
	return map[string]string{"prose": prose.String(), "compact json": string(js), "indented json": string(indented)}
}
