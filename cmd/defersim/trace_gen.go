package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/defersim/defersim/traces/gen"
)

func newTraceGenCmd() *cobra.Command {
	var (
		out        string
		paramsFile string
		drift      string
		seed       int64
		sessions   int
		servers    int
		zipf       float64
		recorded   bool
		force      bool
		asJSON     bool
	)
	c := &cobra.Command{
		Use:   "gen",
		Short: "Generate a synthetic catalog and trace from parameters",
		Long: `gen writes a realistic synthetic MCP catalog and a trace of sessions over it:

  DIR/catalog/<server>@<version>.json   MCP tools/list results (some servers in several versions)
  DIR/trace.jsonl.gz                   trace format v1
  DIR/params.yaml                      the complete parameters used (re-run with --params)

Parameters start from calibrated defaults (docs/generator.md), then a YAML
file (--params; unknown keys are errors), then the flags given. The same
parameters and seed give byte-identical files. Sessions are streamed, so any
size of trace is generated in bounded memory.

--drift takes "off" or key=value pairs: servers, versions, changed, added,
removed, mid (e.g. --drift servers=3,versions=4,mid=0.2).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			p := gen.Defaults()
			if paramsFile != "" {
				data, err := os.ReadFile(paramsFile)
				if err != nil {
					return exitError{code: 2, msg: fmt.Sprintf("read parameters: %v", err)}
				}
				if p, err = gen.ParseParams(data); err != nil {
					return exitError{code: 2, msg: fmt.Sprintf("%s: %v", paramsFile, err)}
				}
			}
			fl := cmd.Flags()
			if fl.Changed("seed") {
				p.Seed = seed
			}
			if fl.Changed("sessions") {
				p.Sessions = sessions
			}
			if fl.Changed("servers") {
				p.Servers = servers
			}
			if fl.Changed("zipf") {
				p.Zipf = zipf
			}
			if fl.Changed("recorded") {
				p.Recorded = recorded
			}
			if fl.Changed("drift") {
				if err := gen.ApplyDriftSpec(&p, drift); err != nil {
					return exitError{code: 2, msg: err.Error()}
				}
			}
			g, err := gen.New(p)
			if err != nil {
				return exitError{code: 2, msg: err.Error()}
			}
			sum, err := g.WriteDir(out, gen.WriteOptions{Clean: force})
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			if asJSON {
				enc := json.NewEncoder(w)
				enc.SetIndent("", "  ")
				return enc.Encode(struct {
					Dir string `json:"dir"`
					*gen.Summary
				}{out, sum})
			}
			_, err = fmt.Fprintf(w, "wrote %s: %d servers (%d server versions, %d tools, %d catalog bytes), %d sessions, %d events, %d tool calls, %d mid-session catalog changes, trace %d bytes gzip\n",
				out, sum.Servers, sum.ServerFiles, sum.Tools, sum.CatalogBytes, sum.Sessions, sum.Events, sum.ToolCalls, sum.CatalogChange, sum.TraceBytes)
			return err
		},
	}
	f := c.Flags()
	f.StringVarP(&out, "out", "o", "generated", "output directory")
	f.StringVar(&paramsFile, "params", "", "YAML parameter file (see docs/generator.md)")
	f.Int64Var(&seed, "seed", 1, "random seed")
	f.IntVar(&sessions, "sessions", 400, "number of sessions")
	f.IntVar(&servers, "servers", 10, "number of servers, planted ones included")
	f.Float64Var(&zipf, "zipf", 1.05, "Zipf exponent of tool popularity")
	f.StringVar(&drift, "drift", "", `catalog drift: "off" or key=value pairs (servers, versions, changed, added, removed, mid)`)
	f.BoolVar(&recorded, "recorded", false, "add plausible model timings and usage (as if an eager runtime recorded the sessions)")
	f.BoolVar(&force, "force", false, "remove catalog files in DIR/catalog that this generation does not write")
	f.BoolVar(&asJSON, "json", false, "print the summary as JSON")
	return c
}
