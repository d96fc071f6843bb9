package mcpsnap

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/validation"
)

// Snapshot is the result of capturing one server one or more times.
type Snapshot struct {
	Target   Target
	Captures []*Capture
	// Catalog is the catalog file content ({"tools":[…]}, tools as served by
	// the first capture, indented).
	Catalog []byte
	// Server is Catalog parsed, named Meta.Server at Meta.ServerInfo's version.
	Server *catalog.Server
	Meta   Meta
}

// Take captures t opts.Captures times, each from a fresh process (or HTTP
// session), and summarises the captures. The catalog written is the first
// capture's; Meta.Stable says whether every capture served the same tools
// (same count and fingerprint). It stops at the first failed capture.
func Take(ctx context.Context, t Target, opts Options) (*Snapshot, error) {
	opts = opts.withDefaults()
	s := &Snapshot{Target: t}
	var servers []*catalog.Server
	for i := range opts.Captures {
		c, err := Run(ctx, t, opts)
		if err != nil {
			if opts.Captures > 1 {
				return nil, fmt.Errorf("capture %d of %d: %w", i+1, opts.Captures, err)
			}
			return nil, err
		}
		srv, err := catalog.Parse(toolsFile(c.Tools, false), t.Name, "", "")
		if err != nil {
			return nil, &StepError{Server: t.Name, Step: StepToolsList, Failure: FailProtocol,
				Detail: fmt.Sprintf("the tool list is not a valid catalog: %v", err), Stderr: c.Stderr, Err: err}
		}
		s.Captures = append(s.Captures, c)
		servers = append(servers, srv)
	}
	first := s.Captures[0]
	init, err := parseInitialize(first.Initialize)
	if err != nil {
		return nil, &StepError{Server: t.Name, Step: StepInitialize, Failure: FailProtocol,
			Detail: err.Error(), Stderr: first.Stderr, Err: err}
	}
	name := t.Name
	if name == "" {
		name = init.serverName()
	}
	version := t.Version
	if version == "" {
		version = init.serverVersion()
	}
	s.Catalog = toolsFile(first.Tools, true)
	s.Server, err = catalog.Parse(s.Catalog, FileStem(name), version, "")
	if err != nil {
		return nil, fmt.Errorf("%s: re-read catalog: %w", name, err)
	}
	s.Meta = buildMeta(t, name, opts, s.Captures, servers, init)
	s.Meta.Notes = catalog.Notes([]*catalog.Server{s.Server}, validation.SchemaCheck)
	return s, nil
}

// toolsFile builds {"tools":[…]} from raw tools, indented by two spaces when
// indent is set. The tools' bytes (key order, number spelling, escapes) are
// kept as served.
func toolsFile(tools []json.RawMessage, indent bool) []byte {
	var b bytes.Buffer
	b.WriteString(`{"tools":[`)
	for i, t := range tools {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(bytes.TrimSpace(t))
	}
	b.WriteString("]}")
	if !indent {
		return b.Bytes()
	}
	var out bytes.Buffer
	if err := json.Indent(&out, b.Bytes(), "", "  "); err != nil {
		// The parts were validated JSON; keep the compact form if not.
		return b.Bytes()
	}
	out.WriteByte('\n')
	return out.Bytes()
}

// initResult is the part of an initialize result the metadata names.
type initResult struct {
	ProtocolVersion string          `json:"protocolVersion"`
	ServerInfo      json.RawMessage `json:"serverInfo"`
	Capabilities    json.RawMessage `json:"capabilities"`
	Instructions    string          `json:"instructions"`
	info            struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	}
	extra map[string]json.RawMessage
}

func parseInitialize(raw json.RawMessage) (*initResult, error) {
	var r initResult
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("invalid initialize result: %w", err)
	}
	if len(r.ServerInfo) > 0 {
		if err := json.Unmarshal(r.ServerInfo, &r.info); err != nil {
			return nil, fmt.Errorf("invalid serverInfo: %w", err)
		}
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(raw, &all); err != nil {
		return nil, fmt.Errorf("invalid initialize result: %w", err)
	}
	for _, k := range []string{"protocolVersion", "serverInfo", "capabilities", "instructions"} {
		delete(all, k)
	}
	if len(all) > 0 {
		r.extra = all
	}
	return &r, nil
}

func (r *initResult) serverName() string {
	if r.info.Name != "" {
		return r.info.Name
	}
	return "server"
}

func (r *initResult) serverVersion() string { return r.info.Version }

// buildMeta summarises the captures.
func buildMeta(t Target, name string, opts Options, caps []*Capture, servers []*catalog.Server, init *initResult) Meta {
	first := caps[0]
	m := Meta{
		Format:                   MetaFormat,
		Server:                   name,
		Version:                  t.Version,
		Transport:                t.Transport(),
		URL:                      t.URL,
		EnvKeys:                  t.EnvKeys(),
		CapturedAt:               first.StartedAt.UTC().Format(time.RFC3339),
		ProtocolVersionRequested: opts.ProtocolVersion,
		ProtocolVersion:          init.ProtocolVersion,
		ServerInfo:               init.ServerInfo,
		Capabilities:             init.Capabilities,
		Instructions:             init.Instructions,
		InitializeExtra:          init.extra,
		ToolCount:                len(servers[0].Tools),
		Pages:                    first.Pages,
		Fingerprint:              servers[0].Fingerprint,
		Captures:                 len(caps),
		Stable:                   true,
		StderrTail:               first.Stderr,
	}
	if t.Command != "" {
		m.Command = append([]string{t.Command}, t.Args...)
	}
	var initT, listT, gapT []time.Duration
	for i, c := range caps {
		m.CaptureToolCounts = append(m.CaptureToolCounts, len(servers[i].Tools))
		m.CaptureFingerprints = append(m.CaptureFingerprints, servers[i].Fingerprint)
		if len(servers[i].Tools) != m.ToolCount || servers[i].Fingerprint != m.Fingerprint {
			m.Stable = false
		}
		initT = append(initT, c.InitializeAfter)
		listT = append(listT, c.ToolsListAfter)
		gapT = append(gapT, c.ToolsListAfter-c.InitializeAfter)
	}
	m.Timings = Timings{Initialize: newSpread(initT), ToolsList: newSpread(listT), ListAfterInitialize: newSpread(gapT)}
	if m.Stable {
		m.CaptureFingerprints = slices.Compact(slices.Clone(m.CaptureFingerprints))
	}
	return m
}
