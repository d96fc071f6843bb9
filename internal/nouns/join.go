package nouns

import "strings"

// And joins items as a sentence lists them: "", "a", "a and b",
// "a, b and c" (no comma before the last word, as every list the project
// prints is written).
func And(items []string) string { return join(items, "and") }

// Or is And with "or": "a", "a or b", "a, b or c".
func Or(items []string) string { return join(items, "or") }

// join joins items with commas and word before the last.
func join(items []string, word string) string {
	if len(items) <= 1 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " " + word + " " + items[len(items)-1]
}
