package runner

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"path/filepath"
	"strconv"

	"github.com/defersim/defersim/internal/atomicfile"
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
}

// WriteOutputs writes results.json (always) and the other outputs asked
// for into dir. Every file is written atomically.
func WriteOutputs(out *Output, dir string, opt WriteOptions) error {
	if err := report.WriteResults(filepath.Join(dir, "results.json"), out.Results); err != nil {
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
		if err := writePerRequest(opt.PerRequest, out); err != nil {
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

func writePerRequest(path string, out *Output) error {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Write([]string{"session", "request", "recorded_input_tokens", "sim_input_tokens", "recorded_ms", "sim_ms"})
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	if out.Run.Fidelity == nil && out.Run.State != nil && out.Run.State.FidelityOverflow {
		return fmt.Errorf("write %s: the run kept a bounded number of fidelity pairs", path)
	}
	for _, p := range out.Run.Fidelity {
		rec := ""
		if p.RecordedMs > 0 {
			rec = f(p.RecordedMs)
		}
		w.Write([]string{p.Session, strconv.Itoa(p.Request), strconv.FormatInt(p.RecordedInput, 10),
			strconv.FormatInt(p.SimInput, 10), rec, f(p.SimMs)})
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return err
	}
	return atomicfile.WriteFile(path, buf.Bytes(), 0o644)
}
