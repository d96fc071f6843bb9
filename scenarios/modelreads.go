package scenarios

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
)

// checkModelReads refuses, in a model the file writes (preset says whether
// it starts from a preset), a cache key its cache kind does not read
// (cache.breakpoints under an openai cache, cache.ttl_s under none) set to
// anything but 0 — the value would change nothing — and, in a model
// written without a preset, a price, the latency overhead or a setting its
// cache reads left out (it would be 0 without the file saying so). Keys a
// preset brings are not checked.
func (d *decoder) checkModelReads(m sim.Model, preset bool) error {
	v := reflect.ValueOf(&m).Elem()
	for _, key := range sim.CacheKeys() {
		field := "model." + key
		if _, wrote := d.lines[field]; !wrote {
			continue
		}
		f, err := fieldByPath(v, key)
		if err != nil || f.IsZero() {
			continue
		}
		if why := d.cacheKeyUnread(m, key); why != "" {
			return d.fieldError(field, &sim.FieldError{Msg: fmt.Sprintf("%s changes nothing: %s (remove it, or choose a cache.kind that reads it)", valueText(f), why)})
		}
	}
	if preset {
		return nil
	}
	for _, key := range d.inlineModelKeys(m) {
		field := "model." + key
		if _, wrote := d.lines[field]; !wrote {
			return d.fieldError(field, &sim.FieldError{Msg: "missing: a model without a preset gives both prices, latency.overhead_ms and every setting its cache.kind reads (0 is a value: write it)"})
		}
	}
	return nil
}

// unreadParam is a params key the file writes that changes nothing with
// the scenario's other values (sim.ParamUnread), unless a sweep varies on.
type unreadParam struct {
	field string // "params.nudge_tokens"
	line  int
	text  string // the value as written
	why   string
	on    string // the sweep path that would make it read
}

// paramsUnread lists the params keys the file writes, with a value other
// than 0 and the default, that change nothing with the scenario's other
// params and its model.
func (d *decoder) paramsUnread(m sim.Model, p sim.Params) []unreadParam {
	v, def := reflect.ValueOf(&p).Elem(), reflect.ValueOf(presets.DefaultParams())
	var out []unreadParam
	for i := 0; i < v.NumField(); i++ {
		key := tagName(v.Type().Field(i))
		field := "params." + key
		line, wrote := d.lines[field]
		if !wrote || v.Field(i).IsZero() || v.Field(i).Equal(def.Field(i)) {
			continue
		}
		if why, on := sim.ParamUnread(m, p, key); why != "" {
			out = append(out, unreadParam{field: field, line: line, text: valueText(v.Field(i)), why: why, on: on})
		}
	}
	return out
}

// CheckParams refuses a params key the file writes, set to neither 0 nor
// its default, that changes nothing with the scenario's other values
// (sim.ParamUnread: nudge_tokens while nudge_prob is 0,
// cold_call_well_formed_prob while cold_call_prob is 0, cache_warm_start
// under a model without a prompt cache), unless swept — the path a sweep
// varies, "" for a run — is the value that would make it read. Each such
// key is named with its line.
func (s *Scenario) CheckParams(swept string) error {
	var probs []string
	for _, u := range s.paramsUnread {
		if swept != "" && swept == u.on {
			continue
		}
		fix := "remove it, or change " + u.on
		if strings.HasPrefix(u.on, "params.") {
			fix = "remove it, or set or sweep " + u.on
		}
		probs = append(probs, (&Error{File: s.File, Line: u.line, Field: u.field,
			Msg: fmt.Sprintf("%s changes nothing: %s (%s)", u.text, u.why, fix)}).Error())
	}
	if len(probs) == 0 {
		return nil
	}
	return errors.New(strings.Join(probs, "\n"))
}
