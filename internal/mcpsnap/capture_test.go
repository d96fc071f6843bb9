//go:build unix

package mcpsnap

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/defersim/defersim/internal/mcpsnap/fakemcp"
)

// readPIDs parses the fake's pid file into kind → pids.
func readPIDs(t *testing.T, path string) map[string][]int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("fake server wrote no pid file: %v", err)
	}
	out := map[string][]int{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		kind, n, _ := strings.Cut(line, " ")
		pid, err := strconv.Atoi(n)
		if err != nil {
			t.Fatalf("pid file line %q", line)
		}
		out[kind] = append(out[kind], pid)
	}
	return out
}

// processState returns the state letter of pid from /proc ("" when gone).
func processState(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return ""
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 || i+2 >= len(s) {
		return ""
	}
	return s[i+2 : i+3]
}

// reapDeadline bounds the wait for a killed process to die. The wait ends
// as soon as it is dead; the bound is generous so that a loaded machine,
// slow to deliver SIGKILL and reap, is not taken for a survivor (it was 5 s).
const reapDeadline = time.Minute

// assertNoChildren checks that the server process was reaped (it no longer
// exists at all) and that anything it spawned is dead (gone, or a zombie
// waiting for init, which is not ours to reap).
func assertNoChildren(t *testing.T, pidFile string) {
	t.Helper()
	pids := readPIDs(t, pidFile)
	if len(pids["self"]) == 0 {
		t.Fatal("pid file names no server process")
	}
	for _, pid := range pids["self"] {
		if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
			t.Errorf("server process %d still exists (state %q): not reaped", pid, processState(pid))
		}
	}
	for _, pid := range pids["child"] {
		deadline := time.Now().Add(reapDeadline)
		for {
			st := processState(pid)
			if st == "" || st == "Z" {
				break
			}
			if time.Now().After(deadline) {
				t.Errorf("process %d spawned by the server is still alive (state %q)", pid, st)
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

func compact(t *testing.T, s string) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func toolName(t *testing.T, raw string) string {
	t.Helper()
	var tool struct{ Name string }
	if err := json.Unmarshal([]byte(raw), &tool); err != nil {
		t.Fatal(err)
	}
	return tool.Name
}

func TestRunPaginatesAndKeepsToolsAsServed(t *testing.T) {
	tests := []struct {
		mode      string
		pageSize  string
		wantPages int
		// sdk: the SDK's server serves tools sorted by name and re-encodes
		// them, so only names and their order are checked.
		sdk bool
	}{
		{fakemcp.ModeOK, "3", 3, false},
		{fakemcp.ModeOK, "100", 1, false},
		{fakemcp.ModeOK, "1", 7, false},
		{fakemcp.ModeSDK, "3", 3, true},
	}
	for _, tc := range tests {
		t.Run(tc.mode+"/page"+tc.pageSize, func(t *testing.T) {
			tgt, pidFile := fakeTarget(t, tc.mode, fakemcp.EnvPageSize+"="+tc.pageSize)
			c, err := Run(context.Background(), tgt, Options{Timeout: 20 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			assertNoChildren(t, pidFile)
			if c.Pages != tc.wantPages {
				t.Errorf("pages = %d, want %d", c.Pages, tc.wantPages)
			}
			if len(c.Tools) != len(fakemcp.Tools) {
				t.Fatalf("tools = %d, want %d", len(c.Tools), len(fakemcp.Tools))
			}
			want := slices.Clone(fakemcp.Tools)
			if tc.sdk {
				slices.SortFunc(want, func(a, b string) int { return strings.Compare(toolName(t, a), toolName(t, b)) })
			}
			for i, raw := range c.Tools {
				if got, w := toolName(t, string(raw)), toolName(t, want[i]); got != w {
					t.Errorf("tools[%d] = %s, want %s (served order)", i, got, w)
				}
				if !tc.sdk && string(raw) != compact(t, want[i]) {
					t.Errorf("tools[%d] changed in capture:\n got %s\nwant %s", i, raw, want[i])
				}
			}
			if c.InitializeAfter <= 0 || c.ToolsListAfter < c.InitializeAfter {
				t.Errorf("timings: initialize %v, tools/list %v", c.InitializeAfter, c.ToolsListAfter)
			}
			if c.PID == 0 {
				t.Error("no PID recorded")
			}
			if tc.mode == fakemcp.ModeOK && !strings.Contains(strings.Join(c.Stderr, "\n"), "fake: ready") {
				t.Errorf("stderr tail %q lacks the server's ready line", c.Stderr)
			}
		})
	}
}

// hangGuard is the capture timeout of the tests of a hanging server. They
// do not wait for it: a context from fakemcp.HungContext ends as a deadline
// does once the server reports it hangs. (A 3 s timeout assumed the test
// binary, re-executed as the server, started and printed its stderr line
// within 3 s; on a loaded machine it could time out at another step, or
// before the server's line.) It ends the capture if the server never says
// so.
const hangGuard = 2 * time.Minute

func TestRunFailures(t *testing.T) {
	tests := []struct {
		mode        string
		timeout     time.Duration // hangGuard: timed out by HungContext
		step        Step
		failure     Failure
		detail      string // substring of Detail
		stderr      string // substring of the stderr tail
		stderrLines int    // exact number of stderr lines, when > 0
	}{
		{fakemcp.ModeExitEarly, 20 * time.Second, StepInitialize, FailExited, "exit status 3", "cannot read config file", 0},
		{fakemcp.ModeJunk, 20 * time.Second, StepInitialize, FailJunk, `"fake server v0.1 starting"`, "printing a banner", 0},
		{fakemcp.ModeBadMessage, 20 * time.Second, StepInitialize, FailJunk, `"{\"status\":\"booting\"}"`, "stray JSON object", 0},
		{fakemcp.ModeHang, hangGuard, StepInitialize, FailTimeout, "within the 2m0s timeout", "fake: hanging", 0},
		// Issue 18.8: a child in a new session (setsid) survived the
		// process-group kill; assertNoChildren checks it is dead.
		{fakemcp.ModeHangSetsid, hangGuard, StepInitialize, FailTimeout, "within the 2m0s timeout", "fake: hanging", 0},
		{fakemcp.ModeHangList, hangGuard, StepToolsList, FailTimeout, "within the 2m0s timeout", "fake: ready", 0},
		{fakemcp.ModeExitOnList, 20 * time.Second, StepToolsList, FailExited, "exit status 4", "crashing on tools/list", 0},
		{fakemcp.ModeCursorLoop, 20 * time.Second, StepToolsList, FailProtocol, `cursor "same" twice`, "fake: ready", 0},
		{fakemcp.ModeErrorInit, 20 * time.Second, StepInitialize, FailProtocol, "boom: fake initialize failure", "fake: ready", 0},
		{fakemcp.ModeFlood, 20 * time.Second, StepInitialize, FailExited, "exit status 1", "fake: flood line 100", 20},
	}
	for _, tc := range tests {
		t.Run(tc.mode, func(t *testing.T) {
			tgt, pidFile := fakeTarget(t, tc.mode)
			ctx := context.Background()
			if tc.timeout == hangGuard {
				var stop func()
				ctx, stop = fakemcp.HungContext(pidFile)
				defer stop()
			}
			_, err := Run(ctx, tgt, Options{Timeout: tc.timeout})
			var se *StepError
			if !errors.As(err, &se) {
				t.Fatalf("error %v (%T), want a *StepError", err, err)
			}
			assertNoChildren(t, pidFile)
			if tc.timeout == hangGuard && len(readPIDs(t, pidFile)["hung"]) == 0 {
				t.Errorf("the capture timed out before the server said it hangs (after the %v guard?)", hangGuard)
			}
			if se.Step != tc.step || se.Failure != tc.failure {
				t.Errorf("step %s / %s, want %s / %s\n%v", se.Step, se.Failure, tc.step, tc.failure, err)
			}
			if !strings.Contains(se.Detail, tc.detail) {
				t.Errorf("detail %q lacks %q", se.Detail, tc.detail)
			}
			tail := strings.Join(se.Stderr, "\n")
			if !strings.Contains(tail, tc.stderr) {
				t.Errorf("stderr tail %q lacks %q", se.Stderr, tc.stderr)
			}
			if tc.stderrLines > 0 && len(se.Stderr) != tc.stderrLines {
				t.Errorf("stderr tail has %d lines, want %d", len(se.Stderr), tc.stderrLines)
			}
			msg := err.Error()
			for _, want := range []string{"step " + string(tc.step), tc.stderr} {
				if !strings.Contains(msg, want) {
					t.Errorf("message lacks %q:\n%s", want, msg)
				}
			}
		})
	}
}

func TestRunCommandNotFound(t *testing.T) {
	tgt := Target{Name: "missing", Command: filepath.Join(t.TempDir(), "no-such-server")}
	_, err := Run(context.Background(), tgt, Options{})
	var se *StepError
	if !errors.As(err, &se) || se.Step != StepStart || se.Failure != FailLaunch {
		t.Fatalf("error %v, want a start/launch StepError", err)
	}
}

func TestRunInvalidTarget(t *testing.T) {
	_, err := Run(context.Background(), Target{Name: "x"}, Options{})
	var se *StepError
	if !errors.As(err, &se) || se.Step != StepStart {
		t.Fatalf("error %v, want a start StepError", err)
	}
}

// A server that ignores both stdin EOF and SIGTERM is still captured, then
// killed and reaped.
func TestRunStopsLingeringServer(t *testing.T) {
	tgt, pidFile := fakeTarget(t, fakemcp.ModeLinger)
	c, err := Run(context.Background(), tgt, Options{Timeout: 20 * time.Second, Grace: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	assertNoChildren(t, pidFile)
	if len(c.Tools) != len(fakemcp.Tools) {
		t.Errorf("tools = %d", len(c.Tools))
	}
	if !strings.Contains(strings.Join(c.Stderr, "\n"), "fake: stdin closed") {
		t.Errorf("stderr %q: the server never saw its stdin close", c.Stderr)
	}
}

func TestRunCanceled(t *testing.T) {
	tgt, pidFile := fakeTarget(t, fakemcp.ModeHang)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		// Cancel once the server is up and has spawned its child.
		for range 2000 {
			if b, err := os.ReadFile(pidFile); err == nil && strings.Contains(string(b), "child") {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		cancel()
	}()
	_, err := Run(ctx, tgt, Options{Timeout: 20 * time.Second})
	var se *StepError
	if !errors.As(err, &se) || se.Failure != FailCanceled || se.Step != StepInitialize {
		t.Fatalf("error %v, want a canceled initialize StepError", err)
	}
	assertNoChildren(t, pidFile)
}
