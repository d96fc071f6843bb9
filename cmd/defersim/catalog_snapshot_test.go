package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/mcpsnap"
	"github.com/defersim/defersim/internal/mcpsnap/fakemcp"
)

// TestHelperFakeMCP is not a test: re-executed with fakemcp.EnvMode set, the
// test binary becomes a fake MCP server.
func TestHelperFakeMCP(t *testing.T) {
	if mode := os.Getenv(fakemcp.EnvMode); mode != "" {
		fakemcp.Main(mode)
	}
}

// runCatalogCmd runs "defersim catalog ARGS..." and returns the output, the
// exit status and the exit message.
func runCatalogCmd(t *testing.T, args ...string) (string, int, string) {
	t.Helper()
	root := newRootCmd()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(append([]string{"catalog"}, args...))
	err := root.Execute()
	var ex exitError
	switch {
	case err == nil:
		return out.String(), 0, ""
	case errors.As(err, &ex):
		return out.String(), ex.code, ex.msg
	default:
		return out.String(), 2, err.Error()
	}
}

// fakeArgs are the snapshot arguments that start the fake server in mode.
func fakeArgs(mode string) []string {
	return []string{"--env", fakemcp.EnvMode + "=" + mode, "--", os.Args[0], "-test.run=^TestHelperFakeMCP$"}
}

func TestCatalogSnapshotCmd(t *testing.T) {
	dir := t.TempDir()
	out, code, msg := runCatalogCmd(t, append([]string{"snapshot", "-o", dir, "--captures", "2", "--name", "fake", "--version", "9.9"}, fakeArgs(fakemcp.ModeOK)...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, msg, out)
	}
	path := filepath.Join(dir, "fake@9.9.json")
	for _, want := range []string{"wrote " + path, "7 tools, 3 pages", "2 captures: tool count and fingerprint identical", "median"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	srv, err := catalog.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := mcpsnap.ReadMeta(mcpsnap.MetaPath(path))
	if err != nil {
		t.Fatal(err)
	}
	if srv.Fingerprint != m.Fingerprint || m.Captures != 2 || len(m.EnvKeys) != 1 || m.EnvKeys[0] != fakemcp.EnvMode {
		t.Errorf("meta %+v does not match the catalog (fingerprint %s)", m, srv.Fingerprint)
	}
	meta, _ := os.ReadFile(mcpsnap.MetaPath(path))
	if strings.Contains(string(meta), fakemcp.EnvMode+"="+fakemcp.ModeOK) {
		t.Error("the metadata records an environment value")
	}
}

func TestCatalogSnapshotCmdErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"server exits early", append([]string{"snapshot", "-o", dir}, fakeArgs(fakemcp.ModeExitEarly)...), 1, "step initialize failed (exited)"},
		{"junk on stdout", append([]string{"snapshot", "-o", dir}, fakeArgs(fakemcp.ModeJunk)...), 1, "step initialize failed (junk-on-stdout)"},
		{"unstable required stable", append([]string{"snapshot", "-o", dir, "--require-stable", "--env", fakemcp.EnvState + "=" + filepath.Join(dir, "n")}, fakeArgs(fakemcp.ModeUnstable)...), 1, "captures disagree"},
		{"no server", []string{"snapshot", "-o", dir}, 2, "no server"},
		{"url and command", []string{"snapshot", "--url", "http://127.0.0.1:1/", "--", "x"}, 2, "not both"},
		{"bad env", []string{"snapshot", "--env", "NOVALUE", "--", "x"}, 2, "KEY=VALUE"},
		{"config and command", []string{"snapshot", "--from-config", "c.json", "--", "x"}, 2, "--from-config takes no command"},
		{"zero captures", []string{"snapshot", "--captures", "0", "--", "x"}, 2, "--captures"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, code, msg := runCatalogCmd(t, tc.args...)
			if code != tc.code || !strings.Contains(msg, tc.msg) {
				t.Errorf("exit %d %q, want %d and a message containing %q\n%s", code, msg, tc.code, tc.msg, out)
			}
		})
	}
}

