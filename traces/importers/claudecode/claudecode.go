// Package claudecode imports Claude Code session files: JSON Lines, one
// record per line (uuid, parentUuid, sessionId, timestamp, type, message,
// requestId), where one model request may span several lines that repeat its
// usage, and attachments of type deferred_tools_delta record the runtime's
// deferred tool set changing.
package claudecode

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/defersim/defersim/internal/jsonpos"
	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/importers/anthropicmsg"
	"github.com/defersim/defersim/traces/importers/ingest"
)

// Format is the format name of this importer.
const Format = "claude-code"

// DefaultServer is the server of the runtime's built-in tools (Bash, Read, …);
// MCP tools (mcp__<server>__<tool>) name their own.
const DefaultServer = "claude-code"

// Importer reads Claude Code session files.
type Importer struct{}

// New returns a claude-code importer.
func New() *Importer { return &Importer{} }

// ImportFile imports every session of the file at path.
func (im *Importer) ImportFile(path string, opts *ingest.Options, sink ingest.Sink, rep *ingest.Report) error {
	f, err := ingest.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return im.Import(filepath.Base(path), f, opts, sink, rep)
}

// Import imports the sessions of a file read from r; name labels errors and
// sessions without a sessionId. Sessions are emitted in order of first
// appearance, each when the file ends (lines of sessions may interleave).
func (im *Importer) Import(name string, r io.Reader, opts *ingest.Options, sink ingest.Sink, rep *ingest.Report) error {
	stem := strings.TrimSuffix(strings.TrimSuffix(name, ".gz"), ".jsonl")
	sessions := map[string]*session{}
	var order []string
	last := ""
	split := newSplitter()
	err := ingest.Lines(r, func(n int, line []byte) error {
		raw := bytes.TrimRight(line, "\r\n")
		line = bytes.TrimSpace(line)
		o, err := ingest.NewObject(fmt.Sprintf("line %d", n), "", json.RawMessage(line))
		if err != nil {
			if _, syntax := jsonpos.Offset(err); syntax {
				// Where in the line, counted on the line as read.
				var m map[string]json.RawMessage
				return ingest.LineJSONError(n, raw, fmt.Errorf("want a JSON object: %w", json.Unmarshal(raw, &m)))
			}
			return err
		}
		id, err := o.TakeString("sessionId")
		if err != nil {
			return err
		}
		p := placement{key: id}
		switch {
		case id != "":
			p = split.place(id, o)
		case last != "":
			// Lines without a session id (summaries, snapshots) belong to
			// the session before them.
			p.key = last
		case !o.Has("message"):
			// Before any session, only a message line opens a session
			// named after the file.
			rep.Unmap("line without sessionId before any session")
			return nil
		default:
			p.key = stem
		}
		last = p.key
		s := sessions[p.key]
		if s == nil {
			s = newSession(p.key, name, opts, rep)
			sessions[p.key] = s
			order = append(order, p.key)
			s.opened(id, p, sessions[p.continues])
		}
		return s.line(o)
	})
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	for _, id := range order {
		s := sessions[id]
		if s.empty() {
			continue
		}
		if s.continues != "" {
			rep.Convert(compactionNote)
		}
		if err := sink.Emit(s.end()); err != nil {
			return fmt.Errorf("%s: session %s: %w", name, id, err)
		}
	}
	return nil
}

// session assembles one Claude Code session.
type session struct {
	b   *ingest.Builder
	c   *anthropicmsg.Conv
	rep *ingest.Report

	prev    time.Time       // time of the last line outside the current request
	last    time.Time       // the latest time of any of its lines: its session_end's
	reqKey  string          // requestId (or message id) of the current request
	reqIdx  int             // index of its model_request event
	reqs    map[string]int  // request key → model_request event index
	cut     map[string]bool // request keys counted as cut at the output limit
	started bool

	deferred  []string // the runtime's deferred tools, as its attachments left them
	continues string   // the compaction segment this one continues ("" for none)
	carried   int      // events it held when opened (start, deferred tools)
}

// opened records where a new session comes from: a sub-agent of session
// id (meta parent_session), or the compaction segment continuing prev (meta
// continues_session), which starts with the deferred tools prev left.
func (s *session) opened(id string, p placement, prev *session) {
	meta := s.b.At(0).Meta()
	if p.sidechain && p.context == p.key {
		meta["parent_session"] = id
		s.rep.Convert(sidechainNote)
	}
	if p.continues == "" {
		return
	}
	meta["continues_session"] = p.continues
	s.continues = p.continues
	if prev != nil && len(prev.deferred) > 0 {
		s.deferred = append([]string(nil), prev.deferred...)
		s.b.Add(traces.Event{Type: traces.DeferralChange, ChangeFields: &traces.ChangeFields{Added: append([]string(nil), s.deferred...)}})
		s.b.At(0).EnsureStart().RecordedStrategy = "deferred"
	}
	s.carried = s.b.Len()
}

