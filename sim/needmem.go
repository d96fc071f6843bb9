package sim

// A NeedBuilder's memory (its first block of steps, its calls, its maps)
// is garbage once Engine.RunNeeds has made the session's need compact,
// which a worker does; the builders are made by the goroutine reading the
// trace. Instead of every session allocating its own (about 13 KiB of
// steps and calls, with pointers the GC scans, and the builder itself),
// the workers hand the builder with its memory back through a bounded
// free list (needFree), as the collector hands result buffers back
// (resultPool).

// needFreeSize bounds the free list: enough for the sessions in flight
// between the reader and the workers (jobs queued, being replayed) on a
// machine of a few dozen cores; more are dropped to the GC.
const needFreeSize = 64

// The free list holds the builders themselves (the struct is about 1.3
// KiB), each reset to a new builder's state but for its memory: its first
// block of steps (b.spare), calls, maps and held events' room.

// firstStepBlock is the size of a builder's first block of steps (most
// sessions are short); later blocks hold stepBlock.
const firstStepBlock = 64

// maxReusedHeld bounds the held events a recycled builder keeps room for.
const maxReusedHeld = 64

// takeNeedBuilder returns a builder that was let go, with its memory, or
// a new one; either is a new builder's state (NewNeedBuilder) but for the
// session's id.
func (e *Engine) takeNeedBuilder() *NeedBuilder {
	select {
	case nb := <-e.needFree:
		return nb
	default:
		return &NeedBuilder{}
	}
}

// putNeedBuilder offers nb, which nothing refers to any more (its need
// is compact), to the next sessions: reset to a new builder's state but
// for its memory, cleared of the session's strings. A builder whose
// memory a long session grew is left to the GC (the limits of
// needBuffers' reuse). first is the first block of steps. nb must not be
// used afterwards: another goroutine may take it at once.
func (e *Engine) putNeedBuilder(nb *NeedBuilder, first []Step) {
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
	*nb = NeedBuilder{b: needBuffers{spare: first[:0], byReq: b.byReq, searched: b.searched,
		ncalls: b.ncalls[:0], pstep: b.pstep[:0], pcalls: b.pcalls[:0], arena: b.arena[:0]}, held: nb.spareHeld}
	select {
	case e.needFree <- nb:
	default:
	}
}
