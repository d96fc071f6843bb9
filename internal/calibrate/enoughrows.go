package calibrate

import "fmt"

// enoughRows says, in the user's terms, when a fit has more coefficients to
// fit (the free columns of a group) than fit requests: the solver's own
// words ("7 columns for 6 rows") named neither what is kept nor what to do.
func enoughRows(rows int, groups [][]int, free []bool, intercepts int, kinds bool) error {
	for _, g := range groups {
		coefs := 0
		for _, j := range g {
			if free[j] {
				coefs++
			}
		}
		if coefs <= rows {
			continue
		}
		what := "an overhead and the rates"
		hint := "fit on more sessions"
		if kinds && intercepts > 1 {
			what = fmt.Sprintf("a time for each of %d request kinds and the rates", intercepts)
			hint += ", or pass --kinds=false (one overhead instead of a time per kind)"
		}
		return fmt.Errorf("latency not fitted: %d fit requests with a recorded duration for %d coefficients (%s); "+
			"the starting latency is kept: %s", rows, coefs, what, hint)
	}
	return nil
}

// timesVary says, in the user's terms, when every fit request records the
// same duration: times that do not vary with the tokens fix an overhead
// but no rate, and the fit would report rates anywhere up to its bound as
// fitted (every duration 1000 ms gave prefill_tps 854902 "fitted" and an
// R² of NaN).
func timesVary(rows []latencyRow) error {
	for _, r := range rows[1:] {
		if r.ms != rows[0].ms {
			return nil
		}
	}
	return fmt.Errorf("latency not fitted: every one of the %d fit requests records the same duration, %g ms, whatever its tokens, "+
		"so no time per token can be fitted (does the recorder write a fixed or rounded duration?); the starting latency is kept: "+
		"calibrate on traces whose duration_ms is each request's own", len(rows), rows[0].ms)
}
