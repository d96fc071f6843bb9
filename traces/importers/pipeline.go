package importers

import (
	"fmt"
	"sort"

	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/importers/ingest"
	"github.com/defersim/defersim/traces/importers/toolschema"
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
	models  map[string]int // recorded model → sessions overridden
	noModel int
	// catalogRef is the catalog directory as session_start meta "catalog"
	// names it (relative to the trace's directory); "" writes none.
	catalogRef string
}

func newPipeline(opts *ingest.Options, rep *ingest.Report, out eventWriter, catalogRef string) *pipeline {
	return &pipeline{opts: opts, rep: rep, out: out, cat: newCatalog(),
		ids: map[string]int{}, models: map[string]int{}, catalogRef: catalogRef}
}

// Emit completes, checks, counts and writes one session.
func (p *pipeline) Emit(s *ingest.Session) error {
	if len(s.Events) == 0 || s.Events[0].Type != traces.SessionStart {
		return fmt.Errorf("session %q: importer produced no session_start", s.ID)
	}
	p.uniqueID(s)
	st := &s.Events[0]
	st.V = traces.Version
	p.model(st)
	if st.SystemPrompt == "" && p.opts.SystemPrompt != "" {
		st.SystemPrompt = p.opts.SystemPrompt
		if st.Meta == nil {
			st.Meta = map[string]string{}
		}
		st.Meta["system_prompt_source"] = p.opts.SystemPromptSource
	}
	p.servers(s)
	if err := ingest.CheckSession(&s.Session); err != nil {
		return fmt.Errorf("imported session is inconsistent (importer bug): %w", err)
	}
	p.rep.Sessions++
	for i := range s.Events {
		p.rep.Events[s.Events[i].Type]++
		if s.Events[i].Type == traces.ToolCall {
			p.rep.ToolCalls++
		}
	}
	return p.out.WriteSession(&s.Session)
}

// uniqueID renames a session whose id an earlier session already used.
func (p *pipeline) uniqueID(s *ingest.Session) {
	p.ids[s.ID]++
	if p.ids[s.ID] == 1 {
		return
	}
	id := fmt.Sprintf("%s#%d", s.ID, p.ids[s.ID])
	for p.ids[id] > 0 {
		id += "'"
	}
	p.ids[id] = 1
	s.ID = id
	for i := range s.Events {
		s.Events[i].Session = id
	}
	p.renamed++
}

func (p *pipeline) model(st *traces.Event) {
	if p.opts.Model != "" {
		if st.Model != "" && st.Model != p.opts.Model {
			p.models[st.Model]++
		}
		st.Model = p.opts.Model
	}
	if st.Model == "" {
		p.noModel++
	}
}

// servers resolves each call's server and the schema sets of the session,
// lists the servers in session_start, registers their tools in the catalog,
// and reports calls of tools no schema covers.
func (p *pipeline) servers(s *ingest.Session) {
	var sets []*toolschema.Set
	sets = append(sets, s.Schemas...)
	for _, set := range p.opts.Tools {
		if ingest.SetApplies(set, s.Domain) {
			sets = append(sets, set)
		}
	}
	resolved := resolve(sets, s.DefaultServer)
	refs := map[string]traces.ServerRef{}
	for name, st := range resolved {
		refs[name] = traces.ServerRef{Name: name, Version: p.cat.add(st)}
	}
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
		st := resolved[ev.Server]
		if st == nil || !st.index[ev.Tool] {
			p.rep.Missing(ev.Server, ev.Tool)
		}
		if _, ok := refs[ev.Server]; !ok {
			refs[ev.Server] = traces.ServerRef{Name: ev.Server}
		}
	}
	start := &s.Events[0]
	for _, r := range start.Servers {
		r.Name = SanitizeServer(r.Name)
		if _, ok := refs[r.Name]; !ok {
			refs[r.Name] = r
		}
	}
	start.Servers = start.Servers[:0]
	for _, r := range refs {
		start.Servers = append(start.Servers, r)
	}
	sort.Slice(start.Servers, func(i, j int) bool { return start.Servers[i].Name < start.Servers[j].Name })
	if len(start.Servers) == 0 {
		start.Servers = nil
	}
	if len(resolved) > 0 && p.catalogRef != "" {
		if start.Meta == nil {
			start.Meta = map[string]string{}
		}
		start.Meta[traces.MetaCatalog] = p.catalogRef
	}
}

// finish adds the pipeline's own remarks to the report.
func (p *pipeline) finish() {
	if p.renamed > 0 {
		p.rep.Note("%d session(s) reused an earlier session id and got a #2, #3, … suffix", p.renamed)
	}
	models := make([]string, 0, len(p.models))
	for m := range p.models {
		models = append(models, m)
	}
	sort.Strings(models)
	for _, m := range models {
		p.rep.Note("--model %s replaced the recorded model %s in %d session(s)", p.opts.Model, m, p.models[m])
	}
	if p.noModel > 0 {
		p.rep.Note("%d session(s) have no model (the source records none; use --model)", p.noModel)
	}
}
