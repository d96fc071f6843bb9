package importers

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/importers/ingest"
	"github.com/defersim/defersim/traces/importers/toolschema"
	"github.com/defersim/defersim/validation"
)

// eventWriter is where finished sessions go (a *traces.Writer).
type eventWriter interface {
	WriteSession(s *traces.Session) error
}

// pipeline receives sessions from an importer, completes them (servers and
// versions, model and system prompt from the options), checks them, counts
// them in the report and writes them.
type pipeline struct {
	opts    *ingest.Options
	rep     *ingest.Report
	out     eventWriter
	cat     *catalog
	ids     map[string]int
	renamed int
	// firsts holds, by id, the input and content of the first session
	// with that id (sessionids.go); input is the input being imported.
	firsts  map[string]firstSession
	input   string
	models  map[string]int // recorded model → sessions overridden
	noModel int
	// validator checks recorded arguments against their schemas
	// (checkArgs); made on first use.
	validator *validation.Validator
	// catalogRef is the catalog directory as session_start meta "catalog"
	// names it (relative to the trace's directory); "" writes none.
	catalogRef string
	// setUse holds, for each user-given schema set that applied to some
	// session, the tools of it the sessions called (setOrder: first use).
	setUse   map[*toolschema.Set]map[string]bool
	setOrder []*toolschema.Set
	// connected is the rule for the servers of user-given sets that name
	// a server (ConnectedCalled or ConnectedAll); conn counts what it
	// decided.
	connected string
	conn      connectedStats
	// scan makes the pipeline fill each call's missing tool from the
	// fallback sources (a first pass that finds which fallback tools the
	// sessions need); otherwise opts.Fallback holds only those tools and
	// applies like the other sources.
	scan bool
}

func newPipeline(opts *ingest.Options, rep *ingest.Report, out eventWriter, catalogRef string) *pipeline {
	return &pipeline{opts: opts, rep: rep, out: out, cat: newCatalog(),
		ids: map[string]int{}, firsts: map[string]firstSession{}, models: map[string]int{}, catalogRef: catalogRef}
}

// Emit completes, checks, counts and writes one session.
func (p *pipeline) Emit(s *ingest.Session) error {
	if len(s.Events) == 0 || s.Events[0].Type != traces.SessionStart {
		return fmt.Errorf("session %q: importer produced no session_start", s.ID)
	}
	if err := p.uniqueID(s); err != nil {
		return err
	}
	st := &s.Events[0]
	st.V = traces.Version
	p.model(st)
	if st.SystemPrompt() == "" && p.opts.SystemPrompt != "" {
		st.EnsureStart().SystemPrompt = p.opts.SystemPrompt
		if st.Meta() == nil {
			st.EnsureStart().Meta = map[string]string{}
		}
		st.Meta()["system_prompt_source"] = p.opts.SystemPromptSource
	}
	p.servers(s)
	if err := ingest.CheckSession(&s.Session); err != nil {
		return fmt.Errorf("imported session is inconsistent (importer bug): %w", err)
	}
	p.rep.Sessions++
	p.rep.Model(st.Model())
	for i := range s.Events {
		p.rep.Events[s.Events[i].Type]++
		switch ev := &s.Events[i]; {
		case ev.Type == traces.ToolCall:
			p.rep.ToolCalls++
		case ev.Type == traces.ModelRequest && ev.Usage == nil:
			p.rep.RequestsWithoutUsage++
		}
	}
	return p.out.WriteSession(&s.Session)
}

func (p *pipeline) model(st *traces.Event) {
	if p.opts.Model != "" {
		if st.Model() != "" && st.Model() != p.opts.Model {
			p.models[st.Model()]++
		}
		st.EnsureStart().Model = p.opts.Model
	}
	if st.Model() == "" {
		p.noModel++
	}
}

