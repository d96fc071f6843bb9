package gen

import (
	"fmt"
	"math"
	"time"
)

// Params drives the generator. Every field is documented in
// docs/generator.md with its default and the figure it comes from; the
// zero value is not useful: start from Defaults().
type Params struct {
	// Seed selects the random streams; the same Params give identical output.
	Seed int64 `yaml:"seed"`
	// Sessions is how many sessions to generate.
	Sessions int `yaml:"sessions"`

	// Servers is the total number of servers, planted ones included.
	Servers int `yaml:"servers"`
	// ServerSpecs fixes the first servers (planted families and fixed
	// sizes); the rest are drawn from the domain word lists.
	ServerSpecs []ServerSpec `yaml:"server_specs"`
	// ToolsPerServer is the number of tools of a server without a fixed size.
	ToolsPerServer Dist `yaml:"tools_per_server"`
	// SchemaBytes is the size of one tool in compact wire JSON
	// ({"name","description","input_schema"}), in bytes.
	SchemaBytes Dist `yaml:"schema_bytes"`
	// DescriptionShare is the mean share of a tool's wire bytes spent on its
	// description (each tool draws uniformly in [0.5, 1.5] times this).
	DescriptionShare float64 `yaml:"description_share"`
	// Zipf is the exponent of tool popularity: the tool of rank k is called
	// with weight 1/k^Zipf (0 = uniform).
	Zipf float64 `yaml:"zipf"`
	// Locality is the probability that a call goes to the session's focus
	// server rather than to any server.
	Locality float64 `yaml:"locality"`
	// OptionalArgProb is the probability that a call sets an optional property.
	OptionalArgProb float64 `yaml:"optional_arg_prob"`

	// Planted tools: openers, rare always-defer-style tools, fallbacks.
	Planted []PlantedTool `yaml:"planted"`

	// Turns is the number of user turns per session.
	Turns Dist `yaml:"turns"`
	// FirstTurnToolProb is the probability that the first user turn leads to
	// at least one tool call; ToolTurnProb is the same for later turns.
	FirstTurnToolProb float64 `yaml:"first_turn_tool_prob"`
	ToolTurnProb      float64 `yaml:"tool_turn_prob"`
	// StepsPerToolTurn is the mean number of tool-calling model requests in a
	// turn that calls tools (geometric on 1, 2, …).
	StepsPerToolTurn float64 `yaml:"steps_per_tool_turn"`
	// CallsPerStep is the mean number of (parallel) calls one model request
	// makes (geometric on 1, 2, …).
	CallsPerStep float64 `yaml:"calls_per_step"`
	// UserTextBytes is the length of a user message in bytes.
	UserTextBytes Dist `yaml:"user_text_bytes"`
	// KeywordProb is the probability that a user message names the object a
	// tool acts on with the tool's own word rather than a synonym.
	KeywordProb float64 `yaml:"keyword_prob"`
	// AssistantTokens is the length of the assistant's final text of a turn.
	AssistantTokens Dist `yaml:"assistant_tokens"`
	// ResultBytes is the size of a tool result.
	ResultBytes Dist `yaml:"result_bytes"`
	// ResultBytesPerToken converts result bytes to result_tokens.
	ResultBytesPerToken float64 `yaml:"result_bytes_per_token"`
	// ErrorRate is the probability that a tool call returns an error.
	ErrorRate float64 `yaml:"error_rate"`
	// ToolMs is the execution time of one tool call, in milliseconds.
	ToolMs Dist `yaml:"tool_ms"`

	// PauseSec is the user's think time between an answer and the next
	// message; with probability LongPauseProb LongPauseSec is used instead
	// (the user stepped away: long enough for a 5-minute cache to expire).
	PauseSec      Dist    `yaml:"pause_sec"`
	LongPauseProb float64 `yaml:"long_pause_prob"`
	LongPauseSec  Dist    `yaml:"long_pause_sec"`
	// SessionGapSec is the time between the starts of consecutive sessions.
	SessionGapSec Dist `yaml:"session_gap_sec"`
	// Start is the start time of the first session (RFC 3339).
	Start string `yaml:"start"`

	// Model and SystemPromptTokens fill session_start.
	Model              string `yaml:"model"`
	SystemPromptTokens int64  `yaml:"system_prompt_tokens"`
	// TTFTMs and DecodeTokensPerSec time model requests (they always move the
	// clock; they are written to the trace only when Recorded is true).
	TTFTMs             Dist    `yaml:"ttft_ms"`
	DecodeTokensPerSec float64 `yaml:"decode_tokens_per_sec"`
	// Recorded adds plausible timings and usage to model requests, as if an
	// eager runtime (every schema sent) had recorded the session.
	Recorded bool `yaml:"recorded"`
	// SchemaBytesPerToken converts schema bytes to tokens for recorded usage.
	SchemaBytesPerToken float64 `yaml:"schema_bytes_per_token"`

	// Drift makes some servers exist in several versions.
	Drift DriftParams `yaml:"drift"`

	// Over is set for a generation over an external catalog (NewOver,
	// `trace gen --catalogs`); New rejects it.
	Over *OverParams `yaml:"over,omitempty"`
}

