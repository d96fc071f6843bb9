package ingest

import "sort"

// RejectedArgs is a called tool whose recorded arguments the input schema
// its catalog version gives it rejects, in calls of one failure class.
// The recording model was sent some schema and the server answered; a
// call the server accepted (status ok) that this schema rejects says that
// the schema is not the one the sessions ran with (another version of the
// server, most often: a catalog directory gives its latest).
type RejectedArgs struct {
	Server  string `json:"server"`
	Version string `json:"version"`
	Tool    string `json:"tool"`
	// Class is the failure's class (validation.Class*), At the JSON
	// pointer of the first such call's offending value ("" the root) and
	// Keyword the failing keyword's place in the schema.
	Class   string `json:"class"`
	At      string `json:"at"`
	Keyword string `json:"keyword"`
	Calls   int    `json:"calls"`
	// Accepted counts those of Calls whose result has status ok: the
	// server took arguments this schema rejects.
	Accepted int `json:"accepted"`
}

// RejectArgs counts a call of tool on server@version whose recorded
// arguments its schema rejects (class; at and keyword where, for the
// first such call); ok says the call's result has status ok.
func (r *Report) RejectArgs(server, version, tool, class, at, keyword string, ok bool) {
	if r.rejected == nil {
		r.rejected = map[[4]string]*RejectedArgs{}
	}
	k := [4]string{server, version, tool, class}
	ra := r.rejected[k]
	if ra == nil {
		ra = &RejectedArgs{Server: server, Version: version, Tool: tool, Class: class, At: at, Keyword: keyword}
		r.rejected[k] = ra
	}
	ra.Calls++
	if ok {
		ra.Accepted++
	}
}

// finishRejected orders Rejected: the most calls the server accepted
// first, then the most calls, then by server, version, tool and class.
func (r *Report) finishRejected() {
	r.Rejected = r.Rejected[:0]
	for _, ra := range r.rejected {
		r.Rejected = append(r.Rejected, *ra)
	}
	sort.Slice(r.Rejected, func(i, j int) bool {
		a, b := r.Rejected[i], r.Rejected[j]
		switch {
		case a.Accepted != b.Accepted:
			return a.Accepted > b.Accepted
		case a.Calls != b.Calls:
			return a.Calls > b.Calls
		case a.Server != b.Server:
			return a.Server < b.Server
		case a.Version != b.Version:
			return a.Version < b.Version
		case a.Tool != b.Tool:
			return a.Tool < b.Tool
		}
		return a.Class < b.Class
	})
	if len(r.Rejected) == 0 {
		r.Rejected = nil
	}
}
