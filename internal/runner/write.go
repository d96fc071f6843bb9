package runner

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/defersim/defersim/internal/atomicfile"
	"github.com/defersim/defersim/internal/csvsafe"
	"github.com/defersim/defersim/report"
)

// WriteOptions says which outputs to write besides results.json.
type WriteOptions struct {
	Report      bool
	SessionsCSV bool
	// PerRequest, when set, is the path of the fidelity CSV.
	PerRequest string
	// State also writes the run's mergeable state as shard.bin.
	State bool
	// Check, when set, is called with the path of every file before any is
	// moved into place (outguard: an output must not be an input).
	Check func(path string) error
	// Failures also writes the first line of the error of each session
	// that failed to replay, one a line in session order, as FailuresFile
	// (none: no file, and a previous run's is removed). The run keeps at
	// most sim's bound of them (Counts.SessionsSkipped counts them all).
	// defersim-beam's launcher reads them back for its summary, which
	// results.json does not carry.
	Failures bool
}

// FailuresFile names the file of WriteOptions.Failures.
const FailuresFile = "failures.txt"

// OutputFiles names the files of a run's output set in dir (plots/ holds
// more).
var OutputFiles = []string{report.ResultsFile, report.HTMLFile, report.MarkdownFile, "sessions.csv", ShardFile}

// WriteOutputs writes results.json (always) and the other outputs asked
// for into dir, as a whole (atomicfile.Set): every file is written under
// a staging name first and moved into place only when all are written,
// and the files of a previous run's output set that this run does not
// write (report, plots, sessions.csv, shard.bin) are removed then, so dir
// never mixes two runs' outputs.
func WriteOutputs(out *Output, dir string, opt WriteOptions) error {
	set := atomicfile.NewSet()
	stage, err := set.Dir(dir)
	if err != nil {
		return err
	}
	if err := writeOutputs(set, stage, out, opt); err != nil {
		set.Abort()
		return err
	}
	for _, name := range OutputFiles {
		set.Replace(filepath.Join(dir, name))
	}
	set.Replace(filepath.Join(dir, report.PlotsDir, "*.png"), filepath.Join(dir, report.PlotsDir, "*.svg"))
	if opt.Failures {
		set.Replace(filepath.Join(dir, FailuresFile))
	}
	return set.Commit(opt.Check)
}

func writeOutputs(set *atomicfile.Set, dir string, out *Output, opt WriteOptions) error {
	if err := report.WriteResults(filepath.Join(dir, report.ResultsFile), out.Results); err != nil {
		return err
	}
	if opt.Report {
		if err := report.Render(out.Results, dir, report.RenderOptions{}); err != nil {
			return fmt.Errorf("render report: %w", err)
		}
	}
	if opt.SessionsCSV {
		if out.Run.Outcomes.Sampled() {
			return fmt.Errorf("sessions.csv needs every session's values, but the run kept %d of %d (raise --exact-sessions)",
				len(out.Run.Outcomes.SessionIDs), out.Run.Outcomes.Summary.Sessions)
		}
		if err := report.WriteSessionsCSV(filepath.Join(dir, "sessions.csv"), out.Run.Outcomes); err != nil {
			return err
		}
	}
	if opt.PerRequest != "" {
		if err := writePerRequest(set.File(opt.PerRequest), opt.PerRequest, out); err != nil {
			return err
		}
	}
	if opt.Failures && len(out.Run.Failures) > 0 {
		var b strings.Builder
		for _, msg := range out.Run.Failures {
			line, _, _ := strings.Cut(msg, "\n")
			b.WriteString(line + "\n")
		}
		if err := atomicfile.WriteFile(filepath.Join(dir, FailuresFile), []byte(b.String()), 0o644); err != nil {
			return err
		}
	}
	if opt.State && out.State != nil {
		if err := WriteState(filepath.Join(dir, ShardFile), out.State); err != nil {
			return err
		}
	}
	return nil
}

// writePerRequest writes the per-request CSV meant for name to path.
func writePerRequest(path, name string, out *Output) error {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Write([]string{"session", "request", "recorded_input_tokens", "sim_input_tokens", "recorded_ms", "sim_ms",
		"sim_cache_read_tokens", "sim_cache_write_tokens", "recorded_cache_read_tokens"})
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	if out.Run.Fidelity == nil && out.Run.State != nil && out.Run.State.FidelityOverflow {
		return fmt.Errorf("write %s: the run kept a bounded number of fidelity pairs", name)
	}
	for _, p := range out.Run.Fidelity {
		rec, recIn := "", ""
		if p.RecordedMs > 0 {
			rec = f(p.RecordedMs)
		}
		if p.RecordedInput >= 0 {
			recIn = strconv.FormatInt(p.RecordedInput, 10)
		}
		recRead := ""
		if p.RecordedCacheRead > 0 {
			recRead = strconv.FormatInt(p.RecordedCacheRead, 10)
		}
		w.Write([]string{csvsafe.Text(p.Session), strconv.Itoa(p.Request), recIn,
			strconv.FormatInt(p.SimInput, 10), rec, f(p.SimMs),
			strconv.FormatInt(p.SimCacheRead, 10), strconv.FormatInt(p.SimCacheWrite, 10), recRead})
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return err
	}
	return atomicfile.WriteFile(path, buf.Bytes(), 0o644)
}
