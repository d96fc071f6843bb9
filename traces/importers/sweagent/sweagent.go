// Package sweagent imports SWE-agent trajectories (.traj files): the
// conversation an agent had with its environment while solving one task,
// the steps it took with their execution times, the run's statistics and,
// in newer files, the configuration that produced it.
package sweagent

import (
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/importers/ingest"
	"github.com/defersim/defersim/traces/importers/toolschema"
)

// Format is the format name of this importer.
const Format = "swe-agent"

// Server is the server of SWE-agent's commands: one runtime offers them all.
const Server = "swe-agent"

// Modes of a trajectory: how the model invoked commands.
const (
	// ModeFunctionCalling: commands are tools sent with every request and
	// called through the provider's function calling.
	ModeFunctionCalling = "function_calling"
	// ModeThoughtAction: the model writes a command as text after its
	// thought; the commands are documented in the system prompt.
	ModeThoughtAction = "thought_action"
)

// runName matches the name SWE-agent gives a run's directory,
// <model>__<data>__<config>__t-<temperature>__p-<top_p>__c-<cost limit>…,
// and captures the model.
var runName = regexp.MustCompile(`^([^_][^/]*?)__.+__t-[0-9.]+__p-[0-9.]+__c-[0-9.]+`)

// Importer reads SWE-agent trajectory files.
type Importer struct{}

// New returns a SWE-agent importer.
func New() *Importer { return &Importer{} }

// ImportFile imports the trajectory at path. The session is named after the
// file and its directory (SWE-agent names the directory after the run and
// the file after the task instance).
func (im *Importer) ImportFile(path string, opts *ingest.Options, sink ingest.Sink, rep *ingest.Report) error {
	f, err := ingest.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return im.Import(ingest.DirLabel(path), f, opts, sink, rep)
}

// Import imports the trajectory read from r; name labels the session and
// errors.
func (im *Importer) Import(name string, r io.Reader, opts *ingest.Options, sink ingest.Sink, rep *ingest.Report) error {
	return ingest.EmitOne(name, r, sink, func(data []byte) (*ingest.Session, error) {
		return importData(name, data, opts, rep)
	})
}

// traj holds what the file says about its one session while it is read.
type traj struct {
	name     string
	model    string
	meta     map[string]string
	docs     string // replay_config.agent.tools.command_docs
	parseFn  string // replay_config.agent.tools.parse_function.type
	system   string
	mode     string
	cmds     map[string]*command
	cmdOrder []*command
}

func importData(name string, data []byte, opts *ingest.Options, rep *ingest.Report) (*ingest.Session, error) {
	if ingest.FirstByte(data) != '{' {
		return nil, fmt.Errorf("want a SWE-agent trajectory object {history, trajectory, info, …}")
	}
	var raw json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, ingest.JSONError(data, err)
	}
	top, err := ingest.NewObject("", "", raw)
	if err != nil {
		return nil, err
	}
	if !top.Has("history") && !top.Has("trajectory") {
		return nil, top.Errorf("no \"history\" or \"trajectory\"")
	}
	stem := strings.TrimSuffix(strings.TrimSuffix(name, ".gz"), ".traj")
	tr := &traj{name: name, meta: map[string]string{"source_format": Format, "source_file": name}}
	if v := top.Take("environment"); v != nil {
		ingest.SetMeta(tr.meta, "environment", "environment", v, rep)
	}
	if err := tr.config(top, rep); err != nil {
		return nil, err
	}
	if err := tr.info(top, rep); err != nil {
		return nil, err
	}
	history, err := top.TakeArray("history")
	if err != nil {
		return nil, err
	}
	steps, err := top.TakeArray("trajectory")
	if err != nil {
		return nil, err
	}
	top.Rest(rep)

	msgs, err := readHistory(top, history, rep)
	if err != nil {
		return nil, err
	}
	tr.commands(msgs, rep)
	if tr.model == "" {
		if dir, _, ok := strings.Cut(name, "/"); ok {
			if m := runName.FindStringSubmatch(dir); m != nil {
				tr.model = m[1]
				tr.meta["model_source"] = "run directory name"
				rep.Note("trajectories without replay_config: the model is the first part of the run directory's name (SWE-agent names runs <model>__<data>__<config>__t-…)")
			}
		}
	}
	b := ingest.NewBuilder(stem, "", opts.ServerName(Server))
	b.Session().ServersRecorded = true // the runtime's commands are the agent's tools
	if set := tr.schemas(rep); set != nil {
		b.Session().Schemas = []*toolschema.Set{set}
	} else {
		// A trajectory that documents no command has a tool set nobody
		// recorded: an empty one gives its server a version of its own.
		// Listed without a version, the server would be replayed at the
		// catalog's last version, another trajectory's commands, and
		// its calls would resolve against them.
		b.Session().Schemas = []*toolschema.Set{{Source: tr.name + " (no command documentation)"}}
	}
	// The agent has the runtime's commands whether or not it calls any.
	st := traces.Event{Type: traces.SessionStart, StartFields: &traces.StartFields{Model: tr.model, SystemPrompt: tr.system, Meta: tr.meta, RecordedStrategy: "eager", Servers: []traces.ServerRef{{Name: opts.ServerName(Server)}}}}
	b.Add(st)
	stepList, stepObjs, err := readSteps(top, steps)
	if err != nil {
		return nil, err
	}
	c := &conv{tr: tr, b: b, rep: rep}
	if err := c.history(msgs); err != nil {
		return nil, err
	}
	c.align(stepList, stepObjs)
	return b.End(b.LastTime(), rep), nil
}

