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
