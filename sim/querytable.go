package sim

// The session's query table. Every strategy of a session searches with the
// same few queries — the recorded ones, the user's text or its words, a
// tool's name words, "select:NAME" — so what a search derives from its
// query alone is kept for the session: the size of its search call and
// its rankings by each ranker. A session searches with a handful of
// distinct queries (about 3 on the benchmark trace, against 38 searches),
// so the table is a short list compared text by text, without hashing the
// queries (which can be whole user messages) on every search as the
// engine-wide memos do.

// sessionQuery is one query searched in the current session.
type sessionQuery struct {
	q       string
	counted bool  // tok is set
	tok     int64 // searchCallTokens(q)
	ranks   []sessionRank
}

// sessionRank is a nested ranker's ranking of a sessionQuery.
type sessionRank struct {
	ent *rankerEntry
	r   ranking
}

// Bounds of the query table: a session that searches with more queries,
// or longer ones, searches with the others through the engine-wide memos.
const (
	maxSessionQueries     = 64
	maxSessionQueryBytes  = 64 << 10
	maxReusedSessionRanks = 16 // rankings whose memory an entry keeps from one session to the next
)

// sessionQuery returns the index of query in the session's query table,
// adding it (a copy); -1 when the table is full.
func (r *replayer) sessionQuery(query []byte) int {
	for i := range r.sess.queries {
		if r.sess.queries[i].q == string(query) {
			return i
		}
	}
	return r.addQuery(len(query), func() string { return string(query) })
}

// sessionQueryString is sessionQuery for a query held in a string, which
// the table keeps without copying it.
func (r *replayer) sessionQueryString(query string) int {
	for i := range r.sess.queries {
		if r.sess.queries[i].q == query {
			return i
		}
	}
	return r.addQuery(len(query), func() string { return query })
}

// addQuery adds the query of n bytes that q returns to the table, unless
// it is full (-1).
func (r *replayer) addQuery(n int, q func() string) int {
	qs := r.sess.queries
	if len(qs) == maxSessionQueries || r.sess.queryBytes+n > maxSessionQueryBytes {
		return -1
	}
	r.sess.queryBytes += n
	if len(qs) < cap(qs) { // reuse the entry's memory
		qs = qs[:len(qs)+1]
		sq := &qs[len(qs)-1]
		sq.q, sq.counted, sq.tok = q(), false, 0
	} else {
		qs = append(qs, sessionQuery{q: q()})
	}
	r.sess.queries = qs
	return len(qs) - 1
}

// callTokens is searchCallTokens(query), through the table's entry qi
// (the entry of query; -1: none).
func (r *replayer) callTokens(qi int, query []byte) int64 {
	if qi < 0 {
		return r.searchCallTokens(query)
	}
	sq := &r.sess.queries[qi]
	if !sq.counted {
		sq.tok, sq.counted = r.searchCallTokens(query), true
	}
	return sq.tok
}

// rank is ent.rank(q, k), through the table's entry qi (the entry of q;
// -1: none). The result is shared: callers must not change it.
func (r *replayer) rank(qi int, ent *rankerEntry, q string, k int) []int {
	if qi < 0 || !ent.nested {
		return ent.rank(q, k)
	}
	k = min(k, len(ent.tools))
	sq := &r.sess.queries[qi]
	for i := range sq.ranks {
		if sr := &sq.ranks[i]; sr.ent == ent {
			if !sr.r.covers(k) {
				sr.r = ent.ranking(sq.q, k)
			}
			return sr.r.cut(k)
		}
	}
	c := ent.ranking(sq.q, k)
	sq.ranks = append(sq.ranks, sessionRank{ent: ent, r: c})
	return c.cut(k)
}

// resetQueries empties the query table, keeping its memory.
func (r *replayer) resetQueries() {
	qs := r.sess.queries
	for i := range qs {
		sq := &qs[i]
		sq.q = ""
		if cap(sq.ranks) > maxReusedSessionRanks {
			sq.ranks = nil
		}
		clear(sq.ranks[:cap(sq.ranks)]) // let the rankings go
		sq.ranks = sq.ranks[:0]
	}
	r.sess.queries, r.sess.queryBytes = qs[:0], 0
	r.resetQueryMemo()
}
