package sim

// A NeedBuilder's memory (its first block of steps, its calls, its maps)
// is garbage once Engine.RunNeeds has made the session's need compact,
// which a worker does; the builders are made by the goroutine reading the
// trace. Instead of every session allocating its own (about 13 KiB of
// steps and calls, with pointers the GC scans), the workers hand the
// memory back through a bounded free list (needFree), as the collector
// hands result buffers back (resultPool).

// needFreeSize bounds the free list: enough for the sessions in flight
// between the reader and the workers (jobs queued, being replayed) on a
// machine of a few dozen cores; more are dropped to the GC.
const needFreeSize = 64

// needMem is the reusable memory of one NeedBuilder.
type needMem struct {
	block         []Step // the first block of steps (cap firstStepBlock)
	byReq         map[string]int
	searched      map[string]bool
	ncalls, pstep []int32
	pcalls, arena []Call
	held          []heldEvent // the events before the first model_request
}

// firstStepBlock is the size of a builder's first block of steps (most
// sessions are short); later blocks hold stepBlock.
const firstStepBlock = 64

// maxReusedHeld bounds the held events a recycled builder keeps room for.
const maxReusedHeld = 64

// takeNeedMem gives nb the memory of a builder that was let go, if any.
func (e *Engine) takeNeedMem(nb *NeedBuilder) {
	b := &nb.b
	var m *needMem
	select {
	case m = <-e.needFree:
	default:
		return
	}
	b.spare, b.byReq, b.searched = m.block, m.byReq, m.searched
	b.ncalls, b.pstep, b.pcalls, b.arena = m.ncalls, m.pstep, m.pcalls, m.arena
	nb.held = m.held
}

// putNeedMem offers b's memory, which nothing refers to any more, to the
// next builders, cleared of the session's strings; memory grown by a
// long session is left to the GC (the limits of needBuffers' reuse).
func (e *Engine) putNeedMem(nb *NeedBuilder, first []Step) {
	b := &nb.b
	if e.needFree == nil || cap(first) != firstStepBlock || cap(nb.spareHeld) > maxReusedHeld || len(b.byReq) > maxReusedKeys || len(b.searched) > maxReusedKeys ||
		cap(b.pcalls) > maxReusedCalls || cap(b.arena) > maxReusedCalls || cap(b.ncalls) > maxReusedSteps {
		return
	}
	clear(first[:cap(first)])
	clear(b.pcalls[:cap(b.pcalls)])
	clear(b.arena[:cap(b.arena)])
	clear(b.byReq)
	clear(b.searched)
	m := &needMem{block: first[:0], byReq: b.byReq, searched: b.searched,
		ncalls: b.ncalls[:0], pstep: b.pstep[:0], pcalls: b.pcalls[:0], arena: b.arena[:0], held: nb.spareHeld}
	select {
	case e.needFree <- m:
	default:
	}
}
