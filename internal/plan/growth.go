package plan

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/atomicfile"
	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/traces"
	"github.com/defersim/defersim/traces/gen"
)

// GrowthConfig scales a run's catalog and replays the same sessions.
type GrowthConfig struct {
	// Base is the resolved run (scenario, traces, catalogs, strategies).
	Base runner.Config
	// Factors multiply the catalog's tool count (1 = as it is).
	Factors []float64
	// Pool, when set, is a catalog directory whose servers are added (in
	// a seeded order) instead of generated ones.
	Pool string
	Seed int64
	// Dir receives DIR/tools=N/{catalog,results.json} per size and the
	// plots.
	Dir string
	// Named, when set, maps a path under Dir to the path the results name
	// it by: a command that writes Dir in a staging directory and renames
	// it at the end (atomicfile.Set.Final) gives the final path, so that a
	// point's results.json names its grown catalog where it will be, not
	// by the staging directory's random name. Nil: paths as written.
	Named   func(string) string
	Metrics []string
	// Recorded, when set, are the inputs of the run whose results are
	// projected (results.json run.inputs): Growth refuses a base whose
	// traces or catalogs differ from them, since its points would measure
	// other sessions or another catalog than the projection's.
	Recorded []sim.Input
	// Progress, when set, is called after each catalog size with the
	// number replayed so far.
	Progress func(done int)
	// Tolerance is how far above its factor, as a share of it, a size
	// may replay before its point is flagged (a note); nil is
	// DefaultGrowthTolerance (CheckGrowthTolerance bounds it).
	Tolerance *float64
}

// GrowthPoint is one catalog size.
type GrowthPoint struct {
	Point
	// Factor is the factor asked; Replayed the one the size replays,
	// Tools / BaseTools (servers are added whole, so it may be above
	// Factor); Overshoot is set when it is more than the tolerance
	// (GrowthConfig.Tolerance) above it, and a note says so.
	Factor    float64  `json:"factor"`
	Replayed  float64  `json:"replayed_factor"`
	Overshoot bool     `json:"overshoot,omitempty"`
	Servers   int      `json:"servers"`
	Tools     int      `json:"tools"`
	BaseTools int      `json:"base_tools"`
	Added     []string `json:"added_servers,omitempty"`
	// Cache is the point's prompt-cache assumption (its results'
	// run.assumptions) against the projected sessions per day
	// (GrowthCache); nil until GrowthCache sets it.
	Cache *CacheStart `json:"cache,omitempty"`
	// ContextOverflow lists the strategies whose requests at this size
	// exceed the model's context window (GrowthOverflowWarning says it);
	// absent when none does.
	ContextOverflow []StrategyOverflow `json:"context_overflow,omitempty"`
}

