package sim

import (
	"iter"

	"github.com/defersim/defersim/traces"
)

// NeedBuilder builds one session's need from its events as they are read
// (traces.ReadOptions.OnEvent), so that a session is never held as events:
// it keeps only what a need keeps (the strings, arguments and counts of its
// steps and calls), and its need equals ExtractNeed's of the whole session.
// Its steps are kept in blocks of stepBlock, so that a long session's never
// move as they grow, and Engine.RunNeeds lets them go block by block as it
// makes them compact: one session's memory is then about its need's
// (docs/performance.md, "One long session").
//
// Whether the session has model_request events decides how assistant text
// outside a request is read, so the events before the first model_request
// are held until one comes (they are few in a recorded session) or the
// session ends; a session without any model_request is held whole, as
// events, until its end.
type NeedBuilder struct {
	b    needBuffers
	n    Need
	held []heldEvent // events before the first model_request
	// spareHeld is held's memory once its events were added (cleared),
	// for the next builders (needmem.go).
	spareHeld []heldEvent
	// decided says the first model_request was seen (explicit steps).
	decided bool
	// synthetic says the session_start marks its times as placeholders.
	synthetic bool
	done      bool // finish was called
	// e, when set (Engine.BuildNeeds), resolves the session against its
	// catalogs as it is read, into resol (as a run of whole sessions does).
	e     *Engine
	rs    sessionResolver
	resol Resolution
}

// stepBlock is the number of steps in one block of a NeedBuilder's.
const stepBlock = 4096

// heldEvent is an event waiting for the session's step mode.
type heldEvent struct {
	ev   traces.Event
	line int
}

// NewNeedBuilder starts the need of session id.
func NewNeedBuilder(id string) *NeedBuilder {
	return &NeedBuilder{n: Need{SessionID: id}}
}

// newNeedBuilder starts the need of session id, resolved against e.
func (e *Engine) newNeedBuilder(id string) *NeedBuilder {
	nb := e.takeNeedBuilder()
	nb.n.SessionID = id
	nb.e = e
	nb.resol.Sessions++
	return nb
}

// ID returns the session's id.
func (nb *NeedBuilder) ID() string { return nb.n.SessionID }

// Add takes the session's next event, read from the given line (0 if
// unknown). The builder keeps ev's strings and slices (which the trace
// reader never reuses) but not ev itself.
func (nb *NeedBuilder) Add(ev *traces.Event, line int) {
	if nb.e != nil {
		nb.e.resolveEvent(&nb.rs, ev, &nb.resol)
	}
	if ev.Type == traces.SessionStart && ev.Meta()["timing"] == "synthetic" {
		nb.synthetic = true
	}
	if nb.decided {
		nb.b.add(&nb.n, ev, line)
		return
	}
	if ev.Type != traces.ModelRequest {
		nb.held = append(nb.held, heldEvent{*ev, line})
		return
	}
	nb.decided = true
	nb.replayHeld(true)
	nb.b.add(&nb.n, ev, line)
}

// replayHeld starts the extraction and adds the held events.
func (nb *NeedBuilder) replayHeld(explicit bool) {
	nb.b.blocked = true
	nb.b.begin(&nb.n, nb.n.SessionID, explicit, nb.synthetic)
	for i := range nb.held {
		nb.b.add(&nb.n, &nb.held[i].ev, nb.held[i].line)
	}
	clear(nb.held)
	nb.spareHeld, nb.held = nb.held[:0], nil
}

// finish completes the need once every event was added.
func (nb *NeedBuilder) finish() {
	if nb.done {
		return
	}
	nb.done = true
	if !nb.decided {
		nb.replayHeld(false)
	}
	nb.b.finish(&nb.n)
}

// Need returns the session's need once its last event was added. The
// builder must not be used afterwards.
func (nb *NeedBuilder) Need() *Need {
	nb.finish()
	n := &nb.n
	if k := nb.b.nsteps; cap(nb.b.blocks) > 0 { // as finish: nil only when there were no steps at all
		n.Steps = make([]Step, 0, k)
		for _, blk := range nb.b.blocks {
			n.Steps = append(n.Steps, blk...)
		}
	}
	nb.b = needBuffers{} // the need owns its memory now
	return n
}

