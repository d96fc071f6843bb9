package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/defersim/defersim/catalog"
)

// warnSnapshotNotes writes one warning line per note of the snapshot
// written to path (mcpsnap.Meta.Notes), naming the server and its tools.
func warnSnapshotNotes(w io.Writer, path string, notes []catalog.Note) {
	for _, n := range notes {
		items := strings.Join(n.Items, ", ")
		if more := n.Count - len(n.Items); more > 0 {
			items += fmt.Sprintf(", … (%d more)", more)
		}
		fmt.Fprintf(w, "defersim: warning: %s: %s: %s\n", path, n.Text(), items)
	}
}

// notesSummary says a snapshot's notes in one line, by kind and count.
func notesSummary(notes []catalog.Note) string {
	parts := make([]string, len(notes))
	for i, n := range notes {
		parts[i] = n.Text()
	}
	return strings.Join(parts, "; ")
}
