//go:build unix

package fakemcp

import (
	"os/exec"
	"syscall"
)

// newSession starts cmd in a new session (setsid): out of the server's
// process group, as a daemon would be.
func newSession(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }
