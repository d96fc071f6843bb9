package check

import (
	"io"
	"strings"

	"github.com/defersim/defersim/internal/cliout"
)

// jsonRefusal is the JSON form of an *Incomparable (`check --format json`
// when the files cannot be compared; documented in docs/check.md): the
// same facts as the text refusal, so that a CI job parsing stdout reads
// why instead of empty input.
type jsonRefusal struct {
	Baseline   string `json:"baseline"`
	Current    string `json:"current"`
	Comparable bool   `json:"comparable"`
	Verdict    string `json:"verdict"`
	// Failed is true, as for a report whose gate fails (the exit status
	// is 2), and FailReasons is FailIncomparable or FailUnreadable.
	Failed      bool         `json:"failed"`
	FailReasons []string     `json:"fail_reasons"`
	Reasons     []jsonReason `json:"reasons"`
	Remedies    []string     `json:"remedies"`
	// Unreadable is the file that could not be read (WriteUnreadableJSON;
	// absent when both were read and differ).
	Unreadable *jsonUnreadable `json:"unreadable,omitempty"`
}

type jsonUnreadable struct {
	Which  string `json:"which"`
	File   string `json:"file"`
	Reason string `json:"reason"`
}

type jsonReason struct {
	What    string   `json:"what"`
	Line    string   `json:"line"`
	Details []string `json:"details"`
	Remedy  string   `json:"remedy,omitempty"`
}

// WriteIncomparableJSON writes the refusal of two files that cannot be
// compared as JSON: "comparable": false, the message's first line as
// "verdict", each reason with its details and remedy, and the remedies
// in the order the text lists them under "what to do:".
func WriteIncomparableJSON(w io.Writer, basePath, curPath string, inc *Incomparable) error {
	verdict, _, _ := strings.Cut(inc.Error(), "\n")
	out := jsonRefusal{Baseline: basePath, Current: curPath, Verdict: verdict, Failed: true, FailReasons: []string{FailIncomparable}, Reasons: []jsonReason{}, Remedies: []string{}}
	for _, r := range inc.Reasons {
		out.Reasons = append(out.Reasons, jsonReason{What: r.What, Line: r.Line, Details: orEmpty(r.Details), Remedy: r.Remedy})
		if r.Remedy != "" {
			out.Remedies = append(out.Remedies, r.Remedy)
		}
	}
	return cliout.WriteJSON(w, out)
}

// WriteUnreadableJSON writes, as JSON, the refusal of a results file that
// cannot be read: the same object as WriteIncomparableJSON's,
// "comparable": false, the message's first line as "verdict", no reasons
// or remedies, and "unreadable": which file (baseline or current), as the
// message names it, and why.
func WriteUnreadableJSON(w io.Writer, basePath, curPath string, u *Unreadable) error {
	verdict, _, _ := strings.Cut(u.Error(), "\n")
	return cliout.WriteJSON(w, jsonRefusal{Baseline: basePath, Current: curPath, Verdict: verdict, Failed: true, FailReasons: []string{FailUnreadable},
		Reasons: []jsonReason{}, Remedies: []string{}, Unreadable: &jsonUnreadable{Which: u.Which, File: u.File, Reason: u.Reason.Error()}})
}
