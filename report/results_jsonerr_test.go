package report

import (
	"strings"
	"testing"
)

// TestResultsJSONErrorNamesFieldAndLine pins what a results.json of the
// wrong shape gets: the line and column, the field's JSON path and the
// JSON kinds in words. It printed Go's own text ("cannot unmarshal string
// into Go struct field Results.strategies of type
// []report.StrategyResult"), which names Go types and no line.
func TestResultsJSONErrorNamesFieldAndLine(t *testing.T) {
	for _, tc := range []struct{ name, data, want string }{
		{"array where an object belongs", "{\n  \"schema_version\": 1,\n  \"strategies\": \"x\"\n}",
			"line 3, near column 20: strategies holds a JSON string where an array belongs"},
		{"fraction where a whole number belongs", `{"schema_version": 1, "sessions": 1.5, "strategies": [{"name": "a"}]}`,
			"line 1, near column 38: sessions holds a JSON number 1.5 where a whole number belongs"},
		{"string where a number belongs", `{"schema_version": 1, "strategies": [{"name": "a", "metrics": {"cost_usd": {"mean": "12"}}}]}`,
			"strategies.metrics.mean holds a JSON string where a number belongs"},
		{"schema_version a string", `{"schema_version": "1"}`,
			"line 1, near column 23: schema_version holds a JSON string where a whole number belongs"},
		{"top level an array", `[1]`, "line 1, near column 2: the top level holds a JSON array where an object belongs"},
		{"cut", "{\n\"schema_version\": 1,\n\"strategies\": [", "line 3, near column 16: not valid JSON (unexpected end of JSON input): the file was cut"},
		{"empty", " \n", "the file is empty"},
	} {
		_, err := DecodeResults([]byte(tc.data))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want it to hold %q", tc.name, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), "Go ") {
			t.Errorf("%s: err = %v names Go types", tc.name, err)
		}
	}
}
