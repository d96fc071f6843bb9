package catalog

import "fmt"

// DefaultOutlierTokens is the size, in tokens of the counter stats ranks by,
// over which catalog stats names one tool as an outlier (its flag
// --outlier-tokens). The largest tool of the shared real catalogs is under
// 3,000 o200k_base tokens (docs/catalogs.md): a tool several times that is
// more likely a pasted document or a generated schema than a definition the
// server means to send, and it can make a server's total, and the run's
// cost, one tool's.
const DefaultOutlierTokens = 10_000

// outlier is one tool over StatsOptions.OutlierTokens, as counted.
type outlier struct {
	s  *Server
	i  int
	tt ToolTokens
}

// isOutlier is the outlier rule: tt is over limit tokens of counter
// rankBy (a limit of 0 names no tool).
func isOutlier(tt ToolTokens, rankBy string, limit int64) bool {
	return limit > 0 && tt.Tokens[rankBy] > limit
}

// outlierNotes names each outlier with its share of total (under counter
// rankBy) and which part of its wire form, description or input schema,
// holds its bytes, so that the file can be checked where it is at fault.
func outlierNotes(found []outlier, rankBy string, total, limit int64) []string {
	var out []string
	for _, o := range found {
		t, n := o.s.Tools[o.i], o.tt.Tokens[rankBy]
		share := 100.0
		if total > 0 {
			share = float64(n) / float64(total) * 100
		}
		out = append(out, fmt.Sprintf("%s: tools[%d] %q is %d %s tokens (%d bytes: description %d, input schema %d), %.1f%% of the total's %d: over --outlier-tokens %d; check that the file holds the definition the server sends",
			where(o.s), o.i, t.Name, n, rankBy, o.tt.Bytes, len(t.Description), len(t.InputSchema), share, total, limit))
	}
	return out
}
