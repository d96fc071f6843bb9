package retrieval

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/internal/yamlerr"
	"github.com/defersim/defersim/srd"
)

// HardSet is a hand-written labelled set over real catalogs, as read from
// its YAML file (see docs/retrieval.md for the format).
type HardSet struct {
	Name, Title, Method string
	Queries             []HardQuery
	File                string
}

// HardQuery is one query (task) of a hard set.
type HardQuery struct {
	ID, Text string
	// Needs lists what the task needs: each need is a list of equally good
	// answers (interchangeable tools), as "server/tool". A file's "want"
	// is one need; "needs" gives several.
	Needs [][]string
	Line  int
}

// Want is the first need's answers (a single-need query's whole want).
func (q HardQuery) Want() []string {
	if len(q.Needs) == 0 {
		return nil
	}
	return q.Needs[0]
}

type hardSetYAML struct {
	Name    string      `yaml:"name"`
	Title   string      `yaml:"title"`
	Method  string      `yaml:"method"`
	Queries []yaml.Node `yaml:"queries"`
}

type hardQueryYAML struct {
	ID    string     `yaml:"id"`
	Q     string     `yaml:"q"`
	Want  []string   `yaml:"want"`
	Needs [][]string `yaml:"needs"`
}

// hardQueryKeys are the keys of a query entry (hardQueryYAML).
func hardQueryKeys() []string { return []string{"id", "q", "want", "needs"} }

// knownQueryKeys refuses a query entry with a key it does not know: a
// node's Decode ignores unknown keys, so a misspelt "neds:" beside "want:"
// would drop the needs it lists without a word.
func knownQueryKeys(file string, n yaml.Node) error {
	known := hardQueryKeys()
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := n.Content[i]; !slices.Contains(known, k.Value) {
			return fmt.Errorf("%s:%d: %s: unknown key in a query (known: %s)", file, k.Line, k.Value, strings.Join(known, ", "))
		}
	}
	return nil
}

// MaxTaskFileSize bounds a task file (a hard-set file, shipped or the
// user's own: 4 MiB). A set of tasks is written by hand: the shipped ones
// are about 20 KB for 119 to 142 tasks (some 140 bytes a task), so the
// bound is some 30,000 tasks. Loading holds tens of times the file's size
// (a generated 4.3 MB file of 60,000 tasks peaked at 217 MB resident),
// which the bound keeps to a few hundred MB. It is the policy of SRD files (srd.MaxFileSize), with
// its checks (srd.ReadLimited, srd.TooLarge, srd.NotUTF8).
const MaxTaskFileSize = 4 << 20

// ReadTaskFile reads a task file from disk for ParseHardSet: at most
// MaxTaskFileSize bytes; a larger file is an error "FILE: file is N
// bytes, more than the M allowed" giving its own size.
func ReadTaskFile(file string) ([]byte, error) {
	data, size, err := srd.ReadLimited(file, MaxTaskFileSize)
	if err != nil {
		return nil, fmt.Errorf("load set %s: %w", file, err)
	}
	if len(data) > MaxTaskFileSize {
		p := srd.TooLarge(file, size, MaxTaskFileSize)
		return nil, fmt.Errorf("%s (a task file is written by hand: split a larger set into several files)", p)
	}
	return data, nil
}

