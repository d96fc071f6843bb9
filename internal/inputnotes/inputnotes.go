// Package inputnotes says what a command's traces and catalogs hold that
// the command reads as they are and that a reader of its result must see:
// catalog tools read with a stand-in schema and server versions serving no
// tools (catalog notes), sessions without a session_end or without a user
// message, events whose time goes backwards and implausible counts. Every command that reads users'
// traces and catalogs (run, recommend, calibrate, sweep, plan --growth)
// warns about them in the same words (Notes.Warnings) and records them in
// the document it writes.
package inputnotes

import (
	"fmt"
	"strings"
	"sync"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/internal/termsafe"
	"github.com/defersim/defersim/traces"
)

// Notes are the input problems of one command. The zero value is clean.
type Notes struct {
	// CatalogNotes are catalog.Notes of the catalogs read.
	CatalogNotes []catalog.Note `json:"catalog_notes,omitempty"`
	// SessionsRead and EventsRead are what the counts below are out of.
	SessionsRead int64 `json:"sessions_read,omitempty"`
	EventsRead   int64 `json:"events_read,omitempty"`
	// SessionsIncomplete counts sessions without a session_end (replayed
	// as far as recorded).
	SessionsIncomplete int64 `json:"sessions_incomplete,omitempty"`
	// SessionsWithoutUser counts sessions without a user event, whose
	// first reply runs from the session's start to its end
	// (docs/engine.md §5); FirstNoUser locates the first of them (for the
	// warnings; not written).
	SessionsWithoutUser int64            `json:"sessions_without_user,omitempty"`
	FirstNoUser         []traces.Problem `json:"-"`
	// EventsTimeBackwards counts events earlier than the event before
	// them in their session (kept; a negative pause is taken as 0).
	EventsTimeBackwards int64 `json:"events_time_backwards,omitempty"`
	// LinesImplausible counts trace lines with an implausible count or
	// duration (kept as recorded).
	LinesImplausible int64 `json:"lines_implausible,omitempty"`
	// SessionsEpochDated counts the sessions replayed that a dated upgrade
	// (servers.NAME.upgrades[].at) placed before it by a start in 1970 or
	// earlier: times that look like placeholders put them on the old version.
	SessionsEpochDated int64 `json:"sessions_epoch_dated,omitempty"`
	// EventsNotReplayed counts events of kinds the replay does not use
	// (traces.NotReplayed: deferral_change), in
	// SessionsWithEventsNotReplayed sessions.
	EventsNotReplayed             int64 `json:"events_not_replayed,omitempty"`
	SessionsWithEventsNotReplayed int64 `json:"sessions_with_events_not_replayed,omitempty"`
	// FirstBackwards and FirstImplausible locate the first of them (for
	// the warnings; not written).
	FirstBackwards   []traces.Problem `json:"-"`
	FirstImplausible []traces.Problem `json:"-"`
	// LinesSkipped counts the trace lines skipped as bad input (run
	// --skip-bad), FirstSkipped locates the first of them with their
	// reasons (for the warnings; not written: results.json counts them in
	// run.counts).
	LinesSkipped int64            `json:"-"`
	FirstSkipped []traces.Problem `json:"-"`
}

// FromCounts gathers the notes of catalogs (catalog.Notes) and of the
// reader counts of every trace file read.
func FromCounts(catalogNotes []catalog.Note, counts []traces.Counts) Notes {
	n := Notes{CatalogNotes: catalogNotes}
	for _, c := range counts {
		n.SessionsRead += c.Sessions
		n.EventsRead += c.Events
		n.SessionsIncomplete += c.Incomplete
		n.SessionsWithoutUser += c.NoUser
		n.FirstNoUser = append(n.FirstNoUser, c.FirstNoUser...)
		n.EventsTimeBackwards += c.Backwards
		n.FirstBackwards = append(n.FirstBackwards, c.FirstBackwards...)
		n.LinesImplausible += c.Implausible
		n.FirstImplausible = append(n.FirstImplausible, c.FirstImplausible...)
		n.EventsNotReplayed += c.Unreplayed
		n.SessionsWithEventsNotReplayed += c.UnreplayedSessions
		n.LinesSkipped += c.Skipped
		n.FirstSkipped = append(n.FirstSkipped, c.FirstSkips...)
	}
	return n
}

// Empty says there is nothing to note.
func (n Notes) Empty() bool {
	return len(n.CatalogNotes) == 0 && n.SessionsIncomplete == 0 && n.SessionsWithoutUser == 0 && n.EventsTimeBackwards == 0 && n.LinesImplausible == 0 &&
		n.SessionsEpochDated == 0 && n.EventsNotReplayed == 0
}

// OrNil is n, or nil when it is empty: for a document's omitempty member,
// so that a document over clean inputs is what it was before.
func (n Notes) OrNil() *Notes {
	if n.Empty() {
		return nil
	}
	return &n
}

// Warnings are the lines a command prints on stderr about n (each after
// "defersim: warning: "): one per kind of catalog note, then implausible
// counts and times going backwards with the first five locations of each,
// then sessions without a user message (with the first five), then
// sessions without a session_end. Lines skipped as bad input come
// first, with the first five locations and reasons. where names the document member
// that lists up to catalog.MaxNoteItems items of each catalog note (e.g.
// "results.json run.catalog_notes"); "" names none.
func (n Notes) Warnings(where string) []string {
	var out []string
	suffix := ""
	if where != "" {
		suffix = " (" + where + ")"
	}
	for _, c := range n.CatalogNotes {
		items := c.Items[:min(len(c.Items), 5)]
		more := ""
		if k := c.Count - len(items); k > 0 {
			more = fmt.Sprintf(", … (%d more)", k)
		}
		out = append(out, fmt.Sprintf("catalogs: %s: %s%s%s", c.Text(), termsafe.String(strings.Join(items, ", ")), more, suffix))
	}
	if n.LinesSkipped > 0 {
		out = append(out, fmt.Sprintf("%s skipped as bad input (--skip-bad): what %s held is not in the figures; `defersim trace validate` lists every problem",
			nouns.Count(n.LinesSkipped, "trace line"), nouns.Form(n.LinesSkipped, "it", "they")))
		out = append(out, Locations(n.LinesSkipped, n.FirstSkipped)...)
	}
	if n.LinesImplausible > 0 {
		out = append(out, fmt.Sprintf("%s %s an implausible count or duration, kept as recorded; figures that use %s are dominated by %s",
			nouns.Count(n.LinesImplausible, "trace line"), nouns.Form(n.LinesImplausible, "holds", "hold"),
			nouns.Form(n.LinesImplausible, "it", "them"), nouns.Form(n.LinesImplausible, "it", "them")))
		out = append(out, Locations(n.LinesImplausible, n.FirstImplausible)...)
	}
	if n.EventsTimeBackwards > 0 {
		out = append(out, fmt.Sprintf("%s %s earlier than the event before %s in %s session (kept; a user pause that would be negative is taken as 0, so the prompt cache sees no gap there; `defersim trace validate` lists %s)",
			nouns.Count(n.EventsTimeBackwards, "trace event"), nouns.Form(n.EventsTimeBackwards, "is", "are"),
			nouns.Form(n.EventsTimeBackwards, "it", "them"), nouns.Form(n.EventsTimeBackwards, "its", "their"), nouns.Form(n.EventsTimeBackwards, "it", "them")))
		out = append(out, Locations(n.EventsTimeBackwards, n.FirstBackwards)...)
	}
	if n.SessionsEpochDated > 0 {
		out = append(out, fmt.Sprintf("%s %s in 1970 or earlier, before the scenario's dated upgrades (servers.NAME.upgrades[].at), and ran on the versions before them: times at the Unix epoch look like placeholders, not recorded times; if they are, use after_session instead",
			nouns.Count(n.SessionsEpochDated, "session"), nouns.Form(n.SessionsEpochDated, "starts", "start")))
	}
	if n.EventsNotReplayed > 0 {
		out = append(out, NotReplayedText(n.EventsNotReplayed, n.SessionsWithEventsNotReplayed, n.SessionsRead))
	}
	if n.SessionsWithoutUser > 0 {
		out = append(out, NoUserText(n.SessionsWithoutUser, n.SessionsRead)+"; `defersim trace validate` lists them")
		out = append(out, Locations(n.SessionsWithoutUser, n.FirstNoUser)...)
	}
	if n.SessionsIncomplete > 0 {
		out = append(out, fmt.Sprintf("%d of %s read %s no session_end (a file cut short? a session split across files?); they were replayed as far as recorded (`defersim trace validate` lists them)",
			n.SessionsIncomplete, nouns.Count(n.SessionsRead, "session"), nouns.Form(n.SessionsIncomplete, "has", "have")))
	}
	return out
}

