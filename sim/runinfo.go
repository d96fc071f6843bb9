package sim

// Counts says what a run read, replayed and skipped.
type Counts struct {
	Files            int            `json:"files"`
	LinesRead        int64          `json:"lines_read"`
	EventsRead       int64          `json:"events_read"`
	SessionsRead     int64          `json:"sessions_read"`
	SessionsReplayed int64          `json:"sessions_replayed"`
	SessionsSkipped  int64          `json:"sessions_skipped"`
	LinesSkipped     int64          `json:"lines_skipped"`
	SkipReasons      map[string]int `json:"skip_reasons,omitempty"`
	// StepsRemoved counts recorded steps removed from the need because the
	// recording runtime's own deferral caused them (its searches, rejected calls).
	StepsRemoved int64 `json:"steps_removed"`
}

// Input identifies one input file by content.
type Input struct {
	Kind   string `json:"kind"` // trace | catalog | scenario
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
	Bytes  int64  `json:"bytes"`
	// Server and Version, for catalogs.
	Server  string `json:"server,omitempty"`
	Version string `json:"version,omitempty"`
	Tools   int    `json:"tools,omitempty"`
}

// Assumption is one named parameter or modelling choice in force in a run.
type Assumption struct {
	Name  string `json:"name"`
	Value string `json:"value"`
	// Source says where the value comes from (a dataset, a doc, "default").
	Source string `json:"source,omitempty"`
}

// RunInfo describes a run for its results file.
type RunInfo struct {
	Scenario            string       `json:"scenario"`
	ScenarioFingerprint string       `json:"scenario_fingerprint"`
	Seed                int64        `json:"seed"`
	Baseline            string       `json:"baseline"`
	Tokenizer           string       `json:"tokenizer"`
	Model               string       `json:"model"`
	CacheModel          string       `json:"cache_model"`
	Assumptions         []Assumption `json:"assumptions"`
	Inputs              []Input      `json:"inputs"`
	Counts              Counts       `json:"counts"`
	Fidelity            *Fidelity    `json:"fidelity,omitempty"`
}

// Fidelity compares an eager replay of recorded sessions with what was recorded.
type Fidelity struct {
	Strategy string `json:"strategy"`
	Requests int64  `json:"requests"`
	// Input tokens: absolute relative error |sim-rec|/rec per request.
	InputMedianAbsRelErr float64 `json:"input_median_abs_rel_err"`
	InputP90AbsRelErr    float64 `json:"input_p90_abs_rel_err"`
	InputMeanRelErr      float64 `json:"input_mean_rel_err"`
	// Latency, where recorded.
	LatencyRequests        int64   `json:"latency_requests"`
	LatencyMedianAbsRelErr float64 `json:"latency_median_abs_rel_err,omitempty"`
	LatencyP90AbsRelErr    float64 `json:"latency_p90_abs_rel_err,omitempty"`
}