// ParseHardSet reads a hard set file. Errors name the file and line; a
// file that is not UTF-8 text names the line and column of its first bad
// byte (srd.NotUTF8), where the YAML reader named no line.
func ParseHardSet(file string, data []byte) (*HardSet, error) {
	if len(data) > MaxTaskFileSize {
		return nil, fmt.Errorf("%s", srd.TooLarge(file, int64(len(data)), MaxTaskFileSize))
	}
	if p, ok := srd.NotUTF8(file, data); !ok {
		return nil, fmt.Errorf("%s", p)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var raw hardSetYAML
	if err := dec.Decode(&raw); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: empty hard set", file)
		}
		return nil, fmt.Errorf("%s: %w", file, yamlerr.Fix(err, data))
	}
	h := &HardSet{Name: strings.TrimSpace(raw.Name), Title: strings.TrimSpace(raw.Title), Method: strings.TrimSpace(raw.Method), File: file}
	if h.Name == "" {
		return nil, fmt.Errorf("%s: name: missing", file)
	}
	ids := map[string]int{}
	texts := map[string]int{}
	for _, n := range raw.Queries {
		var q hardQueryYAML
		if n.Kind != yaml.MappingNode {
			return nil, fmt.Errorf("%s:%d: queries: want a mapping with id, q and want", file, n.Line)
		}
		if err := knownQueryKeys(file, n); err != nil {
			return nil, err
		}
		if err := n.Decode(&q); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", file, n.Line, err)
		}
		hq := HardQuery{ID: strings.TrimSpace(q.ID), Text: strings.TrimSpace(q.Q), Line: n.Line}
		switch {
		case hq.ID == "":
			return nil, fmt.Errorf("%s:%d: id: missing", file, n.Line)
		case hq.Text == "":
			return nil, fmt.Errorf("%s:%d: q: missing", file, n.Line)
		case len(q.Want) > 0 && len(q.Needs) > 0:
			return nil, fmt.Errorf("%s:%d: give want (one need) or needs (several), not both", file, n.Line)
		case len(q.Want) > 0:
			hq.Needs = [][]string{q.Want}
		case len(q.Needs) == 0:
			return nil, fmt.Errorf("%s:%d: want: list at least one server/tool (or needs: a list of such lists)", file, n.Line)
		default:
			hq.Needs = q.Needs
		}
		if first, dup := ids[hq.ID]; dup {
			return nil, fmt.Errorf("%s:%d: id: %q repeated (first at line %d)", file, n.Line, hq.ID, first)
		}
		ids[hq.ID] = n.Line
		norm := strings.ToLower(strings.Join(strings.Fields(hq.Text), " "))
		if first, dup := texts[norm]; dup {
			return nil, fmt.Errorf("%s:%d: q: same query as line %d", file, n.Line, first)
		}
		texts[norm] = n.Line
		owner := map[string]int{}
		for i, need := range hq.Needs {
			if len(need) == 0 {
				return nil, fmt.Errorf("%s:%d: needs[%d]: empty need", file, n.Line, i)
			}
			for _, w := range need {
				if srv, tool, ok := strings.Cut(w, "/"); !ok || srv == "" || tool == "" {
					return nil, fmt.Errorf("%s:%d: want: %q is not server/tool", file, n.Line, w)
				}
				if o, dup := owner[w]; dup && o != i {
					return nil, fmt.Errorf("%s:%d: needs: %q answers needs[%d] and needs[%d] (one search would answer both)", file, n.Line, w, o, i)
				}
				owner[w] = i
			}
		}
		h.Queries = append(h.Queries, hq)
	}
	if len(h.Queries) == 0 {
		return nil, fmt.Errorf("%s: no queries", file)
	}
	return h, nil
}

// Resolve turns the hard set into a labelled set over tools (see
// CatalogTools): each query keeps its needs. A wanted tool missing from
// the corpus is an error; every one is named, with its line.
func (h *HardSet) Resolve(tools []Tool) (*Set, error) {
	return h.resolve(tools, nil)
}

// ResolveCatalog resolves the hard set over CatalogTools(cat) and says, for
// each wanted tool missing from that corpus, why (whyMissing).
func (h *HardSet) ResolveCatalog(cat *catalog.Catalog) (*Set, error) {
	return h.resolve(CatalogTools(cat), func(want string) string { return whyMissing(cat, want) })
}

func (h *HardSet) resolve(tools []Tool, why func(want string) string) (*Set, error) {
	idx := map[string]int{}
	for i, t := range tools {
		idx[t.Server+"/"+t.Name] = i
	}
	s := &Set{Name: h.Name, Source: h.Title, Tools: tools, OverCatalogs: true}
	var missing []string
	for _, q := range h.Queries {
		var needs [][]int
		for _, want := range q.Needs {
			var need []int
			for _, w := range want {
				i, ok := idx[w]
				if !ok {
					msg := fmt.Sprintf("%s:%d: want: %q is not in the catalog corpus", h.File, q.Line, w)
					if why != nil {
						msg += ": " + why(w)
					}
					missing = append(missing, msg)
					continue
				}
				if !slices.Contains(need, i) {
					need = append(need, i)
				}
			}
			needs = append(needs, need)
		}
		s.Queries = append(s.Queries, Query{ID: q.ID, Text: q.Text, Needs: needs})
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%s not in the corpus:\n%s", nouns.Count(len(missing), "wanted tool"), capJoin(missing, "\n"))
	}
	return s, s.Validate()
}

