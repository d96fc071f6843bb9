package mcpsnap

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"

	"github.com/defersim/defersim/catalog"
)

// MetaFormat names the metadata layout; it changes when fields change meaning.
const MetaFormat = "defersim-snapshot-meta/1"

// Meta is the content of the .meta.json file written beside a snapshot's
// catalog file.
type Meta struct {
	Format string `json:"format"`
	Server string `json:"server"`
	// Version is the version given for the file name (empty when it came
	// from serverInfo).
	Version   string   `json:"version,omitempty"`
	Transport string   `json:"transport"`
	Command   []string `json:"command,omitempty"`
	URL       string   `json:"url,omitempty"`
	// EnvKeys are the keys of the environment entries added for the server;
	// their values are never recorded.
	EnvKeys []string `json:"env_keys,omitempty"`
	// CapturedAt is when the first capture started (RFC 3339, UTC).
	CapturedAt               string          `json:"captured_at"`
	ProtocolVersionRequested string          `json:"protocol_version_requested"`
	ProtocolVersion          string          `json:"protocol_version"`
	ServerInfo               json.RawMessage `json:"server_info,omitempty"`
	Capabilities             json.RawMessage `json:"capabilities,omitempty"`
	Instructions             string          `json:"instructions,omitempty"`
	// InitializeExtra holds other members of the initialize result (_meta…).
	InitializeExtra map[string]json.RawMessage `json:"initialize_extra,omitempty"`
	ToolCount       int                        `json:"tool_count"`
	Pages           int                        `json:"pages"`
	// Fingerprint is the catalog fingerprint (catalog Server.Fingerprint).
	Fingerprint string `json:"fingerprint"`
	Captures    int    `json:"captures"`
	// Stable is true when every capture served the same tool count and
	// fingerprint.
	Stable            bool  `json:"stable"`
	CaptureToolCounts []int `json:"capture_tool_counts"`
	// CaptureFingerprints lists each capture's fingerprint in order, or the
	// single fingerprint when all are equal.
	CaptureFingerprints []string `json:"capture_fingerprints"`
	Timings             Timings  `json:"timings_ms"`
	// StderrTail is the first capture's last stderr lines.
	StderrTail []string `json:"stderr_tail,omitempty"`
	// Notes are what a run over the catalog written would note about it
	// (catalog.Notes with validation.SchemaCheck: a server serving no
	// tools, tools with a missing, null or invalid inputSchema), naming
	// the server and tools; absent when there is none.
	Notes []catalog.Note `json:"notes,omitempty"`
}

// Timings are the handshake timings over the captures, in milliseconds.
type Timings struct {
	// Initialize: process start (HTTP: first request) → initialize answered.
	Initialize Spread `json:"initialize"`
	// ToolsList: process start → last tools/list page answered.
	ToolsList Spread `json:"tools_list"`
	// ListAfterInitialize: initialize answered → last tools/list page answered.
	ListAfterInitialize Spread `json:"list_after_initialize"`
}

// Marshal encodes m as indented JSON with a final newline (no HTML escaping).
func (m Meta) Marshal() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(m); err != nil {
		return nil, fmt.Errorf("encode snapshot metadata: %w", err)
	}
	return b.Bytes(), nil
}

// ReadMeta reads a .meta.json written by a snapshot. Files of other layouts
// (for example the shared captures' metadata) are an error.
func ReadMeta(path string) (*Meta, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read snapshot metadata: %w", err)
	}
	var m Meta
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if m.Format != MetaFormat {
		return nil, fmt.Errorf("%s: not a snapshot metadata file (format %q, want %q)", path, m.Format, MetaFormat)
	}
	return &m, nil
}
