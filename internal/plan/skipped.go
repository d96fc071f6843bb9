package plan

import "strings"

// SkippedSession is a session some points of a sweep or growth series
// failed to replay (a replay error, such as a worker's panic): each such
// point skipped it and its results cover the other sessions, as a run's
// do. A session that fails at several points is one entry naming them.
type SkippedSession struct {
	// Failure is the first line of the replay's error, "session ID:
	// reason", as `defersim run` lists it.
	Failure string `json:"failure"`
	// Points are the labels of the points that skipped it, in order.
	Points []string `json:"points"`
	// Every is set when every point of the series skipped it.
	Every bool `json:"every_point,omitempty"`
}

// SkippedSessions groups the sessions the points failed to replay
// (Point.Failures) by their failure line, in the order the points first
// list them.
func SkippedSessions(points []Point) []SkippedSession {
	var out []SkippedSession
	at := map[string]int{}
	for _, p := range points {
		for _, f := range p.Failures {
			i, ok := at[f]
			if !ok {
				i = len(out)
				at[f] = i
				out = append(out, SkippedSession{Failure: f})
			}
			if n := len(out[i].Points); n == 0 || out[i].Points[n-1] != p.Label {
				out[i].Points = append(out[i].Points, p.Label)
			}
		}
	}
	for i := range out {
		out[i].Every = len(points) > 1 && len(out[i].Points) == len(points)
	}
	return out
}

// Where says at which points s was skipped: "at every value" (every
// names the series' points, "value" for a sweep), or "at " and the
// labels.
func (s SkippedSession) Where(every string) string {
	if s.Every {
		return "at every " + every
	}
	return "at " + strings.Join(s.Points, ", ")
}

// SkippedUnlisted is the number of sessions the points skipped beyond
// those their failure lists name (a run keeps the first 1000 failures):
// the largest such gap over the points, 0 when every one is listed.
func SkippedUnlisted(points []Point) int64 {
	var most int64
	for _, p := range points {
		most = max(most, p.Skipped-int64(len(p.Failures)))
	}
	return most
}

// failureLine is s up to its first newline (a panic's failure carries its
// stack after it).
func failureLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// failureLines are the first lines of failures.
func failureLines(failures []string) []string {
	if len(failures) == 0 {
		return nil
	}
	out := make([]string, len(failures))
	for i, f := range failures {
		out[i] = failureLine(f)
	}
	return out
}