// Growth replays the base run's sessions over catalogs grown to each factor
// of its tool count. Added servers are offered to every session that names
// its servers (a session that names none sees the whole catalog anyway);
// they are never called, so each point measures what a bigger catalog costs
// the same work. Generated servers are drawn like the existing ones: their
// tool counts and tool sizes follow log-normals fitted to the base catalog.
func Growth(ctx context.Context, cfg GrowthConfig) ([]GrowthPoint, []string, error) {
	base, err := runner.LoadCatalogs(cfg.Base.Catalogs)
	if err != nil {
		return nil, nil, err
	}
	srcs, release, err := runner.Rereadable(cfg.Base.Traces)
	if err != nil {
		return nil, nil, err
	}
	defer release()
	cfg.Base.Traces = srcs
	if len(cfg.Recorded) > 0 {
		hashed, err := runner.HashTraces(srcs)
		if err != nil {
			return nil, nil, err
		}
		if why := baseMismatch(cfg.Recorded, hashed, base); why != "" {
			return nil, nil, fmt.Errorf("the growth base is not the run the results come from: %s; give the scenario that produced them (--scenario), or --traces and --catalogs as that run had them", why)
		}
	}
	latest := base.LatestAll()
	baseTools := 0
	for _, s := range latest {
		baseTools += len(s.Tools)
	}
	if baseTools == 0 {
		return nil, nil, fmt.Errorf("the catalog has no tools to grow")
	}
	factors, err := growthFactors(cfg.Factors)
	if err != nil {
		return nil, nil, err
	}
	tol := DefaultGrowthTolerance
	if cfg.Tolerance != nil {
		tol = *cfg.Tolerance
	}
	if err := CheckGrowthTolerance("growth tolerance", tol); err != nil {
		return nil, nil, err
	}
	need := int(math.Ceil(factors[len(factors)-1]*float64(baseTools))) - baseTools
	baseNotes := baseOrderNotes(base)
	var pool []*catalog.Server
	var poolCat *catalog.Catalog
	if cfg.Pool != "" {
		pool, poolCat, err = realPool(cfg.Pool, base, cfg.Seed)
	} else {
		pool, err = generatedPool(latest, need, cfg.Seed)
	}
	if err != nil {
		return nil, nil, err
	}
	sizes, err := growthSizes(factors, baseTools, pool, cfg.Pool)
	if err != nil {
		return nil, nil, err
	}
	var points []GrowthPoint
	for i, f := range factors {
		added, tools := pool[:sizes[i].added], sizes[i].tools
		servers := len(latest) + len(added)
		label := fmt.Sprintf("tools=%d", tools)
		dir := filepath.Join(cfg.Dir, label)
		rc, err := grownConfig(cfg.Base, added, dir, cfg.Named)
		if err != nil {
			return nil, nil, err
		}
		rc.GrowthPoint = &sim.GrowthPoint{Factor: f, Replayed: replayedFactor(tools, baseTools), Tools: tools, From: cfg.Pool}
		pt, err := runPoint(ctx, rc, dir, float64(tools), label)
		if err != nil {
			return nil, nil, err
		}
		gp := GrowthPoint{Point: pt, Factor: f, Replayed: replayedFactor(tools, baseTools), Servers: servers, Tools: tools, BaseTools: baseTools,
			ContextOverflow: growthOverflow(pt)}
		if len(added) > 0 {
			if n := overshootNote(f, tools, baseTools, len(added[len(added)-1].Tools), tol); n != "" {
				gp.Overshoot = true
				gp.Notes = append(gp.Notes, n)
			}
		}
		gp.Notes = append(gp.Notes, baseNotes...)
		for _, s := range added {
			gp.Added = append(gp.Added, s.Name+"@"+s.Version)
		}
		gp.Notes = append(gp.Notes, addedOrderNotes(added, poolCat)...)
		points = append(points, gp)
		if cfg.Progress != nil {
			cfg.Progress(len(points))
		}
	}
	pts := make([]Point, len(points))
	for i, p := range points {
		pts[i] = p.Point
	}
	plots, err := plotPoints("catalog tools", pts, cfg.Metrics, cfg.Dir)
	return points, plots, err
}

// growthSize is the catalog of one growth factor: the first added servers
// of the pool, giving tools tools.
type growthSize struct {
	added, tools int
}

// growthSizes adds the servers of pool (from the --growth-from directory
// from, "" for generated servers) in order to a catalog of baseTools tools until each factor's tool count,
// ⌈factor × baseTools⌉, is reached. It refuses factors the pool cannot
// reach — each would have replayed the pool's last size under a factor
// it did not grow to — and two factors that come to one size (servers are
// added whole): each would be a replay of the same catalog, and the
// breakdowns would measure a growth between them that did not happen.
func growthSizes(factors []float64, baseTools int, pool []*catalog.Server, from string) ([]growthSize, error) {
	g := func(f float64) string { return "×" + strconv.FormatFloat(f, 'g', -1, 64) }
	reach := baseTools
	for _, s := range pool {
		reach += len(s.Tools)
	}
	var out []growthSize
	var unreached []string
	for _, f := range factors {
		target := int(math.Ceil(f * float64(baseTools)))
		if target > reach {
			unreached = append(unreached, fmt.Sprintf("%s (%s)", g(f), nouns.Count(target, "tool")))
			continue
		}
		sz := growthSize{tools: baseTools}
		for _, s := range pool {
			if sz.tools >= target {
				break
			}
			sz.added++
			sz.tools += len(s.Tools)
		}
		out = append(out, sz)
	}
	if len(unreached) > 0 {
		most := math.Floor(float64(reach)/float64(baseTools)*100) / 100
		source, more := "the generated servers", ""
		if from != "" {
			source, more = "the servers of --growth-from "+from, ", or a --growth-from directory with more servers the catalog lacks"
		}
		return nil, fmt.Errorf("%s add %s to the catalog's %d: at most %s, %s, short of %s; each factor past it would replay that same catalog: "+
			"give factors up to %s%s",
			source, nouns.Count(reach-baseTools, "tool"), baseTools, nouns.Count(reach, "tool"), g(most), strings.Join(unreached, " and "), strconv.FormatFloat(most, 'g', -1, 64), more)
	}
	for i := 1; i < len(out); i++ {
		if out[i].tools == out[i-1].tools {
			return nil, fmt.Errorf("%s and %s both come to %s: servers are added whole, and the one that reaches %s (%s) reaches %s too; "+
				"each factor would replay the same catalog: keep one of them, or give factors further apart",
				g(factors[i-1]), g(factors[i]), nouns.Count(out[i].tools, "tool"), g(factors[i-1]),
				nouns.Count(len(pool[out[i].added-1].Tools), "tool"), g(factors[i]))
		}
	}
	return out, nil
}

