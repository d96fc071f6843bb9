package component

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// WriteText lists infos for a terminal: a heading per kind, then one line
// per component (name and description, the query model of a ranker), and
// one indented line per parameter.
func WriteText(w io.Writer, infos []Info) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	var kind Kind
	for _, in := range infos {
		if in.Kind != kind {
			if kind != "" {
				fmt.Fprintln(tw)
			}
			kind = in.Kind
			fmt.Fprintf(tw, "%s\n", kind)
		}
		desc := in.Description
		if in.QueryModel != "" {
			desc += " [query model: " + in.QueryModel + "]"
		}
		fmt.Fprintf(tw, "  %s\t%s\n", in.Name, desc)
		for _, p := range in.Params {
			typ := p.Type
			if p.Default != "" {
				typ += ", default " + p.Default
			}
			fmt.Fprintf(tw, "  \t    %s (%s): %s\n", p.Name, typ, strings.TrimSpace(p.Meaning))
		}
	}
	return tw.Flush()
}
