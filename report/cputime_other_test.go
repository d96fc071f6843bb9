//go:build !unix

package report

// processCPU is unknown on this platform.
func processCPU() float64 { return 0 }
