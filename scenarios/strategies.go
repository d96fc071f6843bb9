package scenarios

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
)

// maxStrategies bounds the strategies of one scenario, matrices included.
const maxStrategies = 1000

// entryKeys are the keys of a strategy entry that are not strategy fields.
var entryKeys = map[string]bool{"preset": true, "base": true, recommendedForKey: true}

// proseKeys are strategy fields that do not change what a strategy does.
var proseKeys = map[string]bool{"name": true, "description": true, "source": true}

func (d *decoder) strategies(s *Scenario, byKey map[string]pair) error {
	var out []sim.Strategy
	firstLine := map[string]int{}
	add := func(st sim.Strategy, field string, line int) error {
		if first, dup := firstLine[st.Name]; dup {
			return &Error{File: d.file, Line: line, Field: field, Msg: fmt.Sprintf("duplicate strategy name %q (first at line %d)", st.Name, first)}
		}
		firstLine[st.Name] = line
		out = append(out, st)
		return nil
	}
	if p, ok := byKey["strategies"]; ok {
		n, restore, err := d.deref(p.v, "strategies")
		if err != nil {
			return err
		}
		if n.Kind != yaml.SequenceNode {
			restore()
			return d.errAt(n, "strategies", "want a list, got %s", describe(n))
		}
		for i, item := range n.Content {
			field := fmt.Sprintf("strategies[%d]", i)
			if len(out) >= maxStrategies {
				restore()
				return d.errAt(item, field, "more than %d strategies", maxStrategies)
			}
			st, err := d.strategyEntry(item, field, out)
			if err != nil {
				restore()
				return err
			}
			line := d.lines[field+".name"]
			if line == 0 {
				line = d.lines[field]
			}
			if err := add(st, field, line); err != nil {
				restore()
				return err
			}
		}
		restore()
	}
	if p, ok := byKey["matrix"]; ok {
		n, restore, err := d.deref(p.v, "matrix")
		if err != nil {
			return err
		}
		var entries []*yaml.Node
		var fields []string
		switch n.Kind {
		case yaml.MappingNode:
			entries, fields = []*yaml.Node{n}, []string{"matrix"}
		case yaml.SequenceNode:
			for i, e := range n.Content {
				entries = append(entries, e)
				fields = append(fields, fmt.Sprintf("matrix[%d]", i))
			}
		default:
			restore()
			return d.errAt(n, "matrix", "want a mapping or a list of mappings, got %s", describe(n))
		}
		for i, e := range entries {
			sts, err := d.matrix(e, fields[i], out, maxStrategies-len(out))
			if err != nil {
				restore()
				return err
			}
			for _, st := range sts {
				if err := add(st, fields[i], d.lines[fields[i]]); err != nil {
					restore()
					return err
				}
			}
		}
		restore()
	}
	if len(out) == 0 {
		return &Error{File: d.file, Field: "strategies", Msg: "none given: list at least one strategy (a preset name, or a strategy mapping)"}
	}
	s.Strategies = out
	return nil
}

// resolveBase finds a base strategy: one defined earlier in the file, else
// a preset.
func resolveBase(name string, defined []sim.Strategy) (sim.Strategy, bool) {
	for _, st := range defined {
		if st.Name == name {
			return cloneStrategy(st), true
		}
	}
	st, err := presets.Strategy(name)
	return st, err == nil
}