// empty says whether a compaction segment holds nothing after its
// boundary (a file that ends with one): it is not a session.
func (s *session) empty() bool {
	return s.continues != "" && s.b.Len() == s.carried
}

func newSession(id, file string, opts *ingest.Options, rep *ingest.Report) *session {
	server := opts.ServerName(DefaultServer)
	b := ingest.NewBuilder(id, "", server)
	b.Add(traces.Event{Type: traces.SessionStart, StartFields: &traces.StartFields{Meta: map[string]string{"source_format": Format, "source_file": file}}})
	b.UseGateway(&opts.Gateway)
	return &session{b: b, c: anthropicmsg.NewConv(b, rep), rep: rep, reqs: map[string]int{}, cut: map[string]bool{}}
}

// line converts one record.
func (s *session) line(o *ingest.Object) error {
	t, err := ingest.TakeTime(o, "timestamp")
	if err != nil {
		return err
	}
	if !s.started && !t.IsZero() {
		s.b.MoveStart(0, t)
		s.started = true
	}
	if t.After(s.last) {
		s.last = t
	}
	o.Skip("uuid", "parentUuid", "logicalParentUuid", "leafUuid") // the order of lines carries the thread
	o.Skip("agentId", "isSidechain")                              // in the session key (split.go)
	st := s.b.At(0)
	for _, k := range []string{"version", "gitBranch", "userType", "entrypoint"} {
		if v, _ := o.TakeString(k); v != "" {
			st.Meta()[metaKey(k)] = v
		}
	}
	if o.Has("cwd") {
		o.Take("cwd")
		s.rep.Unmap("cwd (a local path; not copied)")
	}
	typ, err := o.TakeString("type")
	if err != nil {
		return err
	}
	if err := s.attachments(o, t); err != nil {
		return err
	}
	switch typ {
	case "user":
		err = s.user(o, t)
	case "assistant":
		err = s.assistant(o, t)
	case "attachment":
		// handled by attachments
	default:
		s.rep.Unmap(fmt.Sprintf("line of type %s", orQuote(typ)))
		o.Rest(ingest.NewReport(""))
	}
	if err != nil {
		return err
	}
	if typ != "assistant" {
		s.closeRequest()
		s.observe(t)
	}
	o.Rest(s.rep)
	return nil
}

func metaKey(k string) string {
	switch k {
	case "version":
		return "claude_code.version"
	case "gitBranch":
		return "git_branch"
	case "userType":
		return "user_type"
	}
	return k
}

func orQuote(s string) string {
	if s == "" {
		return `""`
	}
	return s
}

// attachments turns deferred_tools_delta attachments (in an "attachment"
// member or an "attachments" array) into deferral_change events.
func (s *session) attachments(o *ingest.Object, t time.Time) error {
	var list []json.RawMessage
	if a := o.Take("attachment"); a != nil {
		list = append(list, a)
	}
	more, err := o.TakeArray("attachments")
	if err != nil {
		return err
	}
	list = append(list, more...)
	for i, raw := range list {
		a, err := o.Elem("attachment", i, raw)
		if err != nil {
			return err
		}
		a.Field = "attachment"
		typ, _ := a.TakeString("type")
		if typ != "deferred_tools_delta" {
			s.rep.Unmap("attachment of type " + orQuote(typ))
			a.Rest(ingest.NewReport(""))
			continue
		}
		var added, removed []string
		if v := a.Take("addedNames"); v != nil {
			if err := json.Unmarshal(v, &added); err != nil {
				return a.Errorf("addedNames: want an array of names")
			}
		}
		if v := a.Take("removedNames"); v != nil {
			if err := json.Unmarshal(v, &removed); err != nil {
				return a.Errorf("removedNames: want an array of names")
			}
		}
		added, removed = nonEmpty(added), nonEmpty(removed)
		s.deferred = slices.DeleteFunc(append(s.deferred, added...), func(n string) bool { return slices.Contains(removed, n) })
		if len(added)+len(removed) > 0 {
			s.b.Add(traces.Event{Type: traces.DeferralChange, T: t, ChangeFields: &traces.ChangeFields{Added: added, Removed: removed}})
			s.b.At(0).EnsureStart().RecordedStrategy = "deferred"
		}
		a.Rest(s.rep)
	}
	return nil
}

