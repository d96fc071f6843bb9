package main

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/shareddata"
)

// TestRecommendDocExample pins the output docs/recommend.md quotes — the
// one-session sample of "Small samples", the worked example on the
// tau-bench airline sessions with its snippet, and the same rules under
// inline mechanics — to what recommend prints now. The worked example had
// drifted: its validation table lacked the anthropic-api-inline-regex
// preset (13 strategies where the binary compares 14) and quoted the
// proposal at $0.08653 where it costs $0.08652. The test runs the commands
// of every block the doc marks `<!-- output: … -->`, in the doc's order, in
// one working directory, and compares their output and the snippet with the
// quotes; `go test ./cmd/defersim -run TestRecommendDocExample -update`
// rewrites the quotes that elide nothing.
func TestRecommendDocExample(t *testing.T) {
	if testing.Short() {
		t.Skip("replays 200 real sessions under 15 strategies (-short)")
	}
	// The doc's commands name the real data as ../shared/data/…; the
	// variable keeps it found from the temporary working directory.
	t.Setenv("DEFERSIM_SHARED_DATA", shareddata.Dir(t))
	doc, err := filepath.Abs(filepath.Join("..", "..", "docs", "recommend.md"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	shell := map[string]func() error{
		// The first session of an imported trace, as the doc's pipeline
		// cuts it: the lines up to the second session_start.
		`zcat tau.jsonl.gz | awk '/session_start/{n++} n<=1' | gzip > tau1.jsonl.gz`: func() error {
			return firstSessionLines("tau.jsonl.gz", "tau1.jsonl.gz", 1)
		},
	}
	docRun(t, doc, func(rel string) string { return shareddata.Path(t, filepath.FromSlash(rel)) }, shell)

	// The prose's search figures, from the worked example's validation
	// results: why anthropic-api-inline-regex costs less than
	// claude-code-default at the same first reply.
	b, err := os.ReadFile(filepath.Join("out", "recommend-validation.json"))
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Strategies []struct {
			Name    string `json:"name"`
			Metrics map[string]struct {
				Mean float64 `json:"mean"`
			} `json:"metrics"`
		} `json:"strategies"`
	}
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	m := map[string]map[string]float64{}
	for _, s := range res.Strategies {
		m[s.Name] = map[string]float64{}
		for k, v := range s.Metrics {
			m[s.Name][k] = v.Mean
		}
	}
	regex, ccd := m["anthropic-api-inline-regex"], m["claude-code-default"]
	if regex == nil || ccd == nil {
		t.Fatalf("validation results lack anthropic-api-inline-regex or claude-code-default: %v", slices.Sorted(maps.Keys(m)))
	}
	text, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	prose := strings.Join(strings.Fields(string(text)), " ")
	for _, want := range []string{
		"Its regular-expression search never missed",
		fmt.Sprintf("`claude-code-default`'s searches were retried %.2f times per session", ccd["search_retries"]),
		fmt.Sprintf("fewer requests (%.1f per session against %.1f)", regex["requests"], ccd["requests"]),
	} {
		if !strings.Contains(prose, want) {
			t.Errorf("docs/recommend.md lacks %q (the validation results' figures)", want)
		}
	}
	if regex["search_misses"] != 0 || regex["requests"] >= ccd["requests"] {
		t.Errorf("anthropic-api-inline-regex: %v search misses, %v requests against claude-code-default's %v: the doc's explanation no longer holds",
			regex["search_misses"], regex["requests"], ccd["requests"])
	}
}

// firstSessionLines copies the lines of the gzipped trace src up to its
// (n+1)th session_start into the gzipped file dst.
func firstSessionLines(src, dst string, n int) (err error) {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	zr, err := gzip.NewReader(in)
	if err != nil {
		return err
	}
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, out.Close()) }()
	zw := gzip.NewWriter(out)
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 64<<20)
	for seen := 0; sc.Scan(); {
		if strings.Contains(sc.Text(), "session_start") {
			if seen++; seen > n {
				break
			}
		}
		if _, err := zw.Write(append(sc.Bytes(), '\n')); err != nil {
			return err
		}
	}
	return errors.Join(sc.Err(), zr.Close(), zw.Close())
}
