// Package importers turns recorded sessions in other formats into trace v1
// with the tool catalog they reference. Each format lives in a sub-package;
// this package maps format names to them and runs an import: it resolves
// servers and schema versions, writes the trace and the catalog directory,
// and fills the report. See docs/importers.md.
package importers

import (
	"fmt"
	"strings"

	"github.com/defersim/defersim/component"
	"github.com/defersim/defersim/traces/importers/anthropicmsg"
	"github.com/defersim/defersim/traces/importers/claudecode"
	"github.com/defersim/defersim/traces/importers/ingest"
	"github.com/defersim/defersim/traces/importers/openaimsg"
	"github.com/defersim/defersim/traces/importers/otel"
	"github.com/defersim/defersim/traces/importers/sweagent"
	"github.com/defersim/defersim/traces/importers/tau2"
	"github.com/defersim/defersim/traces/importers/taubench"
	"github.com/defersim/defersim/traces/importers/toolbench"
)

// format is one registered source format.
type format struct {
	name    string
	summary string
	new     func() ingest.Importer
	// gateway: the importer maps gateway meta-tools (ingest.Options.Gateway).
	gateway bool
	// ext is the suffix of the format's files (".traj"); a directory given
	// as an input is refused with a message that names it.
	ext string
	// dirs: a directory given as an input stands for its files ending in
	// ext, at any depth, in path order (inputdirs.go). Only for a format
	// whose suffix holds nothing else (SWE-agent writes a run directory of
	// .traj files beside others, such as .pred and .patch files).
	dirs bool
}

// formats returns the registered formats in documentation order.
func formats() []format {
	return []format{
		{taubench.Format, "tau-bench result files (JSON array of {task_id, trial, reward, info, traj})",
			func() ingest.Importer { return taubench.New() }, false, ".json", false},
		{tau2.Format, "tau2-bench simulation results ({info, tasks, simulations})",
			func() ingest.Importer { return tau2.New() }, false, ".json", false},
		{openaimsg.Format, "OpenAI chat-completions messages, one conversation per file or per line",
			func() ingest.Importer { return openaimsg.New() }, true, ".jsonl", false},
		{anthropicmsg.Format, "Anthropic Messages transcripts, one conversation per file or per line",
			func() ingest.Importer { return anthropicmsg.New() }, true, ".jsonl", false},
		{otel.Format, "OTLP JSON exports of OpenTelemetry GenAI spans",
			func() ingest.Importer { return otel.New() }, true, ".json", false},
		{claudecode.Format, "Claude Code session files (JSON Lines)",
			func() ingest.Importer { return claudecode.New() }, true, ".jsonl", false},
		{sweagent.Format, "SWE-agent trajectories (.traj: history, trajectory, info, replay_config)",
			func() ingest.Importer { return sweagent.New() }, false, ".traj", true},
		{toolbench.Format, "ToolBench answer files (answer_generation with functions and train_messages, search tree)",
			func() ingest.Importer { return toolbench.New() }, false, ".json", false},
	}
}

// Names returns the format names, in documentation order.
func Names() []string {
	var names []string
	for _, f := range formats() {
		names = append(names, f.name)
	}
	return names
}

// Summary returns a one-line description of each format, keyed by name.
func Summary() map[string]string {
	m := map[string]string{}
	for _, f := range formats() {
		m[f.name] = f.summary
	}
	return m
}

// Components describes every format as a component of kind importer, with
// the options of an import (the flags of `defersim trace import`; the
// gateway flags only for the formats that map gateway meta-tools).
func Components() []component.Info {
	params := []component.Param{
		{Name: "--tools", Type: "[]path", Meaning: "tool schema files or catalog directories for sessions whose source carries none (first definition wins)"},
		{Name: "--system-prompt", Type: "path", Meaning: "system prompt for sessions whose source records none"},
		{Name: "--model", Type: "string", Meaning: "model of every session (overrides the recorded one)"},
		{Name: "--server", Type: "string", Meaning: "server name for tools whose source names no server"},
	}
	gateway := []component.Param{
		{Name: "--search-tool", Type: "[]string", Meaning: "name of a gateway's search meta-tool"},
		{Name: "--execute-tool", Type: "[]string", Meaning: "name of a gateway's execute meta-tool"},
	}
	var out []component.Info
	for _, f := range formats() {
		ps := append([]component.Param(nil), params...)
		if f.gateway {
			ps = append(ps, gateway...)
		}
		out = append(out, component.Info{Kind: component.Importer, Name: f.name, Description: f.summary, Params: ps})
	}
	return out
}

// SupportsGateway reports whether the named format maps gateway meta-tools.
func SupportsGateway(name string) bool {
	for _, f := range formats() {
		if f.name == name {
			return f.gateway
		}
	}
	return false
}

func gatewayFormats() []string {
	var names []string
	for _, f := range formats() {
		if f.gateway {
			names = append(names, f.name)
		}
	}
	return names
}

// SkipBadFormats are the formats --skip-bad applies to: their JSON Lines
// hold one conversation a line, so a line skipped is a conversation left
// out, whole, and counted. A line of another format is part of a session
// (claude-code: one record of it; otel: an export of spans of any
// sessions) or the input is one JSON document: a session imported without
// the line would replay other requests than the recorded ones.
var SkipBadFormats = []string{"openai-messages", "anthropic-messages"}

// Lookup returns the importer of the named format.
func Lookup(name string) (ingest.Importer, error) {
	for _, f := range formats() {
		if f.name == name {
			return f.new(), nil
		}
	}
	return nil, fmt.Errorf("unknown format %q (known: %s); for another format, convert it to openai-messages or write trace v1 (docs/importers.md, \"A format that does not import\")", name, strings.Join(Names(), ", "))
}
