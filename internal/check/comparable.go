package check

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/defersim/defersim/internal/nouns"
	"github.com/defersim/defersim/report"
	"github.com/defersim/defersim/scenarios"
)

// Allow relaxes comparability for the cases a CI job expects.
type Allow struct {
	// Policy accepts a different scenario fingerprint when seed, model,
	// parameters and baseline are the same: only strategies (or
	// permissions) changed — the change under test.
	Policy bool
	// Traces accepts different trace files (the sessions differ, so the
	// comparison is between two samples, not one replayed twice).
	Traces bool
	// Servers accepts a different scenario fingerprint when the scenarios
	// differ in their servers block alone (run.servers: an upgrade, a
	// local server): a catalog upgrade replayed over the same sessions.
	Servers bool
	// Unreplayed accepts catalog changes of the current run that no
	// session replayed (Report.Unreplayed): they are warned of, and no
	// longer fail the gate.
	Unreplayed bool
}

// ReadPair reads the baseline and current results files. Files of
// different schema versions give an *Incomparable naming both versions;
// a file that cannot be read gives an *Unreadable.
func ReadPair(basePath, curPath string) (*report.Results, *report.Results, error) {
	return readPair(basePath, curPath, os.ReadFile)
}

// readPair is ReadPair with the files read by read.
func readPair(basePath, curPath string, read func(string) ([]byte, error)) (*report.Results, *report.Results, error) {
	bdata, err := readResultsFile(Baseline, basePath, read)
	if err != nil {
		return nil, nil, err
	}
	cdata, err := readResultsFile(Current, curPath, read)
	if err != nil {
		return nil, nil, err
	}
	bv, err := schemaVersion(Baseline, basePath, bdata)
	if err != nil {
		return nil, nil, err
	}
	cv, err := schemaVersion(Current, curPath, cdata)
	if err != nil {
		return nil, nil, err
	}
	if bv != cv {
		return nil, nil, &Incomparable{Reasons: []Reason{schemaReason(bv, cv)}}
	}
	base, err := decodeRun(Baseline, basePath, bdata)
	if err != nil {
		return nil, nil, err
	}
	cur, err := decodeRun(Current, curPath, cdata)
	if err != nil {
		return nil, nil, err
	}
	return base, cur, nil
}

// decodeRun decodes a results file and requires the run section check
// compares by: without its scenario fingerprint every scenario difference
// would be reported against empty values, as if the runs differed.
func decodeRun(which, path string, data []byte) (*report.Results, error) {
	res, err := report.DecodeResults(data)
	if err != nil {
		return nil, &Unreadable{Which: which, File: path, Reason: err}
	}
	if res.Run.ScenarioFingerprint == "" {
		return nil, &Unreadable{Which: which, File: path, Reason: errors.New("no run.scenario_fingerprint, which every results.json defersim run writes holds: " +
			"the file was cut or edited by hand; write it again with defersim run")}
	}
	return res, nil
}

// readResultsFile reads a results file; the error names the file once.
func readResultsFile(which, path string, read func(string) ([]byte, error)) ([]byte, error) {
	data, err := read(path)
	if err != nil {
		if hint := directoryHint(path); hint != "" {
			return nil, &Unreadable{Which: which, File: path, Reason: errors.New(hint)}
		}
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return nil, &Unreadable{Which: which, File: pe.Path, Reason: pe.Err}
		}
		return nil, &Unreadable{Which: which, File: path, Reason: err}
	}
	return data, nil
}