func nonEmpty(names []string) []string {
	out := names[:0]
	for _, n := range names {
		if n != "" {
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// user converts a user line: text, and tool results for earlier calls.
func (s *session) user(o *ingest.Object, t time.Time) error {
	s.closeRequest()
	o.Skip("isCompactSummary") // opens a session (split.go)
	if meta, _, _ := o.TakeBool("isMeta"); meta {
		s.rep.Unmap("isMeta (runtime-injected user lines, imported as user messages)")
	}
	if o.Has("toolUseResult") {
		o.Take("toolUseResult")
		s.rep.Unmap("toolUseResult (the runtime's structured copy of a tool result)")
	}
	m, err := o.TakeObject("message")
	if err != nil || m == nil {
		return err
	}
	m.Skip("role")
	if err := s.c.User(m, "content", t); err != nil {
		return err
	}
	m.Rest(s.rep)
	return nil
}

// assistant converts an assistant line. Lines sharing a requestId (or message
// id) belong to one model request: it starts at the last line before it and
// ends at its last line; its usage is the field-wise maximum over its lines
// (they repeat it, the last one complete), so it is counted once.
func (s *session) assistant(o *ingest.Object, t time.Time) error {
	reqID, err := o.TakeString("requestId")
	if err != nil {
		return err
	}
	m, err := o.TakeObject("message")
	if err != nil || m == nil {
		return err
	}
	m.Skip("role", "type")
	msgID, err := m.TakeString("id")
	if err != nil {
		return err
	}
	model, err := m.TakeString("model")
	if err != nil {
		return err
	}
	if model == "<synthetic>" {
		// The runtime writes its own messages (errors, interruptions) as
		// assistant lines; no model request produced them.
		s.closeRequest()
		o.Skip("isApiErrorMessage")
		s.rep.Unmap("synthetic assistant lines (runtime-written, no model request)")
		m.Take("usage")
		err := s.c.Assistant(m, "content", t, "")
		m.Rest(ingest.NewReport(""))
		s.observe(t)
		return err
	}
	usage, err := anthropicmsg.TakeUsage(m, s.rep)
	if err != nil {
		return err
	}
	key := reqID
	if key == "" {
		key = msgID
	}
	idx, seen := s.reqs[key]
	if key == "" || !seen {
		s.closeRequest()
		start := t
		if !s.prev.IsZero() && !t.IsZero() && !s.prev.After(t) {
			start = s.prev
		}
		id := reqID
		if id == "" {
			id = msgID
		}
		idx = s.b.Request(id, start, ingest.Millis(start, t), usage)
		if key != "" {
			s.reqs[key] = idx
		}
	} else {
		ev := s.b.At(idx)
		ev.Usage = anthropicmsg.MaxUsage(ev.Usage, usage)
		if d := ingest.Millis(ev.T, t); d > ev.DurationMs {
			ev.DurationMs = d
		}
	}
	s.reqKey, s.reqIdx = key, idx
	if st := s.b.At(0); st.Model() == "" {
		st.EnsureStart().Model = model
	}
	// A request's lines repeat its stop reason: it is counted once.
	if reason := m.PeekString("stop_reason"); slices.Contains(ingest.OutputLimitReasons, reason) && (key == "" || !s.cut[key]) {
		s.rep.StopReason(reason)
		if key != "" {
			s.cut[key] = true
		}
	}
	m.Skip("stop_reason", "stop_sequence", "container")
	if err := s.c.Assistant(m, "content", t, s.b.At(idx).ID); err != nil {
		return err
	}
	m.Rest(s.rep)
	return nil
}

// closeRequest ends the current request: the next line starts anew.
func (s *session) closeRequest() {
	if s.reqKey == "" && s.reqIdx == 0 {
		return
	}
	ev := s.b.At(s.reqIdx)
	s.prev = ev.T.Add(time.Duration(ev.DurationMs) * time.Millisecond)
	s.reqKey, s.reqIdx = "", 0
}

func (s *session) observe(t time.Time) {
	if !t.IsZero() {
		s.prev = t
	}
}

// end ends the session at its last line's time: a session that ends on a
// tool result ends when the result came, not when the call started (the
// last event's time). Lines earlier than its events (raised to them) leave
// the time to End.
func (s *session) end() *ingest.Session {
	s.closeRequest()
	t := s.last
	if t.Before(s.b.LastTime()) {
		t = time.Time{}
	}
	return s.b.End(t, s.rep)
}