// compact sets p to the compact form of the session's need, as
// p.fill(nb.Need()) would, letting each block of steps go once it is
// compact, and returns the need's count of removed steps. The builder
// must not be used afterwards: a builder of Engine.BuildNeeds goes back
// to its engine for the next sessions (needmem.go).
func (nb *NeedBuilder) compact(p *pneed) (removed int) {
	nb.finish()
	b := &nb.b
	calls := 0
	for _, blk := range b.blocks {
		for i := range blk {
			calls += len(blk[i].Calls)
		}
	}
	p.reset(&nb.n, b.nsteps, calls)
	var first []Step // the first block, whose memory may be reused
	if len(b.blocks) > 0 {
		first = b.blocks[0]
	}
	var prev *Step // the previous model step (markRepeats)
	for k, blk := range b.blocks {
		for i := range blk {
			st := &blk[i]
			if st.Kind == StepModel {
				st.Repeat = prev != nil && sameCalls(prev.Calls, st.Calls)
				prev = st
			}
			p.add(st)
		}
		b.blocks[k] = nil // let the block go (prev may keep the last one)
	}
	removed = nb.n.Removed
	if e := nb.e; e != nil && len(b.blocks) > 0 {
		e.putNeedBuilder(nb, first) // the last use of nb
	} else {
		nb.b = needBuffers{}
	}
	return removed
}

// addBlockStep appends a step to the blocks and returns its index.
func (b *needBuffers) addBlockStep(st Step) int {
	if k := len(b.blocks); k == 0 || len(b.blocks[k-1]) == stepBlock {
		switch {
		case k > 0:
			b.blocks = append(b.blocks, make([]Step, 0, stepBlock))
		case cap(b.spare) == firstStepBlock:
			b.blocks = append(b.blocks, b.spare[:0])
			b.spare = nil
		default:
			b.blocks = append(b.blocks, make([]Step, 0, firstStepBlock))
		}
	}
	k := len(b.blocks) - 1
	b.blocks[k] = append(b.blocks[k], st)
	b.nsteps++
	return b.nsteps - 1
}

// dropSearchSteps is finish's dropping of the recording runtime's search
// round trips (onlySearched) over the blocks: the remaining steps move
// down in order, as in finish.
func (b *needBuffers) dropSearchSteps(n *Need) {
	w := 0
	for i := range b.nsteps {
		st := b.step(n, i)
		if b.onlySearched(st) {
			n.Removed++
			continue
		}
		if w != i {
			*b.step(n, w) = *st
		}
		w++
	}
	if w == b.nsteps {
		return
	}
	for i := w; i < b.nsteps; i++ {
		*b.step(n, i) = Step{} // keep no strings of moved steps twice
	}
	b.nsteps = w
	nb := (w + stepBlock - 1) / stepBlock
	clear(b.blocks[nb:])
	b.blocks = b.blocks[:nb]
	if nb > 0 {
		b.blocks[nb-1] = b.blocks[nb-1][:w-(nb-1)*stepBlock]
	}
}

// BuildNeeds yields a NeedBuilder per session of the sessions read opens,
// for RunNeeds of e, in the order read yields them; each also resolves its
// session against e's catalogs as it is read. read must open its trace
// reader with onEvent as ReadOptions.OnEvent: each event goes to its
// session's builder as it is read, so no session is held as events.
// Errors are read's.
func (e *Engine) BuildNeeds(read func(onEvent func(*traces.Session, *traces.Event, int)) iter.Seq2[*traces.Session, error]) iter.Seq2[*NeedBuilder, error] {
	return func(yield func(*NeedBuilder, error) bool) {
		building := map[*traces.Session]*NeedBuilder{} // the open sessions'
		var last *traces.Session                       // the session of the previous event, and its builder
		var lastB *NeedBuilder
		onEvent := func(s *traces.Session, ev *traces.Event, line int) {
			if s != last {
				if lastB = building[s]; lastB == nil {
					lastB = e.newNeedBuilder(s.ID)
					building[s] = lastB
				}
				last = s
			}
			lastB.Add(ev, line)
		}
		for s, err := range read(onEvent) {
			if err != nil {
				yield(nil, err)
				return
			}
			b := building[s]
			delete(building, s)
			if s == last {
				last, lastB = nil, nil
			}
			if b == nil { // a session has at least its session_start: cannot happen
				b = e.newNeedBuilder(s.ID)
			}
			if !yield(b, nil) {
				return
			}
		}
	}
}
