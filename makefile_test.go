package defersim

import (
	"os"
	"regexp"
	"testing"
)

// TestMakeTestHasCITimeout pins that `make test` runs go test with the
// -timeout .ci/run sets: it ran plain `go test ./...`, whose default
// 10-minute limit cmd/defersim's tests come close to on a loaded
// machine, so make test could panic where CI passes.
func TestMakeTestHasCITimeout(t *testing.T) {
	timeout := regexp.MustCompile(`-timeout=([0-9a-z]+)`)
	read := func(path string) string {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	ci := regexp.MustCompile(`(?m)^export GOFLAGS=.*-timeout=([0-9a-z]+)`).FindStringSubmatch(read(".ci/run"))
	if ci == nil {
		t.Fatal(".ci/run's GOFLAGS set no -timeout=")
	}
	target := regexp.MustCompile(`(?m)^test:\n\t(.*)$`).FindStringSubmatch(read("Makefile"))
	if target == nil {
		t.Fatal("Makefile has no test target with a command")
	}
	got := timeout.FindStringSubmatch(target[1])
	if got == nil || got[1] != ci[1] {
		t.Errorf("make test runs %q, want -timeout=%s as .ci/run", target[1], ci[1])
	}
}