// whyMissing says why want ("server/tool") is not in CatalogTools(cat): the
// server is unknown, named with a version, or its latest version (the one
// the corpus takes) does not serve the tool.
func whyMissing(cat *catalog.Catalog, want string) string {
	srv, tool, _ := strings.Cut(want, "/")
	if name, _, versioned := strings.Cut(srv, "@"); versioned {
		return fmt.Sprintf("name the server without its version (%s/%s); the corpus takes each server's latest version", name, tool)
	}
	key, ok := corpusSeries(cat)[srv]
	if !ok {
		return fmt.Sprintf("no server %s in the catalogs", srv)
	}
	latest := cat.Latest(key)
	var others []string
	for _, v := range cat.Versions[key] {
		if v.Tool(tool) != nil {
			others = append(others, key+"@"+v.Version)
		}
	}
	if len(others) == 0 {
		why := fmt.Sprintf("no version of %s serves %s", key, tool)
		if elsewhere := corpusServersOf(cat, tool); len(elsewhere) > 0 {
			why += fmt.Sprintf("; in the corpus under another server: %s", strings.Join(elsewhere, ", "))
		}
		return why
	}
	return fmt.Sprintf("served by %s only; the corpus takes each server's latest version (%s@%s)", strings.Join(others, ", "), key, latest.Version)
}

// corpusServersOf lists, as server/tool, the servers whose corpus version
// (CatalogTools) serves tool, in name order: the right label of a want
// that names the tool under the wrong server.
func corpusServersOf(cat *catalog.Catalog, tool string) []string {
	chosen := corpusSeries(cat)
	var out []string
	for _, name := range sortedKeys(chosen) {
		if cat.Latest(chosen[name]).Tool(tool) != nil {
			out = append(out, name+"/"+tool)
		}
	}
	if n := len(out); n > catalog.MaxNoteItems {
		out = append(out[:catalog.MaxNoteItems], fmt.Sprintf("… (%d more)", n-catalog.MaxNoteItems))
	}
	return out
}

// CatalogTools is the corpus of a catalog directory: for each server, the
// latest version of its plain series (or, when it was only captured with a
// launch variant, of its first variant), servers in name order, tools in
// served order.
func CatalogTools(cat *catalog.Catalog) []Tool {
	chosen := corpusSeries(cat)
	var out []Tool
	for _, name := range sortedKeys(chosen) {
		s := cat.Latest(chosen[name])
		for _, t := range s.Tools {
			tool := Tool{Wire: t.Wire}
			tool.Name, tool.Server, tool.Description, tool.Schema = t.Name, s.Name, t.Description, t.InputSchema
			out = append(out, tool)
		}
	}
	return out
}

// corpusSeries picks the series of each server that CatalogTools takes:
// server name → series key.
func corpusSeries(cat *catalog.Catalog) map[string]string {
	chosen := map[string]string{}
	for _, key := range cat.ServerNames() {
		name, _, isVariant := strings.Cut(key, "+")
		if cur, ok := chosen[name]; !ok || (!isVariant && cur != name) {
			chosen[name] = key
		}
	}
	return chosen
}

// UnorderedNote says which series of CatalogTools' corpus have versions
// with no release order (catalog.Unordered: named by content hash, as
// trace import names them), whose "latest" is only the last by spelling;
// "" when there is none.
func UnorderedNote(cat *catalog.Catalog) string {
	chosen := corpusSeries(cat)
	var items []string
	for _, name := range sortedKeys(chosen) {
		if key := chosen[name]; cat.Unordered(key) {
			items = append(items, fmt.Sprintf("%s@%s (of %d versions)", key, cat.Latest(key).Version, len(cat.Versions[key])))
		}
	}
	if len(items) == 0 {
		return ""
	}
	if n := len(items); n > catalog.MaxNoteItems {
		items = append(items[:catalog.MaxNoteItems], fmt.Sprintf("… (%d more)", n-catalog.MaxNoteItems))
	}
	return "the corpus takes " + strings.Join(items, ", ") +
		" at the last version by spelling: their versions are content hashes, with no release order, so which is newest is unknown"
}
