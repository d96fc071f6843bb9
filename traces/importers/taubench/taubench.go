// Package taubench imports tau-bench result files: a JSON array of runs
// {task_id, trial, reward, info, traj}, where traj is the conversation in
// OpenAI chat-completions form (system, user, assistant with tool_calls,
// tool results). The files carry no timestamps or token usage; tool schemas
// live beside them in tools_<domain>.json.
package taubench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/importers/ingest"
	"github.com/defersim/defersim/traces/importers/openaimsg"
	"github.com/defersim/defersim/traces/importers/toolschema"
)

// Format is the format name of this importer.
const Format = "tau-bench"

// ErrorPrefix starts the result text of a tool call that failed: tau-bench
// environments return a failed call's exception as "Error: …".
const ErrorPrefix = "Error:"

// Importer reads tau-bench result files.
type Importer struct{}

// New returns a tau-bench importer.
func New() *Importer { return &Importer{} }

// ServerName is the server of a domain's tools: tau-bench-<domain>.
func ServerName(domain string) string {
	if domain == "" {
		return "tau-bench"
	}
	return "tau-bench-" + domain
}

// ImportFile imports the runs of one result file. The domain is the one of a
// tools_<domain>.json file in the input's directory or its parent whose
// domain the input's name contains; when --tools gives no schemas for that
// domain, that file supplies them (and the report says so).
func (im *Importer) ImportFile(path string, opts *ingest.Options, sink ingest.Sink, rep *ingest.Report) error {
	data, err := ingest.ReadFile(path)
	if err != nil {
		return err
	}
	name := filepath.Base(path)
	domain, toolFile := detectDomain(path)
	var schemas []*toolschema.Set
	if domain != "" && !opts.HasToolsFor(domain) && toolFile != "" {
		sets, dropped, err := toolschema.LoadFile(toolFile)
		if err != nil {
			return fmt.Errorf("%s: auto-detected tool file: %w", name, err)
		}
		for k, n := range dropped {
			rep.ToolDefinitionsDropped[filepath.Base(toolFile)+": "+k] += n
		}
		schemas = sets
		rep.Note("%s: tool schemas auto-detected from %s beside it (%s; pass --tools to override)",
			name, filepath.Base(toolFile), nouns.Count(countTools(sets), "tool"))
	}
	return im.importData(name, data, domain, schemas, opts, sink, rep)
}

// Import imports runs read from r; name labels sessions and errors and
// supplies the domain and model (<model>-<domain>.json) when it has them.
func (im *Importer) Import(name string, r io.Reader, opts *ingest.Options, sink ingest.Sink, rep *ingest.Report) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return im.importData(name, data, "", nil, opts, sink, rep)
}

func countTools(sets []*toolschema.Set) int {
	n := 0
	for _, s := range sets {
		n += len(s.Tools)
	}
	return n
}

// detectDomain looks for tools_<domain>.json beside path (and one directory
// up) whose domain the file name of path contains.
func detectDomain(path string) (domain, toolFile string) {
	base := strings.ToLower(filepath.Base(path))
	dir := filepath.Dir(path)
	for _, d := range []string{dir, filepath.Dir(dir)} {
		entries, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		sort.Strings(names)
		for _, n := range names {
			dom := toolschema.DomainOfFileName(n)
			if dom == "" || n != "tools_"+dom+".json" || !strings.Contains(base, dom) {
				continue
			}
			return dom, filepath.Join(d, n)
		}
	}
	return domainOfName(base), ""
}

// knownDomains are tau-bench's environments, used when no tool file is found.
var knownDomains = []string{"airline", "retail"}

func domainOfName(base string) string {
	for _, d := range knownDomains {
		if strings.Contains(base, d) {
			return d
		}
	}
	return ""
}

func stemOf(name string) string {
	name = strings.TrimSuffix(name, ".gz")
	return strings.TrimSuffix(name, filepath.Ext(name))
}

// modelOfName returns <model> for a file named <model>-<domain>.json.
func modelOfName(stem, domain string) string {
	if domain == "" {
		return ""
	}
	m, ok := strings.CutSuffix(stem, "-"+domain)
	if !ok {
		return ""
	}
	return m
}

