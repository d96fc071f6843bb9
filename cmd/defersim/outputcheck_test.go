package main

import (
	"strings"
	"testing"
)

// checkOutput reports each of want that the output named what lacks, and
// each of notWant that it holds.
func checkOutput(t *testing.T, what, got string, want, notWant []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, got)
		}
	}
	for _, w := range notWant {
		if strings.Contains(got, w) {
			t.Errorf("%s has %q:\n%s", what, w, got)
		}
	}
}
