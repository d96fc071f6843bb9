// Package catalog models MCP tool catalogs: servers at versions, their
// tools, canonical JSON, schema fingerprints and drift between versions.
package catalog

import "encoding/json"

// Tool is one entry of an MCP tools/list result. Raw keeps the whole tool
// object as served (including fields defersim does not interpret) so the
// canonical form and fingerprint cover everything the model can see.
type Tool struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// InputSchema is the compact input schema as served; empty when the
	// tool has none (absent or null), which the wire forms, fingerprints
	// and Diff read as {"type":"object"}.
	InputSchema json.RawMessage `json:"inputSchema,omitempty"`
	Annotations json.RawMessage `json:"annotations,omitempty"`
	Raw         json.RawMessage `json:"-"`

	// Server is the name of the server that serves the tool.
	Server string `json:"-"`
	// Fingerprint identifies the tool's definition: ModelFingerprint by
	// default, ServedFingerprint after SetFingerprintScope(FingerprintServed).
	Fingerprint string `json:"-"`
	// ModelFingerprint is the hex SHA-256 of the canonical JSON of what the
	// model sees: {"name","description","inputSchema"} (the schema as read).
	ModelFingerprint string `json:"-"`
	// ServedFingerprint is the hex SHA-256 of the canonical JSON of Raw, the
	// whole tool as served (annotations, title, icons, _meta included).
	ServedFingerprint string `json:"-"`
	// Wire is the compact JSON a runtime sends for the tool:
	// {"name":…,"description":…,"input_schema":…}; see docs/catalogs.md.
	Wire []byte `json:"-"`
	// Warning says what was read differently from the served definition
	// (a null or missing inputSchema), or is "".
	Warning string `json:"-"`
	// WarningKind is the Note kind of Warning (NoteSchemaMissing,
	// NoteSchemaNull), or "".
	WarningKind string `json:"-"`
	// WireOpenAI is the compact OpenAI function-tool form
	// {"type":"function","function":{"name":…,"description":…,"parameters":…}},
	// the bytes the anchor runtime's bytes/3.5 estimator counts.
	WireOpenAI []byte `json:"-"`
	// WireMCP is Raw without the "icons" member (Raw itself when there is
	// none): the MCP form that is counted.
	WireMCP []byte `json:"-"`
	// SchemaFidelity is the mark `defersim trace import` leaves in the
	// tool's _meta (MetaSchemaFidelity) when its definition is not the one
	// the recording model saw: SchemaApproximate or SchemaMissing; "" when
	// unmarked (docs/importers.md, Schema fidelity).
	SchemaFidelity string `json:"-"`
}

// MetaSchemaFidelity is the member of a tool's _meta that marks how
// faithful an imported definition is.
const MetaSchemaFidelity = "defersim/schema"

// Values of MetaSchemaFidelity.
const (
	// SchemaApproximate: names right, details may differ from what the
	// model saw (rebuilt from documentation, a simplified listing, another
	// version).
	SchemaApproximate = "approximate"
	// SchemaMissing: the tool was offered but no schema was recorded; the
	// catalog holds a stand-in {"type":"object"}.
	SchemaMissing = "missing"
)

// Server is one MCP server at one version.
type Server struct {
	Name    string
	Version string
	Variant string
	// Source is the file the server was loaded from ("" when built in memory).
	Source string
	Tools  []*Tool
	// Fingerprint is the hex SHA-256 over the tools' Fingerprints in order
	// of tool name.
	Fingerprint string
	// Meta is the content of the <file>.meta.json beside the catalog file
	// (the capture's initialize result and launch details), when present.
	Meta json.RawMessage

	byName map[string]*Tool
}

// Catalog is a set of servers, each possibly at several versions.
type Catalog struct {
	// Versions holds every loaded version of each server, keyed by server name,
	// in ascending version order.
	Versions map[string][]*Server

	// toolServers maps a tool name to the keys of the series serving it.
	toolServers map[string][]string
}
