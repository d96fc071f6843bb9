package retrieval

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/retrieval/hardsets"
	"github.com/defersim/defersim/srd"
	srddata "github.com/defersim/defersim/srd/data"
)

// Named sets, besides the hard sets of package hardsets.
const (
	SetMetaTool      = "metatool"
	SetMetaToolMulti = "metatool-multi"
	SetBFCL          = "bfcl"
	SetBFCLPool      = "bfcl-pool"
	SetMCPBench      = "mcp-bench"
)

// SetNames lists every named set.
func SetNames() []string {
	return append([]string{SetMetaTool, SetMetaToolMulti, SetBFCL, SetBFCLPool, SetMCPBench}, hardsets.Names()...)
}

// Sources says where named sets read their data.
type Sources struct {
	// Data is the real-data folder (holding retrieval/, bfcl/, catalogs/).
	Data string
	// Catalogs is the catalog folder of the hard sets ("": Data/catalogs).
	Catalogs string
}

func (s Sources) catalogDir() string {
	if s.Catalogs != "" {
		return s.Catalogs
	}
	return filepath.Join(s.Data, "catalogs")
}

// LoadCatalog loads the hard sets' catalog folder.
func (s Sources) LoadCatalog() (*catalog.Catalog, error) {
	if s.Catalogs == "" && s.Data == "" {
		return nil, fmt.Errorf("no catalog folder: give --catalogs or --data")
	}
	cat, err := catalog.LoadDir(s.catalogDir())
	if err != nil {
		return nil, fmt.Errorf("load catalogs: %w", err)
	}
	return cat, nil
}

// IsCatalogSet reports whether a set (by name or file) runs over the
// catalogs: the hard sets and any hard-set file.
func IsCatalogSet(name string) bool {
	return slices.Contains(hardsets.Names(), name) || isFile(name)
}

