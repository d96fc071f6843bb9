package gen

import (
	"fmt"
	"math"
	"time"

	"github.com/defersim/defersim/traces"
)

// call is one planned tool call.
type call struct {
	server int
	tool   *toolDef
}

// sessionGen builds one session.
type sessionGen struct {
	g      *Generator
	r      *rng
	s      *traces.Session
	t      time.Time
	cur    []int
	reqN   int
	callN  int
	usage  usageState
	argMkr *argMaker
}

// usageState tracks prompt size for plausible recorded usage.
type usageState struct {
	prefix     int64 // system prompt + tool schemas
	messages   int64 // conversation so far
	last       int64 // newest message(s) not yet sent
	prevPrompt int64
	prevPrefix int64
	prevEnd    time.Time
}

func (g *Generator) session(i int, start time.Time) *traces.Session {
	p := &g.p
	r := newRNG(p.Seed, streamSession, uint64(i))
	sg := &sessionGen{
		g:      g,
		r:      r,
		s:      &traces.Session{ID: fmt.Sprintf("gen-%06d", i+1)},
		t:      start,
		cur:    g.versionsAt(start),
		argMkr: &argMaker{r: r, optional: p.OptionalArgProb},
	}

	// Plan turns, steps and calls.
	turns, plan, total := planTurns(r, p)

	// A mid-session upgrade of a drifting server; that server becomes the
	// session's focus so the change is exercised.
	upServer, upTurn := -1, -1
	if turns >= 2 && r.chance(p.Drift.MidSession) {
		var elig []int
		var ws []float64
		for si, s := range g.servers {
			if sg.cur[si] < len(s.versions)-1 {
				elig = append(elig, si)
				ws = append(ws, 1)
			}
		}
		if k := newWeighted(ws).sample(r); k >= 0 {
			upServer = elig[k]
			upTurn = r.between(1, turns-1)
		}
	}
	focus := upServer
	if focus < 0 {
		focus = sg.sampleServer()
	}

	// Planted tools claim call slots.
	slots := map[int]plantedRef{}
	if total > 0 {
		u, acc := r.float64(), 0.0
		for _, pt := range g.planted {
			if pt.open <= 0 {
				continue
			}
			acc += pt.open
			if u < acc {
				slots[0] = pt
				break
			}
		}
		for _, pt := range g.planted {
			if pt.use <= 0 || !r.chance(pt.use) {
				continue
			}
			k := 0
			if total > 1 {
				k = r.between(1, total-1)
			}
			if _, taken := slots[k]; !taken {
				slots[k] = pt
			}
		}
	}

	sg.start(start)
	slot := 0
	for turn := 0; turn < turns; turn++ {
		if turn == upTurn {
			sg.upgrade(upServer)
		}
		// Draw the turn's tools first: the user message asks for them.
		var steps [][]call
		for _, n := range plan[turn] {
			cs := make([]call, n)
			for j := range cs {
				cs[j] = sg.pickTool(slots, slot, focus)
				// Parallel calls rarely repeat a tool: redraw a few times.
				for try := 0; try < 3 && repeats(cs[:j], cs[j]); try++ {
					cs[j] = sg.pickTool(nil, slot, focus)
				}
				slot++
			}
			steps = append(steps, cs)
		}
		var first *toolDef
		if len(steps) > 0 {
			first = steps[0][0].tool
		}
		dom := g.servers[focus].dom
		text := userText(r, first, dom, p.KeywordProb, p.UserTextBytes.sampleInt(r), turn == 0)
		sg.emit(traces.Event{Type: traces.UserMessage, Text: text})
		sg.usage.addMessage(int64(len(text)/4 + 4))
		for _, cs := range steps {
			sg.toolStep(cs)
		}
		sg.textStep()
		if turn < turns-1 {
			pause := p.PauseSec
			if r.chance(p.LongPauseProb) {
				pause = p.LongPauseSec
			}
			sg.advance(pause.sample(r) * 1000)
		}
	}
	sg.emit(traces.Event{Type: traces.SessionEnd})
	return sg.s
}

