package main

import (
	"fmt"
	"io"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/sim"
)

// noteLargeTools notes on w each tool of the run's catalogs over
// catalog.DefaultOutlierTokens, the threshold catalog stats names outliers
// by: a note, not a warning, since the figures that send it are real.
func noteLargeTools(w io.Writer, tools []sim.LargeTool) {
	for _, t := range tools {
		fmt.Fprintf(w, "defersim: note: %s@%s: tool %q is %d tokens, %.1f%% of the %d of its server's tools: over %d "+
			"(catalog stats --outlier-tokens); every request that sends its definition pays for it — check that the catalog holds the definition the server sends\n",
			t.Server, t.Version, t.Tool, t.Tokens, 100*t.Share(), t.ServerTokens, catalog.DefaultOutlierTokens)
	}
}
