// Package ingest is the contract between a format importer and the import
// pipeline: the options every importer honours, the session it hands over,
// the report it fills, and helpers to read source documents field by field
// so that whatever cannot be mapped is reported rather than silently lost.
package ingest

import (
	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/importers/toolschema"
)

// Importer turns the sessions of one source file into trace v1 sessions.
type Importer interface {
	// ImportFile reads the file at path and hands every session to sink, in
	// source order. Errors name the file and the position in it.
	ImportFile(path string, opts *Options, sink Sink, rep *Report) error
}

// Sink receives imported sessions.
type Sink interface {
	Emit(s *Session) error
}

// Options are the user's choices that apply to every format.
type Options struct {
	// Model, when set, is the model of every session (it overrides the
	// recorded one; the report notes each override).
	Model string
	// SystemPrompt, when set, is the system prompt of sessions whose source
	// records none; SystemPromptSource names where it came from.
	SystemPrompt       string
	SystemPromptSource string
	// Tools are schema sources given by the user (--tools), in priority order.
	// The source's own schemas come first.
	Tools []*toolschema.Set
	// Fallback are schema sources used only for tools a session calls that
	// no source in Tools (or the session's own) defines.
	Fallback []*toolschema.Set
	// Server, when set, replaces the format's default server name.
	Server string
	// Gateway names the meta-tools of an MCP gateway the sessions were
	// recorded through (honoured by the formats that say so).
	Gateway Gateway
	// SkipBad skips JSON Lines lines that are not valid JSON, each counted
	// in the report (Report.SkipLine), instead of stopping (honoured by the
	// formats whose lines hold one conversation each: SkipBadFormats).
	SkipBad bool
}

// HasToolsFor reports whether a user-given tool set applies to domain.
func (o *Options) HasToolsFor(domain string) bool {
	for _, s := range o.Tools {
		if SetApplies(s, domain) {
			return true
		}
	}
	return false
}

// SetApplies reports whether the tool set s applies to a session of domain:
// sets without a domain apply everywhere, sets with one apply to sessions of
// that domain and to sessions whose domain is unknown.
func SetApplies(s *toolschema.Set, domain string) bool {
	return s.Domain == "" || domain == "" || s.Domain == domain
}

// ServerName returns the user's server override, or def.
func (o *Options) ServerName(def string) string {
	if o.Server != "" {
		return o.Server
	}
	return def
}

// Session is one imported session on its way to the trace.
type Session struct {
	traces.Session
	// Domain selects which domain-specific tool sets apply ("" = unknown).
	Domain string
	// DefaultServer is the server of schema sets that name none.
	DefaultServer string
	// ServersRecorded is set by an importer whose source records the
	// servers the session had connected (the session_start's Servers it
	// writes are the whole list): an Anthropic request's mcp_servers, or
	// a benchmark format whose agent has its environment's tools alone.
	// The servers of user-given catalog directories are then not added to
	// the session by the --connected rule, only those the session uses.
	ServersRecorded bool
	// Schemas are the tool definitions the source carries for this session
	// (or found beside it), highest priority first.
	Schemas []*toolschema.Set
	// Unattributed lists the tool_call events (by index) whose source names
	// no server; they carry DefaultServer until the pipeline attributes them
	// from their name and the catalogs.
	Unattributed []int
	// SearchText holds, by event index, the result text of tool_search
	// events whose source does not list the returned tools as such; the
	// pipeline reads the returned tools from it.
	SearchText map[int]string
}

// InputError is an importer's error on one of several inputs it reads
// together (an importer whose sessions may span files): Path is that
// input, for the pipeline's hints; the message already names it.
type InputError struct {
	Path string
	Err  error
}

func (e *InputError) Error() string { return e.Err.Error() }

func (e *InputError) Unwrap() error { return e.Err }