// NoUserText says that sessions of the read sessions hold no user event,
// so that their first reply is not one: the warning's, the report's and
// plan's words.
func NoUserText(sessions, read int64) string {
	return fmt.Sprintf("%d of %s %s no user message: %s first_reply_ms runs from the session's start to its end, not to a first reply (docs/engine.md §5); drop %s, or add the user messages the export left out",
		sessions, nouns.Count(read, "session"), nouns.Form(sessions, "has", "have"), nouns.Form(sessions, "its", "their"),
		nouns.Form(sessions, "it", "them"))
}

// NotReplayedText says that events of kinds the replay does not use
// (traces.NotReplayed), held by sessions of the read sessions, were read
// and left aside: the warning's and the report's words.
func NotReplayedText(events, sessions, read int64) string {
	return fmt.Sprintf("%d of %s read %s %s: the replay does not use them (each strategy decides what it defers; the recording runtime's deferred set is not replayed; docs/trace-format.md)",
		sessions, nouns.Count(read, "session"), nouns.Form(sessions, "holds", "hold"), nouns.Count(events, "deferral_change event"))
}

// MaxLocations is how many problems of one kind Locations names.
const MaxLocations = 5

// Locations are the first MaxLocations of k problems located by first
// (file:line: reason each), then how many more there are.
func Locations(k int64, first []traces.Problem) []string {
	var out []string
	for i, p := range first {
		if i == MaxLocations {
			out = append(out, fmt.Sprintf("… (%d more)", k-MaxLocations))
			break
		}
		out = append(out, fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Reason))
	}
	return out
}

// Tally keeps, per trace file, the reader counts of its most complete read
// (the most lines, then the most sessions yielded: a read stopped early
// may have decoded every line ahead of the sessions it yielded): a command
// that reads its traces several times, some reads stopping early, counts
// each file once. It is safe for concurrent use.
type Tally struct {
	mu    sync.Mutex
	order []string
	files map[string]traces.Counts
}

// Add records the counts of one read of the file at path.
func (t *Tally) Add(path string, c traces.Counts) {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.files == nil {
		t.files = map[string]traces.Counts{}
	}
	old, seen := t.files[path]
	if !seen {
		t.order = append(t.order, path)
	}
	if !seen || c.Lines > old.Lines || c.Lines == old.Lines && c.Sessions > old.Sessions {
		t.files[path] = c
	}
}

// Notes are the notes of catalogNotes and of the files tallied, in the
// order first read.
func (t *Tally) Notes(catalogNotes []catalog.Note) Notes {
	t.mu.Lock()
	defer t.mu.Unlock()
	counts := make([]traces.Counts, len(t.order))
	for i, p := range t.order {
		counts[i] = t.files[p]
	}
	return FromCounts(catalogNotes, counts)
}
