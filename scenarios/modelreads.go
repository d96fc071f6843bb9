package scenarios

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/presets"
)

// checkModelReads refuses, in a model the file writes (preset says whether
// it starts from a preset), a cache key its cache kind does not read
// (cache.breakpoints under an openai cache, cache.ttl_s under none) or a
// latency key it does not read (latency.cached_prefill_tps under none,
// sim.LatencyKeyUnread) set to anything but 0 — the value would change
// nothing — and, in a model
// written without a preset, a price, the latency overhead or a setting its
// cache reads left out (it would be 0 without the file saying so). Keys a
// preset brings are not checked.
func (d *decoder) checkModelReads(m sim.Model, preset bool) error {
	v := reflect.ValueOf(&m).Elem()
	unread := func(key string) string { return d.cacheKeyUnread(m, key) }
	latencyUnread := func(key string) string { return sim.LatencyKeyUnread(m, key) }
	for _, set := range []struct {
		keys []string
		why  func(string) string
	}{{sim.CacheKeys(), unread}, {sim.LatencyKeys(), latencyUnread}} {
		for _, key := range set.keys {
			field := "model." + key
			if _, wrote := d.lines[field]; !wrote {
				continue
			}
			f, err := fieldByPath(v, key)
			if err != nil || f.IsZero() {
				continue
			}
			if why := set.why(key); why != "" {
				return d.fieldError(field, &sim.FieldError{Msg: fmt.Sprintf("%s changes nothing: %s (remove it, or choose a cache.kind that reads it)", valueText(f), why)})
			}
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

// writtenParam is a params key the file writes with a value other than 0
// and its default.
type writtenParam struct {
	key   string // "nudge_tokens"
	field string // "params.nudge_tokens"
	line  int
	text  string // the value as written
}

// unreadParam is a params key the file writes that changes nothing with
// the scenario's other values (sim.ParamUnread), unless a sweep varies on.
type unreadParam struct {
	writtenParam
	why string
	on  string // the sweep path that would make it read
}

// paramsWritten lists the params keys the file writes with a value other
// than 0 and the default, in line order.
func (d *decoder) paramsWritten(p sim.Params) []writtenParam {
	v, def := reflect.ValueOf(&p).Elem(), reflect.ValueOf(presets.DefaultParams())
	var out []writtenParam
	for i := 0; i < v.NumField(); i++ {
		key := tagName(v.Type().Field(i))
		field := "params." + key
		line, wrote := d.lines[field]
		if !wrote || v.Field(i).IsZero() || v.Field(i).Equal(def.Field(i)) {
			continue
		}
		out = append(out, writtenParam{key: key, field: field, line: line, text: valueText(v.Field(i))})
	}
	slices.SortStableFunc(out, func(a, b writtenParam) int { return a.line - b.line })
	return out
}

// paramsUnread lists the params of written that change nothing with the
// scenario's other params and its model.
func paramsUnread(m sim.Model, p sim.Params, written []writtenParam) []unreadParam {
	var out []unreadParam
	for _, w := range written {
		if why, on := sim.ParamUnread(m, p, w.key); why != "" {
			out = append(out, unreadParam{writtenParam: w, why: why, on: on})
		}
	}
	return out
}

// CheckParamReads refuses a params key the file writes, set to neither 0
// nor its default, that no strategy of strategies reads
// (reg.ParamUnreadBy: select_prob when every strategy is eager or
// searches by exact select only, cold_call_well_formed_prob when none
// has rejected: execute, relist_prob when every discovery is cached):
// the value would change nothing. strategies are the run's, after
// --strategies; no sweep of a number can make a strategy read such a
// key. Each such key is named with its line, the strategies and why.
// A key the file's own strategies read is not refused when --strategies
// replaced them with strategies that do not: the file is consistent, and
// the run's assumptions state the key as not read, with the reason.
func (s *Scenario) CheckParamReads(reg *sim.Registry, strategies []sim.Strategy) error {
	var probs []string
	for _, w := range s.paramsWritten {
		why, fix := reg.ParamUnreadBy(strategies, w.key)
		if why == "" {
			continue
		}
		if s.fileStrategies != nil {
			if own, _ := reg.ParamUnreadBy(s.fileStrategies, w.key); own == "" {
				continue
			}
		}
		probs = append(probs, (&Error{File: s.File, Line: w.line, Field: w.field,
			Msg: fmt.Sprintf("%s changes nothing: %s (remove it, or %s)", w.text, why, fix)}).Error())
	}
	if len(probs) == 0 {
		return nil
	}
	return errors.New(strings.Join(probs, "\n"))
}

// CheckRunReads is the reads check of a run of strategies (the run's,
// after --strategies): the params no strategy reads (CheckParamReads),
// then the strategy keys a strategy's components do not read
// (CheckReads).
func (s *Scenario) CheckRunReads(reg *sim.Registry, strategies []sim.Strategy) error {
	return errors.Join(s.CheckParamReads(reg, strategies), s.CheckReads(reg, strategies))
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