// ServerSpec fixes one server of the catalog.
type ServerSpec struct {
	// Name is the server name; it also picks the word list (domain) when one
	// has that name.
	Name string `yaml:"name"`
	// Domain overrides the word list ("" = Name, or a generic one).
	Domain string `yaml:"domain,omitempty"`
	// Tools is the number of tools (0 = drawn from ToolsPerServer).
	Tools int `yaml:"tools,omitempty"`
	// Prefix starts every generated tool name (a family such as "browser_").
	Prefix string `yaml:"prefix,omitempty"`
}

// PlantedTool is a tool with a known role, placed in the catalog and in
// sessions at known rates, so tests (and the recommender) can check that it
// is found.
type PlantedTool struct {
	// Tool and Server name the tool; Server must be a server spec.
	Tool   string `yaml:"tool"`
	Server string `yaml:"server"`
	// Open is the probability that the tool is a session's first call (given
	// the session calls any tool).
	Open float64 `yaml:"open,omitempty"`
	// Use is the probability that a session calls the tool once at another
	// point. A tool with Use > 0 is never drawn by popularity.
	Use float64 `yaml:"use,omitempty"`
	// Bytes fixes the tool's wire size (0 = drawn from SchemaBytes).
	Bytes int `yaml:"bytes,omitempty"`
}

// DriftParams controls catalog versions.
type DriftParams struct {
	// Servers is how many servers have more than one version.
	Servers int `yaml:"servers"`
	// Versions is how many versions each of them has (>= 2).
	Versions int `yaml:"versions"`
	// ChangedFraction is the share of a version's tools changed in the next.
	ChangedFraction float64 `yaml:"changed_fraction"`
	// AddedFraction and RemovedFraction are the shares of tools added and
	// removed between versions.
	AddedFraction   float64 `yaml:"added_fraction"`
	RemovedFraction float64 `yaml:"removed_fraction"`
	// Kinds weighs the kinds of change made to a changed tool.
	Kinds ChangeKinds `yaml:"kinds"`
	// MidSession is the probability that a session is upgraded to the next
	// version of a drifting server between two of its turns.
	MidSession float64 `yaml:"mid_session"`
}

// ChangeKinds weighs the kinds of change a drifting tool undergoes.
type ChangeKinds struct {
	Description     float64 `yaml:"description"`
	OptionalAdded   float64 `yaml:"optional_added"`
	RequiredAdded   float64 `yaml:"required_added"`
	PropertyRemoved float64 `yaml:"property_removed"`
	PropertyRenamed float64 `yaml:"property_renamed"`
}

// Defaults returns the calibrated default parameters (docs/generator.md
// gives the measurement behind each).
func Defaults() Params {
	return Params{
		Seed:     1,
		Sessions: 400,
		Servers:  10,
		ServerSpecs: []ServerSpec{
			{Name: "web", Tools: 3},
			{Name: "browser", Tools: 14, Prefix: "browser_"},
			{Name: "memory", Tools: 4},
			{Name: "desktop", Tools: 5},
		},
		ToolsPerServer:   LogNormal(8.3, 1.3, 1, 120),
		SchemaBytes:      LogNormal(845, 0.87, 150, 16000),
		DescriptionShare: 0.27,
		Zipf:             1.05,
		Locality:         0.8,
		OptionalArgProb:  0.4,
		Planted: []PlantedTool{
			{Tool: "web_search", Server: "web", Open: 0.30},
			{Tool: "web_fetch", Server: "web", Open: 0.05, Use: 0.10},
			{Tool: "memory_recall", Server: "memory", Use: 0.12},
			{Tool: "screenshot", Server: "desktop", Use: 0.03, Bytes: 3500},
		},
		Turns:               LogNormal(6.9, 0.39, 1, 30),
		FirstTurnToolProb:   0.6,
		ToolTurnProb:        0.44,
		StepsPerToolTurn:    2.05,
		CallsPerStep:        1.15,
		UserTextBytes:       LogNormal(87, 0.58, 8, 4000),
		KeywordProb:         0.6,
		AssistantTokens:     LogNormal(60, 0.67, 5, 2000),
		ResultBytes:         LogNormal(450, 1.0, 2, 100000),
		ResultBytesPerToken: 2.8,
		ErrorRate:           0.06,
		ToolMs:              LogNormal(350, 1.0, 5, 120000),
		PauseSec:            LogNormal(12, 1.0, 1, 290),
		LongPauseProb:       0.03,
		LongPauseSec:        LogNormal(600, 0.8, 300, 86400),
		SessionGapSec:       LogNormal(120, 1.2, 1, 86400),
		Start:               "2026-03-02T09:00:00Z",
		Model:               "claude-sonnet-4-5",
		SystemPromptTokens:  1250,
		TTFTMs:              LogNormal(900, 0.6, 150, 60000),
		DecodeTokensPerSec:  60,
		SchemaBytesPerToken: 4.5,
		Drift: DriftParams{
			Servers:         3,
			Versions:        3,
			ChangedFraction: 0.5,
			AddedFraction:   0.23,
			RemovedFraction: 0.09,
			Kinds: ChangeKinds{Description: 0.21, OptionalAdded: 0.21, RequiredAdded: 0.46,
				PropertyRemoved: 0.07, PropertyRenamed: 0.05},
			MidSession: 0.08,
		},
	}
}

