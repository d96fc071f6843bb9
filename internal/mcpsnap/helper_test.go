package mcpsnap

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/defersim/defersim/internal/mcpsnap/fakemcp"
)

// TestHelperFakeServer is not a test: re-executed with fakemcp.EnvMode set,
// the test binary becomes the fake MCP server.
func TestHelperFakeServer(t *testing.T) {
	mode := os.Getenv(fakemcp.EnvMode)
	if mode == "" {
		return
	}
	fakemcp.Main(mode)
}

// fakeTarget runs the fake server in mode; it records its pids in the
// returned file.
func fakeTarget(t *testing.T, mode string, env ...string) (Target, string) {
	t.Helper()
	pidFile := filepath.Join(t.TempDir(), "pids")
	return Target{
		Name:    "fake",
		Command: os.Args[0],
		Args:    []string{"-test.run=^TestHelperFakeServer$"},
		Env:     append([]string{fakemcp.EnvMode + "=" + mode, fakemcp.EnvPIDFile + "=" + pidFile}, env...),
	}, pidFile
}
