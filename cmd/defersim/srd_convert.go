package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/defersim/defersim/internal/atomicfile"
	"github.com/defersim/defersim/srd"
)

func newSRDConvertCmd() *cobra.Command {
	var outDir string
	c := &cobra.Command{
		Use:   "convert FILE...",
		Short: "Convert SRDs of the published v0.1 draft to v1, keeping every text",
		Long: `convert reads SRD files (a directory stands for its .yaml, .yml and .json
files), lints them together (v0.1 and v1 alike; the disambiguation of a
v0.1 SRD is resolved against the domains and servers of the whole set) and
writes each v0.1 SRD as a v1 SRD: the domain as a slug ("_" becomes "-"),
the disambiguation sentence as the "differs" of one entry per neighbour it
names, the 0..100 priority as 0..10 (p/10 rounded half up), cost classes
low/medium/high as fast/medium/slow and small/medium/large, tool groups in
order. v1 SRDs are read for their names and left as they are.

With -o DIR each converted SRD is written to DIR/SERVER_ID.yaml; without it
they are printed as one YAML stream. Exit status 1 when the set has lint
problems (nothing is converted), 2 when a file cannot be read or written.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			srds, probs, err := srd.LoadPaths(args)
			if err != nil {
				return exitError{code: 2, msg: err.Error()}
			}
			probs = append(probs, srd.Lint(srds, srd.LintOptions{})...).Sort()
			if len(probs) > 0 {
				return writeLint(cmd.OutOrStdout(), len(srds), probs)
			}
			names := srd.NamesOf(srds, nil, nil)
			var stream strings.Builder
			converted := 0
			for _, s := range srds {
				if s.Draft == nil {
					continue
				}
				out, err := srd.ConvertDraft(s, names)
				if err != nil {
					return exitError{code: 2, msg: err.Error()}
				}
				converted++
				if outDir == "" {
					if converted > 1 {
						stream.WriteString("---\n")
					}
					stream.Write(out)
					continue
				}
				if err := os.MkdirAll(outDir, 0o755); err != nil {
					return exitError{code: 2, msg: fmt.Sprintf("output directory: %v", err)}
				}
				path := filepath.Join(outDir, s.ServerID+".yaml")
				if err := atomicfile.WriteFile(path, out, 0o644); err != nil {
					return exitError{code: 2, msg: err.Error()}
				}
			}
			w := cmd.OutOrStdout()
			if outDir == "" {
				fmt.Fprint(w, stream.String())
				return nil
			}
			fmt.Fprintf(w, "%d SRDs, %d converted to v%d in %s\n", len(srds), converted, srd.Version, outDir)
			return nil
		},
	}
	c.Flags().StringVarP(&outDir, "out", "o", "", "directory for the converted files (SERVER_ID.yaml); default: print them")
	return c
}
