package main

import (
	"fmt"
	"io"
	"slices"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/sim"
)

// noteLargeTools notes on w each tool of the run's catalogs over
// catalog.DefaultOutlierTokens, the threshold catalog stats names outliers
// by: a note, not a warning, since the figures that send it are real. A
// tool over it in several versions of its server is noted once, naming
// them (largeToolNote).
func noteLargeTools(w io.Writer, tools []sim.LargeTool) {
	var order [][2]string
	byTool := map[[2]string][]sim.LargeTool{}
	for _, t := range tools {
		k := [2]string{t.Server, t.Tool}
		if byTool[k] == nil {
			order = append(order, k)
		}
		byTool[k] = append(byTool[k], t)
	}
	for _, k := range order {
		fmt.Fprintf(w, "defersim: note: %s; every request that sends its definition pays for it — check that the catalog holds the definition the server sends\n",
			largeToolNote(byTool[k]))
	}
}

// largeToolNote says how large one tool is in the server versions at (one
// server's, one tool's, at least one): with one version, as the note always
// said it ("notes@1.0.0: tool "dump" is N tokens, P% of …"); with several,
// every version once, in version order, and their sizes once for the
// versions where the tool and its server's tools are the same size.
func largeToolNote(at []sim.LargeTool) string {
	const over = "over %d (catalog stats --outlier-tokens)"
	t := at[0]
	if len(at) == 1 {
		return fmt.Sprintf("%s@%s: tool %q is %d tokens, %.1f%% of the %d of its server's tools: "+over,
			t.Server, t.Version, t.Tool, t.Tokens, 100*t.Share(), t.ServerTokens, catalog.DefaultOutlierTokens)
	}
	at = slices.Clone(at)
	slices.SortStableFunc(at, func(a, b sim.LargeTool) int { return catalog.CompareVersions(a.Version, b.Version) })
	type size struct{ tokens, server int64 }
	var sizes []size
	versions, bySize := []string{}, map[size][]string{}
	for _, l := range at {
		s := size{l.Tokens, l.ServerTokens}
		if bySize[s] == nil {
			sizes = append(sizes, s)
		}
		bySize[s] = append(bySize[s], l.Version)
		versions = append(versions, l.Version)
	}
	share := func(s size) float64 { return 100 * sim.LargeTool{Tokens: s.tokens, ServerTokens: s.server}.Share() }
	if len(sizes) == 1 {
		s := sizes[0]
		return fmt.Sprintf("%s: tool %q is %d tokens in %s, %.1f%% of the %d of its server's tools: "+over,
			t.Server, t.Tool, s.tokens, nouns.And(versions), share(s), s.server, catalog.DefaultOutlierTokens)
	}
	var parts []string
	for _, s := range sizes {
		parts = append(parts, fmt.Sprintf("%d tokens in %s (%.1f%% of the %d of its server's tools)", s.tokens, nouns.And(bySize[s]), share(s), s.server))
	}
	return fmt.Sprintf("%s: tool %q is "+over+" in %s: %s", t.Server, t.Tool, catalog.DefaultOutlierTokens, nouns.And(versions), nouns.And(parts))
}