// strategyEntry resolves one item of the strategies list: a preset name,
// {preset: P, ...}, {name: X, base: B, ...} or a full inline strategy.
func (d *decoder) strategyEntry(item *yaml.Node, field string, defined []sim.Strategy) (sim.Strategy, error) {
	n, restore, err := d.deref(item, field)
	if err != nil {
		return sim.Strategy{}, err
	}
	defer restore()
	d.lines[field] = d.lineOf(n)
	if n.Kind == yaml.ScalarNode {
		var name string
		if err := d.scalar(n, reflect.ValueOf(&name).Elem(), field); err != nil {
			return sim.Strategy{}, err
		}
		st, err := presets.Strategy(name)
		if err != nil {
			return sim.Strategy{}, d.errAt(n, field, "%v", err)
		}
		return st, nil
	}
	ps, err := d.pairs(n, field)
	if err != nil {
		return sim.Strategy{}, err
	}
	var presetName, baseName string
	var overrides []string
	given := map[string]bool{}
	var st sim.Strategy
	var rec *RecommendedFor
	for _, p := range ps {
		given[p.key] = true
		switch {
		case p.key == recommendedForKey:
			r, err := d.recommendedFor(p.v, join(field, p.key))
			if err != nil {
				return sim.Strategy{}, err
			}
			rec = &r
		case p.key == "preset":
			if err := d.decode(p.v, reflect.ValueOf(&presetName).Elem(), field+".preset"); err != nil {
				return sim.Strategy{}, err
			}
			if st, err = presets.Strategy(presetName); err != nil {
				return sim.Strategy{}, d.errAt(p.v, field+".preset", "%v", err)
			}
		case p.key == "base":
			if err := d.decode(p.v, reflect.ValueOf(&baseName).Elem(), field+".base"); err != nil {
				return sim.Strategy{}, err
			}
			var ok bool
			if st, ok = resolveBase(baseName, defined); !ok {
				return sim.Strategy{}, d.errAt(p.v, field+".base", "no earlier strategy and no preset is called %q", baseName)
			}
		case !proseKeys[p.key]:
			overrides = append(overrides, p.key)
		}
	}
	if given["preset"] && given["base"] {
		return sim.Strategy{}, d.errAt(n, field, "give preset or base, not both")
	}
	from := presetName + baseName
	orig := st
	if err := d.fields(ps, reflect.ValueOf(&st).Elem(), field, entryKeys); err != nil {
		return sim.Strategy{}, err
	}
	switch {
	case given["preset"] && len(overrides) > 0 && st.Name == presetName:
		return sim.Strategy{}, d.errAt(n, field+".name", "required: a strategy that changes preset %q needs a name of its own", presetName)
	case given["base"] && !given["name"]:
		return sim.Strategy{}, d.errAt(n, field+".name", "missing: a strategy based on %q needs a name of its own", baseName)
	}
	if from != "" && len(overrides) > 0 {
		if !given["description"] {
			st.Description = fmt.Sprintf("%s with %s changed.", from, strings.Join(overrides, ", "))
		}
		if !given["source"] {
			st.Source = derivedSource("based on "+from, orig.Source)
		}
	}
	st.Normalize()
	if err := d.validateStrategy(st); err != nil {
		return sim.Strategy{}, d.wrap(field, inlineHint(err, from))
	}
	d.recordSettings(st, field, "", false)
	if _, defined := resolveDefined(baseName, defined); defined || rec != nil {
		d.recordRecommended(st.Name, baseName, rec)
	}
	return st, nil
}

// resolveDefined reports whether name is a strategy defined earlier in
// the file (which a base of that name resolves to before a preset).
func resolveDefined(name string, defined []sim.Strategy) (sim.Strategy, bool) {
	for _, st := range defined {
		if st.Name == name {
			return st, true
		}
	}
	return sim.Strategy{}, false
}

// inlineHint adds, to a required part missing from a strategy with
// neither preset nor base (from ""), that such a strategy defines every
// part itself: a user changing a preset's warm set alone got only
// "trigger.mode: missing (want never|always|…)".
func inlineHint(err error, from string) error {
	var fe *sim.FieldError
	if from != "" || !errors.As(err, &fe) || !strings.HasPrefix(fe.Msg, "missing") {
		return err
	}
	hint := *fe
	hint.Msg += "; a strategy without preset: or base: defines every part itself — to change some parts of a preset, add base: PRESET (docs/presets.md lists them)"
	return &hint
}

var placeholderRE = regexp.MustCompile(`\{([^{}]*)\}`)

// matrixKeys are the keys of a matrix entry.
var matrixKeys = []string{"base", "name", "description", "vary"}