// Limits that keep one generation bounded in memory and time.
const (
	maxServers        = 5000
	maxToolsPerServer = 2000
	maxSchemaBytes    = 1 << 20
	maxSessions       = 1 << 40
	maxTurns          = 10000
)

// StartTime parses p.Start.
func (p *Params) StartTime() (time.Time, error) {
	t, err := time.Parse(time.RFC3339, p.Start)
	if err != nil {
		return time.Time{}, fmt.Errorf("start: %w", err)
	}
	return t.UTC(), nil
}

// Validate reports the first problem with p, naming the YAML key.
func (p *Params) Validate() error {
	if p.Sessions < 0 || int64(p.Sessions) > maxSessions {
		return fmt.Errorf("sessions: must be in [0, %d] (got %d)", int64(maxSessions), p.Sessions)
	}
	if p.Servers < 1 || p.Servers > maxServers {
		return fmt.Errorf("servers: must be in [1, %d] (got %d)", maxServers, p.Servers)
	}
	if len(p.ServerSpecs) > p.Servers {
		return fmt.Errorf("servers: %d is fewer than the %d server_specs", p.Servers, len(p.ServerSpecs))
	}
	seen := map[string]bool{}
	for i, s := range p.ServerSpecs {
		if !validName(s.Name) {
			return fmt.Errorf("server_specs[%d].name: %q is not a lowercase name of letters, digits, '-' and '_'", i, s.Name)
		}
		if seen[s.Name] {
			return fmt.Errorf("server_specs[%d].name: %q appears twice", i, s.Name)
		}
		seen[s.Name] = true
		if s.Domain != "" && domainByName(s.Domain) == nil {
			return fmt.Errorf("server_specs[%d].domain: unknown domain %q", i, s.Domain)
		}
		if s.Tools < 0 || s.Tools > maxToolsPerServer {
			return fmt.Errorf("server_specs[%d].tools: must be in [0, %d] (got %d)", i, maxToolsPerServer, s.Tools)
		}
		if s.Prefix != "" && !validName(s.Prefix) {
			return fmt.Errorf("server_specs[%d].prefix: %q is not a snake_case prefix", i, s.Prefix)
		}
	}
	dists := []struct {
		name   string
		d      Dist
		lo, hi float64
	}{
		{"tools_per_server", p.ToolsPerServer, 1, maxToolsPerServer},
		{"schema_bytes", p.SchemaBytes, 50, maxSchemaBytes},
		{"turns", p.Turns, 1, maxTurns},
		{"user_text_bytes", p.UserTextBytes, 1, 1 << 20},
		{"assistant_tokens", p.AssistantTokens, 1, 1 << 20},
		{"result_bytes", p.ResultBytes, 1, 1 << 30},
		{"tool_ms", p.ToolMs, 0.001, 1e9},
		{"pause_sec", p.PauseSec, 0.001, 1e7},
		{"long_pause_sec", p.LongPauseSec, 0.001, 1e7},
		{"session_gap_sec", p.SessionGapSec, 0.001, 1e7},
		{"ttft_ms", p.TTFTMs, 0.001, 1e8},
	}
	for _, d := range dists {
		if err := d.d.validate(d.name, d.lo, d.hi); err != nil {
			return err
		}
	}
	probs := []struct {
		name string
		v    float64
	}{
		{"description_share", p.DescriptionShare}, {"locality", p.Locality},
		{"optional_arg_prob", p.OptionalArgProb}, {"first_turn_tool_prob", p.FirstTurnToolProb},
		{"tool_turn_prob", p.ToolTurnProb}, {"keyword_prob", p.KeywordProb}, {"error_rate", p.ErrorRate},
		{"long_pause_prob", p.LongPauseProb}, {"drift.changed_fraction", p.Drift.ChangedFraction},
		{"drift.added_fraction", p.Drift.AddedFraction}, {"drift.removed_fraction", p.Drift.RemovedFraction},
		{"drift.mid_session", p.Drift.MidSession},
	}
	for _, pr := range probs {
		if !(pr.v >= 0 && pr.v <= 1) {
			return fmt.Errorf("%s: must be in [0, 1] (got %g)", pr.name, pr.v)
		}
	}
	ranges := []struct {
		name   string
		v      float64
		lo, hi float64
	}{
		{"zipf", p.Zipf, 0, 10},
		{"steps_per_tool_turn", p.StepsPerToolTurn, 1, 100},
		{"calls_per_step", p.CallsPerStep, 1, 100},
		{"result_bytes_per_token", p.ResultBytesPerToken, 0.5, 100},
		{"decode_tokens_per_sec", p.DecodeTokensPerSec, 0.1, 1e6},
		{"schema_bytes_per_token", p.SchemaBytesPerToken, 0.5, 100},
	}
	for _, x := range ranges {
		if !(x.v >= x.lo && x.v <= x.hi) {
			return fmt.Errorf("%s: must be in [%g, %g] (got %g)", x.name, x.lo, x.hi, x.v)
		}
	}
	if p.SystemPromptTokens < 0 || p.SystemPromptTokens > 1<<24 {
		return fmt.Errorf("system_prompt_tokens: must be in [0, %d] (got %d)", 1<<24, p.SystemPromptTokens)
	}
	if p.Model == "" {
		return fmt.Errorf("model: must not be empty")
	}
	if _, err := p.StartTime(); err != nil {
		return err
	}
	if err := p.validatePlanted(); err != nil {
		return err
	}
	if p.Over != nil {
		if err := p.Over.validate(); err != nil {
			return err
		}
	}
	return p.Drift.validate(p.Servers)
}

