// Package nouns writes a count with its noun ("1 server", "2 servers") and
// joins a list as prose does ("a, b and c").
package nouns

import "strconv"

// Count returns n followed by noun, with an "s" added unless n is 1. It is
// for regular plurals only ("server", "tool", "catalog change").
func Count[N ~int | ~int64](n N, noun string) string {
	return CountAs(n, noun, noun+"s")
}

// CountAs is Count for a noun whose plural is not noun+"s": it returns n
// followed by one when n is 1, else by many ("1 strategy", "2 strategies").
func CountAs[N ~int | ~int64](n N, one, many string) string {
	return strconv.FormatInt(int64(n), 10) + " " + Form(n, one, many)
}

// Form returns the noun alone, one when n is 1 and many otherwise, for a
// count written another way (with thousands separators, say).
func Form[N ~int | ~int64](n N, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
