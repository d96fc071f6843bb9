// Package tau2 imports tau2-bench simulation results: a JSON object
// {timestamp, info, tasks, simulations}, each simulation a conversation
// between an LLM agent and a user simulator with per-message timestamps and,
// in some runs, per-request token usage.
package tau2

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/importers/ingest"
	"github.com/defersim/defersim/traces/importers/openaimsg"
	"github.com/defersim/defersim/traces/importers/toolschema"
)

// Format is the format name of this importer.
const Format = "tau2"

// Importer reads tau2-bench result files.
type Importer struct{}

// New returns a tau2 importer.
func New() *Importer { return &Importer{} }

// ServerName is the server of a domain's tools: tau2-<domain>.
func ServerName(domain string) string {
	if domain == "" {
		return "tau2"
	}
	return "tau2-" + domain
}

// ImportFile imports every simulation of the file at path.
func (im *Importer) ImportFile(path string, opts *ingest.Options, sink ingest.Sink, rep *ingest.Report) error {
	f, err := ingest.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return im.Import(filepath.Base(path), f, opts, sink, rep)
}

// Import imports every simulation read from r; name labels sessions and errors.
func (im *Importer) Import(name string, r io.Reader, opts *ingest.Options, sink ingest.Sink, rep *ingest.Report) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if err := importData(name, data, opts, sink, rep); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// run holds what the file's header says about all its simulations.
type run struct {
	name    string
	stem    string
	domain  string
	model   string
	policy  string
	meta    map[string]string
	schemas []*toolschema.Set
}

func importData(name string, data []byte, opts *ingest.Options, sink ingest.Sink, rep *ingest.Report) error {
	if ingest.FirstByte(data) != '{' {
		return fmt.Errorf("want a tau2 results object {info, tasks, simulations}")
	}
	var raw json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return ingest.JSONError(data, err)
	}
	top, err := ingest.NewObject("", "", raw)
	if err != nil {
		return err
	}
	if !top.Has("simulations") {
		return top.Errorf("no \"simulations\"")
	}
	stem := strings.TrimSuffix(strings.TrimSuffix(name, ".gz"), ".json")
	rn := &run{name: name, stem: stem, meta: map[string]string{"source_format": Format, "source_file": name}}
	if v := top.Take("timestamp"); v != nil {
		ingest.SetMeta(rn.meta, "run.timestamp", "timestamp", v, rep)
	}
	if err := rn.header(top, rep); err != nil {
		return err
	}
	if tasks, err := top.TakeArray("tasks"); err != nil {
		return err
	} else {
		rep.UnmapN("tasks[] (task definitions and evaluation criteria)", len(tasks))
	}
	sims, err := top.TakeArray("simulations")
	if err != nil {
		return err
	}
	top.Rest(rep)
	if opts.SystemPrompt == "" && rn.policy != "" {
		rep.Note("%s: system prompt = environment_info.policy (the domain policy without the agent's instruction block; pass --system-prompt for the exact prompt)", name)
	}
	for i, sraw := range sims {
		o, err := ingest.NewObject(fmt.Sprintf("simulations[%d]", i), "simulations[]", sraw)
		if err != nil {
			return err
		}
		s, err := rn.simulation(i, o, opts, rep)
		if err != nil {
			return err
		}
		if err := sink.Emit(s); err != nil {
			return fmt.Errorf("simulations[%d]: %w", i, err)
		}
	}
	return nil
}

// header reads info: the agent and user-simulator settings, the environment
// (domain, policy, tool definitions) and run parameters.
func (rn *run) header(top *ingest.Object, rep *ingest.Report) error {
	info, err := top.TakeObject("info")
	if err != nil || info == nil {
		return err
	}
	for _, k := range []string{"git_commit", "num_trials", "max_steps", "max_errors", "seed"} {
		if v := info.Take(k); v != nil {
			ingest.SetMeta(rn.meta, "run."+k, "info."+k, v, rep)
		}
	}
	for _, who := range []string{"agent", "user"} {
		ai, err := info.TakeObject(who + "_info")
		if err != nil {
			return err
		}
		if ai == nil {
			continue
		}
		llm, err := ai.TakeString("llm")
		if err != nil {
			return err
		}
		if who == "agent" {
			rn.model = llm
		} else if llm != "" {
			rn.meta["user.llm"] = llm
		}
		if impl, _ := ai.TakeString("implementation"); impl != "" {
			rn.meta[who+".implementation"] = impl
		}
		if args := ai.Take("llm_args"); args != nil {
			ingest.FlattenMeta(rn.meta, who+".llm_args", "info."+who+"_info.llm_args", args, rep)
		}
		ai.Rest(rep)
	}
	env, err := info.TakeObject("environment_info")
	if err != nil {
		return err
	}
	if env != nil {
		if rn.domain, err = env.TakeString("domain_name"); err != nil {
			return err
		}
		if rn.policy, err = env.TakeString("policy"); err != nil {
			return err
		}
		if defs := env.Take("tool_defs"); defs != nil {
			sets, dropped, err := toolschema.Parse(rn.name+" environment_info.tool_defs", defs)
			if err != nil {
				return env.Errorf("tool_defs: %v", err)
			}
			for k, n := range dropped {
				rep.ToolDefinitionsDropped["environment_info.tool_defs"+k] += n
			}
			rn.schemas = sets
		}
		env.Rest(rep)
	}
	if rn.domain != "" {
		rn.meta["domain"] = rn.domain
	}
	info.Rest(rep)
	return nil
}

