package search

import "github.com/defersim/defersim/sim"

// docTerms is a tool document's distinct tokens in order of first
// appearance, with their counts, and its length in tokens (the sum of
// the counts): what BM25 and Keyword index of a document.
type docTerms struct {
	terms []string
	tf    []int32
	n     int
}

// termsKey is what docTerms depend on besides the document: the name's
// weight and whether the server name is read (BM25Params.OmitServer).
type termsKey struct {
	nameWeight int
	server     bool
}

// termCounter builds the docTerms of one name weight; its map is reused
// from one document to the next.
type termCounter struct {
	nameWeight int
	keys       [2]any           // termsKey without and with the server, boxed once
	at         map[string]int32 // token → index in the current document's terms
	buf        [64]byte
}

func newTermCounter(nameWeight int) *termCounter {
	return &termCounter{nameWeight: nameWeight,
		keys: [2]any{termsKey{nameWeight, false}, termsKey{nameWeight, true}}}
}

// terms returns doc's docTerms, from doc's memo when another ranker of
// the run derived them. The result is shared: callers must not modify it.
func (c *termCounter) terms(doc sim.ToolDoc) *docTerms {
	key := c.keys[0]
	if doc.Server != "" {
		key = c.keys[1]
	}
	return doc.Memo.Load(key, func() any { return c.count(doc, c.nameWeight) }).(*docTerms)
}

func (c *termCounter) count(doc sim.ToolDoc, nameWeight int) *docTerms {
	if c.at == nil {
		c.at = map[string]int32{}
	}
	clear(c.at)
	t := &docTerms{}
	EachDocToken(doc, nameWeight, c.buf[:0], func(tok []byte) {
		t.n++
		if i, ok := c.at[string(tok)]; ok {
			t.tf[i]++
			return
		}
		c.at[string(tok)] = int32(len(t.terms))
		t.terms = append(t.terms, string(tok))
		t.tf = append(t.tf, 1)
	})
	return t
}