// servers resolves each call's server and the schema sets of the session,
// fills tools no set defines from the fallback sources, lists the servers in
// session_start, registers their tools in the catalog, and reports calls of
// tools no schema covers or whose schema is not exact.
func (p *pipeline) servers(s *ingest.Session) {
	var sets []*toolschema.Set
	sets = append(sets, s.Schemas...)
	user := p.opts.Tools
	if !p.scan {
		user = append(user[:len(user):len(user)], p.opts.Fallback...)
	}
	for _, set := range user {
		if ingest.SetApplies(set, s.Domain) {
			sets = append(sets, set)
			p.used(set, nil)
		}
	}
	resolved := resolve(sets, s.DefaultServer)
	p.noteDiffering(resolved)
	p.attribute(s, resolved)
	for i := range s.Events {
		ev := &s.Events[i]
		if ev.Type != traces.ToolCall {
			continue
		}
		if ev.Server == "" {
			ev.Server = s.DefaultServer
		}
		ev.Server = SanitizeServer(ev.Server)
		if st := resolved[ev.Server]; p.scan && (st == nil || !st.index[ev.Tool]) {
			p.fill(s.Domain, ev.Server, ev.Tool, resolved)
		}
	}
	leftOut := p.connectedRule(s, sets, resolved)
	refs := map[string]traces.ServerRef{}
	for name, st := range resolved {
		if !leftOut[name] {
			refs[name] = traces.ServerRef{Name: name, Version: p.cat.add(st)}
		}
	}
	catalogued := len(refs)
	for i := range s.Events {
		ev := &s.Events[i]
		if ev.Type != traces.ToolCall {
			continue
		}
		st := resolved[ev.Server]
		switch {
		case st == nil || !st.index[ev.Tool]:
			p.rep.Missing(ev.Server, ev.Tool)
		default:
			if m, ok := st.fidelity[ev.Tool]; ok {
				p.rep.Fidelity(ev.Server, ev.Tool, string(m.fidelity), m.note)
			}
			if !p.scan {
				p.checkArgs(ev, st, refs[ev.Server].Version)
			}
		}
		if len(ev.Args) == 0 && !p.scan {
			p.rep.CallsWithoutArgs++
			if ev.ArgsUnrecorded() {
				p.rep.CallsArgsUnrecorded++
			}
		}
		for _, set := range sets {
			p.used(set, ev)
		}
		if _, ok := refs[ev.Server]; !ok {
			refs[ev.Server] = traces.ServerRef{Name: ev.Server}
		}
	}
	start := &s.Events[0]
	for _, r := range start.Servers() {
		r.Name = SanitizeServer(r.Name)
		if _, ok := refs[r.Name]; !ok {
			refs[r.Name] = r
		}
	}
	start.EnsureStart().Servers = start.Servers()[:0]
	for _, r := range refs {
		start.EnsureStart().Servers = append(start.Servers(), r)
	}
	sort.Slice(start.Servers(), func(i, j int) bool { return start.Servers()[i].Name < start.Servers()[j].Name })
	if len(start.Servers()) == 0 {
		start.EnsureStart().Servers = nil
		if start.Meta()[MetaConnected] != "" {
			p.conn.empty++
		}
	}
	if catalogued > 0 && p.catalogRef != "" {
		if start.Meta() == nil {
			start.EnsureStart().Meta = map[string]string{}
		}
		start.Meta()[traces.MetaCatalog] = p.catalogRef
	}
}

// connectedRule applies the connected rule to a session whose servers are
// resolved and whose calls are attributed: it returns the servers of
// user-given sets naming a server that are left out of its session_start
// (none under ConnectedAll; under a list the source records, those the
// session does not use), counts them, and names the rule in the
// session's meta when some such server applied.
func (p *pipeline) connectedRule(s *ingest.Session, sets []*toolschema.Set, resolved map[string]*serverTools) map[string]bool {
	given := assumed(sets, p.userSet, s.DefaultServer, resolved)
	start := &s.Events[0]
	for _, r := range start.Servers() {
		delete(given, SanitizeServer(r.Name)) // the source lists it
	}
	if len(given) == 0 {
		return nil
	}
	rule := cmp.Or(p.connected, ConnectedAll)
	used := usedServers(s, resolved)
	leftOut := map[string]bool{}
	if s.ServersRecorded {
		// The source's list is data, the directory an assumption: only
		// the servers the session uses are added.
		rule = ConnectedRecorded
		unused := 0
		for name := range given {
			if used[name] {
				p.conn.recordedUsed++
			} else {
				leftOut[name] = true
				unused++
			}
		}
		if unused > 0 {
			p.conn.recorded++
			p.conn.recordedPairs += unused
		}
	} else {
		p.conn.sessions++
		for name := range given {
			p.conn.pairs++
			if !used[name] {
				p.conn.unused++
				leftOut[name] = rule == ConnectedCalled
			}
		}
	}
	if start.Meta() == nil {
		start.EnsureStart().Meta = map[string]string{}
	}
	start.Meta()[MetaConnected] = rule
	return leftOut
}

