//go:build !linux

package mcpsnap

import "os/exec"

// EnvTag is the environment variable that tags a server's processes (used
// on Linux only).
const EnvTag = "DEFERSIM_SNAPSHOT_TAG"

// tagProcess does nothing where /proc is not available.
func tagProcess(*exec.Cmd) string { return "" }

// killTree does nothing where /proc is not available: only the process
// group is killed.
func killTree(string) {}
