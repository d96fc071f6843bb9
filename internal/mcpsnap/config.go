package mcpsnap

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
)

// MaxConfigSize bounds a config file read by LoadConfig (4 MiB).
const MaxConfigSize = 4 << 20

// configServer is one entry of a Claude-Desktop-style "mcpServers" map.
// Members other than these are ignored.
type configServer struct {
	Type     string            `json:"type"`
	Command  string            `json:"command"`
	Args     []string          `json:"args"`
	Env      map[string]string `json:"env"`
	Cwd      string            `json:"cwd"`
	URL      string            `json:"url"`
	Disabled bool              `json:"disabled"`
}

// ParseConfig reads a Claude-Desktop-style MCP config,
// {"mcpServers": {"<name>": {"command", "args", "env"} | {"url"}}}, and
// returns one Target per enabled server, sorted by name. Each target's Env
// is the entry's "env" map as KEY=VALUE, sorted by key. "type" may be
// "stdio", "http" or "streamable-http" (SSE servers are not supported);
// entries with "disabled": true are skipped. Other top-level members and
// other members of an entry are ignored.
func ParseConfig(data []byte) ([]Target, error) {
	var root struct {
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&root); err != nil {
		return nil, fmt.Errorf("mcp config: invalid JSON: %w", err)
	}
	if dec.More() {
		return nil, errors.New("mcp config: trailing data after the JSON object")
	}
	if root.MCPServers == nil {
		return nil, errors.New(`mcp config: no "mcpServers" object`)
	}
	names := make([]string, 0, len(root.MCPServers))
	for n := range root.MCPServers {
		names = append(names, n)
	}
	slices.Sort(names)
	var out []Target
	for _, name := range names {
		if name == "" {
			return nil, errors.New("mcp config: a server with an empty name")
		}
		var s configServer
		if err := json.Unmarshal(root.MCPServers[name], &s); err != nil {
			return nil, fmt.Errorf("mcp config: server %q: %w", name, err)
		}
		if s.Disabled {
			continue
		}
		switch s.Type {
		case "", "stdio", "http", "streamable-http", "streamableHttp":
		default:
			return nil, fmt.Errorf("mcp config: server %q: transport type %q is not supported (want stdio or http)", name, s.Type)
		}
		t := Target{Name: name, Command: s.Command, Args: s.Args, Dir: s.Cwd, URL: s.URL}
		keys := make([]string, 0, len(s.Env))
		for k := range s.Env {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			t.Env = append(t.Env, k+"="+s.Env[k])
		}
		if err := t.Validate(); err != nil {
			return nil, fmt.Errorf("mcp config: server %q: %w", name, err)
		}
		out = append(out, t)
	}
	if len(out) == 0 {
		return nil, errors.New("mcp config: no enabled servers")
	}
	return out, nil
}

// LoadConfig reads and parses a config file (see ParseConfig).
func LoadConfig(path string) ([]Target, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("read mcp config: %w", err)
	}
	if st.Size() > MaxConfigSize {
		return nil, fmt.Errorf("read mcp config %s: %d bytes is over the %d-byte limit", path, st.Size(), MaxConfigSize)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read mcp config: %w", err)
	}
	ts, err := ParseConfig(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return ts, nil
}
