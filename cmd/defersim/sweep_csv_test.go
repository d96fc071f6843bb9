package main

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestSweepWritesCSV pins `sweep --format csv`: one row per value and
// strategy, in plain numbers, holding what sweep.json's rows hold — the
// value, the strategy, cost and first reply (mean and p95) with their
// intervals, extra round trips, malformed calls, the "vs previous point"
// mark — plus the two overflow columns when some row sent requests over
// the context window, and none otherwise, then sessions_skipped and
// warnings (the kinds of warning stderr gives); the lines around the text table
// (which strategies the key applies to, the notes, the unchanged list) go
// to stderr as notes ("defersim: note: …"). sweep refused --format csv: a platform team had to take the
// numbers out of sweep.json by hand.
func TestSweepWritesCSV(t *testing.T) {
	tests := []struct {
		param, strategies string
		rows              int
		over              bool
		stderr            string // a line stderr must hold
		warnings          string // the warnings column of every row
	}{
		{"model.context_window=20000:40000:20000", "eager,claude-code-default", 4, true, "defersim: warning: requests over the context window in the sweep: eager at model.context_window=20000", "context_overflow"},
		{"strategy.warm.max_tools=2:6:4", "eager,claude-code-default", 4, false, "defersim: note: strategy.warm.max_tools applies to claude-code-default; constant across the sweep", ""},
	}
	for _, tc := range tests {
		t.Run(tc.param, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "sw")
			stdout, stderr, code := cliRun(t, "sweep", "--param", tc.param, "--strategies", tc.strategies,
				"--bootstrap", "-1", "--format", "csv", "-o", dir)
			if code != 0 {
				t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
			}
			if !strings.Contains(stderr, tc.stderr) {
				t.Errorf("stderr lacks %q:\n%s", tc.stderr, stderr)
			}
			recs, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
			if err != nil {
				t.Fatalf("not CSV: %v\n%s", err, stdout)
			}
			head := []string{"param", "value", "strategy", "cost_usd", "cost_usd_low", "cost_usd_high",
				"first_reply_ms", "first_reply_ms_low", "first_reply_ms_high", "first_reply_p95_ms", "first_reply_p95_ms_low", "first_reply_p95_ms_high",
				"extra_round_trips", "malformed_calls", "vs_previous_point", "first_reply_p95_relative_error"}
			if tc.over {
				head = append(head, "context_overflow_requests", "context_overflow_sessions")
			}
			head = append(head, "sessions_skipped", "warnings")
			if !slices.Equal(recs[0], head) {
				t.Fatalf("header %q, want %q", recs[0], head)
			}
			data, err := os.ReadFile(filepath.Join(dir, "sweep.json"))
			if err != nil {
				t.Fatal(err)
			}
			type amount struct{ Value, Low, High float64 }
			var doc struct {
				Rows []struct {
					X                float64 `json:"x"`
					Strategy         string  `json:"strategy"`
					Cost             amount  `json:"cost_usd"`
					First            amount  `json:"first_reply_ms"`
					P95              amount  `json:"first_reply_p95_ms"`
					Extra            float64 `json:"extra_round_trips"`
					Malformed        float64 `json:"malformed_calls"`
					Unchanged        bool    `json:"unchanged"`
					Constant         bool    `json:"constant"`
					P95RelativeError float64 `json:"first_reply_p95_relative_error"`
					Overflow         *struct {
						Requests, Sessions int64
					} `json:"context_overflow"`
				} `json:"rows"`
			}
			if err := json.Unmarshal(data, &doc); err != nil {
				t.Fatal(err)
			}
			if len(doc.Rows) != tc.rows || len(recs)-1 != tc.rows {
				t.Fatalf("%d CSV rows and %d sweep.json rows, want %d", len(recs)-1, len(doc.Rows), tc.rows)
			}
			overflowing := 0
			for i, r := range doc.Rows {
				rec := recs[i+1]
				mark := ""
				switch {
				case r.Constant:
					mark = "constant"
				case r.Unchanged:
					mark = "unchanged"
				}
				param, _, _ := strings.Cut(tc.param, "=")
				want := []float64{r.Cost.Value, r.Cost.Low, r.Cost.High, r.First.Value, r.First.Low, r.First.High,
					r.P95.Value, r.P95.Low, r.P95.High, r.Extra, r.Malformed}
				if rec[0] != param || rec[2] != r.Strategy || rec[14] != mark {
					t.Errorf("row %d: %q, want %s, %s, mark %q", i, rec[:3], param, r.Strategy, mark)
				}
				for j, w := range append([]float64{r.X}, want...) {
					col := 1
					if j > 0 {
						col = j + 2
					}
					if got, err := strconv.ParseFloat(rec[col], 64); err != nil || got != w {
						t.Errorf("row %d %s: %q, want sweep.json's %v", i, head[col], rec[col], w)
					}
				}
				if n := len(rec); rec[n-2] != "0" || rec[n-1] != tc.warnings {
					t.Errorf("row %d: sessions_skipped, warnings %q, want 0, %q", i, rec[n-2:], tc.warnings)
				}
				if got, err := strconv.ParseFloat(rec[15], 64); err != nil || got != r.P95RelativeError {
					t.Errorf("row %d: relative error %q, want %v", i, rec[15], r.P95RelativeError)
				}
				if tc.over {
					var req, ses int64
					if r.Overflow != nil {
						req, ses = r.Overflow.Requests, r.Overflow.Sessions
						overflowing++
					}
					if rec[16] != strconv.FormatInt(req, 10) || rec[17] != strconv.FormatInt(ses, 10) {
						t.Errorf("row %d: overflow %q, want %d requests in %d sessions", i, rec[16:], req, ses)
					}
				}
			}
			if tc.over && overflowing == 0 {
				t.Error("no row overflows: the case checks nothing")
			}
		})
	}
}
