package srd

import (
	"strings"
	"testing"
)

// TestLintDisambiguationMessages pins two lint messages that misled: an
// entry naming a domain no SRD of the linted set claims (a neighbour whose
// SRD is in another file, or misspelt) was also reported as "names no
// neighbouring domain: at least one entry must name a domain other than
// ...", which it does; and "names the SRD's own domain: name the neighbouring
// server too" had no line (the field it names, server, is the one missing).
func TestLintDisambiguationMessages(t *testing.T) {
	const head = "srd_version: 1\nserver_id: a\ndomain: chat\ndisambiguation:\n"
	for _, tc := range []struct {
		name, entries string
		want          []string // each problem as "line: field: message part"
	}{
		{
			name:    "unknown neighbour",
			entries: "  - domain: deploys\n    differs: runs releases\n",
			want:    []string{`5: disambiguation[0].domain: names no known domain: "deploys"`},
		},
		{
			name:    "only its own domain",
			entries: "  - domain: chat\n    server: b\n    differs: the other chat\n",
			want:    []string{`5: disambiguation: names no neighbouring domain`},
		},
		{
			name:    "own domain without a server",
			entries: "  - domain: email\n    differs: mail\n  - domain: chat\n    differs: the other chat\n",
			want:    []string{`7: disambiguation[1].server: names the SRD's own domain "chat"`},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := head + tc.entries + "display_name: A\nintent_triggers: [x]\n"
			srds, probs := Parse("a.yaml", []byte(src))
			if len(probs) > 0 {
				t.Fatal(probs)
			}
			ps := Lint(srds, LintOptions{KnownDomains: []string{"email"}, KnownServers: []string{"b"}})
			var got []string
			for _, p := range ps {
				got = append(got, strings.TrimPrefix(p.String(), "a.yaml:"))
			}
			if len(got) != len(tc.want) {
				t.Fatalf("problems:\n%s\nwant %d: %q", strings.Join(got, "\n"), len(tc.want), tc.want)
			}
			for i, w := range tc.want {
				if !strings.HasPrefix(got[i], w) {
					t.Errorf("problem %d = %q, want it to start %q", i, got[i], w)
				}
			}
		})
	}
}
