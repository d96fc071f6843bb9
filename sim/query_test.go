package sim

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/defersim/defersim/component"
)

// TestQueryModels pins what each registered query model writes, and
// which one each search mode of the default registry uses (through its
// registration, never its name).
func TestQueryModels(t *testing.T) {
	const user = "Could you please check the weather forecast for Paris tomorrow?"
	reg := NewRegistry()
	query := func(model string, names bool, user, tool string) string {
		q, err := resolveAs[QueryModel](reg, component.QueryModel, "query_model", model)
		if err != nil {
			t.Fatal(err)
		}
		words := nameWords(tool)
		return q.Query(QueryInput{User: user, UserWords: func() []string { return contentWords(user) },
			ToolWords: words, ToolQuery: strings.Join(words, " "), DirectoryShowsNames: names})
	}
	for _, tc := range []struct {
		model      string
		names      bool
		user, tool string
		want       string
	}{
		{"user-text", true, user, "get_weather_forecast", user},
		{"user-text", true, "", "listOpenIssues", "list open issues"},
		{"content-words", true, user, "get_weather_forecast", "check weather forecast paris"},
		{"content-words", true, "", "get_weather_forecast", "get weather forecast"},
		{"short-term", true, user, "get_weather_forecast", "forecast"},
		{"short-term", false, "open the spreadsheet", "get_weather_forecast", "spreadsheet"}, // the user text's longest content word
		{"short-term", true, "", "x", "x"},
		{"regex-term", true, user, "get_weather_forecast", "forecast"},
		{"name-words", true, user, "browser_take-screenshot", "browser take screenshot"},
	} {
		if got := query(tc.model, tc.names, tc.user, tc.tool); got != tc.want {
			t.Errorf("%s(names=%v, %q, %q) = %q, want %q", tc.model, tc.names, tc.user, tc.tool, got, tc.want)
		}
	}
	// Every registered query model answers; the default is registered.
	for _, name := range reg.Names(component.QueryModel) {
		if query(name, true, user, "get_weather_forecast") == "" {
			t.Errorf("query model %s wrote an empty query", name)
		}
	}
	if _, ok := reg.lookup(component.QueryModel, DefaultQueryModel); !ok {
		t.Errorf("the default query model %q is not registered", DefaultQueryModel)
	}
}

// TestRankerWithoutQueryModelGetsTheDefault pins the fix of a silent
// wrong answer: a search mode registered without a query model used to get
// the substring modes' one-word query because its name matched none of the
// names the query code switched on. Now it gets DefaultQueryModel, and
// "auto" resolves to whatever the mode was registered with.
func TestRankerWithoutQueryModelGetsTheDefault(t *testing.T) {
	reg := NewRegistry()
	none := func([]ToolDoc) (Ranker, error) { return nil, nil }
	if err := reg.RegisterRanker("new-mode", none); err != nil {
		t.Fatal(err)
	}
	if err := reg.RegisterSearch(Info{Name: "terse", Description: "d", QueryModel: "short-term"}, none); err != nil {
		t.Fatal(err)
	}
	if err := reg.RegisterSearch(Info{Name: "bad", Description: "d", QueryModel: "no-such-model"}, none); err == nil {
		t.Error("a search mode with an unregistered query model was registered")
	}
	in := QueryInput{User: "please open the pull request", UserWords: func() []string { return contentWords("please open the pull request") },
		ToolWords: []string{"create", "pull", "request"}, ToolQuery: "create pull request", DirectoryShowsNames: true}
	for _, tc := range []struct{ mode, model, want string }{
		{"new-mode", queryAuto, "please open the pull request"},
		{"new-mode", "", "please open the pull request"},
		{"terse", queryAuto, "request"},
		{"terse", "name-words", "create pull request"},
	} {
		_, q, _, err := reg.search(tc.mode, tc.model)
		if err != nil {
			t.Fatal(err)
		}
		if got := q.Query(in); got != tc.want {
			t.Errorf("mode %s, query_model %q: query %q, want %q", tc.mode, tc.model, got, tc.want)
		}
	}
}

// fieldsContentWords is contentWords as it was first written (FieldsFunc
// and a map): appendContentWords must split and dedupe exactly as it did.
func fieldsContentWords(s string) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if len(w) < 2 || isStopword(w) || seen[w] {
			continue
		}
		seen[w] = true
		out = append(out, w)
	}
	return out
}

func TestAppendContentWords(t *testing.T) {
	var long []string // more distinct words than are compared one by one, with repeats
	for i := range 3 * seenWordsAfter {
		long = append(long, fmt.Sprintf("w%d", i%(2*seenWordsAfter)), "the")
	}
	texts := []string{
		"",
		"Could you please check the weather forecast for Paris tomorrow?",
		"a b c ab AB Ab aB ab",
		"read_file, READ-file; ReadFile read.file",
		"naïve café — ÉCOLE école 東京 東京 ½ ٣٤ x9 9x",
		"bad \xff\xfe bytes\xffbetween words",
		strings.Join(long, " "),
		strings.Join(long, ", ") + " W1 w33 w0",
	}
	// One scratch map through every text, as a replayer uses it.
	var seen map[string]bool
	var dst []string
	for _, s := range texts {
		want := fieldsContentWords(s)
		if got := contentWords(s); !slices.Equal(got, want) {
			t.Errorf("contentWords(%q) = %q, want %q", s, got, want)
		}
		dst = append(dst[:0], "kept")
		dst = appendContentWords(dst, s, &seen)
		if dst[0] != "kept" || !slices.Equal(dst[1:], want) {
			t.Errorf("appendContentWords([kept], %q) = %q, want kept + %q", s, dst, want)
		}
	}
}
