//go:build unix

package report

import "syscall"

// processCPU returns the CPU time (user + system) the process has used, in
// seconds, or 0 when unknown.
func processCPU() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