func isFile(name string) bool {
	return strings.ContainsAny(name, `/\`) || strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml")
}

// LoadNamed loads a set by name (see SetNames) or from a hard-set file;
// cat is the catalog of the hard sets (only read for them).
func LoadNamed(name string, src Sources, cat *catalog.Catalog) (*Set, error) {
	needData := func() error {
		if src.Data == "" {
			return fmt.Errorf("set %s needs the real-data folder (--data)", name)
		}
		return nil
	}
	switch name {
	case SetMetaTool, SetMetaToolMulti:
		if err := needData(); err != nil {
			return nil, err
		}
		return LoadMetaTool(filepath.Join(src.Data, "retrieval", "metatool"), name == SetMetaToolMulti)
	case SetBFCL, SetBFCLPool:
		if err := needData(); err != nil {
			return nil, err
		}
		return LoadBFCL(filepath.Join(src.Data, "bfcl"), name == SetBFCLPool)
	case SetMCPBench:
		if err := needData(); err != nil {
			return nil, err
		}
		return LoadMCPBench(filepath.Join(src.Data, "retrieval", "mcp-bench"))
	}
	var file string
	var data []byte
	var err error
	switch {
	case slices.Contains(hardsets.Names(), name):
		file = name + ".yaml"
		data, err = fs.ReadFile(hardsets.FS, file)
	case isFile(name):
		file = name
		if data, err = ReadTaskFile(name); err != nil {
			return nil, err
		}
	default:
		return nil, errors.New(catalog.NearName(name, SetNames()).WithHint(fmt.Sprintf("unknown set %q (known: %s, or a hard-set file)", name, strings.Join(SetNames(), ", "))))
	}
	if err != nil {
		return nil, fmt.Errorf("load set %s: %w", name, err)
	}
	h, err := ParseHardSet(file, data)
	if err != nil {
		return nil, err
	}
	if cat == nil {
		return nil, fmt.Errorf("set %s needs the catalogs (--catalogs)", name)
	}
	set, err := h.ResolveCatalog(cat)
	if err != nil {
		return nil, err
	}
	if note := UnorderedNote(cat); note != "" {
		set.Source += " (note: " + note + ")"
	}
	return set, nil
}

// SRDNone is the --srd value that turns SRDs off.
const SRDNone = "none"

// SRDSource is what a result records as the source of the SRDs LoadSRDs
// resolves from spec: "none", "shipped" (the SRDs shipped for the set, or
// "" when none are) or the path given.
func SRDSource(spec string, set *srd.Set) string {
	switch {
	case spec != "":
		return spec
	case set != nil:
		return "shipped"
	}
	return ""
}

// SRDSourceText is how a report names the source: the path, "shipped with
// defersim" or "--srd none" ("" when nothing routes).
func SRDSourceText(source string) string {
	switch source {
	case "shipped":
		return "shipped with defersim"
	case SRDNone:
		return "--srd none"
	}
	return source
}

// LoadSRDs resolves which SRDs route a set: spec "" takes the SRDs shipped
// for it (the catalog SRDs of the servers in cat for sets over the
// catalogs, the MetaTool grouping for MetaTool, none otherwise), SRDNone
// none, anything else is a directory or file of SRDs. The SRDs must parse and lint clean (against
// cat when it is given); for a set whose tools have no server, every tool
// an SRD groups must be in the corpus; and every SRD of a directory or file
// must describe some tool of the set (checkDescribed). It returns nil for
// no SRDs.
func LoadSRDs(spec string, set *Set, cat *catalog.Catalog) (*srd.Set, error) {
	var srds []*srd.SRD
	var probs srd.Problems
	var known, knownServers []string
	var err error
	switch {
	case spec == SRDNone:
		return nil, nil
	case spec != "":
		srds, probs, err = srd.LoadPaths([]string{spec})
	case set.Name == SetMetaTool || set.Name == SetMetaToolMulti:
		srds, probs, err = srd.LoadFS(srddata.FS, srddata.MetaTool)
		cat = nil
	case cat != nil && set.OverCatalogs:
		srds, probs, err = srd.LoadFS(srddata.FS, srddata.Catalogs)
		srds, known, knownServers = inCatalog(srds, cat)
	default:
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	// A warning does not stop the evaluation: srd lint says it.
	probs = append(probs, srd.Lint(srds, srd.LintOptions{Catalog: cat, KnownDomains: known, KnownServers: knownServers})...).Errors()
	if len(probs) > 0 {
		return nil, fmt.Errorf("SRDs have problems (run defersim srd lint):\n%w", probs.Sort())
	}
	s, err := srd.NewSet(srds)
	if err != nil {
		return nil, err
	}
	if err := checkGroupedTools(set, s); err != nil {
		return nil, err
	}
	if spec != "" {
		if err := checkDescribed(set, s); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// inCatalog keeps the shipped SRDs of the servers cat holds (a user's own
// catalog folder may hold fewer), and returns every shipped domain so that
// the kept SRDs' disambiguations still name known domains and servers.
func inCatalog(srds []*srd.SRD, cat *catalog.Catalog) (kept []*srd.SRD, domains, servers []string) {
	names := map[string]bool{}
	for _, k := range cat.ServerNames() {
		name, _, _ := strings.Cut(k, "+")
		names[name] = true
	}
	for _, s := range srds {
		if !slices.Contains(domains, s.Domain) {
			domains = append(domains, s.Domain)
		}
		servers = append(servers, s.ServerID)
		if names[s.ServerID] {
			kept = append(kept, s)
		}
	}
	return kept, domains, servers
}

// checkDescribed requires every given SRD to describe some tool of the
// set: its server_id is a server of the set, or it groups a tool of the
// set. An SRD that describes none routes nothing, so the routed arms would
// be compared with flat as if it had been used (SRDs written for the
// catalogs' servers given to mcp-bench gave the numbers of --srd none,
// headed "4 SRDs").
func checkDescribed(set *Set, s *srd.Set) error {
	if len(set.Tools) == 0 {
		return nil
	}
	used := map[*srd.SRD]bool{}
	var servers []string
	for _, t := range set.Tools {
		if d := s.ForTool(t.Server, t.Name); d != nil {
			used[d] = true
		}
		if t.Server != "" && !slices.Contains(servers, t.Server) {
			servers = append(servers, t.Server)
		}
	}
	var idle []string
	for _, d := range s.SRDs() {
		if !used[d] {
			idle = append(idle, d.ServerID)
		}
	}
	if len(idle) == 0 {
		return nil
	}
	has := "the set's tools have no server: an SRD describes them by naming them in tool_groups"
	if len(servers) > 0 {
		slices.Sort(servers)
		has = "the set's servers: " + capList(servers)
	}
	return fmt.Errorf("SRDs describe no server or tool of set %s (%d of the %d: %s): they would change no number while the report counted them; written for other servers? (%s)%s",
		set.Name, len(idle), len(s.SRDs()), capList(idle), has, variantHint(idle, servers))
}

// variantHint explains an idle SRD of a launch variant (server+variant)
// whose server the set holds: it describes that variant alone, and the
// set holds the server's plain tools (the hard sets take each server's
// latest plain version), so the SRD set that a run accepts is refused
// here until the variant's SRD is left out.
func variantHint(idle, servers []string) string {
	var out string
	for _, id := range idle {
		base, _, ok := strings.Cut(id, "+")
		if ok && slices.Contains(servers, base) {
			out += fmt.Sprintf("; %s describes that launch variant alone, and the set holds %s's plain series: leave its SRD out of --srd here", id, base)
		}
	}
	return out
}

// capList joins names with ", ", the first maxNamesShown of them and how
// many more.
func capList(names []string) string { return capJoin(names, ", ") }

// capJoin joins items with sep, the first maxNamesShown of them and how
// many more.
func capJoin(items []string, sep string) string { return capJoinN(items, sep, maxNamesShown) }

// capJoinN joins items with sep, the first n of them and how many more.
func capJoinN(items []string, sep string, n int) string {
	if len(items) > n {
		items = append(items[:n:n], fmt.Sprintf("… and %d more", len(items)-n))
	}
	return strings.Join(items, sep)
}

// checkGroupedTools requires, for a corpus of serverless tools, that every
// tool an SRD groups exists (a misspelt name would silently not route).
// maxNamesShown is how many names an error lists before "… and N more".
const maxNamesShown = 10

func checkGroupedTools(set *Set, s *srd.Set) error {
	if len(set.Tools) == 0 {
		return nil
	}
	names := map[string]bool{}
	for _, t := range set.Tools {
		if t.Server != "" {
			return nil
		}
		names[t.Name] = true
	}
	var missing []string
	grouped := 0
	for _, d := range s.SRDs() {
		for _, t := range d.Tools() {
			grouped++
			if !names[t] {
				missing = append(missing, d.ServerID+"/"+t)
			}
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return fmt.Errorf("SRDs group tools that set %s does not have (%d of the %d they group; SRDs written for other tools?): %s",
		set.Name, len(missing), grouped, capList(missing))
}
