package importers

import (
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/defersim/defersim/internal/atomicfile"
	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/traces/importers/ingest"
	"github.com/defersim/defersim/traces/importers/toolschema"
)

// serverTools is the tool set one server offers a session.
type serverTools struct {
	name    string
	version string
	tools   []toolschema.Tool
	index   map[string]bool
	sources []string
	// fidelity holds the tools whose schema is not exact.
	fidelity map[string]markedTool
	// origin is the set each tool was taken from; differing lists the
	// exact definitions a later set gave differently (differing.go).
	origin    map[string]*toolschema.Set
	differing []differingDef
}

// markedTool is the fidelity of a tool whose schema is not exact, and why.
type markedTool struct {
	fidelity toolschema.Fidelity
	note     string
}

func newServerTools(name string) *serverTools {
	return &serverTools{name: name, index: map[string]bool{}, fidelity: map[string]markedTool{}, origin: map[string]*toolschema.Set{}}
}

// addTool appends t, marked with the fidelity of the set it comes from
// (a tool already marked, as in a catalog an earlier import wrote, keeps
// its mark).
func (st *serverTools) addTool(t toolschema.Tool, set *toolschema.Set) {
	if f, _ := toolschema.FidelityOf(&t); set.Fidelity != toolschema.Exact && f == toolschema.Exact {
		t = toolschema.Mark(t, set.Fidelity, set.Note)
	}
	st.index[t.Name] = true
	st.origin[t.Name] = set
	if f, note := toolschema.FidelityOf(&t); f != toolschema.Exact {
		st.fidelity[t.Name] = markedTool{f, note}
	}
	st.tools = append(st.tools, t)
}

// catalog collects the server versions the imported sessions reference.
type catalog struct {
	files map[string]*serverTools // file name → tools
	hash  map[string]string       // file name → content hash
}

func newCatalog() *catalog {
	return &catalog{files: map[string]*serverTools{}, hash: map[string]string{}}
}

// resolve merges the schema sets that apply to a session into one tool set
// per server: sets earlier in the list win for a tool defined twice. The
// version is the one a single contributing set names (from a
// <server>@<version>.json file name), else a hash of the merged tools.
func resolve(sets []*toolschema.Set, defServer string) map[string]*serverTools {
	out := map[string]*serverTools{}
	explicit := map[string]map[string]bool{}
	for _, set := range splitMCPSets(sets) {
		name := SanitizeServer(set.Server)
		if set.Server == "" {
			name = SanitizeServer(defServer)
		}
		st := out[name]
		if st == nil {
			st = newServerTools(name)
			out[name] = st
			explicit[name] = map[string]bool{}
		}
		added := false
		for _, t := range set.Tools {
			if !st.index[t.Name] {
				st.addTool(t, set)
				added = true
			} else {
				st.compare(t, set)
			}
		}
		if added || len(set.Tools) == 0 {
			if !containsStr(st.sources, set.Source) {
				st.sources = append(st.sources, set.Source)
			}
			explicit[name][set.Version] = true
		}
	}
	for name, st := range out {
		if v := explicit[name]; len(v) == 1 && !v[""] {
			for ver := range v {
				st.version = ver
			}
		} else {
			st.version = toolschema.Hash(st.tools)
		}
	}
	return out
}

// splitMCPSets returns sets with the tools a server-less set names
// mcp__<server>__<tool> (as Claude Code and the Agent SDK name MCP tools in
// the tools they send) moved to a set of that server, named <tool>: calls of
// such a name are attributed to <server> (ingest.SplitMCPName), so their
// definitions must be that server's, not the format's default server's.
// Each split set follows the set it came from, keeping the sources' order.
func splitMCPSets(sets []*toolschema.Set) []*toolschema.Set {
	var out []*toolschema.Set
	for _, set := range sets {
		if set.Server != "" {
			out = append(out, set)
			continue
		}
		rest := *set
		rest.Tools = nil
		var order []string
		byServer := map[string]*toolschema.Set{}
		for _, t := range set.Tools {
			tool, srv := ingest.SplitMCPName(t.Name)
			if srv == "" {
				rest.Tools = append(rest.Tools, t)
				continue
			}
			ss := byServer[srv]
			if ss == nil {
				cp := *set
				cp.Server, cp.Version, cp.Tools = srv, "", nil
				ss = &cp
				byServer[srv] = ss
				order = append(order, srv)
			}
			t.Name = tool
			ss.Tools = append(ss.Tools, t)
		}
		if len(order) == 0 {
			out = append(out, set)
			continue
		}
		if len(rest.Tools) > 0 {
			out = append(out, &rest)
		}
		for _, srv := range order {
			out = append(out, byServer[srv])
		}
	}
	return out
}

// add registers st and returns the version under which it is stored: a named
// version that clashes with different content gets the content hash appended.
func (c *catalog) add(st *serverTools) string {
	h := toolschema.Hash(st.tools)
	file := st.name + "@" + st.version + ".json"
	if old, ok := c.hash[file]; ok && old != h {
		st.version += "-" + h
		file = st.name + "@" + st.version + ".json"
	}
	if prev, ok := c.files[file]; ok {
		for _, s := range st.sources {
			if !containsStr(prev.sources, s) {
				prev.sources = append(prev.sources, s)
			}
		}
		return st.version
	}
	c.files[file] = st
	c.hash[file] = h
	return st.version
}

// write writes every collected server version into dir (the staging
// directory of final) as an MCP tools/list result named
// <server>@<version>.json, and lists them in rep.
func (c *catalog) write(dir, final string, rep *ingest.Report) error {
	if len(c.files) == 0 {
		return nil
	}
	names := make([]string, 0, len(c.files))
	for f := range c.files {
		names = append(names, f)
	}
	sort.Strings(names)
	for _, f := range names {
		st := c.files[f]
		data, err := toolschema.Encode(st.tools)
		if err != nil {
			return err
		}
		if err := atomicfile.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
			return err
		}
		cf := ingest.CatalogFile{Server: st.name, Version: st.version, File: f, Tools: len(st.tools), Sources: st.sources}
		for _, m := range st.fidelity {
			switch m.fidelity {
			case toolschema.Approximate:
				cf.Approximate++
			case toolschema.Missing:
				cf.Missing++
			}
		}
		rep.Catalog = append(rep.Catalog, cf)
	}
	if entries, err := os.ReadDir(final); err == nil {
		other := 0
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), ".json") && c.files[e.Name()] == nil {
				other++
			}
		}
		if other > 0 {
			rep.Note("catalog directory also holds %s this import did not write", nouns.CountAs(other, ".json file", ".json files"))
		}
	}
	return nil
}

// SanitizeServer makes a server name safe as a file name part: "/" becomes
// "__" (as in the shared catalogs), "@" and other characters outside
// [A-Za-z0-9._-] become "_"; an empty name becomes "unknown".
func SanitizeServer(name string) string {
	if name == "" {
		return "unknown"
	}
	name = strings.ReplaceAll(name, "/", "__")
	var b strings.Builder
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	s := b.String()
	if strings.Trim(s, ".") == "" {
		return "unknown"
	}
	return s
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
