//go:build !unix

package defersim_test

// processCPU is unknown on this platform.
func processCPU() float64 { return 0 }