// matrix expands one matrix entry into the cross product of its vary
// lists, first key slowest, with names from the template.
func (d *decoder) matrix(item *yaml.Node, field string, defined []sim.Strategy, room int) ([]sim.Strategy, error) {
	n, restore, err := d.deref(item, field)
	if err != nil {
		return nil, err
	}
	defer restore()
	d.lines[field] = d.lineOf(n)
	ps, err := d.pairs(n, field)
	if err != nil {
		return nil, err
	}
	var baseName, tmpl, desc string
	var vary *pair
	for i, p := range ps {
		var dst *string
		switch p.key {
		case "base":
			dst = &baseName
		case "name":
			dst = &tmpl
		case "description":
			dst = &desc
		case "vary":
			vary = &ps[i]
			continue
		default:
			return nil, d.errAt(p.k, join(field, p.key), "%s", catalog.NearName(p.key, matrixKeys).WithHint(fmt.Sprintf("unknown key (want %s)", strings.Join(matrixKeys, "|"))))
		}
		if err := d.decode(p.v, reflect.ValueOf(dst).Elem(), join(field, p.key)); err != nil {
			return nil, err
		}
	}
	if baseName == "" {
		return nil, d.errAt(n, field+".base", "missing: the strategy or preset each combination starts from")
	}
	base, ok := resolveBase(baseName, defined)
	if !ok {
		return nil, d.errAt(n, field+".base", "no earlier strategy and no preset is called %q", baseName)
	}
	if vary == nil {
		return nil, d.errAt(n, field+".vary", "missing: a mapping of strategy keys to lists of values")
	}
	vn, restoreVary, err := d.deref(vary.v, field+".vary")
	if err != nil {
		return nil, err
	}
	defer restoreVary()
	axes, err := d.pairs(vn, field+".vary")
	if err != nil {
		return nil, err
	}
	if len(axes) == 0 {
		return nil, d.errAt(vn, field+".vary", "empty: name at least one key to vary")
	}
	values := make([][]*yaml.Node, len(axes))
	total := 1
	for i, a := range axes {
		af := join(field+".vary", a.key)
		if a.key == "name" || proseKeys[a.key] {
			return nil, d.errAt(a.k, af, "cannot be varied (names come from the name template)")
		}
		if _, err := fieldByPath(reflect.ValueOf(&sim.Strategy{}).Elem(), a.key); err != nil {
			return nil, d.errAt(a.k, af, "%v", err)
		}
		ln, restoreList, err := d.deref(a.v, af)
		if err != nil {
			return nil, err
		}
		if ln.Kind != yaml.SequenceNode || len(ln.Content) == 0 {
			restoreList()
			return nil, d.errAt(ln, af, "want a non-empty list of values, got %s", describe(ln))
		}
		values[i] = ln.Content
		restoreList()
		total *= len(ln.Content)
		if total > room {
			return nil, d.errAt(n, field, "expands to more than %d strategies", room)
		}
	}
	if tmpl == "" {
		tmpl = "{base}"
		for _, a := range axes {
			tmpl += "-{" + a.key + "}"
		}
	}
	if err := d.checkTemplate(n, field, tmpl, axes); err != nil {
		return nil, err
	}

	out := make([]sim.Strategy, 0, total)
	idx := make([]int, len(axes))
	for {
		st := cloneStrategy(base)
		name := strings.ReplaceAll(tmpl, "{base}", baseName)
		var settings []string
		for i, a := range axes {
			vf := fmt.Sprintf("%s.vary.%s[%d]", field, a.key, idx[i])
			target, _ := fieldByPath(reflect.ValueOf(&st).Elem(), a.key)
			if err := d.decode(values[i][idx[i]], target, vf); err != nil {
				return nil, err
			}
			text := d.valueText(values[i][idx[i]], idx[i])
			name = strings.ReplaceAll(name, "{"+a.key+"}", text)
			settings = append(settings, a.key+"="+text)
		}
		st.Name = name
		st.Description = desc
		if desc == "" {
			st.Description = fmt.Sprintf("%s with %s.", baseName, strings.Join(settings, ", "))
		}
		st.Source = derivedSource("matrix over "+baseName, base.Source)
		st.Normalize()
		if err := d.validateStrategy(st); err != nil {
			return nil, d.errAt(n, field, "combination %q: %v", name, err)
		}
		for i, a := range axes {
			d.recordSettings(st, fmt.Sprintf("%s.vary.%s[%d]", field, a.key, idx[i]), a.key, true)
		}
		if _, defined := resolveDefined(baseName, defined); defined {
			d.recordRecommended(st.Name, baseName, nil)
		}
		out = append(out, st)
		// Advance the odometer, last key fastest.
		i := len(idx) - 1
		for ; i >= 0; i-- {
			idx[i]++
			if idx[i] < len(values[i]) {
				break
			}
			idx[i] = 0
		}
		if i < 0 {
			return out, nil
		}
	}
}