// TestCatalogSnapshotCmdTimeout: a server that never answers tools/list
// fails the snapshot at that step with a timeout. It no longer assumes the
// machine starts the fake server within a 3 s --timeout (on a loaded one
// it timed out at initialize): the command runs under a context that ends
// as a deadline does once the fake reports it hangs on tools/list, and
// --timeout only guards against a fake that never says so.
func TestCatalogSnapshotCmdTimeout(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pids")
	ctx, stop := fakemcp.HungContext(pidFile)
	defer stop()
	args := append([]string{"catalog", "snapshot", "-o", t.TempDir(), "--timeout", "2m", "--env", fakemcp.EnvPIDFile + "=" + pidFile},
		fakeArgs(fakemcp.ModeHangList)...)
	msg, code := runCLIContext(t, ctx, args...)
	if code != 1 || !strings.Contains(msg, "step tools/list failed (timeout)") {
		t.Errorf("exit %d, want 1 and a message containing %q\n%s", code, "step tools/list failed (timeout)", msg)
	}
	if b, _ := os.ReadFile(pidFile); !strings.Contains(string(b), "hung ") {
		t.Errorf("the snapshot timed out before the server said it hangs (pid file %q)", b)
	}
}

func TestCatalogSnapshotCmdFromConfig(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.json")
	entry := func(mode string) map[string]any {
		return map[string]any{"command": os.Args[0], "args": []string{"-test.run=^TestHelperFakeMCP$"}, "env": map[string]string{fakemcp.EnvMode: mode}}
	}
	data, err := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"good":   entry(fakemcp.ModeOK),
		"broken": entry(fakemcp.ModeExitEarly),
	}})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, data, 0o644); err != nil {
		t.Fatal(err)
	}
	outDir := filepath.Join(dir, "snaps")
	out, code, msg := runCatalogCmd(t, "snapshot", "--from-config", cfg, "-o", outDir, "--captures", "1")
	if code != 1 || !strings.Contains(msg, "1 of 2 servers failed: broken") {
		t.Errorf("exit %d %q, want 1 naming the broken server", code, msg)
	}
	if !strings.Contains(out, "FAILED broken: step initialize failed (exited)") || !strings.Contains(out, "cannot read config file") {
		t.Errorf("output does not explain the failure:\n%s", out)
	}
	if _, err := catalog.LoadFile(filepath.Join(outDir, "good@1.2.3.json")); err != nil {
		t.Errorf("the good server was not written: %v", err)
	}
}

func TestCatalogSnapshotCmdURL(t *testing.T) {
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return fakemcp.NewSDKServer(4) }, nil))
	defer srv.Close()
	dir := t.TempDir()
	path := filepath.Join(dir, "remote.json")
	out, code, msg := runCatalogCmd(t, "snapshot", "--url", srv.URL, "-o", path, "--captures", "1")
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, msg, out)
	}
	m, err := mcpsnap.ReadMeta(mcpsnap.MetaPath(path))
	if err != nil {
		t.Fatal(err)
	}
	if m.Transport != "streamable-http" || m.ToolCount != 7 || m.Pages != 2 {
		t.Errorf("meta: transport %s, %d tools, %d pages", m.Transport, m.ToolCount, m.Pages)
	}
}

// TestCatalogSnapshotSIGTERM pins issue 18.8: catalog snapshot caught only
// SIGINT, so SIGTERM (what timeout and CI send) left the server's process
// group running, and a grandchild started with setsid survived even
// SIGINT. SIGTERM now cancels the capture, and the server, its group and
// the setsid grandchild are all gone when the command returns.
func TestCatalogSnapshotSIGTERM(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pids")
	done, returned := make(chan struct{}), make(chan struct{})
	go func() {
		// No deadline of its own (it had 30 s, then sent nothing): it
		// signals once the server has spawned its child, or stops when
		// the command returned without it (--timeout guards the command).
		defer close(done)
		for {
			if b, _ := os.ReadFile(pidFile); strings.Contains(string(b), "child ") {
				syscall.Kill(os.Getpid(), syscall.SIGTERM)
				return
			}
			select {
			case <-returned:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	args := []string{"snapshot", "-o", filepath.Join(t.TempDir(), "x.json"), "--timeout", "2m",
		"--env", fakemcp.EnvPIDFile + "=" + pidFile}
	out, code, msg := runCatalogCmd(t, append(args, fakeArgs(fakemcp.ModeHangSetsid)...)...)
	close(returned)
	<-done
	if code == 0 || !strings.Contains(out+msg, "canceled") {
		t.Fatalf("exit %d, want a canceled capture:\n%s%s", code, out, msg)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		_, n, _ := strings.Cut(line, " ")
		pid, _ := strconv.Atoi(n)
		// Generous: the wait ends as soon as the process is dead, and a
		// loaded machine may be slow to deliver SIGKILL and reap (it was 5 s).
		deadline := time.Now().Add(time.Minute)
		for {
			st, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
			if len(st) == 0 || strings.Contains(string(st), ") Z ") {
				break
			}
			if time.Now().After(deadline) {
				t.Errorf("%s is still alive after SIGTERM", line)
				syscall.Kill(pid, syscall.SIGKILL)
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}