// config reads replay_config (an object, or a JSON string holding one, as
// some SWE-agent versions write it): the model, the command documentation
// and how actions were parsed. The rest is counted.
func (tr *traj) config(top *ingest.Object, rep *ingest.Report) error {
	raw := top.Take("replay_config")
	if raw == nil {
		return nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if strings.TrimSpace(s) == "" {
			return nil
		}
		raw = json.RawMessage(s)
	}
	cfg, err := ingest.NewObject("replay_config", "replay_config", raw)
	if err != nil {
		return err
	}
	defer cfg.Rest(rep)
	if v := cfg.Take("env"); !ingest.IsEmpty(v) {
		// The environment configuration (deployment image, repository),
		// not environment variables.
		rep.Unmap("replay_config.env (environment: deployment, repository, startup commands)")
		ingest.ScanCredentials("replay_config.env", v, rep)
	}
	agent, err := cfg.TakeObject("agent")
	if err != nil || agent == nil {
		return err
	}
	defer agent.Rest(rep)
	if model, err := agent.TakeObject("model"); err != nil {
		return err
	} else if model != nil {
		if tr.model, err = model.TakeString("name"); err != nil {
			return err
		}
		for _, k := range model.Keys() {
			v, field := model.Take(k), "replay_config.agent.model."+k
			switch {
			case ingest.IsEmpty(v):
			case ingest.IsCredentialKey(k) || ingest.IsCredentialBlock(k):
				rep.DropCredential(field)
			default:
				ingest.FlattenMeta(tr.meta, "config.model."+k, field, v, rep)
			}
		}
	}
	tools, err := agent.TakeObject("tools")
	if err != nil || tools == nil {
		return err
	}
	defer tools.Rest(rep)
	if tr.docs, err = tools.TakeString("command_docs"); err != nil {
		return err
	}
	if pf, err := tools.TakeObject("parse_function"); err != nil {
		return err
	} else if pf != nil {
		if tr.parseFn, err = pf.TakeString("type"); err != nil {
			return err
		}
		if tr.parseFn != "" {
			tr.meta["config.parse_function"] = tr.parseFn
		}
		pf.Skip("error_message") // a template shown to the model only after a parse failure
		pf.Rest(rep)
	}
	for _, k := range []string{"enable_bash_tool", "execution_timeout"} {
		if v := tools.Take(k); v != nil {
			ingest.SetMeta(tr.meta, "config.tools."+k, "replay_config.agent.tools."+k, v, rep)
		}
	}
	if v := tools.Take("bundles"); v != nil {
		var bundles []struct {
			Path string `json:"path"`
		}
		if json.Unmarshal(v, &bundles) == nil {
			var paths []string
			for _, bd := range bundles {
				paths = append(paths, bd.Path)
			}
			tr.meta["config.tools.bundles"] = strings.Join(paths, ",")
		}
	}
	return nil
}