// schemaVersion reads a results file's schema_version.
func schemaVersion(which, path string, data []byte) (int, error) {
	var head struct {
		SchemaVersion *int `json:"schema_version"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return 0, &Unreadable{Which: which, File: path, Reason: report.ResultsJSONError(data, err)}
	}
	if head.SchemaVersion == nil {
		return 0, &Unreadable{Which: which, File: path, Reason: errors.New("not a defersim results file (no schema_version)")}
	}
	return *head.SchemaVersion, nil
}

// checkComparable reports why base and cur cannot be compared (nil when they
// can). only, when set, limits the strategies that must match.
func checkComparable(base, cur *report.Results, only []string, allow Allow) *Incomparable {
	var why []Reason
	if base.SchemaVersion != cur.SchemaVersion {
		why = append(why, schemaReason(base.SchemaVersion, cur.SchemaVersion))
	}
	if r, ok := strategySetReason(base, cur, only); ok {
		why = append(why, r)
	}
	if base.Run.ScenarioFingerprint != cur.Run.ScenarioFingerprint {
		diffs, servers := scenarioDiffsBesideServers(base, cur)
		switch {
		case serversOnly(base, cur):
			if !allow.Servers {
				why = append(why, serversReason(base, cur, ""))
			}
		case servers && policyOnly(diffs):
			// A policy change beside a servers change is two changes:
			// each needs its --allow.
			if !allow.Servers {
				why = append(why, serversReason(base, cur, " beside a policy change (--allow policy)"))
			}
			if !allow.Policy {
				why = append(why, scenarioReason(base, cur, diffs))
			}
		case !servers && allow.Policy && policyOnly(diffs):
		default:
			r := scenarioReason(base, cur, diffs)
			if servers {
				r.Details = append(r.Details, serverChanges(base, cur)...)
				if !strings.Contains(r.Remedy, "--allow servers") {
					r.Remedy += "; the servers blocks differ too, which --allow servers accepts once nothing else does"
				}
			}
			why = append(why, r)
		}
	}
	if !allow.Traces {
		if d := inputDiff(base, cur, "trace"); d != "" {
			why = append(why, Reason{What: "their trace files", Line: "trace files differ: " + d,
				Remedy: "pass --allow traces to compare different session sets (as two samples: noise ci)"})
		} else if d := shardDiff(base, cur); d != "" {
			why = append(why, Reason{What: "the sessions they replayed", Line: d,
				Remedy: "check the same shard of each run, or merge each run's shards first (defersim merge), or pass --allow traces to compare them as different samples"})
		} else if d := sessionSetDiff(base, cur); d != "" {
			why = append(why, Reason{What: "the sessions they replayed", Line: d,
				Remedy: "merge a run's shards first (defersim merge), or pass --allow traces to compare them as different samples"})
		}
	}
	if len(why) == 0 {
		return nil
	}
	return &Incomparable{Reasons: why}
}

// schemaReason is the reason files of two schema versions give.
func schemaReason(base, cur int) Reason {
	return Reason{What: "their schema versions", Line: fmt.Sprintf("schema_version %d (baseline) vs %d (current)", base, cur),
		Remedy: "write both files with the same defersim build (defersim --version; results.json records it)"}
}

// scenarioReason is the reason two scenario fingerprints give: the
// fingerprints, then each difference the results record on a line of its
// own (the assumptions that follow from the strategies under one line
// that names them), and what to do.
func scenarioReason(base, cur *report.Results, diffs []scenarioDiff) Reason {
	r := Reason{What: "their scenarios", Line: fmt.Sprintf("scenario fingerprint %s (baseline, scenario %q%s) vs %s (current, scenario %q%s)",
		short(base.Run.ScenarioFingerprint), base.Run.Scenario, base.Run.PointAt(), short(cur.Run.ScenarioFingerprint), cur.Run.Scenario, cur.Run.PointAt())}
	if len(diffs) == 0 || onlyCatalogs(base, cur, diffs) {
		// The fingerprint does not hold the catalogs, so they are not why
		// it differs: naming them, and "the same catalogs" as the remedy,
		// sent a catalog upgrade's CI gate the wrong way. Files of this
		// build record the servers block (run.servers), and a difference
		// in it alone is serversOnly: what is left is a servers block a
		// file of an earlier build did not record.
		r.Line += " (no part the results files record differs: the difference is in a part they do not record, such as the servers block of a file written before results files recorded it)"
		if len(diffs) > 0 {
			r.Details = append(r.Details, diffs[0].detail()+" (the catalogs are not part of the fingerprint)")
		}
		r.Remedy = "replay both runs with this build and the same scenario: a change of the servers block alone is then compared with --allow servers"
		return r
	}
	var derived, derivedKeys, other []string
	for _, d := range diffs {
		switch d.kind {
		case diffDerived:
			derived = append(derived, "  "+d.detail())
			derivedKeys = append(derivedKeys, d.key)
		case diffRun, diffAssumption:
			other = append(other, d.key)
			r.Details = append(r.Details, d.detail()+seedHint(d))
		default:
			r.Details = append(r.Details, d.detail())
		}
	}
	if len(derived) > 0 {
		r.Details = append(r.Details, fmt.Sprintf("strategy-dependent %s (%s from the strategies; run.assumptions holds the whole values): %s",
			nouns.Form(len(derived), "assumption", "assumptions"), nouns.Form(len(derived), "it follows", "they follow"), strings.Join(derivedKeys, ", ")))
		r.Details = append(r.Details, derived...)
	}
	switch {
	case policyOnly(diffs):
		r.Remedy = "pass --allow policy to compare a policy change: only strategies differ"
	default:
		r.Remedy = "replay both runs with the same " + nouns.And(other) + ": the scenarios differ in more than strategies, which no --allow accepts (--allow policy accepts changed strategies alone)"
	}
	return r
}

// serversReason is the reason two scenarios that differ in their servers
// blocks give without --allow servers; beside says what else differs.
func serversReason(base, cur *report.Results, beside string) Reason {
	r := Reason{What: "their scenarios' servers blocks", Line: fmt.Sprintf("scenario fingerprint %s (baseline, scenario %q%s) vs %s (current, scenario %q%s): the servers blocks differ%s",
		short(base.Run.ScenarioFingerprint), base.Run.Scenario, base.Run.PointAt(), short(cur.Run.ScenarioFingerprint), cur.Run.Scenario, cur.Run.PointAt(), beside)}
	r.Details = serverChanges(base, cur)
	r.Remedy = "pass --allow servers to compare a servers change (a catalog upgrade) over the same sessions"
	return r
}

// onlyCatalogs reports whether the one recorded scenario difference is
// the catalogs assumption while both files hold the same strategies: the
// fingerprint leaves the catalogs out, so what made it differ is a part
// results files do not record.
func onlyCatalogs(base, cur *report.Results, diffs []scenarioDiff) bool {
	return len(diffs) == 1 && diffs[0].kind == diffAssumption && diffs[0].key == catalogsAssumption &&
		slices.Equal(names(base), names(cur))
}

func short(fp string) string {
	if len(fp) > 12 {
		return fp[:12]
	}
	return fp
}

// strategySetReason is the reason the strategy sets give (false when
// they match): the strategies only in one file, or the --strategies names
// missing from one, and the names both files hold to check instead.
func strategySetReason(base, cur *report.Results, only []string) (Reason, bool) {
	bn, cn := names(base), names(cur)
	var both []string
	for _, n := range bn {
		if slices.Contains(cn, n) {
			both = append(both, n)
		}
	}
	remedy := "the files have no strategy in common: replay one with the other's strategies"
	if len(both) > 0 {
		remedy = "pass --strategies " + strings.Join(both, ",") + " to check the strategies both files hold"
	}
	if len(only) > 0 {
		var miss []string
		for _, n := range only {
			if !slices.Contains(bn, n) {
				miss = append(miss, n+" (not in baseline)")
			}
			if !slices.Contains(cn, n) {
				miss = append(miss, n+" (not in current)")
			}
		}
		if len(miss) > 0 {
			return Reason{What: "the strategies selected", Line: "selected strategies missing: " + strings.Join(miss, ", "), Remedy: remedy}, true
		}
		return Reason{}, false
	}
	var onlyB, onlyC []string
	for _, n := range bn {
		if !slices.Contains(cn, n) {
			onlyB = append(onlyB, n)
		}
	}
	for _, n := range cn {
		if !slices.Contains(bn, n) {
			onlyC = append(onlyC, n)
		}
	}
	if len(onlyB)+len(onlyC) == 0 {
		return Reason{}, false
	}
	var parts []string
	if len(onlyB) > 0 {
		parts = append(parts, "only in baseline: "+strings.Join(onlyB, ", "))
	}
	if len(onlyC) > 0 {
		parts = append(parts, "only in current: "+strings.Join(onlyC, ", "))
	}
	return Reason{What: "their strategy sets", Line: "strategy sets differ: " + strings.Join(parts, "; "), Remedy: remedy}, true
}

func names(r *report.Results) []string {
	var out []string
	for _, s := range r.Strategies {
		out = append(out, s.Name)
	}
	return out
}

// inputDiff describes how the inputs of one kind differ by content.
func inputDiff(base, cur *report.Results, kind string) string {
	bh, ch := inputHashes(base, kind), inputHashes(cur, kind)
	if slices.Equal(bh, ch) {
		return ""
	}
	return fmt.Sprintf("%s in baseline, %d in current, %d in common by content", nouns.Count(len(bh), "file"), len(ch), common(bh, ch))
}

func inputHashes(r *report.Results, kind string) []string {
	var out []string
	for _, in := range r.Run.Inputs {
		if in.Kind == kind {
			out = append(out, in.SHA256)
		}
	}
	slices.Sort(out)
	return out
}

func common(a, b []string) int {
	n := 0
	for _, x := range a {
		if slices.Contains(b, x) {
			n++
		}
	}
	return n
}

// directoryHint says which file to give when path is a directory ("" when
// it is not): a run's output directory holds results.json, and one without
// it is a run that did not finish.
func directoryHint(path string) string {
	if path == "-" {
		return ""
	}
	if st, err := os.Stat(path); err != nil || !st.IsDir() {
		return ""
	}
	inside := filepath.Join(path, "results.json")
	if st, err := os.Stat(inside); err == nil && st.Mode().IsRegular() {
		return fmt.Sprintf("is a directory: give the results file in it, %s", inside)
	}
	return "is a directory without a results.json: give the results.json of a finished run " +
		"(defersim run -o DIR writes DIR/results.json when it finishes; an interrupted run leaves DIR/checkpoint, finished with --resume DIR)"
}

// seedHint explains a seed difference that is the two defaults' — a
// scenario file that writes no seed (scenarios.DefaultSeed) against the
// embedded default's, which run --traces replays without a scenario —
// and how to align them; "" for any other difference.
func seedHint(d scenarioDiff) string {
	if d.key != "seed" {
		return ""
	}
	def, err := scenarios.Default()
	if err != nil || def.Seed == scenarios.DefaultSeed {
		return ""
	}
	file, embedded := fmt.Sprint(scenarios.DefaultSeed), fmt.Sprint(def.Seed)
	if (d.base != file || d.cur != embedded) && (d.base != embedded || d.cur != file) {
		return ""
	}
	return fmt.Sprintf(" (a scenario file that writes no seed replays with %d; run --traces without a scenario takes the embedded default's, %d: write the same seed: in the scenario, or pass --seed to both runs)",
		scenarios.DefaultSeed, def.Seed)
}
