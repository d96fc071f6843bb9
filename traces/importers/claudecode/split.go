package claudecode

import (
	"fmt"

	"github.com/defersim/defersim/traces/importers/ingest"
)

// Sub-agent and compaction sessions. A Claude Code session file holds more
// than one model context: a sub-agent (the Task tool) runs in a context of
// its own, written as lines with isSidechain true under the parent's
// sessionId (in the parent's file, or in a file of its own with an agentId),
// and a compaction (a system line of subtype compact_boundary, followed by
// a user line with isCompactSummary) replaces the context with a summary.
// Imported in line, the sub-agent's requests would be replayed with the
// parent's history and model, and the requests after a compaction with the
// whole history the compaction dropped; each context is a session of its
// own instead.

// compactBoundary is the subtype of the system line Claude Code writes where
// it compacted the context.
const compactBoundary = "compact_boundary"

// Report lines (under "converted") for the sessions split off.
const (
	sidechainNote  = "sub-agent contexts (isSidechain lines), each imported as a session of its own: <session>/agent-<agentId>, else <session>/sidechain-<n>"
	compactionNote = "compactions (compact_boundary, or an isCompactSummary user line), the lines after each imported as a session of its own: <session>/compact-<n>"
)

// splitter assigns each line of a file to its session key.
type splitter struct {
	sideKey    map[string]string // uuid of a sidechain line → its sub-agent's key
	sidechains map[string]int    // sessionId → sub-agents opened without agentId
	segments   map[string]int    // context key → compactions seen
	fresh      map[string]bool   // context key → its last line was a compact_boundary
}

func newSplitter() *splitter {
	return &splitter{sideKey: map[string]string{}, sidechains: map[string]int{}, segments: map[string]int{}, fresh: map[string]bool{}}
}

// placement is where a line goes: the session key, the context it
// belongs to (the session id, or a sub-agent's key) and, for a line that
// opens a new compaction segment, the key of the segment it continues.
type placement struct {
	key, context, continues string
	sidechain               bool
}

// place returns the session of a line of sessionId id (not empty).
func (sp *splitter) place(id string, o *ingest.Object) placement {
	ctx := id
	side := o.PeekBool("isSidechain")
	if side {
		uuid, parent := o.PeekString("uuid"), o.PeekString("parentUuid")
		switch agent := o.PeekString("agentId"); {
		case agent != "":
			ctx = id + "/agent-" + agent
		case sp.sideKey[parent] != "":
			ctx = sp.sideKey[parent]
		case o.PeekString("type") == "user" || sp.sidechains[id] == 0:
			// a sub-agent's context starts with its prompt, a user line
			// whose parent is no sidechain line
			sp.sidechains[id]++
			fallthrough
		default:
			// a line whose parent is unknown continues the latest sub-agent
			ctx = fmt.Sprintf("%s/sidechain-%d", id, sp.sidechains[id])
		}
		if uuid != "" {
			sp.sideKey[uuid] = ctx
		}
	}
	p := placement{context: ctx, sidechain: side}
	typ := o.PeekString("type")
	boundary := typ == "system" && o.PeekString("subtype") == compactBoundary
	summary := typ == "user" && o.PeekBool("isCompactSummary") && !sp.fresh[ctx]
	if boundary || summary {
		p.continues = segmentKey(ctx, sp.segments[ctx])
		sp.segments[ctx]++
	}
	sp.fresh[ctx] = boundary
	p.key = segmentKey(ctx, sp.segments[ctx])
	return p
}

func segmentKey(ctx string, seg int) string {
	if seg == 0 {
		return ctx
	}
	return fmt.Sprintf("%s/compact-%d", ctx, seg)
}
