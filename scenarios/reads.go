package scenarios

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/defersim/defersim/sim"
)

// setting is a strategy key the scenario file writes on one strategy: in
// the strategy's own entry, or as a matrix vary value of one combination.
// Keys a preset or base brings are not settings.
type setting struct {
	key   string // the strategy key ("search.k")
	field string // where it is written ("strategies[1].search.k", "matrix.vary.search.k[1]")
	line  int
	text  string // the value as written, normalized ("9", "[screenshot]")
	// matrix: written by a matrix's vary list (every combination gets it).
	matrix bool
}

// strategyLeaves lists the dotted keys of a strategy that hold a value
// (not a mapping of keys), prose keys excluded.
var strategyLeaves = leaves(reflect.TypeOf(sim.Strategy{}), "")

func leaves(t reflect.Type, prefix string) []string {
	var out []string
	for i := 0; i < t.NumField(); i++ {
		name := tagName(t.Field(i))
		if name == "" || (prefix == "" && proseKeys[name]) {
			continue
		}
		if t.Field(i).Type.Kind() == reflect.Struct {
			out = append(out, leaves(t.Field(i).Type, prefix+name+".")...)
			continue
		}
		out = append(out, prefix+name)
	}
	return out
}

// recordSettings notes the strategy keys written under at (a strategy
// entry's field path, or a matrix vary value's path for the vary key
// under) on strategy st, as decoded: a key is written when the decoder
// set a line for its path.
func (d *decoder) recordSettings(st sim.Strategy, at, under string, matrix bool) {
	v := reflect.ValueOf(&st).Elem()
	for _, key := range strategyLeaves {
		var field string
		switch {
		case under == "":
			field = at + "." + key
		case key == under:
			field = at
		case strings.HasPrefix(key, under+"."):
			field = at + key[len(under):]
		default:
			continue
		}
		line, ok := d.lines[field]
		if !ok {
			continue
		}
		f, err := fieldByPath(v, key)
		if err != nil {
			continue // every leaf resolves: strategyLeaves comes from the same type
		}
		if d.settings == nil {
			d.settings = map[string][]setting{}
		}
		d.settings[st.Name] = append(d.settings[st.Name], setting{key: key, field: field, line: line, text: valueText(f), matrix: matrix})
	}
}

// valueText writes a strategy value as in a scenario: a scalar's text, a
// list as [a, b].
func valueText(v reflect.Value) string {
	if v.Kind() == reflect.Slice {
		parts := make([]string, v.Len())
		for i := range parts {
			parts[i] = fmt.Sprint(v.Index(i).Interface())
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return fmt.Sprint(v.Interface())
}

// Wrote reports whether the scenario file writes the strategy key (a
// dotted key such as "always_defer" or "search.family") on the strategy
// named, in its entry or a matrix's vary list; a key a preset or base
// brings is not written.
func (s *Scenario) Wrote(strategy, key string) bool {
	for _, set := range s.settings[strategy] {
		if set.key == key {
			return true
		}
	}
	return false
}

// maxUnreadShown bounds the problems CheckReads lists.
const maxUnreadShown = 20

// CheckReads refuses a strategy key that the scenario file writes on one
// of strategies (in the strategy's entry or a matrix's vary list) with a
// value other than the key's zero or declared default, when no component
// of that strategy reads the key (reg.NotReading: search.k under exact
// select, trigger.budget under a count trigger, directory.desc_chars
// under the names directory): the value would change nothing, and the
// results would not say so. Every such key is named, with its strategy,
// value and why. Keys the engine reads itself (sim.EngineKeys) are
// checked against the engine's rule: search.mode under the never trigger,
// warm.eviction on a warm set without a cap. Keys a preset or base brings
// are not checked, nor strategies the file does not define (presets
// selected by name).
func (s *Scenario) CheckReads(reg *sim.Registry, strategies []sim.Strategy) error {
	var probs []string
	n := 0
	for _, st := range strategies {
		for _, set := range s.settings[st.Name] {
			if reg.KeyDefault(set.key, set.text) {
				continue
			}
			why, uses := reg.NotReading(st, set.key)
			fix := ""
			if why == "" {
				why, fix = s.modelNotReading(reg, set.key)
			}
			if why == "" {
				continue
			}
			if fix == "" {
				fix = reg.UnreadFix(st, set.key)
			}
			if n++; n > maxUnreadShown {
				continue
			}
			what := "strategy"
			if set.matrix {
				what = "matrix combination"
			}
			msg := fmt.Sprintf("%s %q sets %s to %s, which none of its components reads: its %s; %s is read by %s",
				what, st.Name, set.key, set.text, reads(uses), set.key, strings.Join(reg.KeyReaders(set.key), ", "))
			if len(uses) == 0 {
				msg = fmt.Sprintf("%s %q sets %s to %s, which changes nothing: %s", what, st.Name, set.key, set.text, why)
			}
			switch {
			case set.matrix:
				msg += " (a matrix gives every combination every vary value: vary it in a matrix entry of its own, over combinations that read it; matrix takes a list)"
			case len(uses) == 0:
				msg += " (remove it, or " + fix + ")"
			default:
				msg += " (remove it, or choose a component that reads it)"
			}
			probs = append(probs, (&Error{File: s.File, Line: set.line, Field: set.field, Msg: msg}).Error())
		}
	}
	if n == 0 {
		return nil
	}
	if n > maxUnreadShown {
		probs = append(probs, fmt.Sprintf("… and %d more", n-maxUnreadShown))
	}
	return errors.New("the scenario sets strategy keys that no component of their strategy reads (each would change nothing; `defersim components` lists what each component reads):\n  " +
		strings.Join(probs, "\n  "))
}

// strategyCacheKeys are the strategy keys that act through a key of the
// model's cache block: a strategy's cache_layout overrides cache.layout,
// so a cache kind that does not read cache.layout (openai, none: no
// breakpoints) does not read it either.
var strategyCacheKeys = map[string]string{"cache_layout": "cache.layout"}

// modelNotReading says why the scenario's model leaves the strategy key
// unread, and what would make it read it, or "" when the model reads it
// (or the key does not depend on the model).
func (s *Scenario) modelNotReading(reg *sim.Registry, key string) (why, fix string) {
	cacheKey, ok := strategyCacheKeys[key]
	if !ok {
		return "", ""
	}
	w := reg.CacheKeyUnread(s.Model, cacheKey)
	if w == "" {
		return "", ""
	}
	return fmt.Sprintf("the model's cache marks no breakpoints for it to place (%s overrides %s: %s)", key, cacheKey, w),
		"choose a model whose cache.kind reads " + cacheKey
}

// reads says which keys each component reads: `trigger "count" reads
// trigger.count`, `ranker "select" reads no strategy key`.
func reads(uses []sim.Info) string {
	parts := make([]string, len(uses))
	for i, u := range uses {
		var keys []string
		for _, p := range u.Params {
			keys = append(keys, p.Name)
		}
		r := "reads no strategy key"
		if len(keys) > 0 {
			r = "reads " + strings.Join(keys, ", ")
		}
		parts[i] = fmt.Sprintf("%s %q %s", u.Kind, u.Name, r)
	}
	return strings.Join(parts, ", and ")
}