func (d *decoder) checkTemplate(n *yaml.Node, field, tmpl string, axes []pair) error {
	keys := map[string]bool{"base": true}
	for _, a := range axes {
		keys[a.key] = true
	}
	for _, m := range placeholderRE.FindAllStringSubmatch(tmpl, -1) {
		if !keys[m[1]] {
			return d.errAt(n, field+".name", "unknown placeholder {%s} (want {base} or a vary key)", m[1])
		}
	}
	for _, a := range axes {
		if !strings.Contains(tmpl, "{"+a.key+"}") {
			return d.errAt(n, field+".name", "template %q lacks {%s}: every vary key must appear in the name", tmpl, a.key)
		}
	}
	return nil
}

// valueText is how a vary value appears in a generated name: a scalar's
// text, else its 1-based position.
func (d *decoder) valueText(v *yaml.Node, i int) string {
	if v.Kind == yaml.AliasNode && v.Alias != nil {
		v = v.Alias
	}
	if v.Kind == yaml.ScalarNode {
		return v.Value
	}
	return fmt.Sprintf("%d", i+1)
}

func derivedSource(how, orig string) string {
	if orig == "" {
		return how
	}
	return how + ": " + orig
}

// cloneStrategy copies a strategy with its own slices.
func cloneStrategy(s sim.Strategy) sim.Strategy {
	s.AlwaysDefer = slices.Clone(s.AlwaysDefer)
	s.NeverDefer = slices.Clone(s.NeverDefer)
	s.Search.Family = slices.Clone(s.Search.Family)
	s.Search.FamilyCore = slices.Clone(s.Search.FamilyCore)
	return s
}

// SelectStrategies replaces the scenario's strategies with the named ones,
// in order (as the CLI's --strategies does): each name is a strategy of
// the scenario or a preset. The baseline is kept when selected, else it
// becomes the first name.
func (s *Scenario) SelectStrategies(names []string) error {
	var out []sim.Strategy
	seen := map[string]bool{}
	for _, name := range names {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		if seen[name] {
			return fmt.Errorf("strategy %q selected twice", name)
		}
		seen[name] = true
		st, ok := s.Strategy(name)
		if ok {
			st = cloneStrategy(st)
		} else {
			var err error
			if st, err = presets.Strategy(name); err != nil {
				var names []string
				for _, st := range s.Strategies {
					names = append(names, st.Name)
				}
				names = append(names, presets.StrategyNames()...)
				return errors.New(catalog.NearName(name, names).WithHint(fmt.Sprintf("strategy %q is neither in scenario %s nor a preset (presets: %s)",
					name, s.Name, strings.Join(presets.StrategyNames(), ", "))))
			}
		}
		out = append(out, st)
	}
	if len(out) == 0 {
		return fmt.Errorf("no strategies selected")
	}
	if s.fileStrategies == nil {
		s.fileStrategies = s.Strategies
	}
	s.Strategies = out
	if !seen[s.Baseline] {
		s.Baseline = out[0].Name
	}
	return nil
}
