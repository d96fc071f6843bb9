package plan

import "strings"

// Failure is a session a point failed to replay.
type Failure struct {
	// Session is the session's id.
	Session string
	// Line is the first line of the replay's error, "session ID:
	// reason", as `defersim run` lists it.
	Line string
}

// Reason is Line without its "session ID: " prefix.
func (f Failure) Reason() string {
	return strings.TrimPrefix(f.Line, "session "+f.Session+": ")
}

// SkippedSession is a session some points of a sweep or growth series
// failed to replay (a replay error, such as a worker's panic): each such
// point skipped it and its results cover the other sessions, as a run's
// do. A session is one entry, however many points skipped it and with
// whatever reasons.
type SkippedSession struct {
	// Session is the session's id.
	Session string `json:"session"`
	// Reasons are the distinct reasons the points gave, in the order the
	// points first give them, each with its points.
	Reasons []SkipReason `json:"reasons"`
}

// SkipReason is one reason some points gave for skipping a session.
type SkipReason struct {
	// Reason is the replay error's first line after "session ID: ".
	Reason string `json:"reason"`
	// Points are the labels of the points that gave it, in order.
	Points []string `json:"points"`
	// Every is set when every point of the series gave it.
	Every bool `json:"every_point,omitempty"`
}

// SkippedSessions groups the sessions the points failed to replay
// (Point.Failures) by session, then by reason, in the order the points
// first list them.
func SkippedSessions(points []Point) []SkippedSession {
	var out []SkippedSession
	at := map[string]int{}
	for _, p := range points {
		for _, f := range p.Failures {
			i, ok := at[f.Session]
			if !ok {
				i = len(out)
				at[f.Session] = i
				out = append(out, SkippedSession{Session: f.Session})
			}
			out[i].add(f.Reason(), p.Label)
		}
	}
	for i := range out {
		for j := range out[i].Reasons {
			r := &out[i].Reasons[j]
			r.Every = len(points) > 1 && len(r.Points) == len(points)
		}
	}
	return out
}

// add files reason at the point labelled label.
func (s *SkippedSession) add(reason, label string) {
	for j := range s.Reasons {
		r := &s.Reasons[j]
		if r.Reason != reason {
			continue
		}
		if n := len(r.Points); r.Points[n-1] != label {
			r.Points = append(r.Points, label)
		}
		return
	}
	s.Reasons = append(s.Reasons, SkipReason{Reason: reason, Points: []string{label}})
}

// Line is s as sweep and plan --growth list it: "session ID: reason (at
// POINTS)", the reasons joined by "; " when the points gave several
// (every names the series' points, "value" for a sweep).
func (s SkippedSession) Line(every string) string {
	parts := make([]string, len(s.Reasons))
	for i, r := range s.Reasons {
		parts[i] = r.Reason + " (" + r.Where(every) + ")"
	}
	return "session " + s.Session + ": " + strings.Join(parts, "; ")
}

// Where says at which points r was given: "at every value" (every names
// the series' points, "value" for a sweep), or "at " and the labels.
func (r SkipReason) Where(every string) string {
	if r.Every {
		return "at every " + every
	}
	return "at " + strings.Join(r.Points, ", ")
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

// failuresOf are a replay's failures: the sessions' ids (aligned with
// msgs) and the first lines of msgs.
func failuresOf(sessions, msgs []string) []Failure {
	if len(msgs) == 0 {
		return nil
	}
	out := make([]Failure, len(msgs))
	for i, m := range msgs {
		out[i] = Failure{Line: failureLine(m)}
		if i < len(sessions) {
			out[i].Session = sessions[i]
		}
	}
	return out
}
