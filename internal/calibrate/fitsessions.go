package calibrate

import (
	"fmt"
	"sort"
	"strings"

	"github.com/defersim/defersim/internal/nouns"
)

// ResidualMostShare is the share of the latency fit's squared error
// (Σ (recorded − predicted)², in ms: what its R² compares with the
// variance of the times) that the sessions LatencyFit.ResidualSessions
// names make up at least: they are the fewest sessions, largest first,
// that hold this much of it.
const ResidualMostShare = 0.5

// SessionShare is one fit session's part of the latency fit's squared
// error: its requests and the share of the squared error they hold.
type SessionShare struct {
	Session  string  `json:"session"`
	Requests int     `json:"requests"`
	Share    float64 `json:"share"`
}

// residualSessions returns the fewest fit sessions, largest first (ties by
// id), whose squared residuals make up at least ResidualMostShare of all
// of rows' (pred and rec are rows' predicted and recorded times); nil when
// the fit has no residual.
func residualSessions(rows []latencyRow, pred, rec []float64) []SessionShare {
	sq := map[string]float64{}
	n := map[string]int{}
	var total float64
	for i, r := range rows {
		d := (rec[i] - pred[i]) * (rec[i] - pred[i])
		sq[r.session] += d
		n[r.session]++
		total += d
	}
	if !(total > 0) {
		return nil
	}
	all := make([]SessionShare, 0, len(sq))
	for id, v := range sq {
		all = append(all, SessionShare{Session: id, Requests: n[id], Share: v / total})
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].Share != all[j].Share {
			return all[i].Share > all[j].Share
		}
		return all[i].Session < all[j].Session
	})
	var cum float64
	for i := range all {
		if cum += all[i].Share; cum >= ResidualMostShare {
			return all[:i+1]
		}
	}
	return all
}

// residualSessionsText is the text's line on the sessions that hold most
// of the fit's squared error ("" when there are none).
func residualSessionsText(l *LatencyFit) string {
	ss := l.ResidualSessions
	if len(ss) == 0 {
		return ""
	}
	var cum float64
	var parts []string
	for i, s := range ss {
		cum += s.Share
		switch {
		case i < worstSessionsShown:
			parts = append(parts, fmt.Sprintf("%s %s (%s)", s.Session, pct(s.Share), nouns.Count(s.Requests, "request")))
		case i == worstSessionsShown:
			parts = append(parts, fmt.Sprintf("… (%d more)", len(ss)-worstSessionsShown))
		}
	}
	return fmt.Sprintf("%s of the fit's squared error from %s of %d: %s", pct(cum), nouns.Count(len(ss), "session"), l.FitSessions, strings.Join(parts, ", "))
}

// negativeFitNote says, for a latency fit whose R² on its own fit set is
// below 0, what that means and what to try ("" otherwise).
func negativeFitNote(l *LatencyFit) string {
	if l == nil || !(l.RSquared < 0) {
		return ""
	}
	who := ""
	if len(l.ResidualSessions) > 0 {
		s := l.ResidualSessions[0]
		who = fmt.Sprintf(", here mostly session %s (%s of the squared error)", s.Session, pct(s.Share))
	}
	return fmt.Sprintf("the latency fit's R² on its own fit set is %.3f: the fitted times predict the fit requests worse than their mean time does. "+
		"The fit follows the typical request (%s residuals, %s loss), and a few requests far from it dominate the squared error%s: "+
		"look at those sessions' recorded durations (another client, queueing, a unit error?), leave them out of the traces, "+
		"or compare --residuals absolute and --loss ols, which weigh long requests as R² does", l.RSquared, l.Residuals, l.loss, who)
}
