package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestSRDEvalSaysWhichSRDs pins that srd eval says which SRDs routed its
// arms — the given files, the ones shipped with defersim, or none — in the
// report's subtitle and in results.json (srd_source). It said only how
// many, so a user who wrote SRDs and forgot --srd read the shipped ones'
// figures as their own.
func TestSRDEvalSaysWhichSRDs(t *testing.T) {
	rd := filepath.Join("..", "..", "internal", "retrieval", "testdata")
	own := filepath.Join(rd, "ownset")
	eval := filepath.Join(rd, "eval")
	for _, tc := range []struct {
		name       string
		args       []string
		subtitle   string
		srdSource  string
		srdsInJSON int
	}{
		{"given", []string{"--set", filepath.Join(eval, "tasks.yaml"), "--catalogs", filepath.Join(eval, "catalogs"), "--srd", filepath.Join(eval, "srd")},
			"(3 SRDs: " + filepath.Join(eval, "srd") + ")", filepath.Join(eval, "srd"), 3},
		{"shipped", []string{"--set", filepath.Join(own, "team.yaml"), "--catalogs", filepath.Join(own, "catalogs")},
			"(1 SRD: shipped with defersim; they describe 1 of the corpus's 2 servers, not acme-deploy, each a domain of its own)", "shipped", 1},
		{"none", []string{"--set", filepath.Join(own, "team.yaml"), "--catalogs", filepath.Join(own, "catalogs"), "--srd", "none"},
			"(0 SRDs: --srd none)", "none", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := append([]string{"eval", "--rankers", "bm25", "--modes", "flat,routed", "--resamples", "20"}, tc.args...)
			out, code := runSRDCmd(t, base...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, out)
			}
			if !strings.Contains(out, tc.subtitle) {
				t.Errorf("report does not say %q:\n%s", tc.subtitle, out)
			}
			js, code := runSRDCmd(t, append(base, "--format", "json")...)
			if code != 0 {
				t.Fatalf("json: exit %d: %s", code, js)
			}
			var res struct {
				SRDs      int    `json:"srds"`
				SRDSource string `json:"srd_source"`
			}
			if err := json.Unmarshal([]byte(js[strings.Index(js, "{"):]), &res); err != nil {
				t.Fatal(err)
			}
			if res.SRDSource != tc.srdSource || res.SRDs != tc.srdsInJSON {
				t.Errorf("results: srds %d, srd_source %q; want %d, %q", res.SRDs, res.SRDSource, tc.srdsInJSON, tc.srdSource)
			}
		})
	}
}
