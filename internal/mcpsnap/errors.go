package mcpsnap

import (
	"fmt"
	"strings"
)

// Step names a stage of a capture.
type Step string

// Capture steps, in order.
const (
	StepStart      Step = "start"
	StepInitialize Step = "initialize"
	StepToolsList  Step = "tools/list"
)

// Failure classifies why a step failed.
type Failure string

// Failure classes.
const (
	// FailTimeout: the step did not finish before the capture's deadline.
	FailTimeout Failure = "timeout"
	// FailExited: the server process exited (or closed its stdout) before
	// answering.
	FailExited Failure = "exited"
	// FailJunk: the server wrote something that is not a JSON-RPC message on
	// stdout.
	FailJunk Failure = "junk-on-stdout"
	// FailProtocol: the server answered with an error or an invalid result.
	FailProtocol Failure = "protocol"
	// FailLaunch: the command could not be started at all.
	FailLaunch Failure = "launch"
	// FailConnect: nothing answered at the server's URL (connection
	// refused, no such host).
	FailConnect Failure = "connect"
	// FailCanceled: the caller canceled the capture (Ctrl-C).
	FailCanceled Failure = "canceled"
)

// StepError is a failed capture: the step that failed, why, and what the
// server last wrote on stderr.
type StepError struct {
	Server  string
	Step    Step
	Failure Failure
	// Detail is a one-line account (the junk line, the exit status, the
	// server's error message).
	Detail string
	// Stderr holds the server's last stderr lines, oldest first; nil when no
	// process ran (the command could not start, or an HTTP server).
	Stderr []string
	Err    error
}

func (e *StepError) Error() string {
	var b strings.Builder
	if e.Server != "" {
		fmt.Fprintf(&b, "%s: ", e.Server)
	}
	fmt.Fprintf(&b, "step %s failed (%s)", e.Step, e.Failure)
	if e.Detail != "" {
		fmt.Fprintf(&b, ": %s", e.Detail)
	}
	switch {
	case e.Stderr == nil:
		// No process ran (launch failure, HTTP server): no stderr to show.
	case len(e.Stderr) == 0:
		b.WriteString("\n  server stderr: (empty)")
	case len(e.Stderr) == 1:
		b.WriteString("\n  server stderr (last line):")
	default:
		fmt.Fprintf(&b, "\n  server stderr (last %d lines):", len(e.Stderr))
	}
	for _, l := range e.Stderr {
		b.WriteString("\n    | ")
		b.WriteString(l)
	}
	return b.String()
}

func (e *StepError) Unwrap() error { return e.Err }
