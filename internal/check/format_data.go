package check

import (
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/defersim/defersim/internal/cliout"
)

// jsonReport is the JSON form of a Report (`check --format json`,
// documented in docs/check.md).
type jsonReport struct {
	Baseline string `json:"baseline"`
	Current  string `json:"current"`
	// BaselineRun and CurrentRun say what each file is: the text
	// header's words after each path.
	BaselineRun FileInfo `json:"baseline_run"`
	CurrentRun  FileInfo `json:"current_run"`
	// Comparable is true: a refusal (jsonRefusal) has it false.
	Comparable bool   `json:"comparable"`
	Verdict    string `json:"verdict"`
	// Failed is the gate's verdict, true exactly when the exit status is
	// not 0, and FailReasons why (Report.FailReasons; empty on a pass).
	// Regression says a check regressed, one reason of several.
	Failed         bool      `json:"failed"`
	FailReasons    []string  `json:"fail_reasons"`
	Regression     bool      `json:"regression"`
	Summary        Summary   `json:"summary"`
	Warnings       []string  `json:"warnings"`
	Notes          []string  `json:"notes"`
	Checks         []jsonRow `json:"checks"`
	CatalogChanges []string  `json:"catalog_changes"`
	Changes        []string  `json:"changes"`
	// Unreplayed: the current run's catalog changes no session replayed
	// (Report.Unreplayed); absent when none. Failed says the gate fails
	// for them (exit status 1) while Regression is false.
	Unreplayed         []Unreplayed `json:"unreplayed_catalog_changes,omitempty"`
	UnreplayedFailsRun bool         `json:"unreplayed_fails,omitempty"`
}

type jsonRow struct {
	Strategy  string   `json:"strategy"`
	Check     string   `json:"check"`
	Metric    string   `json:"metric"`
	Stat      string   `json:"stat"`
	Unit      string   `json:"unit"`
	Baseline  *float64 `json:"baseline"`
	Current   *float64 `json:"current"`
	Change    *float64 `json:"change"`
	RelChange *float64 `json:"rel_change"`
	Allowed   *float64 `json:"allowed"`
	Noise     *float64 `json:"noise"`
	// NormalNoise: the band is partly the normal approximation of a
	// mean the results did not bootstrap (absent otherwise).
	NormalNoise bool   `json:"normal_noise,omitempty"`
	Paired      bool   `json:"paired"`
	Status      Status `json:"status"`
}

// num is v, or nil (JSON null) when it is not a finite number.
func num(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// WriteJSON writes the report as JSON: every check, not only those that
// moved.
func WriteJSON(w io.Writer, r *Report) error {
	out := jsonReport{Baseline: r.BaselinePath, Current: r.CurrentPath, BaselineRun: r.Baseline, CurrentRun: r.Current, Comparable: true, Verdict: r.Verdict(),
		Failed: r.Failed(), FailReasons: r.FailReasons(), Regression: r.Summary.Regressions > 0, Summary: r.Summary, Warnings: orEmpty(r.Warnings), Notes: orEmpty(r.Notes),
		Checks: []jsonRow{}, CatalogChanges: orEmpty(r.CatalogChanges), Changes: orEmpty(r.Changes),
		Unreplayed: r.Unreplayed, UnreplayedFailsRun: r.unreplayedVerdict() != ""}
	for _, row := range r.Rows {
		jr := jsonRow{Strategy: row.Strategy, Check: row.Rule.Key(), Metric: row.Rule.Metric, Stat: row.Rule.Stat, Unit: row.Unit,
			Baseline: num(row.Base), Current: num(row.Current), Change: num(row.Change), RelChange: num(row.RelChange()),
			Allowed: num(row.Allowed), Paired: row.Paired, Status: row.Status}
		if !row.Paired && (row.HaveCI || row.NoiseBand != 0) {
			jr.Noise, jr.NormalNoise = num(row.NoiseBand), row.NormalNoise
		}
		out.Checks = append(out.Checks, jr)
	}
	return cliout.WriteJSON(w, out)
}

// WriteCSV writes one row per check, values in the metric's unit. Every
// row ends with the gate's verdict, the same on each: failed (true
// exactly when the exit status is not 0, JSON "failed") and fail_reasons
// (JSON "fail_reasons", joined by ";"), so that a job reading the file
// alone knows the outcome, an unreplayed catalog change (no row of its
// own) included, and the file stays one row per check.
func WriteCSV(w io.Writer, r *Report) error {
	f := func(v float64) string {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return ""
		}
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	failed, reasons := strconv.FormatBool(r.Failed()), strings.Join(r.FailReasons(), ";")
	var rows [][]string
	for _, row := range r.Rows {
		noise := ""
		if !row.Paired && (row.HaveCI || row.NoiseBand != 0) {
			noise = f(row.NoiseBand)
		}
		rows = append(rows, []string{row.Strategy, row.Rule.Key(), row.Unit, f(row.Base), f(row.Current), f(row.Change),
			f(row.RelChange()), f(row.Allowed), noise, strconv.FormatBool(row.Paired), string(row.Status), failed, reasons})
	}
	return cliout.WriteCSV(w, []string{"strategy", "check", "unit", "baseline", "current", "change", "rel_change", "allowed", "noise", "paired", "status", "failed", "fail_reasons"}, rows)
}
