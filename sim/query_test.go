package sim

import "testing"

func TestKeywordQuery(t *testing.T) {
	const user = "Could you please check the weather forecast for Paris tomorrow?"
	for _, tc := range []struct {
		model, mode string
		names       bool
		user, tool  string
		want        string
	}{
		{"auto", "bm25", true, user, "get_weather_forecast", user},
		{"auto", "keyword", true, user, "get_weather_forecast", "check weather forecast paris"},
		{"auto", "substring", true, user, "get_weather_forecast", "forecast"},
		{"auto", "regex", false, user, "get_weather_forecast", "forecast"}, // longest content word of the user text
		{"auto", "substring", true, "", "x", "x"},
		{"auto", "bm25", true, "", "listOpenIssues", "list open issues"},
		{"user-text", "substring", true, user, "get_weather_forecast", user},
		{"name-words", "bm25", true, user, "browser_take-screenshot", "browser take screenshot"},
	} {
		if got := keywordQuery(tc.model, tc.mode, tc.names, tc.user, tc.tool); got != tc.want {
			t.Errorf("keywordQuery(%s, %s, names=%v, %q) = %q, want %q", tc.model, tc.mode, tc.names, tc.tool, got, tc.want)
		}
	}
}
