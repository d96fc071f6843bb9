package sim

import (
	"encoding/json"
	"strings"
)

// sessionMemo is what every strategy of the current session shares,
// computed for its first strategy: need is the need it is for. A worker
// extracts every session into the same Need, so endSession must clear need
// before the next session (its address alone does not tell sessions
// apart).
type sessionMemo struct {
	need  *pneed
	set   *serverSet       // the initial registry
	seed  uint64           // hashString(SessionID)
	sys   block            // the system prompt block
	words map[int][]string // content words by user step, cut from list
	list  []string         // this session's content words
	// queries is the session's query table (querytable.go); queryBytes
	// the length of its queries.
	queries    []sessionQuery
	queryBytes int
	// qmemo is the session's memo of model-written queries (querymemo.go).
	qmemo []queryMemo
}

// replayMemo is what a replayer derives once and keeps from one session to
// the next.
type replayMemo struct {
	tools     []toolMemo       // by tool id
	dirs      map[dirKey]block // directory blocks (prompt.go)
	wordsSeen map[string]bool  // scratch for appendContentWords
	userFn    func() []string  // r.userWords (a method value allocates)
	// family[si][id] says whether tool id is in strategy si's
	// search.family (familyMember): 0 unknown, else 1 + the answer.
	family [][]uint8
	// queryTok memoises the sizes of search calls by query
	// (searchCallTokens); queryBytes is the length of its keys.
	queryTok   map[string]int64
	queryBytes int
}

// newSession computes what every strategy of a session shares: its
// initial registry (all catalog servers at their latest version when the
// trace names none), its random seed and its system prompt block.
func (r *replayer) newSession(n *pneed) {
	e := r.e
	r.sess.need = n
	r.sess.seed = hashString(n.id)
	r.resetQueries()
	r.sess.sys = block{h: e.systemHash(n.sysText, n.sysTokens), tokens: n.sysTokens + e.params.RequestOverheadTokens}
	r.resetWords()
	tables := r.buf.tables[:0]
	tt := e.tables
	if len(n.servers) == 0 {
		for _, name := range tt.names {
			tables = append(tables, tt.latest[name])
		}
	} else {
		for _, s := range n.servers {
			if st := tt.lookup(s.Name, s.Version); st != nil {
				tables = append(tables, st)
			}
		}
		sortTables(tables)
	}
	r.buf.tables = tables
	r.sess.set, r.buf.key = e.set(tables, r.buf.key)
}

// endSession lets the session's need go: the next run recomputes what
// its strategies share.
func (r *replayer) endSession() {
	r.sess.need, r.sess.set = nil, nil
	r.resetWords()
	r.resetQueries()
}

// userWords returns contentWords(r.st.lastUser), computed once per user
// step for every strategy of the session.
func (r *replayer) userWords() []string {
	if ws, ok := r.sess.words[r.st.userStep]; ok {
		return ws
	}
	start := len(r.sess.list)
	r.sess.list = appendContentWords(r.sess.list, r.st.lastUser, &r.memo.wordsSeen)
	ws := r.sess.list[start:len(r.sess.list):len(r.sess.list)]
	if r.sess.words == nil {
		r.sess.words = map[int][]string{}
	}
	r.sess.words[r.st.userStep] = ws
	return ws
}

// Bounds of the word memory a replayer keeps from one session to the next.
const (
	maxReusedWords     = 4096
	maxReusedUserSteps = 256
)

// resetWords forgets the session's content words (keeping their memory).
func (r *replayer) resetWords() {
	if len(r.sess.words) > maxReusedUserSteps {
		r.sess.words = nil
	}
	clear(r.sess.words)
	if cap(r.sess.list) > maxReusedWords {
		r.sess.list = nil
	}
	clear(r.sess.list)
	r.sess.list = r.sess.list[:0]
}

// toolMemo is what a replayer derives from a tool's name, once per tool
// (by id) for every session and strategy.
type toolMemo struct {
	ok      bool     // words and query are set
	words   []string // nameWords(name)
	query   string   // words joined by spaces: the name as a keyword query
	counted bool     // nameTok is set
	nameTok int64    // e.countText(name)
	// selectTok is the size of the search call "select:NAME" (selectTokens).
	selectCounted bool
	selectTok     int64
}

func (r *replayer) toolMemo(ti *Tool) *toolMemo {
	m := &r.memo
	if int(ti.id) >= len(m.tools) {
		m.tools = append(m.tools, make([]toolMemo, int(ti.id)+1-len(m.tools))...)
	}
	tm := &m.tools[ti.id]
	if !tm.ok {
		tm.words = nameWords(ti.name)
		tm.query = strings.Join(tm.words, " ")
		tm.ok = true
	}
	return tm
}

// familyMember is matchList(r.s.Search.Family, ti.server, ti.name),
// worked out once per strategy and tool.
func (r *replayer) familyMember(ti *Tool) bool {
	m := &r.memo
	if len(m.family) <= r.si {
		m.family = append(m.family, make([][]uint8, r.si+1-len(m.family))...)
	}
	fm := m.family[r.si]
	if int(ti.id) >= len(fm) {
		fm = append(fm, make([]uint8, int(ti.id)+1-len(fm))...)
		m.family[r.si] = fm
	}
	if fm[ti.id] == 0 {
		fm[ti.id] = 1
		if matchList(r.s.Search.Family, ti.server, ti.name) {
			fm[ti.id] = 2
		}
	}
	return fm[ti.id] == 2
}

// nameTokens is e.countText(ti.name).
func (r *replayer) nameTokens(ti *Tool) int64 {
	tm := r.toolMemo(ti)
	if !tm.counted {
		tm.nameTok, tm.counted = r.e.countText(ti.name), true
	}
	return tm.nameTok
}

func containsTool(list []*Tool, ti *Tool) bool {
	for _, t := range list {
		if t.ident == ti.ident {
			return true
		}
	}
	return false
}

// appendSearchCall appends the arguments of a search call for query,
// {"query":"..."}, with the query quoted as encoding/json quotes it.
func appendSearchCall(dst, query []byte) []byte {
	dst = append(dst, `{"query":`...)
	dst = appendJSONString(dst, query)
	return append(dst, '}')
}

// appendJSONString appends s as json.Marshal encodes a string. Printable
// ASCII other than the characters json.Marshal escapes (quote, backslash
// and the HTML-sensitive <, > and &) is copied; anything else goes through
// json.Marshal itself.
func appendJSONString(dst, s []byte) []byte {
	for _, c := range s {
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			b, _ := json.Marshal(string(s))
			return append(dst, b...)
		}
	}
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"')
}