// info reads info: the run's statistics and outcome.
func (tr *traj) info(top *ingest.Object, rep *ingest.Report) error {
	info, err := top.TakeObject("info")
	if err != nil || info == nil {
		return err
	}
	defer info.Rest(rep)
	if v := info.Take("exit_status"); v != nil {
		ingest.SetMeta(tr.meta, "exit_status", "info.exit_status", v, rep)
	}
	ms, err := info.TakeObject("model_stats")
	if err != nil || ms == nil {
		return err
	}
	for _, k := range []string{"tokens_sent", "tokens_received", "api_calls", "instance_cost", "total_cost"} {
		if v := ms.Take(k); v != nil {
			ingest.SetMeta(tr.meta, "model_stats."+k, "info.model_stats."+k, v, rep)
		}
	}
	ms.Rest(rep)
	return nil
}

// commands decides the trajectory's mode and finds its commands: in the
// system prompt's COMMANDS block (what the model of a thought-action run
// saw; the block is taken out of the prompt, since the catalog carries the
// commands as tools), else in the configuration's command documentation.
func (tr *traj) commands(msgs []*message, rep *ingest.Report) {
	tr.mode = ModeThoughtAction
	if tr.parseFn == "function_calling" {
		tr.mode = ModeFunctionCalling
	}
	for _, m := range msgs {
		if len(m.calls) > 0 {
			tr.mode = ModeFunctionCalling
		}
		if m.role == "system" && tr.system == "" && !m.demo {
			tr.system = m.text
		}
	}
	tr.meta["mode"] = tr.mode
	var cmds []command
	src := ""
	if tr.mode == ModeThoughtAction {
		var stripped string
		if cmds, stripped = promptCommands(tr.system); len(cmds) > 0 {
			src = "system prompt"
			tr.meta["system_prompt_source"] = fmt.Sprintf("history system message without its COMMANDS block (%d bytes; the catalog carries the commands as tools)", len(tr.system)-len(stripped))
			tr.system = stripped
			rep.Note("thought-action trajectories: the system prompt's COMMANDS block becomes the catalog's tools and leaves the prompt (meta system_prompt_source)")
		}
	}
	if len(cmds) == 0 && tr.docs != "" {
		cmds, _ = parseDocs(tr.docs)
		src = "replay_config.agent.tools.command_docs"
	}
	if len(cmds) == 0 {
		rep.Note("%s: no command documentation in the trajectory: its tools are reported without schema, and its session lists the server at a version without tools (%s), so that validate and run count them unknown too",
			tr.name, toolschema.Hash(nil))
		return
	}
	tr.meta["commands_source"] = src
	tr.cmds = map[string]*command{}
	for i := range cmds {
		c := &cmds[i]
		if tr.cmds[c.name] != nil {
			rep.Unmap("command documented twice (first kept)")
			continue
		}
		tr.cmds[c.name] = c
		tr.cmdOrder = append(tr.cmdOrder, c)
	}
}

// schemas returns the tool set the commands define, approximate (rebuilt
// from documentation), with the shell tool of thought-action runs as a
// schema-less entry when the documentation does not define it.
func (tr *traj) schemas(rep *ingest.Report) *toolschema.Set {
	if len(tr.cmdOrder) == 0 {
		return nil
	}
	set := &toolschema.Set{Source: tr.name + " " + tr.meta["commands_source"], Fidelity: toolschema.Approximate}
	set.Note = "rebuilt from SWE-agent's command documentation (" + tr.meta["commands_source"] + "), which gives no enum or item types"
	for _, c := range tr.cmdOrder {
		if !c.typed {
			set.Note = "rebuilt from the system prompt's short command list: argument names from the signature, no types or descriptions"
		}
		t, dropped := c.tool()
		for _, typ := range dropped {
			rep.Unmap("command argument type without a JSON Schema type (left out of the schema): " + typ)
		}
		set.Tools = append(set.Tools, t)
	}
	if tr.mode == ModeThoughtAction && tr.cmds[ShellTool] == nil {
		set.Tools = append(set.Tools, toolschema.Placeholder(ShellTool, "",
			"a thought-action run executes any action that is not a documented command in the shell; the trajectory defines no schema for it"))
	}
	return set
}
