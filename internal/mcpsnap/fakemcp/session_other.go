//go:build !unix

package fakemcp

import "os/exec"

// newSession does nothing where sessions do not exist.
func newSession(*exec.Cmd) {}
