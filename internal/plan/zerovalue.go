package plan

import (
	"fmt"
	"strings"

	"github.com/defersim/defersim/sim"
)

// zeroNotes are the notes of the points of a strategy.* sweep whose value
// is 0 where the key's 0 is not a quantity (sim.Registry.KeyZero: a cap's
// 0 is unbounded), by the value's index: such a point is the rule without
// the limit, so its row and plotted point are not the low end of the
// range. Nil for other keys and ranges without 0.
func zeroNotes(param string, values []float64, reg *sim.Registry) map[int]string {
	key, ok := strings.CutPrefix(param, "strategy.")
	if !ok {
		return nil
	}
	zero := reg.KeyZero(key)
	if zero == "" {
		return nil
	}
	var out map[int]string
	for i, v := range values {
		if v != 0 {
			continue
		}
		if out == nil {
			out = map[int]string{}
		}
		out[i] = fmt.Sprintf("%s=0 is not a limit of 0: 0 stands for %s in this key (defersim components), so this point is the rule without that limit, not the smallest value of the range", param, zero)
	}
	return out
}
