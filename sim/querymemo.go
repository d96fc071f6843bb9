package sim

// The session's memo of model-written queries. keywordLoad asks the
// strategy's query model for a needed tool's query once per search, under
// every strategy of the session. What the model is asked (QueryInput) is
// a function of the user step (User is the session's step lastUser came
// from, UserWords its content words), the tool (ToolWords, ToolQuery: its
// name's words) and whether the strategy's directory shows names, and a
// query model's answer is a function of its input alone (QueryModel). So
// for one query model (by registered name), user step, tool and
// directory kind, every strategy of the session gets the same query: it
// is kept with its entry in the session's query table. The memo is
// emptied with the query table, at the start and end of every session
// (resetQueries): a user step or table index means nothing in another
// session.

// queryMemo is one model-written query of the current session.
type queryMemo struct {
	model string // the query model's registered name
	step  int    // the user step (simState.userStep; -1: before the first)
	tool  int32  // Tool.id
	names bool   // QueryInput.DirectoryShowsNames
	q     string
	qi    int // q's entry in the session's query table (-1: none)
}

// maxQueryMemo bounds the memo's entries per session: a session that asks
// for more queries asks the query model for the others every time.
const maxQueryMemo = 64

// modelQuery returns the strategy's query model's query for ti at the
// current user step, and its entry in the session's query table (-1:
// none), from the session's memo when a strategy asked for it before.
func (r *replayer) modelQuery(ti *Tool) (string, int) {
	name, step, names := r.p.queryName, r.st.userStep, r.p.showsNames
	for i := range r.sess.qmemo {
		m := &r.sess.qmemo[i]
		if m.step == step && m.tool == ti.id && m.names == names && m.model == name {
			return m.q, m.qi
		}
	}
	tm := r.toolMemo(ti)
	q := r.p.query.Query(QueryInput{User: r.st.lastUser, UserWords: r.memo.userFn,
		ToolWords: tm.words, ToolQuery: tm.query, DirectoryShowsNames: names})
	qi := r.sessionQueryString(q)
	if len(r.sess.qmemo) < maxQueryMemo {
		r.sess.qmemo = append(r.sess.qmemo, queryMemo{model: name, step: step, tool: ti.id, names: names, q: q, qi: qi})
	}
	return q, qi
}

// resetQueryMemo empties the memo, keeping its memory.
func (r *replayer) resetQueryMemo() {
	clear(r.sess.qmemo) // let the queries go
	r.sess.qmemo = r.sess.qmemo[:0]
}