// grownConfig writes the added servers' catalog files under dir and
// returns the run over them: each session that names its servers is
// offered the added ones as it is read (runner.Config.Transform). No copy
// of the trace is written (it would hold every session's content).
func grownConfig(base runner.Config, added []*catalog.Server, dir string, named func(string) string) (runner.Config, error) {
	cdir := filepath.Join(dir, "catalog")
	// The catalog is read from where it is written and named, in the
	// results, by where it will be (named).
	src := runner.Source{Path: cdir}
	if named != nil {
		src = runner.Source{Path: named(cdir), FS: os.DirFS(cdir), Name: "."}
	}
	if err := os.MkdirAll(cdir, 0o755); err != nil {
		return runner.Config{}, err
	}
	var refs []traces.ServerRef
	for _, s := range added {
		if err := writeServer(cdir, s); err != nil {
			return runner.Config{}, err
		}
		refs = append(refs, traces.ServerRef{Name: s.Name, Version: s.Version})
	}
	rc := base
	rc.Catalogs = slices.Clone(base.Catalogs)
	if len(added) > 0 {
		rc.Catalogs = append(rc.Catalogs, src)
		rc.Transform = func(s *traces.Session) { offerServers(s, refs) }
	}
	return rc, nil
}

// writeServer writes a server as an MCP tools/list file <name>@<version>.json.
func writeServer(dir string, s *catalog.Server) error {
	tools := make([]json.RawMessage, len(s.Tools))
	for i, t := range s.Tools {
		tools[i] = t.Raw
	}
	data, err := json.Marshal(struct {
		Tools []json.RawMessage `json:"tools"`
	}{tools})
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(filepath.Join(dir, s.Name+"@"+s.Version+".json"), data, 0o644)
}

// offerServers adds refs to the servers of the session_start of s when it
// names servers (a session that names none sees the whole catalog anyway).
func offerServers(s *traces.Session, refs []traces.ServerRef) {
	if st := s.Start(); st != nil && len(st.Servers()) > 0 {
		st.EnsureStart().Servers = append(slices.Clone(st.Servers()), refs...)
	}
}

// realPool returns the latest version of every server of dir not already
// in base, in a seeded order, and the catalog of dir (addedOrderNotes says
// which of them have versions of unknown order).
func realPool(dir string, base *catalog.Catalog, seed int64) ([]*catalog.Server, *catalog.Catalog, error) {
	c, err := runner.LoadCatalogs(runner.PathSources(dir))
	if err != nil {
		return nil, nil, err
	}
	var out []*catalog.Server
	for _, name := range c.ServerNames() {
		s := c.Latest(name)
		if base.Latest(name) != nil || base.Latest(s.Name) != nil || len(s.Tools) == 0 {
			continue
		}
		out = append(out, s)
	}
	if len(out) == 0 {
		return nil, nil, emptyPoolError(dir, c, base)
	}
	r := rand.New(rand.NewPCG(uint64(seed), 0x67726f77))
	r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out, c, nil
}

// emptyPoolError says why the servers of dir (catalog c) add nothing to
// base: each is in it already, or serves no tools. Every point would have
// replayed today's catalog, and the breakdowns reported every rule as
// never breaking down, growth 1.00 (a note said "the pool ran out").
func emptyPoolError(dir string, c, base *catalog.Catalog) error {
	var present []string
	for _, name := range c.ServerNames() {
		if base.Latest(name) != nil || base.Latest(c.Latest(name).Name) != nil {
			present = append(present, name)
		}
	}
	why := "it holds no server that serves tools"
	if len(present) > 0 {
		shown := present[:min(len(present), catalog.MaxNoteItems)]
		list := strings.Join(shown, ", ")
		if more := len(present) - len(shown); more > 0 {
			list += fmt.Sprintf(", … (%d more)", more)
		}
		why = fmt.Sprintf("%d of its %s %s in the catalog already (%s), and the others serve no tools",
			len(present), nouns.Count(len(c.ServerNames()), "server"), nouns.Form(len(present), "is", "are"), list)
		if len(present) == len(c.ServerNames()) {
			why = fmt.Sprintf("every server of it is in the catalog already (%s)", list)
		}
	}
	return fmt.Errorf("--growth-from %s adds no server: %s; every size would replay today's catalog and call every rule never breaking down: "+
		"give a directory of servers the catalog lacks, or leave out --growth-from to grow with generated servers", dir, why)
}

