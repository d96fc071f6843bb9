package calibrate

import (
	"errors"
	"fmt"
	"math"
)

// boundedLS minimises Σ w·(y − x·β)² subject to β ≥ lo (componentwise; -Inf
// for no bound). The problem is a convex quadratic programme, so its
// minimum is the unconstrained minimum over some face of the box: the face
// where the coefficients at their bound are fixed there and the others are
// free. With the few columns of a latency or overhead fit (at most a
// handful), every face is tried — 2^p weighted least-squares solves — and the
// feasible one with the least weighted squared error is the exact answer.
func boundedLS(x [][]float64, y, w, lo []float64) ([]float64, error) {
	p := len(lo)
	if p > 12 {
		return nil, fmt.Errorf("regression: %d bounded columns (at most 12)", p)
	}
	var (
		best    []float64
		bestSSE = math.Inf(1)
		lastErr error
	)
	yy := make([]float64, len(y))
	for mask := 0; mask < 1<<p; mask++ {
		// mask bit j set: coefficient j fixed at its bound.
		feasible := true
		for j := range p {
			if mask&(1<<j) != 0 && math.IsInf(lo[j], -1) {
				feasible = false
			}
		}
		if !feasible {
			continue
		}
		var free []int
		for j := range p {
			if mask&(1<<j) == 0 {
				free = append(free, j)
			}
		}
		beta := make([]float64, p)
		for i, row := range x {
			yy[i] = y[i]
			for j := range p {
				if mask&(1<<j) != 0 {
					yy[i] -= lo[j] * row[j]
				}
			}
		}
		for j := range p {
			if mask&(1<<j) != 0 {
				beta[j] = lo[j]
			}
		}
		if len(free) > 0 {
			sub := make([][]float64, len(x))
			for i, row := range x {
				sub[i] = make([]float64, len(free))
				for k, j := range free {
					sub[i][k] = row[j]
				}
			}
			b, err := weightedLS(sub, yy, w)
			if err != nil {
				lastErr = err
				continue
			}
			for k, j := range free {
				if b[k] < lo[j] {
					feasible = false
				}
				beta[j] = b[k]
			}
			if !feasible {
				continue
			}
		}
		var sse float64
		for i, row := range x {
			r := y[i]
			for j, v := range row {
				r -= v * beta[j]
			}
			sse += w[i] * r * r
		}
		if sse < bestSSE {
			best, bestSSE = beta, sse
		}
	}
	if best == nil {
		if lastErr != nil {
			return nil, lastErr
		}
		return nil, errors.New("regression: no feasible solution within the bounds")
	}
	return best, nil
}
