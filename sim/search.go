package sim

import (
	"encoding/json"
	"sync"
)

// ToolDoc is what a search ranker sees of one tool.
type ToolDoc struct {
	Name, Server, Description string
	Schema                    json.RawMessage
	// Memo is shared by every ToolDoc of this tool in a run (nil: none);
	// rankers keep there what they derive from the document.
	Memo *DocMemo
}

// Ranker ranks a fixed corpus of tools for a query. Rank returns corpus
// indices, best first, at most k of them; a k larger than the corpus asks
// for as many as the corpus holds (Rank(q, k) = Rank(q, len(corpus))).
// Implementations are safe for concurrent use once built, and Rank is a
// function of its arguments: the engine memoises its results.
type Ranker interface {
	Rank(query string, k int) []int
}

// NestedRanker is a Ranker that can declare its rankings nested: when
// Nested returns true, Rank(q, k) is, for every k ≤ k′, the first k results
// of Rank(q, k′) (all of them when it holds fewer) — the ranker orders the
// documents that match q by one order that does not depend on k and cuts
// it. The engine then answers searches for different k with the same query
// from one memoised ranking. Nested is asked once, when the ranker is
// built; a ranker that does not implement it is asked for each k.
type NestedRanker interface {
	Ranker
	Nested() bool
}

// RankerFactory builds a ranker over a corpus.
type RankerFactory func(docs []ToolDoc) (Ranker, error)

// rankerCache builds each (mode, corpus) ranker once per run and shares it
// between workers.
type rankerCache struct {
	mu   sync.Mutex
	m    map[string]*rankerEntry
	docs map[int32]*DocMemo // by tool id: what rankers derive from it
}

type rankerEntry struct {
	once  sync.Once
	r     Ranker
	err   error
	tools []*Tool
	// nested: r declares its rankings nested (NestedRanker), so the memo
	// keeps one ranking per query and cuts it to each k.
	nested bool
	memo   rankMemo
}

// get returns the ranker of mode over the corpus identified by key; corpus
// is called only when the ranker is first built.
func (c *rankerCache) get(mode string, f RankerFactory, key string, corpus func() []*Tool) (*rankerEntry, error) {
	c.mu.Lock()
	if c.m == nil {
		c.m = map[string]*rankerEntry{}
	}
	e := c.m[mode+"\x00"+key]
	if e == nil {
		e = &rankerEntry{}
		c.m[mode+"\x00"+key] = e
	}
	c.mu.Unlock()
	e.once.Do(func() {
		e.tools = corpus()
		docs := make([]ToolDoc, len(e.tools))
		c.mu.Lock()
		if c.docs == nil {
			c.docs = map[int32]*DocMemo{}
		}
		for i, t := range e.tools {
			m := c.docs[t.id]
			if m == nil {
				m = &DocMemo{}
				c.docs[t.id] = m
			}
			docs[i] = ToolDoc{Name: t.name, Server: t.server, Description: t.desc, Schema: t.schema, Memo: m}
		}
		c.mu.Unlock()
		e.r, e.err = f(docs)
		if nr, ok := e.r.(NestedRanker); ok && e.err == nil {
			e.nested = nr.Nested()
		}
	})
	return e, e.err
}

// searchToolNames are the names recording runtimes give their search tool.
var searchToolNames = map[string]bool{"tool_search": true, "ToolSearch": true, "search_tools": true, "tool_search_tool_regex": true, "tool_search_tool_bm25": true}

// isSearchTool reports whether name is a runtime's tool-search tool.
func isSearchTool(name string) bool { return searchToolNames[name] }
