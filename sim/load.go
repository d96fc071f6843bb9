package sim

// load brings the cold tools a step needs into view through tool_search
// round trips, as the strategy's search mode and the model assumptions say:
// exact select for every tool when the mode is select, else one ranked
// search per tool — with the query the trace recorded for it when it has
// one, else (with probability select_prob, when the directory shows its
// name) an exact select, or the query model's query.
func (r *replayer) load(cold []*Tool) {
	e := r.e
	selects := r.buf.sel[:0]
	for _, ti := range cold {
		if r.p.ranker == nil || (r.n.queryFor[ti.name] == "" && r.p.showsNames && r.rng.Float64() < e.params.SelectProb) {
			selects = append(selects, ti)
			continue
		}
		r.keywordLoad(ti)
	}
	r.buf.sel = selects
	if len(selects) == 1 {
		r.searchRoundTrip(r.selectTokens(selects[0]), selects)
	} else if len(selects) > 0 {
		q := append(r.buf.query[:0], "select:"...)
		for i, ti := range selects {
			if i > 0 {
				q = append(q, ',')
			}
			q = append(q, ti.name...)
		}
		r.buf.query = q
		r.searchRoundTrip(r.callTokens(r.sessionQuery(q), q), selects)
	}
}

// keywordLoad searches for ti with ranked queries, falling back to select.
// The first query is the recorded query that found ti, else what the
// strategy's query model says the model would write (modelQuery): every
// ranked mode goes through here, whatever its query model.
func (r *replayer) keywordLoad(ti *Tool) {
	ent, served, err := r.st.set.rankerFor(r.e, r.si)
	v := &r.out.Values
	k := r.s.Search.K
	var retry string // every retry searches for the name's words
	for try := 0; try <= r.s.Search.KeywordRetries; try++ {
		var q string
		var qt int // q's entry in the session's query table
		switch try {
		case 0:
			if q = r.n.queryFor[ti.name]; q != "" { // recorded
				v[MRecordedQuerySearches]++
				qt = r.sessionQueryString(q)
			} else {
				q, qt = r.modelQuery(ti)
			}
		case 1:
			retry = r.toolMemo(ti).query
			fallthrough
		default:
			v[MSearchRetries]++
			q = retry
			qt = r.sessionQueryString(q)
		}
		r.buf.query = append(r.buf.query[:0], q...)
		got := r.buf.got[:0]
		if err == nil {
			for _, idx := range r.rank(qt, ent, q, k+len(r.st.warm.entries)+8) {
				t := served[idx] // what the registry serves of ent.tools[idx]
				if t == nil || r.isWarm(t) != nil {
					continue
				}
				got = append(got, t)
				if len(got) >= k {
					break
				}
			}
		}
		r.buf.got = got // keep its memory for the next search
		r.searchRoundTrip(r.callTokens(qt, r.buf.query), got)
		if containsTool(got, ti) {
			return
		}
		v[MSearchMisses]++
	}
	if !r.p.showsNames {
		v[MUnrecoveredMisses]++
		return
	}
	v[MSearchRetries]++
	r.buf.one[0] = ti
	r.searchRoundTrip(r.selectTokens(ti), r.buf.one[:])
}

// selectTokens is the size of the search call "select:NAME" for ti,
// worked out once per tool (selects of one tool recur in every session).
func (r *replayer) selectTokens(ti *Tool) int64 {
	tm := r.toolMemo(ti)
	if !tm.selectCounted {
		q := append(append(r.buf.query[:0], "select:"...), ti.name...)
		r.buf.query = q
		tm.selectTok, tm.selectCounted = r.searchCallTokens(q), true
	}
	return tm.selectTok
}

// searchRoundTrip is one tool_search call: an extra model request whose
// output is the search call, of out tokens (callTokens), the search
// itself, and its result loading got.
func (r *replayer) searchRoundTrip(out int64, got []*Tool) {
	e := r.e
	if cap(r.buf.query) > maxScratchText || cap(r.buf.call) > maxScratchText {
		r.buf.query, r.buf.call = nil, nil // a very long query: do not keep its buffers
	}
	r.send(true, out, true, nil, false)
	r.out.Values[MSearches]++
	r.appendMsg(out, false)
	r.addLayer(layerSearch, e.params.SearchExecMs)
	got = r.expandFamily(got)
	if len(got) > 0 {
		r.pm.tver++
	}
	for i, ti := range got {
		if i == 0 || ti.server != got[i-1].server { // listing is paid once: skip repeats
			r.ensureListed(ti)
		}
	}
	var res int64
	parts := r.p.result
	for _, ti := range got {
		if r.p.disabled {
			r.st.transient = append(r.st.transient, ti)
		} else {
			r.st.warm.add(ti)
		}
		if parts.Schema {
			res += ti.tokens
		}
		if parts.Name {
			res += r.nameTokens(ti) + 2
		}
		if parts.Pretty {
			res += ti.pretty
		}
	}
	r.appendMsg(res, parts.Schema)
	if r.s.Directory.Notice && e.domains != nil {
		for _, ti := range got {
			if d := e.domains.DomainOf(ti.server, ti.name); d != "" && !r.st.active[d] {
				r.st.active[d] = true
				r.appendMsg(e.countText(e.domains.ActivationNotice(d)), false)
			}
		}
	}
	if e.params.NudgeProb > 0 && r.rng.Float64() < e.params.NudgeProb {
		r.send(true, e.params.NudgeTokens, false, nil, false)
		r.appendMsg(e.params.NudgeTokens, false)
	}
}

// expandFamily adds the family core when a family member is loaded.
func (r *replayer) expandFamily(got []*Tool) []*Tool {
	s := &r.s.Search
	if len(s.Family) == 0 || len(s.FamilyCore) == 0 {
		return got
	}
	hit := false
	for _, ti := range got {
		if r.familyMember(ti) {
			hit = true
			break
		}
	}
	if !hit {
		return got
	}
	for _, name := range s.FamilyCore {
		ti := r.st.set.byName[name]
		if ti != nil && !containsTool(got, ti) && r.isWarm(ti) == nil {
			got = append(got, ti)
		}
	}
	return got
}

// searchCallTokens is the size of the search call that sends query. Every
// strategy of a session searches with the same few queries, and queries
// made from a tool (its name, "select:NAME") recur across sessions, so
// sizes are memoised by query in the replayer, bounded in entries and
// bytes (the memo is emptied when full).
func (r *replayer) searchCallTokens(query []byte) int64 {
	m := &r.memo
	if out, ok := m.queryTok[string(query)]; ok {
		return out
	}
	e := r.e
	r.buf.call = appendSearchCall(r.buf.call[:0], query)
	out := e.raw.Count(r.buf.call) + e.params.MessageOverheadTokens
	if len(query) > maxCallQuery {
		return out
	}
	if m.queryTok == nil || len(m.queryTok) >= maxCallQueries || m.queryBytes+len(query) > maxCallQueryBytes {
		m.queryTok, m.queryBytes = make(map[string]int64), 0
	}
	m.queryTok[string(query)] = out
	m.queryBytes += len(query)
	return out
}

// Bounds of the search-call size memo.
const (
	maxCallQueries    = 4096
	maxCallQueryBytes = 256 << 10
	maxCallQuery      = 1 << 10 // a longer query is counted every time
)
