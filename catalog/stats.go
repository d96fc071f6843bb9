package catalog

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/defersim/defersim/tokens"
)

// StatsOptions tune ComputeStatsWith.
type StatsOptions struct {
	// Form selects which bytes of each tool are counted (default FormAnthropic).
	Form WireForm
	// Top is how many top contributors to keep per server and overall
	// (default 5; negative keeps none).
	Top int
	// NotCounted are the server versions read but left out of the figures:
	// the older versions of a series whose latest version is counted. Stats
	// names them and says the figures are of the latest versions.
	NotCounted []*Server
	// OutlierTokens names in Stats.Outliers every tool counted over this
	// many tokens (of the counter the top list ranks by); 0 names none.
	// catalog stats passes DefaultOutlierTokens unless told otherwise.
	OutlierTokens int64
}

// Stats is the token cost of a set of server versions under several counters.
type Stats struct {
	// Form is the wire form whose bytes were counted.
	Form WireForm `json:"form"`
	// Counters are the counter names, in the order given.
	Counters []string `json:"counters"`
	// Reference is the tokenizer the estimators' error is measured against
	// (o200k_base when counted, else cl100k_base, else "").
	Reference string        `json:"reference,omitempty"`
	Servers   []ServerStats `json:"servers"`
	Total     Summary       `json:"total"`
	// Warnings lists tools read differently from how they were served (a
	// null or missing inputSchema, counted as {"type":"object"}).
	Warnings []string `json:"warnings,omitempty"`
	// EmptyServers lists the server versions whose file lists no tools
	// (EmptyServers).
	EmptyServers []string `json:"empty_servers,omitempty"`
	// InvalidSchemas lists the tools whose input schema cannot check calls
	// (InvalidSchemas; filled by the caller, which has the check).
	InvalidSchemas []string `json:"invalid_schemas,omitempty"`
	// Outliers names each tool over StatsOptions.OutlierTokens, with its
	// share of the total: one such tool can be most of what is counted.
	Outliers []string `json:"outliers,omitempty"`
	// Versionless names each file without @VERSION read beside versions
	// of its server, as the oldest one, and CountedOnce each server
	// version read from more than one path with the same tools (filled
	// by the caller, which reads the paths; the warnings stderr gives).
	Versionless []string `json:"versionless,omitempty"`
	CountedOnce []string `json:"counted_once,omitempty"`
	// Series is the number of distinct servers (series keys) counted;
	// Total.Servers is the number of server versions counted.
	Series int `json:"series"`
	// NotCounted names the server versions read but not counted
	// (StatsOptions.NotCounted), in their order there.
	NotCounted []string `json:"not_counted,omitempty"`
	// VersionsSeen lists, for each server with a version not counted,
	// every version read: those counted and those not (absent when every
	// version read is counted).
	VersionsSeen []SeriesVersions `json:"versions_seen,omitempty"`
	// Covers says in words which versions the rows and the total cover.
	Covers string `json:"covers"`
}

// SeriesVersions are the versions of one server (series key) read by
// stats, in CompareVersions order.
type SeriesVersions struct {
	Series     string   `json:"series"`
	Counted    []string `json:"counted"`
	NotCounted []string `json:"not_counted"`
}

// Summary holds the figures of one server version or of the total.
type Summary struct {
	Servers int   `json:"servers"`
	Tools   int   `json:"tools"`
	Bytes   int64 `json:"bytes"`
	// Tokens by counter name: each tool counted separately, then summed (the
	// bytes/N estimators therefore round up per tool, as the anchor does).
	Tokens map[string]int64 `json:"tokens"`
	// BytesPerToken by counter name: Bytes / Tokens.
	BytesPerToken map[string]float64 `json:"bytes_per_token"`
	// EstimatorErrorPct by estimator ("bytes/N") counter name:
	// (estimate − reference) / reference × 100.
	EstimatorErrorPct map[string]float64 `json:"estimator_error_pct,omitempty"`
	// Top lists the largest tools by reference tokens (or by the first
	// counter when there is no reference), largest first.
	Top []ToolTokens `json:"top"`
}

// ServerStats is the Summary of one server version.
type ServerStats struct {
	Server  string `json:"server"`
	Name    string `json:"name"`
	Version string `json:"version"`
	Variant string `json:"variant,omitempty"`
	Summary
	// ToolSizes are every tool of the server version as counted, in its
	// file's order (not in JSON: its top lists name the largest; catalog
	// stats --format csv writes them all).
	ToolSizes []CountedTool `json:"-"`
}

// Key is the server's series key, as Server.Key: its name, and its launch
// variant after "+".
func (s ServerStats) Key() string {
	return (&Server{Name: s.Name, Variant: s.Variant}).Key()
}

// CountedTool is one tool's size, and whether it is over
// StatsOptions.OutlierTokens (Stats.Outliers names it).
type CountedTool struct {
	ToolTokens
	Outlier bool
}

// ToolTokens is one tool's size.
type ToolTokens struct {
	Server string           `json:"server"`
	Tool   string           `json:"tool"`
	Bytes  int64            `json:"bytes"`
	Tokens map[string]int64 `json:"tokens"`
}

