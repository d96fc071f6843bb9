package plan

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/scenarios"
	"github.com/defersim/defersim/sim"
)

// numericField resolves a sweep path to its numeric fields in sc: one
// field for params.* and model.*, one per strategy for strategy.*.
func numericField(sc *scenarios.Scenario, path string) ([]reflect.Value, error) {
	root, rest, _ := strings.Cut(path, ".")
	var roots []reflect.Value
	switch root {
	case "params":
		roots = []reflect.Value{reflect.ValueOf(&sc.Params).Elem()}
	case "model":
		roots = []reflect.Value{reflect.ValueOf(&sc.Model).Elem()}
	case "strategy":
		for i := range sc.Strategies {
			roots = append(roots, reflect.ValueOf(&sc.Strategies[i]).Elem())
		}
	default:
		return nil, fmt.Errorf("%q: want params.KEY, model.KEY or strategy.KEY", path)
	}
	if rest == "" {
		return nil, fmt.Errorf("%q names no key", path)
	}
	var out []reflect.Value
	for _, r := range roots {
		f, err := byYAMLPath(r, rest)
		if err != nil {
			return nil, fmt.Errorf("%q: %w", path, err)
		}
		if !sweepNumber(f.Kind()) {
			return nil, fmt.Errorf("%q is not a number", path)
		}
		out = append(out, f)
	}
	return out, nil
}

func byYAMLPath(v reflect.Value, path string) (reflect.Value, error) {
	for _, part := range strings.Split(path, ".") {
		if v.Kind() != reflect.Struct {
			return reflect.Value{}, fmt.Errorf("%q has no sub-keys", part)
		}
		found := false
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			name, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ",")
			if t.Field(i).IsExported() && name == part {
				v, found = v.Field(i), true
				break
			}
		}
		if !found {
			keys := sweepableKeys(t)
			names := make([]string, len(keys))
			for i, k := range keys {
				names[i] = strings.TrimSuffix(k, ".…") // a group's name, without the mark of the keys to come
			}
			return reflect.Value{}, errors.New(catalog.NearName(part, names).WithHint(fmt.Sprintf("unknown key %q (a sweep sets one of: %s)", part, strings.Join(keys, ", "))))
		}
	}
	return v, nil
}

// sweepableKeys lists the yaml keys of struct type t a sweep path can go
// through: the numbers numericField accepts, and structs (whose keys come
// next).
func sweepableKeys(t reflect.Type) []string {
	var out []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if !f.IsExported() || name == "" || name == "-" {
			continue
		}
		switch k := f.Type.Kind(); {
		case sweepNumber(k):
			out = append(out, name)
		case k == reflect.Struct:
			out = append(out, name+".…")
		}
	}
	return out
}

// sweepNumber reports whether a sweep can set a field of kind k
// (numericField, applyValue).
func sweepNumber(k reflect.Kind) bool {
	return k == reflect.Int || k == reflect.Int64 || k == reflect.Float64
}

// apply returns a copy of sc with the parameter at path set to v, checked.
// For strategy.* the value goes to every strategy it is valid for; the
// notes name those it is not valid for (they keep their value).
func apply(sc *scenarios.Scenario, path string, v float64) (*scenarios.Scenario, []string, error) {
	c, notSet, err := applyValue(sc, path, v, nil)
	if err != nil {
		return nil, nil, err
	}
	var notes []string
	for _, st := range c.Strategies {
		if why, ok := notSet[st.Name]; ok {
			notes = append(notes, fmt.Sprintf("%s not set on %s: %s", path, st.Name, why))
		}
	}
	return c, notes, nil
}

// applyValue is apply, with the strategies the value could not be set on
// (name → why) instead of notes. For strategy.*, the strategies named in
// skip (those that do not read the key) keep their value: a value nothing
// reads would be recorded in their parameters, and `check` between two
// points would report a policy change for them.
func applyValue(sc *scenarios.Scenario, path string, v float64, skip map[string]string) (*scenarios.Scenario, map[string]string, error) {
	c := *sc
	c.Strategies = append([]sim.Strategy(nil), sc.Strategies...)
	fields, err := numericField(&c, path)
	if err != nil {
		return nil, nil, err
	}
	notSet := map[string]string{}
	for i, f := range fields {
		if strings.HasPrefix(path, "strategy.") && skip[c.Strategies[i].Name] != "" {
			continue
		}
		old := reflect.ValueOf(f.Interface())
		switch f.Kind() {
		case reflect.Float64:
			f.SetFloat(v)
		default:
			if v != math.Trunc(v) {
				return nil, nil, fmt.Errorf("%s is a whole number: %v", path, v)
			}
			if v >= maxExactInt || v < -maxExactInt {
				return nil, nil, fmt.Errorf("%s = %v does not fit a 64-bit integer", path, v)
			}
			f.SetInt(int64(v))
		}
		if strings.HasPrefix(path, "strategy.") {
			if err := c.Strategies[i].Validate(); err != nil {
				f.Set(old)
				notSet[c.Strategies[i].Name] = err.Error()
			}
		}
	}
	switch {
	case strings.HasPrefix(path, "params."):
		err = c.Params.Validate()
	case strings.HasPrefix(path, "model."):
		err = c.Model.Validate()
	}
	if err == nil {
		_, err = scenarios.CheckBounds(c.Model, c.Params)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%s = %v: %w", path, v, err)
	}
	return &c, notSet, nil
}