// planTurns draws a session's shape: the number of user turns and, per
// turn, the number of calls of each tool-calling model step (nil for a turn
// without tools); total is the number of calls.
func planTurns(r *rng, p *Params) (turns int, plan [][]int, total int) {
	turns = p.Turns.sampleInt(r)
	if turns < 1 {
		turns = 1
	}
	plan = make([][]int, turns)
	for t := range plan {
		prob := p.ToolTurnProb
		if t == 0 {
			prob = p.FirstTurnToolProb
		}
		if !r.chance(prob) {
			continue
		}
		steps := make([]int, r.geometric(p.StepsPerToolTurn))
		for j := range steps {
			steps[j] = r.geometric(p.CallsPerStep)
			total += steps[j]
		}
		plan[t] = steps
	}
	return turns, plan, total
}

// start writes session_start.
func (sg *sessionGen) start(t time.Time) {
	p := &sg.g.p
	ev := traces.Event{
		Type:        traces.SessionStart,
		V:           traces.Version,
		StartFields: &traces.StartFields{Model: p.Model, SystemPromptTokens: p.SystemPromptTokens, Meta: map[string]string{"generator": "defersim trace gen"}},
	}
	for si, s := range sg.g.servers {
		ev.EnsureStart().Servers = append(ev.Servers(), traces.ServerRef{Name: s.name, Version: s.versions[sg.cur[si]].version})
	}
	if p.Recorded {
		ev.EnsureStart().RecordedStrategy = "eager"
	}
	sg.emit(ev)
	sg.usage.prefix = p.SystemPromptTokens + sg.schemaTokens()
}

// upgrade moves server si to its next version and writes catalog_change.
func (sg *sessionGen) upgrade(si int) {
	sg.cur[si]++
	s := sg.g.servers[si]
	sg.emit(traces.Event{Type: traces.CatalogChange, Server: s.name, ChangeFields: &traces.ChangeFields{Version: s.versions[sg.cur[si]].version}})
	sg.usage.prefix = sg.g.p.SystemPromptTokens + sg.schemaTokens()
}

// schemaTokens estimates the tokens of every schema in force.
func (sg *sessionGen) schemaTokens() int64 {
	var bytes int
	for si := range sg.g.servers {
		bytes += sg.g.wireBytes[si][sg.cur[si]]
	}
	return int64(math.Ceil(float64(bytes) / sg.g.p.SchemaBytesPerToken))
}

// sampleServer draws a server by the popularity of its current tools.
func (sg *sessionGen) sampleServer() int {
	ws := make([]float64, len(sg.g.servers))
	for si := range ws {
		ws[si] = sg.g.samplers[si][sg.cur[si]].w.total()
	}
	k := newWeighted(ws).sample(sg.r)
	if k < 0 {
		return sg.r.intn(len(ws))
	}
	return k
}

// pickTool chooses the tool for call slot k.
func (sg *sessionGen) pickTool(slots map[int]plantedRef, k, focus int) call {
	if pt, ok := slots[k]; ok {
		if t := sg.g.servers[pt.server].versions[sg.cur[pt.server]].tool(pt.tool); t != nil {
			return call{server: pt.server, tool: t}
		}
	}
	si := focus
	if !sg.r.chance(sg.g.p.Locality) || sg.g.samplers[si][sg.cur[si]].w.total() <= 0 {
		si = sg.sampleServer()
	}
	ts := sg.g.samplers[si][sg.cur[si]]
	j := ts.w.sample(sg.r)
	if j < 0 {
		j = sg.r.intn(len(ts.tools))
	}
	return call{server: si, tool: ts.tools[j]}
}

func repeats(cs []call, c call) bool {
	for _, x := range cs {
		if x.server == c.server && x.tool.name == c.tool.name {
			return true
		}
	}
	return false
}

