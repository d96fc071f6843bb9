package gen

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/defersim/defersim/internal/atomicfile"
	"github.com/defersim/defersim/internal/nouns"
)

// writeOverDir writes an over-mode generation: DIR/params.yaml,
// DIR/trace.jsonl.gz and DIR/upgrades.yaml (no catalog: it is external).
func (g *Generator) writeOverDir(dir string, opt WriteOptions) (*Summary, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", dir, err)
	}
	final := dir
	if opt.Final != "" {
		final = opt.Final
	}
	if cdir := filepath.Join(final, CatalogDir); dirExists(cdir) {
		// run --traces DIR/trace.jsonl.gz would load them as the catalog.
		if err := checkStale(cdir, nil, opt.Clean, opt.Final == ""); err != nil {
			return nil, fmt.Errorf("%w (an earlier generation wrote them; run --traces %s would load them as this trace's catalog)", err, filepath.Join(final, TraceFile))
		}
	}
	sum := &Summary{Servers: len(g.over.series)}
	tools := map[string]bool{}
	for _, s := range g.over.series {
		sum.ServerFiles += len(s.versions)
		for _, v := range s.versions {
			for _, t := range v.tools {
				tools[s.key+"/"+t.name] = true
			}
		}
	}
	sum.Tools = len(tools)
	if err := atomicfile.WriteFile(filepath.Join(dir, UpgradesFile), g.UpgradesYAML(), 0o644); err != nil {
		return nil, err
	}
	if err := g.writeParamsAndTrace(dir, sum, opt); err != nil {
		return nil, err
	}
	return sum, nil
}

func dirExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// UpgradesYAML returns the fleet upgrade schedule (Schedule) as a scenario
// `servers:` block, every series listed, each upgrade in flow style:
//
//	servers:
//	  chrome-devtools-mcp:
//	    upgrades:
//	      - {to: "0.17.0", after_session: 133}
//
// A series without upgrades gets `upgrades: []`.
func (g *Generator) UpgradesYAML() []byte {
	var b bytes.Buffer
	b.WriteString("# Fleet upgrades of the generated trace (defersim trace gen --catalogs,\n")
	fmt.Fprintf(&b, "# schedule %q, %s): the versions sessions start on. A session still\n", g.scheduleName(), nouns.Count(g.p.Sessions, "session"))
	b.WriteString("# running when its server is upgraded records a catalog_change between two\n")
	b.WriteString("# turns. Paste under a scenario's top level (docs/scenarios.md#servers).\n")
	b.WriteString("servers:\n")
	if g.over == nil {
		return b.Bytes()
	}
	ups := g.Schedule()
	for _, s := range g.over.series {
		fmt.Fprintf(&b, "  %s:\n", yamlKey(s.key))
		n := 0
		for _, u := range ups {
			if u.Server != s.key {
				continue
			}
			if n == 0 {
				b.WriteString("    upgrades:\n")
			}
			n++
			fmt.Fprintf(&b, "      - {to: %s, after_session: %d}\n", strconv.Quote(u.To), u.AfterSession)
		}
		if n == 0 {
			b.WriteString("    upgrades: []\n")
		}
	}
	return b.Bytes()
}

func (g *Generator) scheduleName() string {
	if g.p.Over == nil {
		return ""
	}
	return g.p.Over.Schedule
}

// yamlKey quotes a mapping key unless it is plain letters, digits, '_',
// '-', '.' and '+' starting with a letter.
func yamlKey(k string) string {
	plain := k != ""
	for i, c := range k {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' ||
			i > 0 && (c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' || c == '+')
		if !ok {
			plain = false
			break
		}
	}
	if plain {
		return k
	}
	return strconv.Quote(k)
}
