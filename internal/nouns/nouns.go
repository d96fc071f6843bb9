// Package nouns writes a count with its noun: "1 server", "2 servers".
package nouns

import "strconv"

// Count returns n followed by noun, with an "s" added unless n is 1. It is
// for regular plurals only ("server", "tool", "catalog change").
func Count[N ~int | ~int64](n N, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.FormatInt(int64(n), 10) + " " + noun + "s"
}
