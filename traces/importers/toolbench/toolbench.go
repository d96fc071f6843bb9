// Package toolbench imports ToolBench answer files: one query answered by a
// depth-first search over model steps (DFSDT), with the functions the model
// was offered, the message chain of the answer and the search tree.
package toolbench

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/importers/ingest"
	"github.com/defersim/defersim/traces/importers/openaimsg"
	"github.com/defersim/defersim/traces/importers/toolschema"
)

// Format is the format name of this importer.
const Format = "toolbench"

// Server is the server of functions that name no RapidAPI tool (ToolBench's
// own Finish function).
const Server = "toolbench"

// subfunction is how ToolBench describes a function of a RapidAPI tool; the
// tool it names is the function's server.
var subfunction = regexp.MustCompile(`^This is the subfunction for tool "([^"]+)"`)

// Importer reads ToolBench answer files.
type Importer struct{}

// New returns a ToolBench importer.
func New() *Importer { return &Importer{} }

// ImportFile imports the answer file at path; the session is named after
// the file and its directory (G1_answer/10_ChatGPT_DFS_woFilter_w2).
func (im *Importer) ImportFile(path string, opts *ingest.Options, sink ingest.Sink, rep *ingest.Report) error {
	f, err := ingest.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return im.Import(ingest.DirLabel(path), f, opts, sink, rep)
}

// Import imports the answer read from r; name labels the session and errors.
func (im *Importer) Import(name string, r io.Reader, opts *ingest.Options, sink ingest.Sink, rep *ingest.Report) error {
	return ingest.EmitOne(name, r, sink, func(data []byte) (*ingest.Session, error) {
		return importData(name, data, opts, rep)
	})
}

func importData(name string, data []byte, opts *ingest.Options, rep *ingest.Report) (*ingest.Session, error) {
	if ingest.FirstByte(data) != '{' {
		if isQueryFile(data) {
			return nil, fmt.Errorf("a ToolBench query file (instruction/*_query.json: query, query_id, api_list): it holds the queries, not sessions; import the answer files (answer/G*_answer/*.json)")
		}
		return nil, fmt.Errorf("want a ToolBench answer object {answer_generation, tree, …}")
	}
	var raw json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, ingest.JSONError(data, err)
	}
	top, err := ingest.NewObject("", "", raw)
	if err != nil {
		return nil, err
	}
	ag, err := top.TakeObject("answer_generation")
	if err != nil {
		return nil, err
	}
	if ag == nil {
		return nil, top.Errorf("no \"answer_generation\" (a ToolBench answer file; query files hold no sessions)")
	}
	stem := strings.TrimSuffix(strings.TrimSuffix(name, ".gz"), ".json")
	meta := map[string]string{"source_format": Format, "source_file": name, "usage": "none"}
	if base := filepath.Base(stem); strings.Contains(base, "_") {
		id, method, _ := strings.Cut(base, "_")
		meta["query_id"], meta["method"] = id, method
	}
	for _, k := range []string{"win"} {
		if v := top.Take(k); v != nil {
			ingest.SetMeta(meta, k, k, v, rep)
		}
	}
	if v := top.Take("forward_args"); v != nil {
		ingest.FlattenMeta(meta, "forward_args", "forward_args", v, rep)
	}
	for _, k := range []string{"valid_data", "finish_type", "query_count", "total_tokens"} {
		if v := ag.Take(k); v != nil {
			ingest.SetMeta(meta, k, "answer_generation."+k, v, rep)
		}
	}
	query, err := ag.TakeString("query")
	if err != nil {
		return nil, err
	}
	server := opts.ServerName(Server)
	sets, err := functions(ag, server, name, rep)
	if err != nil {
		return nil, err
	}
	chains, err := ag.TakeArray("train_messages")
	if err != nil {
		return nil, err
	}
	rep.UnmapN("answer_generation.train_messages[] before the last (training prefixes of the imported chain)", max(len(chains)-1, 0))
	var tr *tree
	if raw := top.Take("tree"); raw != nil {
		if tr, err = readTree(raw); err != nil {
			return nil, top.Errorf("tree: %v", err)
		}
	}
	if cc, err := top.TakeArray("compare_candidates"); err != nil {
		return nil, err
	} else {
		rep.UnmapN("compare_candidates[] (candidate answer paths, steps of the tree)", len(cc))
	}
	top.Rest(rep)

	b := ingest.NewBuilder(stem, "", server)
	b.Session().Schemas = sets
	b.Session().ServersRecorded = true // the environment's tools are the agent's
	// ToolBench's own functions (Finish) are offered in every session.
	b.Add(traces.Event{Type: traces.SessionStart, StartFields: &traces.StartFields{Meta: meta, RecordedStrategy: "eager", Servers: []traces.ServerRef{{Name: server}}}})
	c := openaimsg.NewConv(b, rep)
	c.ContentErrors = true
	var msgs []*ingest.Object
	if len(chains) > 0 {
		var arr []json.RawMessage
		if err := json.Unmarshal(chains[len(chains)-1], &arr); err != nil {
			return nil, ag.Errorf("train_messages[%d]: want an array of messages", len(chains)-1)
		}
		for i, m := range arr {
			o, err := ingest.NewObject(fmt.Sprintf("answer_generation.train_messages[%d][%d]", len(chains)-1, i), "answer_generation.train_messages[][]", m)
			if err != nil {
				return nil, err
			}
			msgs = append(msgs, o)
		}
		meta["path_source"] = "train_messages"
	} else if tr != nil {
		// No answer chain (invalid answers carry none): the path of the
		// search's last step.
		msgs, err = tr.lastPathMessages(query)
		if err != nil {
			return nil, err
		}
		meta["path_source"] = "tree (the path of the last expanded step)"
		rep.Note("answers without train_messages: the imported path is the search tree's path to its last expanded step; no system prompt is recorded for them")
	} else if query != "" {
		msgs = append(msgs, userMessage(query))
	}
	for _, m := range msgs {
		if v := m.Take("valid"); !ingest.IsEmpty(v) {
			rep.Unmap("answer_generation.train_messages[][].valid (ToolBench's mark of a usable training message)")
		}
		if err := c.Message(m, time.Time{}); err != nil {
			return nil, err
		}
	}
	b.At(0).EnsureStart().SystemPrompt = c.SystemPrompt
	if tr != nil {
		finishResults(b, tr, rep)
		if qc, ok := tr.expansions(); ok {
			rep.UnmapN("tree: model steps on other branches of the search (not on the imported path)", max(qc-countRequests(b), 0))
		}
	}
	ag.Rest(rep)
	return b.End(time.Time{}, rep), nil
}

