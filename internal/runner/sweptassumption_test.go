package runner

import (
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/defersim/defersim/sim"
)

// TestSweepPointMarksTheSweptAssumption pins that a sweep point of any
// numeric key of the model or params makes exactly the assumption
// stating that key say the sweep set it, naming the point and the
// scenario whose value it replaced, keeping the source it had after; a
// strategy key and a run without a point change no source. Before, a
// sweep point's results said "params (…)" or "model pricing", as a run of
// the scenario as written does.
func TestSweepPointMarksTheSweptAssumption(t *testing.T) {
	cfg, p := prepareYAML(t, "name: a\ntraces: [embedded:trace.jsonl.gz]\ncatalogs: [embedded:catalog]\nstrategies: [eager, anchor-e1-budget8k]\n")
	stated := p.file.Info.Assumptions
	keys := map[string]reflect.Value{}
	yamlKeys("model.", reflect.ValueOf(cfg.Model), keys)
	yamlKeys("params.", reflect.ValueOf(cfg.Params), keys)
	var swept []string
	for _, key := range slices.Sorted(maps.Keys(keys)) {
		switch keys[key].Kind() {
		case reflect.Float64, reflect.Int, reflect.Int64:
			swept = append(swept, key)
		}
	}
	if len(swept) < 20 {
		t.Fatalf("%d numeric keys of the model and params, want the 20 or more a sweep can set", len(swept))
	}
	swept = append(swept, "strategy.trigger.budget", "")
	for _, key := range swept {
		t.Run(key, func(t *testing.T) {
			as := slices.Clone(stated)
			var pt *sim.SweepPoint
			if key != "" {
				pt = &sim.SweepPoint{Param: key, Value: 2}
			}
			markSwept(as, pt, "a")
			var changed []string
			for i, a := range as {
				if a == stated[i] {
					continue
				}
				changed = append(changed, a.Name)
				want := "sweep point " + key + `=2 (set by defersim sweep in place of scenario "a"'s value); ` + stated[i].Source
				if a.Source != want || a.Value != stated[i].Value {
					t.Errorf("%s: %q = %q, want source %q and the value unchanged", a.Name, a.Source, a.Value, want)
				}
			}
			want := []string{assumptionOf(key)}
			if !strings.HasPrefix(key, "model.") && !strings.HasPrefix(key, "params.") {
				want = nil
			}
			if !slices.Equal(changed, want) {
				t.Errorf("changed %v, want %v", changed, want)
			}
		})
	}
}
