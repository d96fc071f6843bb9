package catalog

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/internal/termsafe"
)

// History is the drift timeline of every series of a catalog that has two
// or more versions: each release (a pair of consecutive versions) is diffed
// with Diff.
type History struct {
	Series []SeriesHistory `json:"series"`
	// SingleVersion lists the series keys with only one version (no history).
	SingleVersion []string `json:"single_version"`
	// Unordered lists the series with several versions that have no
	// release order (Catalog.Unordered: versions named by content hash):
	// diffing them in spelling order would invent releases, so they have
	// none.
	Unordered []UnorderedSeries `json:"unordered,omitempty"`
	// Releases counts the releases of all series; Breaking those whose
	// Diff class is breaking (a removed tool counts). OrderUnknown counts
	// the releases among them of series whose order is unknown
	// (SeriesHistory.OrderUnknown).
	Releases      int     `json:"releases"`
	OrderUnknown  int     `json:"order_unknown_releases,omitempty"`
	Breaking      int     `json:"breaking_releases"`
	BreakingShare float64 `json:"breaking_share"`
	// Warnings lists tools read differently from how they were served (a
	// null or missing inputSchema, read as {"type":"object"}).
	Warnings []string `json:"warnings,omitempty"`
	// Tokens states how each release's Tokens were counted
	// (NewHistoryTokens); nil when they were not.
	Tokens *TokenBasis `json:"tokens,omitempty"`
}

// SeriesHistory is the timeline of one series (server, or server+variant).
type SeriesHistory struct {
	// Key is the series key (Server.Key).
	Key     string `json:"key"`
	Server  string `json:"server"`
	Variant string `json:"variant,omitempty"`
	// OrderUnknown marks a series whose versions mix dates and release
	// numbers (Catalog.MixedSchemes): Versions and Releases follow
	// CompareVersions, which reads a date as a release number, so which
	// version came first is unknown and the releases need not be the
	// release order. OrderNote says so in catalog diff's words.
	OrderUnknown bool     `json:"order_unknown,omitempty"`
	OrderNote    string   `json:"order_note,omitempty"`
	Versions     []string `json:"versions"`
	// Tools is the tool count of each version, in Versions order.
	Tools    []int     `json:"tools"`
	Releases []Release `json:"releases"`
	// Breaking counts releases whose class is breaking; BreakingShare is
	// Breaking / len(Releases).
	Breaking      int     `json:"breaking_releases"`
	BreakingShare float64 `json:"breaking_share"`
}

// UnorderedSeries is a series whose versions have no release order.
type UnorderedSeries struct {
	Key string `json:"key"`
	// Versions in spelling order, and the tool count of each.
	Versions []string `json:"versions"`
	Tools    []int    `json:"tools"`
}

// Release is the drift from one version of a series to the next.
type Release struct {
	From      string `json:"from"`
	To        string `json:"to"`
	FromTools int    `json:"from_tools"`
	ToTools   int    `json:"to_tools"`
	Added     int    `json:"added"`
	Removed   int    `json:"removed"`
	Changed   int    `json:"changed"`
	Unchanged int    `json:"unchanged"`
	// ByClass counts changed tools by their overall class (class name →
	// count; classes with no tool are absent).
	ByClass map[string]int `json:"by_class"`
	// Class is the release's overall class (Diff's: removals are breaking,
	// additions schema-compatible).
	Class Class `json:"class"`
	// BreakingTools counts changed tools whose own class is breaking
	// (removed tools not included).
	BreakingTools int `json:"breaking_tools"`
	// Tokens is the release's token cost (NewHistoryTokens; DiffTokens
	// without the per-tool lists).
	Tokens *TokenSummary `json:"tokens,omitempty"`
}

// Breaking reports whether the release has at least one breaking change.
func (r Release) Breaking() bool { return r.Class == ClassBreaking }

// NewHistory diffs every pair of consecutive versions of each series of c.
// Series are in key order, versions in CompareVersions order. A series
// whose versions have no release order is listed in Unordered instead.
func NewHistory(c *Catalog) History { return newHistory(c, nil) }

// NewHistoryTokens is NewHistory with each release's token cost counted
// with opt (DiffTokens) and the basis of those figures in History.Tokens.
func NewHistoryTokens(c *Catalog, opt TokenOptions) History { return newHistory(c, &opt) }

func newHistory(c *Catalog, opt *TokenOptions) History {
	h := History{Series: []SeriesHistory{}, SingleVersion: []string{}, Warnings: Warnings(c.All())}
	if opt != nil {
		b := opt.Basis()
		h.Tokens = &b
	}
	for _, key := range c.ServerNames() {
		vs := c.Versions[key]
		if len(vs) < 2 {
			h.SingleVersion = append(h.SingleVersion, key)
			continue
		}
		if c.Unordered(key) {
			u := UnorderedSeries{Key: key}
			for _, v := range vs {
				u.Versions = append(u.Versions, v.Version)
				u.Tools = append(u.Tools, len(v.Tools))
			}
			h.Unordered = append(h.Unordered, u)
			continue
		}
		s := SeriesHistory{Key: key, Server: vs[0].Name, Variant: vs[0].Variant, Releases: []Release{}}
		if c.MixedSchemes(key) {
			s.OrderUnknown = true
			s.OrderNote = "versions mix dates and release numbers, " + UnknownOrder + ": its releases are diffed in that order"
		}
		for _, v := range vs {
			s.Versions = append(s.Versions, v.Version)
			s.Tools = append(s.Tools, len(v.Tools))
		}
		for i := 1; i < len(vs); i++ {
			d := Diff(vs[i-1], vs[i])
			r := Release{
				From: vs[i-1].Version, To: vs[i].Version,
				FromTools: d.FromTools, ToTools: d.ToTools,
				Added: len(d.Added), Removed: len(d.Removed), Changed: len(d.Changed), Unchanged: d.Unchanged,
				ByClass: d.ByClass, Class: d.Class, BreakingTools: d.ByClass[ClassBreaking.String()],
			}
			if opt != nil {
				td := DiffTokens(vs[i-1], vs[i], d, *opt)
				r.Tokens = &td.TokenSummary
			}
			if r.ByClass == nil {
				r.ByClass = map[string]int{}
			}
			s.Releases = append(s.Releases, r)
			if r.Breaking() {
				s.Breaking++
			}
		}
		s.BreakingShare = share(s.Breaking, len(s.Releases))
		h.Releases += len(s.Releases)
		if s.OrderUnknown {
			h.OrderUnknown += len(s.Releases)
		}
		h.Breaking += s.Breaking
		h.Series = append(h.Series, s)
	}
	h.BreakingShare = share(h.Breaking, h.Releases)
	return h
}

