package sim

import (
	"regexp"
	"strings"
)

// QueryModel says what query the model writes for a needed tool when the
// trace recorded none. A search mode is registered with the query model
// its rankers expect (RegisterSearch); params.query_model "auto" uses it,
// any other value names the query model every mode uses. A query must be
// a function of the input alone: the replay asks once per session, user
// step, tool and directory kind, and gives every strategy of the session
// that uses the model the same answer (sim/querymemo.go).
type QueryModel interface {
	Query(in QueryInput) string
}

// QueryInput is what a query model reads: the latest user text and the
// needed tool's name, with their words (computed once per session and tool).
type QueryInput struct {
	// User is the latest user message ("" before the first).
	User string
	// UserWords returns User's content words (lowercased, stopwords and
	// repeats removed, in order); computed only when called.
	UserWords func() []string
	// ToolWords is the tool's name split into words; ToolQuery joins them
	// with spaces.
	ToolWords []string
	ToolQuery string
	// DirectoryShowsNames: the model sees the tool's name in a directory.
	DirectoryShowsNames bool
}

// DefaultQueryModel is the query model of a search mode registered
// without one: the user's latest message, a natural-language query.
const DefaultQueryModel = "user-text"

// queryAuto is the params.query_model value that lets each search mode use
// the query model it was registered with.
const queryAuto = "auto"

type queryFunc func(in QueryInput) string

func (f queryFunc) Query(in QueryInput) string { return f(in) }

func userTextQuery(in QueryInput) string {
	if in.User != "" {
		return in.User
	}
	return in.ToolQuery
}

func nameWordsQuery(in QueryInput) string { return in.ToolQuery }

func contentWordsQuery(in QueryInput) string {
	if cw := in.UserWords(); len(cw) > 0 {
		return strings.Join(cw[:min(4, len(cw))], " ")
	}
	return in.ToolQuery
}

// shortTermQuery is one short term, as a model searching by substring or
// pattern writes: the longest word of the tool's name when the directory
// shows it (and it has at least 3 letters), else the longest content word
// of the user's text.
func shortTermQuery(in QueryInput) string {
	if in.DirectoryShowsNames {
		best := ""
		for _, w := range in.ToolWords {
			if len(w) > len(best) {
				best = w
			}
		}
		if len(best) >= 3 {
			return best
		}
	}
	if cw := in.UserWords(); len(cw) > 0 {
		best := cw[0]
		for _, w := range cw {
			if len(w) > len(best) {
				best = w
			}
		}
		return best
	}
	return in.ToolQuery
}

func regexTermQuery(in QueryInput) string { return regexp.QuoteMeta(shortTermQuery(in)) }

func registerQueryModels(r *Registry) error {
	for _, q := range []struct {
		name, desc string
		f          queryFunc
	}{
		{DefaultQueryModel, "the latest user message (the tool's name words before the first); the default of a search mode registered without one", userTextQuery},
		{"name-words", "the needed tool's name split into words: the optimistic bound", nameWordsQuery},
		{"content-words", "the first four content words of the latest user message (stopwords removed); else the name words", contentWordsQuery},
		{"short-term", "one short term: the longest word (3+ letters) of the tool's name when the directory shows names, else the longest content word of the user message", shortTermQuery},
		{"regex-term", "short-term with regular-expression metacharacters escaped", regexTermQuery},
	} {
		if err := r.RegisterQueryModel(Info{Name: q.name, Description: q.desc}, q.f); err != nil {
			return err
		}
	}
	return nil
}