// functions reads the functions offered to the model: one schema set per
// RapidAPI tool (named in each function's description), ToolBench's own
// functions on server.
func functions(ag *ingest.Object, server, name string, rep *ingest.Report) ([]*toolschema.Set, error) {
	fns, err := ag.TakeArray("function")
	if err != nil {
		return nil, err
	}
	dropped := toolschema.Dropped{}
	bySrv := map[string]*toolschema.Set{}
	var order []*toolschema.Set
	for i, raw := range fns {
		t, ok, err := toolschema.Convert(raw, "answer_generation.function[]", dropped)
		if err != nil {
			return nil, ag.Errorf("function[%d]: %v", i, err)
		}
		if !ok {
			continue
		}
		srv := server
		if m := subfunction.FindStringSubmatch(t.Description); m != nil {
			srv = m[1]
		}
		set := bySrv[srv]
		if set == nil {
			set = &toolschema.Set{Source: name + " answer_generation.function"}
			if srv != server {
				set.Server = srv
			}
			bySrv[srv] = set
			order = append(order, set)
		}
		if set.Find(t.Name) != nil {
			dropped["answer_generation.function[] (duplicate name, later definition ignored)"]++
			continue
		}
		set.Tools = append(set.Tools, t)
	}
	for k, n := range dropped {
		rep.ToolDefinitionsDropped[k] += n
	}
	return order, nil
}

func userMessage(text string) *ingest.Object {
	raw, _ := json.Marshal(map[string]string{"role": "user", "content": text})
	o, _ := ingest.NewObject("answer_generation.query", "answer_generation.query", raw)
	return o
}

func countRequests(b *ingest.Builder) int {
	n := 0
	for _, ev := range b.Session().Events {
		if ev.Type == traces.ModelRequest {
			n++
		}
	}
	return n
}

// isQueryFile reports whether data is a ToolBench query file: an array
// whose first element has "query" and "query_id".
func isQueryFile(data []byte) bool {
	var first []map[string]json.RawMessage
	if json.Unmarshal(data, &first) != nil || len(first) == 0 {
		return false
	}
	_, q := first[0]["query"]
	_, id := first[0]["query_id"]
	return q && id
}