func (im *Importer) importData(name string, data []byte, domain string, schemas []*toolschema.Set,
	opts *ingest.Options, sink ingest.Sink, rep *ingest.Report) error {
	stem := stemOf(name)
	if domain == "" {
		domain = domainOfName(strings.ToLower(name))
	}
	model := modelOfName(stem, domain)
	var runs []json.RawMessage
	switch ingest.FirstByte(data) {
	case '[':
		if err := json.Unmarshal(data, &runs); err != nil {
			return fmt.Errorf("%s: %w", name, ingest.JSONError(data, err))
		}
	case '{':
		runs = []json.RawMessage{json.RawMessage(bytes.TrimSpace(data))}
	default:
		return fmt.Errorf("%s: want a JSON array of tau-bench runs", name)
	}
	if domain == "" {
		rep.Note("%s: domain not found in the file name; sessions have no domain", name)
	}
	if model != "" && opts.Model == "" {
		rep.Note("%s: model %q taken from the file name", name, model)
	}
	for i, raw := range runs {
		s, err := run(stem, i, raw, domain, model, schemas, opts, rep)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		s.Events[0].Meta()["source_file"] = name
		if err := sink.Emit(s); err != nil {
			return fmt.Errorf("%s: run %d: %w", name, i, err)
		}
	}
	return nil
}

func run(stem string, i int, raw json.RawMessage, domain, model string, schemas []*toolschema.Set,
	opts *ingest.Options, rep *ingest.Report) (*ingest.Session, error) {
	o, err := ingest.NewObject(fmt.Sprintf("[%d]", i), "[]", raw)
	if err != nil {
		return nil, err
	}
	meta := map[string]string{"source_format": Format, "usage": "none"}
	if domain != "" {
		meta["domain"] = domain
	}
	task := scalar(o.Take("task_id"))
	trial := scalar(o.Take("trial"))
	if task == "" {
		task = fmt.Sprint(i)
	}
	meta["task_id"] = task
	if trial != "" {
		meta["trial"] = trial
	}
	if r := o.Take("reward"); r != nil {
		ingest.SetMeta(meta, "reward", "[].reward", r, rep)
	}
	id := fmt.Sprintf("%s/task-%s", stem, task)
	if trial != "" {
		id += "/trial-" + trial
	}
	server := opts.ServerName(ServerName(domain))
	b := ingest.NewBuilder(id, domain, server)
	b.Session().Schemas = schemas
	b.Session().ServersRecorded = true // the environment's tools are the agent's
	// The agent has its domain's tools whether or not it calls any.
	b.Add(traces.Event{Type: traces.SessionStart, StartFields: &traces.StartFields{Model: model, Meta: meta, RecordedStrategy: "eager", Servers: []traces.ServerRef{{Name: server}}}})
	if info, err := o.TakeObject("info"); err != nil {
		return nil, err
	} else if info != nil {
		if v := info.Take("source"); v != nil {
			ingest.SetMeta(meta, "info.source", "info.source", v, rep)
		}
		if v := info.Take("user_cost"); v != nil {
			ingest.SetMeta(meta, "user_cost", "info.user_cost", v, rep)
		}
		info.Rest(rep)
	}
	traj, err := o.TakeArray("traj")
	if err != nil {
		return nil, err
	}
	if traj == nil {
		// Every tau-bench run records its trajectory; an object without one
		// is not a run (a file of another format, read as runs, would
		// otherwise import as empty sessions).
		return nil, o.Errorf("run without \"traj\"")
	}
	c := openaimsg.NewConv(b, rep)
	c.ErrorPrefix = ErrorPrefix
	for j, mraw := range traj {
		m, err := o.Elem("traj", j, mraw)
		if err != nil {
			return nil, err
		}
		if err := c.Message(m, time.Time{}); err != nil {
			return nil, err
		}
	}
	b.At(0).EnsureStart().SystemPrompt = c.SystemPrompt
	o.Rest(rep)
	return b.End(time.Time{}, rep), nil
}

// scalar renders a JSON string or number as text ("" for null).
func scalar(raw json.RawMessage) string {
	if raw == nil {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(ingest.Compact(raw))
}