// fill adds tool to server's set from the first fallback source that
// defines it for the session's domain (and names no other server), and
// records it as needed from that source (see fallbackNeeded). The merged
// set gets a content-hash version.
func (p *pipeline) fill(domain, server, tool string, resolved map[string]*serverTools) {
	for _, set := range p.opts.Fallback {
		if !ingest.SetApplies(set, domain) || (set.Server != "" && SanitizeServer(set.Server) != server) {
			continue
		}
		t := set.Find(tool)
		if t == nil {
			continue
		}
		st := resolved[server]
		if st == nil {
			st = newServerTools(server)
			resolved[server] = st
		}
		st.addTool(*t, set)
		st.version = toolschema.Hash(st.tools)
		if !containsStr(st.sources, set.Source) {
			st.sources = append(st.sources, set.Source)
		}
		p.used(set, nil)
		p.usedName(set, tool)
		return
	}
}

// used records that a user-given schema set applied to a session and, for
// a call ev of a tool it defines on the server it would serve, that the
// tool was called.
func (p *pipeline) used(set *toolschema.Set, ev *traces.Event) {
	if p.setUse == nil {
		p.setUse = map[*toolschema.Set]map[string]bool{}
	}
	if p.setUse[set] == nil {
		if ev != nil && !p.userSet(set) {
			return
		}
		p.setUse[set] = map[string]bool{}
		p.setOrder = append(p.setOrder, set)
	}
	if ev != nil && set.Server == "" && set.Find("mcp__"+ev.Server+"__"+ev.Tool) != nil {
		p.setUse[set]["mcp__"+ev.Server+"__"+ev.Tool] = true
	}
	if ev != nil && set.Find(ev.Tool) != nil && (set.Server == "" || SanitizeServer(set.Server) == ev.Server) {
		p.setUse[set][ev.Tool] = true
	}
}

func (p *pipeline) usedName(set *toolschema.Set, tool string) { p.setUse[set][tool] = true }

// fallbackNeeded returns, from a scanning pipeline, each fallback source
// reduced to the tools some session needed from it, in its order; sources
// no session needed are left out.
func (p *pipeline) fallbackNeeded() []*toolschema.Set {
	var out []*toolschema.Set
	for _, set := range p.opts.Fallback {
		need := p.setUse[set]
		if len(need) == 0 {
			continue
		}
		cp := *set
		cp.Tools = nil
		for _, t := range set.Tools {
			if need[t.Name] {
				cp.Tools = append(cp.Tools, t)
			}
		}
		out = append(out, &cp)
	}
	return out
}

func toolNamesOf(set *toolschema.Set) []string {
	names := make([]string, len(set.Tools))
	for i, t := range set.Tools {
		names[i] = t.Name
	}
	return names
}

// discard is an eventWriter that keeps nothing (for the scanning pass).
type discard struct{}

func (discard) WriteSession(*traces.Session) error { return nil }

// userSet reports whether set was given by the user (not the source's own).
func (p *pipeline) userSet(set *toolschema.Set) bool {
	return slices.Contains(p.opts.Tools, set) || slices.Contains(p.opts.Fallback, set)
}

// finish adds the pipeline's own remarks to the report.
func (p *pipeline) finish() {
	if p.renamed > 0 {
		p.rep.Note("%s an earlier session id and got a #2, #3, … suffix", nouns.CountAs(p.renamed, "session reused", "sessions reused"))
	}
	models := make([]string, 0, len(p.models))
	for m := range p.models {
		models = append(models, m)
	}
	sort.Strings(models)
	for _, m := range models {
		p.rep.Note("--model %s replaced the recorded model %s in %s", p.opts.Model, m, nouns.Count(p.models[m], "session"))
	}
	for _, set := range p.setOrder {
		called := len(p.setUse[set])
		if slices.Contains(p.opts.Fallback, set) {
			p.rep.Note("%s%s: %s taken for calls no other source covers (%s)", set.Source, describeDomain(set.Domain),
				nouns.Count(len(set.Tools), "tool"), strings.Join(toolNamesOf(set), ", "))
			continue
		}
		p.rep.Note("%s%s: the sessions call %d of its %s", set.Source, describeDomain(set.Domain), called, nouns.Count(len(set.Tools), "tool"))
	}
	if n := p.conn.note(cmp.Or(p.connected, ConnectedAll)); n != "" {
		p.rep.Note("%s", n)
	}
	if n := p.conn.recordedNote(); n != "" {
		p.rep.Note("%s", n)
	}
	if p.noModel > 0 {
		p.rep.Note("%s no model (the source records none; use --model)", nouns.CountAs(p.noModel, "session has", "sessions have"))
	}
}