// toolStep writes one model request that makes the calls cs, and the calls.
func (sg *sessionGen) toolStep(cs []call) {
	p := &sg.g.p
	r := sg.r
	args := make([][]byte, len(cs))
	var out int64
	for i, c := range cs {
		sg.argMkr.dom = c.tool.dom
		args[i] = sg.argMkr.args(c.tool)
		out += int64(len(args[i])/3 + 12)
	}
	req := sg.request(out)
	var longest float64
	for i, c := range cs {
		sg.callN++
		ev := traces.Event{
			Type:    traces.ToolCall,
			Request: req,
			CallID:  fmt.Sprintf("call-%d", sg.callN),
			Tool:    c.tool.name,
			Server:  sg.g.servers[c.server].name,
			Args:    args[i],
			Status:  traces.StatusOK,
		}
		if r.chance(p.ErrorRate) {
			ev.Status = traces.StatusError
			ev.Error = errorText(r, c.tool)
			ev.ResultBytes = int64(len(ev.Error))
		} else {
			ev.ResultBytes = int64(p.ResultBytes.sampleInt(r))
		}
		ev.ResultTokens = int64(math.Ceil(float64(ev.ResultBytes) / p.ResultBytesPerToken))
		ms := p.ToolMs.sample(r)
		ev.DurationMs = int64(math.Max(1, math.Round(ms)))
		if ms > longest {
			longest = ms
		}
		sg.emit(ev)
		sg.usage.addMessage(ev.ResultTokens + 4)
	}
	sg.advance(longest)
}

// textStep writes the model request that answers the user, and the answer.
func (sg *sessionGen) textStep() {
	n := int64(sg.g.p.AssistantTokens.sampleInt(sg.r))
	req := sg.request(n)
	sg.emit(traces.Event{Type: traces.AssistantMessage, Request: req, TextTokens: n})
}

// request writes a model_request producing out output tokens, moves the
// clock to its end and returns its id.
func (sg *sessionGen) request(out int64) string {
	p := &sg.g.p
	sg.reqN++
	id := fmt.Sprintf("req-%d", sg.reqN)
	ttft := p.TTFTMs.sample(sg.r)
	dur := ttft + float64(out)/p.DecodeTokensPerSec*1000
	ev := traces.Event{Type: traces.ModelRequest, ID: id}
	if p.Recorded {
		ev.TTFTMs = int64(math.Round(ttft))
		ev.DurationMs = int64(math.Round(dur))
		ev.Usage = sg.usage.request(sg.t, out)
	}
	sg.emit(ev)
	sg.advance(dur)
	sg.usage.prevEnd = sg.t
	sg.usage.addMessage(out)
	return id
}

// addMessage records tokens appended to the conversation.
func (u *usageState) addMessage(n int64) {
	u.messages += n
	u.last += n
}

// request returns plausible usage for a request starting at t under an
// eager runtime with a 5-minute prefix cache: the previous prompt is read
// from cache when it is still live and the tools did not change, the new
// messages are written, the newest message is uncached input.
func (u *usageState) request(t time.Time, out int64) *traces.Usage {
	prompt := u.prefix + u.messages
	us := &traces.Usage{Output: out}
	live := u.prevPrompt > 0 && t.Sub(u.prevEnd) < 5*time.Minute && u.prefix == u.prevPrefix
	newest := u.last
	if newest > prompt {
		newest = prompt
	}
	if live {
		us.CacheRead = u.prevPrompt
		us.CacheWrite = prompt - u.prevPrompt - newest
		if us.CacheWrite < 0 {
			us.CacheWrite = 0
		}
		us.Input = prompt - us.CacheRead - us.CacheWrite
	} else {
		us.CacheWrite = prompt - newest
		us.Input = newest
	}
	u.prevPrompt, u.prevPrefix, u.last = prompt, u.prefix, 0
	return us
}

// advance moves the session clock by ms milliseconds.
func (sg *sessionGen) advance(ms float64) {
	sg.t = sg.t.Add(time.Duration(math.Round(ms)) * time.Millisecond)
}

// emit appends an event at the current time.
func (sg *sessionGen) emit(ev traces.Event) {
	ev.Session = sg.s.ID
	ev.T = sg.t
	sg.s.Events = append(sg.s.Events, ev)
}
