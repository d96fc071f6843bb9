package routed

import (
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/sim/search"
	"github.com/defersim/defersim/srd"
)

// ToolFieldDocs returns the fielded documents of docs: each tool's own
// fields (search.ToolFields) and, in the triggers field, the intent
// triggers of its SRD (set.ForTool; none without one).
func ToolFieldDocs(set *srd.Set, docs []sim.ToolDoc) []search.FieldDoc {
	out := make([]search.FieldDoc, len(docs))
	for i, d := range docs {
		fd := search.ToolFields(d)
		if s := set.ForTool(d.Server, d.Name); s != nil {
			fd[search.FieldTriggers] = s.IntentTriggers
		}
		out[i] = fd
	}
	return out
}

// Fielded returns a factory of flat fielded BM25 rankers (search.BM25F)
// over the tools with their SRD triggers from set (nil: no triggers).
func Fielded(set *srd.Set, p search.BM25FParams) sim.RankerFactory {
	return func(docs []sim.ToolDoc) (sim.Ranker, error) {
		x, err := search.NewBM25F(ToolFieldDocs(set, docs), p)
		if err != nil {
			return nil, err
		}
		return x, nil
	}
}
