//go:build linux

package mcpsnap

import (
	"bytes"
	"crypto/rand"
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

// A server may start processes that leave its process group: a child
// started with setsid (a new session), or a daemon that forks twice and is
// adopted by init. Killing the group does not reach them. Each server is
// therefore started with a tag in its environment (EnvTag=<random>), which
// its descendants inherit, and stopping it kills, besides its group, every
// process that is a descendant of it (by parent pid, from /proc) or carries
// its tag (from /proc/PID/environ), whatever its session or parent, and
// every descendant (by parent pid, from /proc) of such a process.
//
// What it cannot reach: a descendant that replaced its environment (exec
// with a cleared env) after it was reparented away from the server before
// the stop; processes of another user, which /proc does not let us read or
// signal. A cgroup would reach those but needs privileges defersim does not
// assume.

// EnvTag is the environment variable that tags a server's processes.
const EnvTag = "DEFERSIM_SNAPSHOT_TAG"

// tagProcess gives cmd a fresh tag, which killTree then looks for.
func tagProcess(cmd *exec.Cmd) string {
	tag := rand.Text()
	cmd.Env = append(cmd.Env, EnvTag+"="+tag)
	return tag
}

// killTree kills every process carrying tag and their descendants (by
// parent pid, whatever their environment), repeating while it finds some
// (a process may fork while it is killed). The server's own pid is not
// used: once reaped it may belong to another process.
func killTree(tag string) {
	if tag == "" {
		return
	}
	self := os.Getpid()
	for range 5 {
		victims := treeOf(tag, self)
		if len(victims) == 0 {
			return
		}
		for _, v := range victims {
			_ = syscall.Kill(v, syscall.SIGKILL)
		}
	}
}

// treeOf lists the live processes that carry tag or descend from one that
// does (never self).
func treeOf(tag string, self int) []int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	children := map[int][]int{}
	var tagged []int
	needle := []byte(EnvTag + "=" + tag + "\x00")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid …: comm may hold spaces and parentheses.
		i := bytes.LastIndexByte(stat, ')')
		if i < 0 {
			continue
		}
		f := bytes.Fields(stat[i+1:])
		if len(f) < 2 || string(f[0]) == "Z" {
			continue // a zombie is dead already
		}
		if ppid, err := strconv.Atoi(string(f[1])); err == nil {
			children[ppid] = append(children[ppid], pid)
		}
		if env, err := os.ReadFile("/proc/" + e.Name() + "/environ"); err == nil && bytes.Contains(env, needle) {
			tagged = append(tagged, pid)
		}
	}
	seen := map[int]bool{}
	var out []int
	var walk func(int)
	walk = func(p int) {
		for _, c := range children[p] {
			if !seen[c] && c != self {
				seen[c] = true
				out = append(out, c)
				walk(c)
			}
		}
	}
	for _, p := range tagged {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
			walk(p)
		}
	}
	return out
}
