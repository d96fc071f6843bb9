package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func sampleResults(t testing.TB, strategies, sessions int) *Results {
	t.Helper()
	p := syntheticPrices
	res, err := Build(syntheticOutcomes(strategies, sessions, 1), syntheticInfo(), BuildOptions{Prices: &p, Bootstrap: 200})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestResultsRoundTrip(t *testing.T) {
	res := sampleResults(t, 3, 40)
	path := filepath.Join(t.TempDir(), "results.json")
	if err := WriteResults(path, res); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasSuffix(data, []byte("}\n")) || bytes.HasSuffix(data, []byte("\n\n")) {
		t.Error("results.json does not end with exactly one newline")
	}
	if !bytes.HasPrefix(data, []byte("{\n  \"schema_version\": 1,\n")) {
		t.Errorf("results.json starts with %q", data[:40])
	}
	back, err := ReadResults(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(res, back); diff != "" {
		t.Fatalf("round trip changed the results (-wrote +read):\n%s", diff)
	}
	again, _ := MarshalResults(back)
	if !bytes.Equal(data, again) {
		t.Fatal("re-encoding read results gives different bytes")
	}
}

func TestDecodeResultsRejects(t *testing.T) {
	good, err := MarshalResults(sampleResults(t, 2, 5))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, data, substr string
	}{
		{"not json", "nope", "not a results file"},
		{"no version", `{"strategies": []}`, "no schema_version"},
		{"future version", `{"schema_version": 2}`, "schema_version 2 is not supported"},
		{"version zero", `{"schema_version": 0}`, "schema_version 0 is not supported"},
		{"no strategies", `{"schema_version": 1, "strategies": []}`, "no strategies"},
		{"unnamed strategy", `{"schema_version": 1, "strategies": [{"name": ""}]}`, "no name"},
		{"duplicate strategy", `{"schema_version": 1, "strategies": [{"name": "a"}, {"name": "a"}]}`, "twice"},
		{"short grid", `{"schema_version": 1, "strategies": [{"name": "a", "metrics": {"cost_usd": {"count": 1, "quantiles": [1, 2]}}}]}`, "2 quantiles"},
		{"wrong type", `{"schema_version": 1, "sessions": "many"}`, "decode results"},
		{"truncated", string(good[:len(good)/2]), "not a results file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DecodeResults([]byte(tc.data))
			if err == nil || !strings.Contains(err.Error(), tc.substr) {
				t.Fatalf("error %v, want one containing %q", err, tc.substr)
			}
		})
	}
	if _, err := ReadResults(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Fatal("reading a missing file succeeded")
	}
}

func TestIndentJSON(t *testing.T) {
	in := `{"a":[1,2.5,"x<y",true,null],"b":{},"c":[],"d":[{"e":1},2],"f":{"g":"h"}}`
	want := `{
  "a": [1, 2.5, "x<y", true, null],
  "b": {},
  "c": [],
  "d": [
    {
      "e": 1
    },
    2
  ],
  "f": {
    "g": "h"
  }
}
`
	got, err := indentJSON([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Fatalf("indentJSON (-want +got):\n%s", diff)
	}
	if _, err := indentJSON([]byte(`{"a":1} {}`)); err == nil {
		t.Fatal("trailing data accepted")
	}
}

// FuzzDecodeResults fuzzes the parser behind ReadResults, and the text
// renderers on whatever it accepts: none may panic.
func FuzzDecodeResults(f *testing.F) {
	good, err := MarshalResults(sampleResults(f, 2, 4))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add([]byte(`{"schema_version": 1, "strategies": [{"name": "a"}]}`))
	f.Add([]byte(`{"schema_version": 1, "sessions": 3, "strategies": [{"name": "a", "baseline": true, "metrics": {"cost_usd": {"count": 3, "mean": 1}}}, {"name": "b", "vs_baseline": {"cost_usd": {"ratio": 2, "ratio_ci": {"low": 1, "high": 3}}}}]}`))
	f.Add([]byte(`{"schema_version": 2}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := DecodeResults(data)
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := Summary(&buf, res); err != nil {
			t.Fatalf("summary of accepted results: %v", err)
		}
		markdownReport(res, nil)
		if _, err := htmlReport(res, nil); err != nil {
			t.Fatalf("html of accepted results: %v", err)
		}
		if _, err := MarshalResults(res); err != nil {
			t.Fatalf("re-encoding accepted results: %v", err)
		}
	})
}

func TestFlattenJSON(t *testing.T) {
	got, err := flattenJSON([]byte(`{"name":"x","trigger":{"mode":"count","count":30},"list":["a","b"],"objs":[{"k":1}],"empty":{},"flag":true,"desc":{"deep":[1]}}`), "name", "desc")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"trigger.mode=count", "trigger.count=30", "list=a,b", "objs[0].k=1", "flag=true"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("flattenJSON (-want +got):\n%s", diff)
	}
}
