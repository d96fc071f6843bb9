package mcpsnap

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"
)

// process is a server child process whose stdin, stdout and stderr are pipes
// owned by the capture. The process is started in its own process group so
// that stopping it also stops anything it spawned.
type process struct {
	cmd     *exec.Cmd
	tag     string   // in the environment of the server and its descendants
	stdin   *os.File // write end
	stdout  io.ReadCloser
	stderr  *lineRing
	tail    *byteTail // last bytes read from stdout, for junk reports
	started time.Time

	exited     chan struct{} // closed when Wait returned
	waitErr    error         // set before exited is closed
	stderrDone chan struct{} // closed when stderr reached EOF
}

// startProcess starts t's command with pipes on all three standard streams.
func startProcess(t Target, stderrLines int) (*process, error) {
	cmd := exec.Command(t.Command, t.Args...)
	cmd.Env = append(os.Environ(), t.Env...)
	cmd.Dir = t.Dir
	setProcessGroup(cmd)
	tag := tagProcess(cmd)
	var files []*os.File
	closeAll := func() {
		for _, f := range files {
			f.Close()
		}
	}
	pipe := func() (r, w *os.File, err error) {
		r, w, err = os.Pipe()
		if err == nil {
			files = append(files, r, w)
		}
		return r, w, err
	}
	inR, inW, err := pipe()
	if err != nil {
		return nil, fmt.Errorf("stdin pipe: %w", err)
	}
	outR, outW, err := pipe()
	if err != nil {
		closeAll()
		return nil, fmt.Errorf("stdout pipe: %w", err)
	}
	errR, errW, err := pipe()
	if err != nil {
		closeAll()
		return nil, fmt.Errorf("stderr pipe: %w", err)
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	started := time.Now()
	if err := cmd.Start(); err != nil {
		closeAll()
		return nil, err
	}
	// The child holds its own copies; close ours so EOF is seen when it exits.
	inR.Close()
	outW.Close()
	errW.Close()
	p := &process{
		cmd:        cmd,
		tag:        tag,
		stdin:      inW,
		stderr:     newLineRing(stderrLines),
		tail:       &byteTail{n: 4096},
		started:    started,
		exited:     make(chan struct{}),
		stderrDone: make(chan struct{}),
	}
	p.stdout = &teeReadCloser{r: outR, w: p.tail}
	go func() {
		_, _ = io.Copy(p.stderr, errR)
		errR.Close()
		close(p.stderrDone)
	}()
	go func() {
		p.waitErr = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

// PID returns the process id.
func (p *process) PID() int { return p.cmd.Process.Pid }

// hasExited reports whether the process exited within d.
func (p *process) hasExited(d time.Duration) bool {
	select {
	case <-p.exited:
		return true
	default:
	}
	if d <= 0 {
		return false
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.exited:
		return true
	case <-t.C:
		return false
	}
}

// exitStatus describes how the process ended ("" while it runs).
func (p *process) exitStatus() string {
	select {
	case <-p.exited:
	default:
		return ""
	}
	var ee *exec.ExitError
	switch {
	case p.waitErr == nil:
		return "exit status 0"
	case errors.As(p.waitErr, &ee):
		return ee.ProcessState.String()
	}
	return p.waitErr.Error()
}

// stop ends the process politely: close its stdin and wait up to grace;
// then SIGTERM to its group and wait up to grace again; then SIGKILL. In every
// case whatever is left of its process group is killed and the process is
// reaped before stop returns.
func (p *process) stop(grace time.Duration) {
	p.stdin.Close()
	if !p.hasExited(grace) {
		signalGroup(p.cmd, sigTerm)
		if !p.hasExited(grace) {
			signalGroup(p.cmd, sigKill)
			<-p.exited
		}
	}
	p.finish()
}

// kill ends the process and its group at once and reaps it.
func (p *process) kill() {
	signalGroup(p.cmd, sigKill)
	killTree(p.tag)
	p.stdin.Close()
	<-p.exited
	p.finish()
}

// finish kills what is left of the group (children that outlived the
// server), closes our ends of the pipes and lets stderr drain briefly.
func (p *process) finish() {
	signalGroup(p.cmd, sigKill)
	killTree(p.tag)
	p.stdout.Close()
	select {
	case <-p.stderrDone:
	case <-time.After(time.Second):
	}
}

// teeReadCloser copies what is read from r to w.
type teeReadCloser struct {
	r io.ReadCloser
	w io.Writer
}

func (t *teeReadCloser) Read(b []byte) (int, error) {
	n, err := t.r.Read(b)
	if n > 0 {
		_, _ = t.w.Write(b[:n])
	}
	return n, err
}

func (t *teeReadCloser) Close() error { return t.r.Close() }
