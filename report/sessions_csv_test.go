package report

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/defersim/defersim/sim"
)

func TestWriteSessionsCSV(t *testing.T) {
	o := syntheticOutcomes(3, 7, 9)
	path := filepath.Join(t.TempDir(), "sessions.csv")
	if err := WriteSessionsCSV(path, o); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1+3*7 {
		t.Fatalf("%d rows, want %d", len(rows), 1+3*7)
	}
	if rows[0][0] != "session_id" || rows[0][1] != "strategy" || rows[0][2+sim.MCostUSD] != "cost_usd" || len(rows[0]) != 2+sim.NumMetrics {
		t.Fatalf("header %v", rows[0])
	}
	// Row for session 2 under strategy 1.
	r := rows[1+2*3+1]
	if r[0] != o.SessionIDs[2] || r[1] != o.Strategies[1].Name {
		t.Fatalf("row order: %v", r[:2])
	}
	for m := range sim.NumMetrics {
		v, err := strconv.ParseFloat(r[2+m], 64)
		if err != nil || v != o.Values[1][m][2] {
			t.Errorf("metric %s: %q, want %v", sim.Metrics[m].Name, r[2+m], o.Values[1][m][2])
		}
	}
	bad := syntheticOutcomes(2, 3, 1)
	bad.Values[1][0] = bad.Values[1][0][:1]
	if err := WriteSessionsCSV(filepath.Join(t.TempDir(), "x.csv"), bad); err == nil {
		t.Error("misaligned outcomes written")
	}
	if err := WriteSessionsCSV(filepath.Join(t.TempDir(), "x.csv"), nil); err == nil {
		t.Error("nil outcomes written")
	}
}
