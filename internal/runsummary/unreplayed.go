package runsummary

import (
	"io"

	"github.com/defersim/defersim/report"
)

// WarnUnreplayed warns on w, as program, of the catalog versions of res
// that no session replayed although an older version of their server was
// (a catalog directory holding an upgrade the traces do not name), one
// line per server with the route to replay them. `defersim run`,
// `defersim merge` and `defersim-beam` print it; nothing when there are
// none.
func WarnUnreplayed(w io.Writer, program string, res *report.Results) {
	if res == nil || res.Run.Resolution == nil || len(res.Run.Resolution.UnreplayedVersions) == 0 {
		return
	}
	_ = report.WriteUnreplayed(w, program+": warning: ", res.Run.Resolution.UnreplayedVersions)
}