func (p *Params) validatePlanted() error {
	open := 0.0
	seen := map[string]bool{}
	for i, t := range p.Planted {
		if !validName(t.Tool) {
			return fmt.Errorf("planted[%d].tool: %q is not a snake_case name", i, t.Tool)
		}
		key := t.Server + "/" + t.Tool
		if seen[key] {
			return fmt.Errorf("planted[%d]: %s appears twice", i, key)
		}
		seen[key] = true
		found := false
		for _, s := range p.ServerSpecs {
			if s.Name == t.Server {
				found = true
			}
		}
		if !found {
			return fmt.Errorf("planted[%d].server: %q is not one of server_specs", i, t.Server)
		}
		if !(t.Open >= 0 && t.Open <= 1) || !(t.Use >= 0 && t.Use <= 1) {
			return fmt.Errorf("planted[%d]: open and use must be in [0, 1]", i)
		}
		if t.Bytes < 0 || t.Bytes > maxSchemaBytes {
			return fmt.Errorf("planted[%d].bytes: must be in [0, %d] (got %d)", i, maxSchemaBytes, t.Bytes)
		}
		open += t.Open
	}
	if open > 1+1e-9 {
		return fmt.Errorf("planted: open probabilities sum to %g, more than 1", open)
	}
	return nil
}

func (d *DriftParams) validate(servers int) error {
	if d.Servers < 0 || d.Servers > servers {
		return fmt.Errorf("drift.servers: must be in [0, servers=%d] (got %d)", servers, d.Servers)
	}
	if d.Servers > 0 && (d.Versions < 2 || d.Versions > 100) {
		return fmt.Errorf("drift.versions: must be in [2, 100] when drift.servers > 0 (got %d)", d.Versions)
	}
	k := d.Kinds
	w := []float64{k.Description, k.OptionalAdded, k.RequiredAdded, k.PropertyRemoved, k.PropertyRenamed}
	sum := 0.0
	for _, x := range w {
		if !(x >= 0) || math.IsInf(x, 0) {
			return fmt.Errorf("drift.kinds: weights must be finite and >= 0")
		}
		sum += x
	}
	if d.Servers > 0 && d.ChangedFraction > 0 && sum <= 0 {
		return fmt.Errorf("drift.kinds: at least one weight must be > 0")
	}
	return nil
}

// validName accepts lowercase names of letters, digits, '-' and '_'.
func validName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

func domainByName(name string) *domain {
	for i := range domains {
		if domains[i].name == name {
			return &domains[i]
		}
	}
	return nil
}