// ComputeStats counts servers' tools in the Anthropic wire form under each
// counter and keeps the top 5 contributors; see ComputeStatsWith.
func ComputeStats(servers []*Server, counters []tokens.Counter) Stats {
	return ComputeStatsWith(servers, counters, StatsOptions{})
}

// ComputeStatsWith counts every tool of servers under each counter.
func ComputeStatsWith(servers []*Server, counters []tokens.Counter, opt StatsOptions) Stats {
	if opt.Form == "" {
		opt.Form = FormAnthropic
	}
	if opt.Top == 0 {
		opt.Top = 5
	}
	st := Stats{Form: opt.Form, Warnings: Warnings(servers), EmptyServers: EmptyServers(servers)}
	for _, c := range counters {
		st.Counters = append(st.Counters, c.Name())
	}
	for _, ref := range []string{"o200k_base", "cl100k_base"} {
		if slices.Contains(st.Counters, ref) {
			st.Reference = ref
			break
		}
	}
	rankBy := st.RankCounter()
	var all []ToolTokens
	var big []outlier
	st.Total = newSummary()
	for _, s := range servers {
		ss := ServerStats{Server: s.Label(), Name: s.Name, Version: s.Version, Variant: s.Variant, Summary: newSummary()}
		ss.Servers = 1
		var tts []ToolTokens
		for i, t := range s.Tools {
			tt := CountTool(s, t, opt.Form, counters)
			over := isOutlier(tt, rankBy, opt.OutlierTokens)
			if over {
				big = append(big, outlier{s, i, tt})
			}
			ss.ToolSizes = append(ss.ToolSizes, CountedTool{ToolTokens: tt, Outlier: over})
			for name, n := range tt.Tokens {
				ss.Tokens[name] += n
			}
			ss.Tools++
			ss.Bytes += tt.Bytes
			tts = append(tts, tt)
		}
		ss.finish(st, rankBy, tts, opt.Top)
		st.Total.Servers++
		st.Total.Tools += ss.Tools
		st.Total.Bytes += ss.Bytes
		for k, v := range ss.Tokens {
			st.Total.Tokens[k] += v
		}
		st.Servers = append(st.Servers, ss)
		all = append(all, tts...)
	}
	st.Total.finish(st, rankBy, all, opt.Top)
	st.Outliers = outlierNotes(big, rankBy, st.Total.Tokens[rankBy], opt.OutlierTokens)
	st.cover(servers, opt.NotCounted)
	if st.Servers == nil {
		st.Servers = []ServerStats{}
	}
	return st
}

// RankCounter is the counter the top lists rank tools by and
// StatsOptions.OutlierTokens is measured in: the reference tokenizer when
// one is counted, else the first counter ("" with none).
func (st Stats) RankCounter() string {
	if st.Reference == "" && len(st.Counters) > 0 {
		return st.Counters[0]
	}
	return st.Reference
}

// CountTool counts one tool of s: the bytes of its form, and the tokens of
// those bytes under each counter. catalog stats, diff and history count a
// tool this way (and the replay counts Tool.Wire, the anthropic form, the
// same way before adding its per-tool framing).
func CountTool(s *Server, t *Tool, form WireForm, counters []tokens.Counter) ToolTokens {
	b := t.Bytes(form)
	tt := ToolTokens{Server: s.Label(), Tool: t.Name, Bytes: int64(len(b)), Tokens: make(map[string]int64, len(counters))}
	for _, c := range counters {
		tt.Tokens[c.Name()] = c.Count(b)
	}
	return tt
}

func newSummary() Summary {
	return Summary{Tokens: map[string]int64{}, BytesPerToken: map[string]float64{}, Top: []ToolTokens{}}
}

// finish derives ratios, estimator errors and the top list.
func (s *Summary) finish(st Stats, rankBy string, tts []ToolTokens, top int) {
	for _, name := range st.Counters {
		if n := s.Tokens[name]; n > 0 {
			s.BytesPerToken[name] = round(float64(s.Bytes)/float64(n), 3)
		}
	}
	if ref := s.Tokens[st.Reference]; st.Reference != "" && ref > 0 {
		for _, name := range st.Counters {
			if IsEstimator(name) {
				if s.EstimatorErrorPct == nil {
					s.EstimatorErrorPct = map[string]float64{}
				}
				s.EstimatorErrorPct[name] = round(float64(s.Tokens[name]-ref)/float64(ref)*100, 2)
			}
		}
	}
	if top <= 0 {
		return
	}
	sorted := slices.Clone(tts)
	slices.SortStableFunc(sorted, func(x, y ToolTokens) int {
		if c := cmp.Compare(y.Tokens[rankBy], x.Tokens[rankBy]); c != 0 {
			return c
		}
		if c := cmp.Compare(y.Bytes, x.Bytes); c != 0 {
			return c
		}
		if c := strings.Compare(x.Server, y.Server); c != 0 {
			return c
		}
		return strings.Compare(x.Tool, y.Tool)
	})
	s.Top = sorted[:min(top, len(sorted))]
}

// IsEstimator reports whether a counter name is a bytes/N estimator.
func IsEstimator(counter string) bool { return strings.HasPrefix(counter, "bytes/") }

func round(x float64, places int) float64 {
	p := math.Pow10(places)
	return math.Round(x*p) / p
}
