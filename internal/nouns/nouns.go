// Package nouns writes a count with its noun: "1 server", "2 servers".
package nouns

import "strconv"

// Count returns n followed by noun, with an "s" added unless n is 1. It is
// for regular plurals only ("server", "tool", "catalog change").
func Count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
