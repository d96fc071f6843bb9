package retrieval

import (
	"fmt"

	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/srd"
	"github.com/defersim/defersim/srd/routed"
)

// Search arm modes: the base ranker alone, or wrapped by the router.
const (
	ModeFlat       = "flat"
	ModeRouted     = "routed"
	ModeRoutedHard = "routed-hard"
)

// Arm is one search configuration evaluated on a set.
type Arm struct {
	// Name is "ranker/mode", e.g. "bm25/routed".
	Name    string
	Ranker  string
	Mode    string
	Factory sim.RankerFactory
}

// Arms builds the flat, routed and routed-hard arms of each named base
// ranker, in the order given. bases maps ranker names to factories;
// routing uses set (nil: every server its own domain) with opt, the hard
// arm with opt.Hard set.
func Arms(rankers []string, bases map[string]sim.RankerFactory, set *srd.Set, opt routed.Options) ([]Arm, error) {
	hard := opt
	hard.Hard = true
	opt.Hard = false
	var out []Arm
	for _, name := range rankers {
		f, ok := bases[name]
		if !ok {
			return nil, fmt.Errorf("unknown ranker %q", name)
		}
		out = append(out,
			Arm{Name: name + "/" + ModeFlat, Ranker: name, Mode: ModeFlat, Factory: f},
			Arm{Name: name + "/" + ModeRouted, Ranker: name, Mode: ModeRouted, Factory: routed.FactoryWith(set, f, opt)},
			Arm{Name: name + "/" + ModeRoutedHard, Ranker: name, Mode: ModeRoutedHard, Factory: routed.FactoryWith(set, f, hard)},
		)
	}
	return out, nil
}
