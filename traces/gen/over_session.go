package gen

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/defersim/defersim/traces"
)

// overCall is one planned call of an over-mode session.
type overCall struct {
	series int
	tool   *overTool
}

// overSessionGen builds one over-mode session; it reuses sessionGen for
// the clock, model requests, answers and recorded usage.
type overSessionGen struct {
	*sessionGen
	o   *overState
	cur []int // version index in force, per series
}

// overSession builds session i, starting at start, over the external
// catalog: the same shape as a generated session (turns, steps, calls,
// text, results, pauses), calls drawn by popularity from the versions in
// force, and an upgrade between two turns when the fleet upgraded a server
// while the session was running.
func (g *Generator) overSession(i int, start time.Time) *traces.Session {
	p := &g.p
	r := newRNG(p.Seed, streamSession, uint64(i))
	og := &overSessionGen{
		sessionGen: &sessionGen{g: g, r: r, s: &traces.Session{ID: fmt.Sprintf("gen-%06d", i+1)}, t: start},
		o:          g.over,
		cur:        g.over.startVersions(i),
	}
	turns, plan, _ := planTurns(r, p)
	// A session resumed across an upgrade works with the upgraded server.
	upSeries, upTurn := -1, -1
	if turns >= 2 && r.chance(p.Over.MidSession) {
		var elig []int
		for si, s := range og.o.series {
			if k := og.cur[si]; k+1 < len(s.versions) && !s.at[k+1].IsZero() {
				elig = append(elig, si)
			}
		}
		if len(elig) > 0 {
			upSeries = elig[r.intn(len(elig))]
			upTurn = r.between(1, turns-1)
		}
	}
	focus := upSeries
	if focus < 0 {
		focus = og.sampleSeries()
	}

	og.startEvent()
	for turn := 0; turn < turns; turn++ {
		if turn == upTurn {
			og.resumeAfter(upSeries)
		}
		if turn > 0 {
			og.catchUp()
		}
		var steps [][]overCall
		for _, n := range plan[turn] {
			cs := make([]overCall, n)
			for j := range cs {
				cs[j] = og.pickTool(focus)
				for try := 0; try < 3 && overRepeats(cs[:j], cs[j]); try++ {
					cs[j] = og.pickTool(focus)
				}
			}
			steps = append(steps, cs)
		}
		var first *overTool
		if len(steps) > 0 {
			first = steps[0][0].tool
		}
		dom := og.o.series[focus].dom
		text := overUserText(r, first, dom, p.KeywordProb, p.UserTextBytes.sampleInt(r), turn == 0)
		og.emit(traces.Event{Type: traces.UserMessage, Text: text})
		og.usage.addMessage(int64(len(text)/4 + 4))
		for _, cs := range steps {
			og.toolStep(cs)
		}
		og.textStep()
		if turn < turns-1 {
			pause := p.PauseSec
			if r.chance(p.LongPauseProb) {
				pause = p.LongPauseSec
			}
			og.advance(pause.sample(r) * 1000)
		}
	}
	og.emit(traces.Event{Type: traces.SessionEnd})
	return og.s
}

// startEvent writes session_start naming every series at its version.
func (og *overSessionGen) startEvent() {
	p := &og.g.p
	ev := traces.Event{
		Type:        traces.SessionStart,
		V:           traces.Version,
		StartFields: &traces.StartFields{Model: p.Model, SystemPromptTokens: p.SystemPromptTokens, Meta: map[string]string{traces.MetaGenerator: traces.GeneratorOverCatalogs}},
	}
	for si, s := range og.o.series {
		ev.EnsureStart().Servers = append(ev.Servers(), traces.ServerRef{Name: s.key, Version: s.versions[og.cur[si]].srv.Version})
	}
	if p.Recorded {
		ev.EnsureStart().RecordedStrategy = "eager"
	}
	og.emit(ev)
	og.usage.prefix = p.SystemPromptTokens + og.schemaTokens()
}

// resumeAfter stretches the pause before the current turn so the session
// resumes after the next release of series si (plus a usual pause).
func (og *overSessionGen) resumeAfter(si int) {
	s := og.o.series[si]
	next := og.cur[si] + 1
	if next >= len(s.versions) {
		return // already upgraded while running
	}
	if at := s.at[next]; og.t.Before(at) {
		og.t = at.Add(time.Duration(og.g.p.PauseSec.sample(og.r)*1000) * time.Millisecond).Truncate(time.Millisecond)
	}
}

// catchUp applies the fleet upgrades that happened since the session
// started: each series whose next version was released at or before the
// session's clock moves to the newest such version (one catalog_change).
func (og *overSessionGen) catchUp() {
	changed := false
	for si, s := range og.o.series {
		k := og.cur[si]
		for j := k + 1; j < len(s.versions); j++ {
			if !s.at[j].IsZero() && !og.t.Before(s.at[j]) {
				k = j
			}
		}
		if k == og.cur[si] {
			continue
		}
		og.cur[si] = k
		og.emit(traces.Event{Type: traces.CatalogChange, Server: s.key, ChangeFields: &traces.ChangeFields{Version: s.versions[k].srv.Version}})
		changed = true
	}
	if changed {
		og.usage.prefix = og.g.p.SystemPromptTokens + og.schemaTokens()
	}
}

