package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/defersim/defersim/internal/atomicfile"
	"github.com/defersim/defersim/internal/check"
	"github.com/defersim/defersim/internal/cliout"
	"github.com/defersim/defersim/internal/outguard"
	"github.com/defersim/defersim/scenarios"
)

func newCheckCmd() *cobra.Command {
	var (
		baseline   string
		scenario   string
		tolerance  string
		rel, abs   []string
		metrics    []string
		strategies []string
		allow      []string
		noise      string
		all        bool
		markdown   string
	)
	c := &cobra.Command{
		Use:   "check --baseline BASE.json CURRENT.json (- for stdin)",
		Short: "CI regression gate: compare two results files metric by metric",
		Long: `check compares CURRENT.json with BASE.json for every strategy and checked
metric. A change is a regression when it is worse than the metric's
tolerance — max(absolute, relative × baseline) — and, when the two runs
replayed different sessions, larger than the noise allowed by both runs' 95%
confidence intervals. Runs over the same trace files and seed are paired:
their intervals measure the same session sample, so tolerances decide.

Exit status: 0 no regression, 1 regression, 2 the files cannot be compared
(schema version, scenario fingerprint, strategy set or trace files differ;
the message says what) or cannot be read.

Tolerances: the defaults (docs/check.md), then the scenario's check: block
(--scenario), then --tolerance, --rel and --abs. Keys are METRIC (every
statistic of it) or METRIC.STAT with STAT mean, p50 or p95.

Output: --format text (default), markdown (for a CI job summary), json or
csv (every check; both documented in docs/check.md), to stdout or -o FILE.
--markdown FILE also writes the Markdown block to FILE beside the chosen
output. Either results file may be - (stdin). A warning says when the two
files were written by different defersim or Go versions.`,
		Args: cobra.ExactArgs(1),
	}
	format := cliout.AddFormat(c, cliout.Text, cliout.Markdown, cliout.JSON, cliout.CSV)
	output := cliout.AddOutput(c, "the report")
	c.RunE = func(cmd *cobra.Command, args []string) (err error) {
		if baseline == "" {
			return exitError{code: 2, msg: "--baseline BASE.json is required"}
		}
		if err := outguard.Check([]string{baseline, args[0], scenario}, markdown, *output); err != nil {
			return exitError{code: 2, msg: err.Error()}
		}
		tol := check.NewTolerances(nil)
		if len(metrics) > 0 {
			if err := tol.Select(metrics); err != nil {
				return exitError{code: 2, msg: "--metrics: " + err.Error()}
			}
		}
		if scenario != "" {
			sc, err := scenarios.Load(scenario)
			if err != nil {
				return exitError{code: 2, msg: err.Error()}
			}
			if err := tol.ApplyScenario(sc.Check); err != nil {
				return exitError{code: 2, msg: err.Error()}
			}
		}
		if cmd.Flags().Changed("tolerance") {
			x, err := check.ParseTolerance(tolerance)
			if err != nil {
				// NaN and +Inf parse, and would let no check fail.
				return exitError{code: 2, msg: fmt.Sprintf("--tolerance: %v (0.05, or 5%%)", err)}
			}
			tol.SetAllRel(x)
		}
		for _, list := range []struct {
			flag string
			vals []string
			rel  bool
		}{{"--rel", rel, true}, {"--abs", abs, false}} {
			for _, s := range list.vals {
				k, v, err := check.ParseSetting(s)
				if err == nil && !list.rel && strings.HasSuffix(s, "%") {
					// A percentage read as a fraction would be 0.05 ms or
					// tokens: an absolute tolerance is in the metric's unit.
					err = fmt.Errorf("%q: an absolute tolerance is in the metric's unit, not a percentage (a relative one is --rel %s)", s, s)
				}
				if err == nil {
					if list.rel {
						err = tol.Set(k, v, -1)
					} else {
						err = tol.Set(k, -1, v)
					}
				}
				if err != nil {
					return exitError{code: 2, msg: list.flag + ": " + err.Error()}
				}
			}
		}
		var al check.Allow
		for _, a := range allow {
			switch a {
			case "policy":
				al.Policy = true
			case "traces":
				al.Traces = true
			case "servers":
				al.Servers = true
			case "unreplayed":
				al.Unreplayed = true
			default:
				return exitError{code: 2, msg: fmt.Sprintf("--allow: want policy, servers, traces or unreplayed, not %q", a)}
			}
		}
		if baseline == cliout.Stdio && args[0] == cliout.Stdio {
			return exitError{code: 2, msg: "only one of the two results files can be - (stdin)"}
		}
		in := &cliout.Inputs{Stdin: cmd.InOrStdin()}
		rep, err := check.Run(check.Config{BaselinePath: baseline, CurrentPath: args[0], Rules: tol.Rules(),
			Strategies: strategies, Allow: al, Noise: noise, ReadFile: in.ReadFile})
		var inc *check.Incomparable
		var unr *check.Unreadable
		if errors.As(err, &inc) || errors.As(err, &unr) {
			if *format == cliout.JSON {
				// A CI job parsing stdout reads why, not empty input;
				// the text refusal still goes to stderr.
				if werr := writeRefusalJSON(*output, cmd, func(w io.Writer) error {
					if inc != nil {
						return check.WriteIncomparableJSON(w, baseline, args[0], inc)
					}
					return check.WriteUnreadableJSON(w, baseline, args[0], unr)
				}); werr != nil {
					return exitError{code: 2, msg: err.Error() + "\n" + werr.Error()}
				}
			}
			return exitError{code: 2, msg: err.Error()}
		}
		if err != nil {
			return exitError{code: 2, msg: err.Error()}
		}
		if markdown == cliout.Stdio {
			// --markdown - once printed the text and the Markdown
			// mixed; it now means --format markdown on stdout.
			if cmd.Flags().Changed("format") && *format != cliout.Markdown || *output != "" && *output != cliout.Stdio {
				return exitError{code: 2, msg: "--markdown - prints the Markdown on stdout: use --format markdown with -o, not both"}
			}
			*format, markdown = cliout.Markdown, ""
		}
		// The --markdown file first: a failure to write it exits 2, and
		// the report (whose JSON "failed" is false on a pass) must not be
		// printed before it (TestCheckMarkdownFailureWritesNoVerdict).
		if markdown != "" {
			var buf bytes.Buffer
			if err := check.WriteMarkdown(&buf, rep); err != nil {
				return err
			}
			if err := atomicfile.WriteFile(markdown, buf.Bytes(), 0o644); err != nil {
				return exitError{code: 2, msg: err.Error()}
			}
		}
		out, err := cliout.Open(*output, cmd.OutOrStdout())
		if err != nil {
			return err
		}
		switch *format {
		case cliout.Markdown:
			err = check.WriteMarkdown(out, rep)
		case cliout.JSON:
			err = check.WriteJSON(out, rep)
		case cliout.CSV:
			err = check.WriteCSV(out, rep)
		default:
			err = check.WriteText(out, rep, all)
		}
		if err != nil {
			return err
		}
		if err := out.Commit(); err != nil {
			return exitError{code: 2, msg: err.Error()}
		}
		if out.ToFile() || *format != cliout.Text {
			// The text report on stdout says it already.
			for _, w := range rep.Warnings {
				warnf(cmd, "%s", w)
			}
		}
		if rep.Failed() {
			return exitError{code: 1, msg: rep.Verdict()}
		}
		return nil
	}
	fl := c.Flags()
	fl.StringVar(&baseline, "baseline", "", "results file to compare against (required)")
	fl.StringVar(&scenario, "scenario", "", "scenario file whose check: block sets tolerances")
	fl.StringVar(&tolerance, "tolerance", "", "relative tolerance of every check (0.05 or 5%)")
	fl.StringArrayVar(&rel, "rel", nil, "relative tolerance of one check, KEY=VALUE (0.05 or 5%); repeatable")
	fl.StringArrayVar(&abs, "abs", nil, "absolute tolerance of one check in the metric's unit, KEY=VALUE; repeatable")
	fl.StringSliceVar(&metrics, "metrics", nil, "checks to make instead of the defaults (METRIC or METRIC.STAT, comma-separated)")
	fl.StringSliceVar(&strategies, "strategies", nil, "strategies to check (default: all; each must be in both files)")
	fl.StringSliceVar(&allow, "allow", nil, "accept these differences: policy (strategies changed), servers (the scenario's servers block changed: a catalog upgrade), traces (other trace files), unreplayed (new catalog versions no session replayed)")
	fl.StringVar(&noise, "noise", check.NoiseAuto, "noise model: auto (paired when both runs replayed the same traces and seed, else ci), ci or paired")
	fl.BoolVar(&all, "all", false, "print every check, not only those outside tolerance")
	fl.StringVar(&markdown, "markdown", "", "also write the Markdown block for a CI job summary to this file (- is --format markdown)")
	return c
}

// writeRefusalJSON writes the JSON refusal of two results files that
// cannot be compared, or of one that cannot be read, where the report would
// have gone (stdout or -o FILE).
func writeRefusalJSON(output string, cmd *cobra.Command, write func(io.Writer) error) error {
	out, err := cliout.Open(output, cmd.OutOrStdout())
	if err != nil {
		return err
	}
	if err := write(out); err != nil {
		return err
	}
	return out.Commit()
}
