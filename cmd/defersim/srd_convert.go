package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/defersim/defersim/internal/atomicfile"
	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/internal/outguard"
	"github.com/defersim/defersim/srd"
)

func newSRDConvertCmd() *cobra.Command {
	var outDir string
	c := &cobra.Command{
		Use:   "convert FILE...",
		Short: "Convert v0.1-draft SRDs to v1, keeping every text",
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
			type convertedSRD struct {
				name string
				yaml []byte
			}
			var conv []convertedSRD
			for _, s := range srds {
				if s.Draft == nil {
					continue
				}
				out, err := srd.ConvertDraft(s, names)
				if err != nil {
					return exitError{code: 2, msg: err.Error()}
				}
				conv = append(conv, convertedSRD{s.ServerID + ".yaml", out})
			}
			w := cmd.OutOrStdout()
			if outDir == "" {
				for i, c := range conv {
					if i > 0 {
						fmt.Fprint(w, "---\n")
					}
					w.Write(c.yaml)
				}
				return nil
			}
			// The converted files are one output set, and none may replace
			// an input (a v0.1 file in the output directory, or the
			// directory read whole).
			guard := outguard.New(args...)
			for _, c := range conv {
				if err := guard.Check(filepath.Join(outDir, c.name)); err != nil {
					return exitError{code: 2, msg: err.Error()}
				}
			}
			set := atomicfile.NewSet()
			defer set.Abort()
			stage, err := set.Dir(outDir)
			if err != nil {
				return exitError{code: 2, msg: err.Error()}
			}
			for _, c := range conv {
				if err := os.WriteFile(filepath.Join(stage, c.name), c.yaml, 0o644); err != nil {
					return exitError{code: 2, msg: err.Error()}
				}
			}
			if err := set.Commit(nil); err != nil {
				return exitError{code: 2, msg: err.Error()}
			}
			converted := len(conv)
			fmt.Fprintf(w, "%s, %d converted to v%d in %s\n", nouns.Count(len(srds), "SRD"), converted, srd.Version, outDir)
			return nil
		},
	}
	c.Flags().StringVarP(&outDir, "out", "o", "", "directory for the converted files (SERVER_ID.yaml); default: print them")
	return c
}
