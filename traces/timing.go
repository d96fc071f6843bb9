package traces

// Timing values of session_start meta "timing" (written by the importers:
// docs/importers.md, "Times").
const (
	TimingRecorded  = "recorded"  // every event time comes from the source
	TimingPartial   = "partial"   // some events carried the previous event's time
	TimingSynthetic = "synthetic" // the source recorded no times: placeholders
)

// Timing counts sessions by their session_start meta "timing", as a
// Reader opened them. Unmarked sessions have no such key (native traces,
// the generator's); Other counts values none of the three names.
type Timing struct {
	Recorded  int64 `json:"recorded"`
	Partial   int64 `json:"partial"`
	Synthetic int64 `json:"synthetic"`
	Unmarked  int64 `json:"unmarked"`
	Other     int64 `json:"other,omitempty"`
}

// count adds one session whose meta "timing" is v ("" when absent).
func (t *Timing) count(v string) {
	switch v {
	case TimingRecorded:
		t.Recorded++
	case TimingPartial:
		t.Partial++
	case TimingSynthetic:
		t.Synthetic++
	case "":
		t.Unmarked++
	default:
		t.Other++
	}
}

// Add adds u's counts to t.
func (t *Timing) Add(u Timing) {
	t.Recorded += u.Recorded
	t.Partial += u.Partial
	t.Synthetic += u.Synthetic
	t.Unmarked += u.Unmarked
	t.Other += u.Other
}