// generatedPool draws servers like those of latest until they hold at
// least need tools: tools per server and tool wire sizes follow
// log-normals fitted (median and log-sd) to latest.
func generatedPool(latest []*catalog.Server, need int, seed int64) ([]*catalog.Server, error) {
	if need <= 0 {
		return nil, nil
	}
	var counts, sizes []float64
	for _, s := range latest {
		counts = append(counts, float64(len(s.Tools)))
		for _, t := range s.Tools {
			sizes = append(sizes, float64(len(t.Wire)))
		}
	}
	p := gen.Defaults()
	p.Seed = seed
	p.Sessions = 0
	p.ServerSpecs, p.Planted = nil, nil
	p.Drift.Servers = 0 // no versions (the other drift keys, unused, keep their defaults)
	tpsMed, tpsSig := logFit(counts)
	p.ToolsPerServer = gen.LogNormal(tpsMed, tpsSig, 1, 500)
	szMed, szSig := logFit(sizes)
	p.SchemaBytes = gen.LogNormal(max(szMed, 150), szSig, 150, 16000)
	p.Servers = min(5000, max(1, int(math.Ceil(2*float64(need)/tpsMed))+2))
	g, err := gen.New(p)
	var wl *gen.WordListError
	if errors.As(err, &wl) {
		return nil, fmt.Errorf("cannot generate %s in servers like the catalog's (tools per server log-normal, median %.3g, log-sd %.3g): a server drawn with %d tools outnumbers the %d tool names of the generator's %q word list; grow by smaller factors, or add real servers with --growth-from DIR: %w",
			nouns.Count(need, "more tool"), tpsMed, tpsSig, wl.Asked, wl.Names, wl.Domain, err)
	}
	if err != nil {
		return nil, fmt.Errorf("generate servers: %w", err)
	}
	var out []*catalog.Server
	have := 0
	for _, s := range g.Servers() {
		if have >= need {
			break
		}
		s.Name = "grown-" + s.Name
		for _, t := range s.Tools {
			t.Server = s.Name
		}
		out = append(out, s)
		have += len(s.Tools)
	}
	return out, nil
}

// logFit returns the median (exp of the mean log) and the log-sd of xs.
func logFit(xs []float64) (median, sigma float64) {
	if len(xs) == 0 {
		return 1, 0
	}
	var m float64
	for _, x := range xs {
		m += math.Log(max(x, 1))
	}
	m /= float64(len(xs))
	var v float64
	for _, x := range xs {
		d := math.Log(max(x, 1)) - m
		v += d * d
	}
	if len(xs) > 1 {
		v /= float64(len(xs) - 1)
	}
	return math.Exp(m), math.Sqrt(v)
}

// growthFactors returns the factors in increasing order, or why they do
// not make a growth series: each point is compared with today's catalog
// (×1), so the list must hold 1 and a factor above it, each once.
func growthFactors(given []float64) ([]float64, error) {
	factors := slices.Clone(given)
	sort.Float64s(factors)
	list := func() string {
		s := make([]string, len(given))
		for i, f := range given {
			s[i] = strconv.FormatFloat(f, 'g', -1, 64)
		}
		return strings.Join(s, ",")
	}
	switch {
	case len(factors) == 0:
		return nil, fmt.Errorf("no growth factor: give multiples of today's catalog, e.g. --growth 1,2,4,8")
	case factors[0] < 1:
		return nil, fmt.Errorf("--growth %s: %s is below 1: a factor is a multiple of today's tool count (1 = today's catalog, 2 = twice as many tools; a percentage such as 150%% is 1.5)", list(), strconv.FormatFloat(factors[0], 'g', -1, 64))
	case factors[0] > 1:
		return nil, fmt.Errorf("--growth %s: every size is compared with today's catalog, ×1, which the list lacks, so where each rule breaks down would be measured from ×%s: add 1 (--growth 1,%s; factors are multiples of today's tool count, not percentages: 150%% is 1.5)", list(), strconv.FormatFloat(factors[0], 'g', -1, 64), list())
	case factors[len(factors)-1] == 1:
		return nil, fmt.Errorf("--growth %s: only today's catalog: add a factor above 1 (e.g. --growth 1,2,4,8)", list())
	}
	for i := 1; i < len(factors); i++ {
		if factors[i] == factors[i-1] {
			return nil, fmt.Errorf("--growth %s: %s is given twice: each factor is one replay", list(), strconv.FormatFloat(factors[i], 'g', -1, 64))
		}
	}
	return factors, nil
}
