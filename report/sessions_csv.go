package report

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"strconv"

	"github.com/defersim/defersim/internal/atomicfile"
	"github.com/defersim/defersim/internal/csvsafe"
	"github.com/defersim/defersim/sim"
)

// WriteSessionsCSV writes one row per session and strategy: session_id,
// strategy, then every metric in metric order (header: metric names).
// Rows are grouped by session, strategies in run order. Numbers are written
// in the shortest form that reads back exactly.
func WriteSessionsCSV(path string, o *sim.Outcomes) error {
	if o == nil {
		return errors.New("write sessions csv: nil outcomes")
	}
	if len(o.Values) != len(o.Strategies) {
		return fmt.Errorf("write sessions csv: %d strategies but values for %d", len(o.Strategies), len(o.Values))
	}
	n := len(o.SessionIDs)
	for s := range o.Values {
		for m := range sim.NumMetrics {
			if len(o.Values[s][m]) != n {
				return fmt.Errorf("write sessions csv: strategy %q metric %s has %d values for %d sessions",
					o.Strategies[s].Name, sim.Metrics[m].Name, len(o.Values[s][m]), n)
			}
		}
	}
	err := atomicfile.Write(path, 0o644, func(f *os.File) error {
		bw := bufio.NewWriter(f)
		w := csv.NewWriter(bw)
		row := make([]string, 0, 2+sim.NumMetrics)
		row = append(row, "session_id", "strategy")
		for _, m := range sim.Metrics {
			row = append(row, m.Name)
		}
		if err := w.Write(row); err != nil {
			return err
		}
		for i, id := range o.SessionIDs {
			for s, st := range o.Strategies {
				row = append(row[:0], csvsafe.Text(id), csvsafe.Text(st.Name))
				for m := range sim.NumMetrics {
					row = append(row, strconv.FormatFloat(o.Values[s][m][i], 'f', -1, 64))
				}
				if err := w.Write(row); err != nil {
					return err
				}
			}
		}
		w.Flush()
		if err := w.Error(); err != nil {
			return err
		}
		return bw.Flush()
	})
	if err != nil {
		return fmt.Errorf("write sessions csv: %w", err)
	}
	return nil
}
