package sim

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/component"
	"github.com/defersim/defersim/tokens"
)

// CounterFamily builds the token counters of one registered name, or of a
// family of names ("bytes/N").
type CounterFamily interface {
	// Check validates a name of the family without building its counter.
	Check(name string) error
	New(name string) (tokens.Counter, error)
}

type counterFamily struct {
	check func(string) error
}

func (f counterFamily) Check(name string) error { return f.check(name) }
func (counterFamily) New(name string) (tokens.Counter, error) {
	return tokens.ByName(name)
}

// counterFamily returns the family that resolves name: the entry of that
// name, else a family entry "PREFIX/N" whose prefix name has.
func (r *Registry) counterFamily(name string) (CounterFamily, bool) {
	if e, ok := r.lookup(component.Counter, name); ok {
		return e.v.(CounterFamily), true
	}
	for _, e := range r.kinds[component.Counter] {
		if prefix, ok := strings.CutSuffix(e.info.Name, "/N"); ok && strings.HasPrefix(name, prefix+"/") {
			return e.v.(CounterFamily), true
		}
	}
	return nil, false
}

// checkCounter validates a counter name without building the counter.
func (r *Registry) checkCounter(name string) error {
	f, family := r.counterFamily(name)
	if family && f.Check(name) == nil {
		return nil
	}
	msg := fmt.Sprintf("unknown counter %q (want %s)", name, strings.Join(r.Names(component.Counter), "|"))
	if family { // a family's member with a bad parameter ("bytes/0"): no other name is meant
		return errors.New(msg)
	}
	var names []string // the names a typo may mean: a family's ("bytes/N") is a pattern, not a name
	for _, n := range r.Names(component.Counter) {
		if !strings.HasSuffix(n, "/N") {
			names = append(names, n)
		}
	}
	return errors.New(catalog.NearName(name, names).WithHint(msg))
}

// newCounter builds the counter called name.
func (r *Registry) newCounter(name string) (tokens.Counter, error) {
	if err := r.checkCounter(name); err != nil {
		return nil, err
	}
	f, _ := r.counterFamily(name)
	return f.New(name)
}

func registerCounters(r *Registry) error {
	exact := counterFamily{check: func(string) error { return nil }}
	if err := r.RegisterCounter(Info{Name: "o200k_base",
		Description: "tiktoken o200k_base (GPT-4o, GPT-5): exact counts from the offline ranks"}, exact); err != nil {
		return err
	}
	if err := r.RegisterCounter(Info{Name: "cl100k_base",
		Description: "tiktoken cl100k_base (GPT-4, GPT-3.5): exact counts from the offline ranks"}, exact); err != nil {
		return err
	}
	return r.RegisterCounter(Info{Name: "bytes/N",
		Description: "an estimate: bytes / N rounded up, per item (bytes/3.5 is the anchor runtime's)",
		Params:      []Param{{Name: "N", Type: "float", Meaning: "bytes per token, in (0, 1e9]"}}},
		counterFamily{check: func(name string) error {
			n, err := strconv.ParseFloat(strings.TrimPrefix(name, "bytes/"), 64)
			if err != nil || !(n > 0) || n > 1e9 {
				return fmt.Errorf("want bytes/N with 0 < N <= 1e9")
			}
			return nil
		}})
}