func share(n, of int) float64 {
	if of == 0 {
		return 0
	}
	return float64(n) / float64(of)
}

// Find returns the history of series key, or nil.
func (h History) Find(key string) *SeriesHistory {
	for i := range h.Series {
		if h.Series[i].Key == key {
			return &h.Series[i]
		}
	}
	return nil
}

// historyClasses are the change classes shown as columns, most severe first,
// with their column titles.
var historyClasses = []struct {
	class Class
	title string
}{
	{ClassBreaking, "BREAK"},
	{ClassSchemaCompatible, "COMPAT"},
	{ClassDescriptionOnly, "DESC"},
	{ClassMetadataOnly, "META"},
}

// FormatHistory writes h as text: per series a header line and one row per
// release (tool counts, added, removed, changed in total and by class, the
// release class), then the totals.
func FormatHistory(w io.Writer, h History) error {
	for i, s := range h.Series {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s: %d versions, %s, %d breaking (%s)\n",
			termsafe.String(s.Key), len(s.Versions), nouns.Count(len(s.Releases), "release"), s.Breaking, percent(s.BreakingShare))
		if s.OrderUnknown {
			fmt.Fprintf(w, "  order unknown: %s\n", s.OrderNote)
		}
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		head := []string{"FROM", "TO", "TOOLS", "ADDED", "REMOVED", "CHANGED"}
		for _, c := range historyClasses {
			head = append(head, c.title)
		}
		if h.Tokens != nil {
			head = append(head, "TOKENS", "ΔTOKENS", "PER REQ")
		}
		head = append(head, "CLASS")
		fmt.Fprintln(tw, "  "+strings.Join(head, "\t")+"\t")
		for _, r := range s.Releases {
			cells := []string{termsafe.String(noVersion([]string{r.From})[0]), termsafe.String(noVersion([]string{r.To})[0]), fmt.Sprintf("%d→%d", r.FromTools, r.ToTools),
				fmt.Sprint(r.Added), fmt.Sprint(r.Removed), fmt.Sprint(r.Changed)}
			for _, c := range historyClasses {
				cells = append(cells, fmt.Sprint(r.ByClass[c.class.String()]))
			}
			if h.Tokens != nil && r.Tokens != nil {
				t := r.Tokens
				cells = append(cells, fmt.Sprintf("%d→%d", t.From, t.To), fmt.Sprintf("%+d", t.Delta), fmt.Sprintf("%+d", t.PerRequest))
			}
			cells = append(cells, r.Class.String())
			fmt.Fprintln(tw, "  "+strings.Join(cells, "\t")+"\t")
		}
		if err := tw.Flush(); err != nil {
			return fmt.Errorf("format history: %w", err)
		}
	}
	if len(h.Series) > 0 {
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "total: %d series with history, %s, %d breaking (%s)\n",
		len(h.Series), nouns.Count(h.Releases, "release"), h.Breaking, percent(h.BreakingShare))
	if h.OrderUnknown > 0 {
		fmt.Fprintf(w, "of which %s of series whose version order is unknown (order unknown above), diffed in defersim's order, which may not be the release order\n",
			nouns.Count(h.OrderUnknown, "release"))
	}
	if n := len(h.SingleVersion); n > 0 {
		fmt.Fprintf(w, "%d series with a single version (no history)\n", n)
	}
	for _, u := range h.Unordered {
		fmt.Fprintf(w, "%s: %d versions named by content hash, not releases: no order, so no history (catalog diff compares any two)\n",
			termsafe.String(u.Key), len(u.Versions))
	}
	fmt.Fprint(w, "columns BREAK…META count changed tools by class; a release is breaking when a tool was removed or a changed tool is breaking")
	if h.hasClass(ClassNone) {
		fmt.Fprint(w, ", and of class none when it added, removed and changed no tool")
	}
	fmt.Fprintln(w)
	if h.Tokens != nil {
		fmt.Fprintln(w, "TOKENS are every tool of each version, ΔTOKENS their change, PER REQ how many more tokens each request that sends every tool directly carries (ΔTOKENS plus the framing of the tools added or removed), before prompt caching")
		fmt.Fprintf(w, "counted: %s\n", termsafe.String(h.Tokens.Assumes))
	}
	return nil
}

func percent(x float64) string { return fmt.Sprintf("%.0f%%", x*100) }

// hasClass reports whether a release of h is of class c.
func (h History) hasClass(c Class) bool {
	for _, s := range h.Series {
		for _, r := range s.Releases {
			if r.Class == c {
				return true
			}
		}
	}
	return false
}