// schemaTokens estimates the tokens of every schema in force.
func (og *overSessionGen) schemaTokens() int64 {
	bytes := 0
	for si, s := range og.o.series {
		bytes += s.versions[og.cur[si]].wireBytes
	}
	return int64(math.Ceil(float64(bytes) / og.g.p.SchemaBytesPerToken))
}

// sampleSeries draws a series by the popularity of its current tools.
func (og *overSessionGen) sampleSeries() int {
	ws := make([]float64, len(og.o.series))
	for si, s := range og.o.series {
		ws[si] = s.versions[og.cur[si]].sampler.total()
	}
	k := newWeighted(ws).sample(og.r)
	if k < 0 {
		return og.r.intn(len(ws))
	}
	return k
}

// pickTool draws one call: the focus series with probability locality,
// else any series by weight; within it, a tool by popularity.
func (og *overSessionGen) pickTool(focus int) overCall {
	si := focus
	if !og.r.chance(og.g.p.Locality) || og.version(si).sampler.total() <= 0 {
		si = og.sampleSeries()
	}
	v := og.version(si)
	j := v.sampler.sample(og.r)
	if j < 0 {
		j = og.r.intn(len(v.tools))
	}
	return overCall{series: si, tool: v.tools[j]}
}

func (og *overSessionGen) version(si int) *overVersion {
	return og.o.series[si].versions[og.cur[si]]
}

func overRepeats(cs []overCall, c overCall) bool {
	for _, x := range cs {
		if x.series == c.series && x.tool.name == c.tool.name {
			return true
		}
	}
	return false
}

// toolStep writes one model request that makes the calls cs, and the calls.
func (og *overSessionGen) toolStep(cs []overCall) {
	p := &og.g.p
	r := og.r
	args := make([][]byte, len(cs))
	var out int64
	for i, c := range cs {
		args[i] = c.tool.args(r, og.o.series[c.series].dom, p.OptionalArgProb)
		out += int64(len(args[i])/3 + 12)
	}
	req := og.request(out)
	var longest float64
	for i, c := range cs {
		og.callN++
		ev := traces.Event{
			Type:    traces.ToolCall,
			Request: req,
			CallID:  fmt.Sprintf("call-%d", og.callN),
			Tool:    c.tool.name,
			Server:  og.o.series[c.series].key,
			Args:    args[i],
			Status:  traces.StatusOK,
		}
		if r.chance(p.ErrorRate) {
			ev.Status = traces.StatusError
			ev.Error = overErrorText(r, c.tool)
			ev.ResultBytes = int64(len(ev.Error))
		} else {
			ev.ResultBytes = int64(p.ResultBytes.sampleInt(r))
		}
		ev.ResultTokens = int64(math.Ceil(float64(ev.ResultBytes) / p.ResultBytesPerToken))
		ms := p.ToolMs.sample(r)
		ev.DurationMs = int64(math.Max(1, math.Round(ms)))
		longest = math.Max(longest, ms)
		og.emit(ev)
		og.usage.addMessage(ev.ResultTokens + 4)
	}
	og.advance(longest)
}

// overUserText writes a user message of about target bytes. When t is not
// nil the message asks for what t does: with probability keyword in the
// words of the tool's name, otherwise in vague words, so queries derived
// from user text sometimes miss.
func overUserText(r *rng, t *overTool, dom *domain, keyword float64, target int, first bool) string {
	if t == nil {
		return userText(r, nil, dom, keyword, target, first)
	}
	thing := pick(r, vagueThings)
	if r.chance(keyword) && len(t.words) > 0 {
		thing = "the " + strings.Join(t.words, " ") + " step"
	}
	if r.chance(0.6) {
		thing += " for " + pick(r, dom.values)
	}
	s := strings.NewReplacer("{ask}", pick(r, overAsks), "{thing}", thing).Replace(pick(r, userAsk))
	for guard := 0; len(s) < target && guard < 1000; guard++ {
		s += " " + pick(r, userFiller)
	}
	return s
}

// overErrorText writes the error message of a failed call of t.
func overErrorText(r *rng, t *overTool) string {
	a := "input"
	switch {
	case len(t.required) > 0:
		a = t.required[0]
	case len(t.optional) > 0:
		a = t.optional[0]
	}
	n := "item"
	if len(t.words) > 0 {
		n = t.words[len(t.words)-1]
	}
	return strings.NewReplacer("{a}", human(a), "{n}", n).Replace(pick(r, errorTexts))
}

// overAsks and vagueThings complete userAsk for tools known only by name.
var (
	overAsks    = []string{"do", "run", "handle", "take care of", "go through"}
	vagueThings = []string{"the next step", "what we discussed", "the thing I mentioned earlier",
		"the part that is still missing", "the same as before", "what the task needs now"}
)