// simulation converts one simulation into a session.
func (rn *run) simulation(i int, o *ingest.Object, opts *ingest.Options, rep *ingest.Report) (*ingest.Session, error) {
	meta := make(map[string]string, len(rn.meta)+8)
	for k, v := range rn.meta {
		meta[k] = v
	}
	id, err := o.TakeString("id")
	if err != nil {
		return nil, err
	}
	if id == "" {
		id = fmt.Sprintf("%s/%d", rn.stem, i)
	}
	for _, k := range []string{"task_id", "trial", "seed", "termination_reason", "agent_cost", "user_cost"} {
		if v := o.Take(k); v != nil {
			ingest.SetMeta(meta, k, "simulations[]."+k, v, rep)
		}
	}
	if v := o.Take("timestamp"); v != nil {
		ingest.SetMeta(meta, "record_timestamp", "simulations[].timestamp", v, rep)
	}
	o.Skip("duration") // end_time − start_time
	var start, end time.Time
	for _, k := range []string{"start_time", "end_time"} {
		s, err := o.TakeString(k)
		if err != nil {
			return nil, err
		}
		if s == "" {
			continue
		}
		t, err := ingest.ParseTime(s)
		if err != nil {
			return nil, o.Errorf("%s: %v", k, err)
		}
		if k == "start_time" {
			start = t
		} else {
			end = t
		}
	}
	if ri, err := o.TakeObject("reward_info"); err != nil {
		return nil, err
	} else if ri != nil {
		if v := ri.Take("reward"); v != nil {
			ingest.SetMeta(meta, "reward", "simulations[].reward_info.reward", v, rep)
		}
		ri.Rest(rep)
	}
	server := opts.ServerName(ServerName(rn.domain))
	b := ingest.NewBuilder(id, rn.domain, server)
	b.Session().Schemas = rn.schemas
	b.Session().ServersRecorded = true // the environment's tools are the agent's
	// The agent has its domain's tools whether or not it calls any.
	st := traces.Event{Type: traces.SessionStart, T: start, StartFields: &traces.StartFields{Model: rn.model, Meta: meta, RecordedStrategy: "eager", Servers: []traces.ServerRef{{Name: server}}}}
	if opts.SystemPrompt == "" && rn.policy != "" {
		st.EnsureStart().SystemPrompt = rn.policy
		meta["system_prompt_source"] = "environment_info.policy"
	}
	b.Add(st)
	msgs, err := o.TakeArray("messages")
	if err != nil {
		return nil, err
	}
	o.Rest(rep)
	c := openaimsg.NewConv(b, rep)
	c.CallSkip = []string{"requestor"}
	usage := false
	for j, mraw := range msgs {
		m, err := o.Elem("messages", j, mraw)
		if err != nil {
			return nil, err
		}
		t, err := takeTime(m)
		if err != nil {
			return nil, err
		}
		if m.Has("usage") && roleOf(m) == "assistant" {
			usage = true
		}
		if err := rn.message(c, b, j, m, t, rep); err != nil {
			return nil, err
		}
	}
	meta["usage"] = "none"
	if usage {
		meta["usage"] = "agent"
	}
	if end.IsZero() {
		end = b.LastTime()
	}
	return b.End(end, rep), nil
}

// message converts one message; what belongs to the user simulator (its
// tool calls, their results, its model usage) is counted and left out.
func (rn *run) message(c *openaimsg.Conv, b *ingest.Builder, j int, m *ingest.Object, t time.Time, rep *ingest.Report) error {
	m.Skip("turn_idx") // repeats the message order
	role := roleOf(m)
	if m.Has("raw_data") {
		m.Take("raw_data")
		rep.Unmap(m.Field + ".raw_data (provider response; repeats content and tool calls)")
	}
	switch role {
	case "user":
		if calls, err := m.TakeArray("tool_calls"); err != nil {
			return err
		} else if len(calls) > 0 {
			rep.UnmapN("user-simulator tool calls (not agent calls)", len(calls))
		}
		if m.Take("usage") != nil {
			rep.Unmap("user-simulator model requests (usage not agent usage)")
		}
		m.Skip("cost")
	case "tool":
		req, err := m.TakeString("requestor")
		if err != nil {
			return err
		}
		if req == "user" {
			rep.Unmap("user-simulator tool results")
			m.Rest(ingest.NewReport(""))
			c.Observe(t)
			return nil
		}
	case "assistant":
		if cost := m.Take("cost"); cost != nil && string(cost) != "0" && string(cost) != "0.0" {
			rep.Unmap(m.Field + ".cost (dollar cost of the request)")
		}
		if j == 0 && !m.Has("tool_calls") && !m.Has("usage") {
			// tau2's orchestrator opens every conversation with a fixed
			// agent greeting; no model request produced it.
			text, err := openaimsg.Content(m, "content", rep)
			if err != nil {
				return err
			}
			m.Skip("role", "tool_calls")
			m.Rest(rep)
			if text != "" {
				b.Add(traces.Event{Type: traces.AssistantMessage, T: t, Text: text})
			}
			rep.Note("the first agent message of each tau2 simulation is tau2's fixed greeting: kept as an assistant message with no model request")
			c.Observe(t)
			return nil
		}
	}
	return c.Message(m, t)
}

func roleOf(m *ingest.Object) string {
	var r string
	_ = json.Unmarshal(m.Peek("role"), &r)
	return r
}

func takeTime(m *ingest.Object) (time.Time, error) {
	s, err := m.TakeString("timestamp")
	if err != nil || s == "" {
		return time.Time{}, err
	}
	t, err := ingest.ParseTime(s)
	if err != nil {
		return time.Time{}, m.Errorf("timestamp: %v", err)
	}
	return t, nil
}
