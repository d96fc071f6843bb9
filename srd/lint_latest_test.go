package srd

import (
	"strings"
	"testing"

	"github.com/defersim/defersim/catalog"
)

// TestLintWarnsToolOnlyOlderVersionsServe pins that a tool_groups tool
// that only older catalog versions of the server serve is a warning naming
// the latest versions and those that serve it: it linted clean, though a
// session on the latest version cannot call it. A tool the latest version
// of a launch variant serves is no warning, and a warning is no error
// (Problems.Errors: run and srd eval still read the SRD).
func TestLintWarnsToolOnlyOlderVersionsServe(t *testing.T) {
	parse := func(server, version, variant, tools string) *catalog.Server {
		s, err := catalog.Parse([]byte(`{"tools":[`+tools+`]}`), server, version, variant)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	cat := catalog.New(
		parse("fs", "1.0", "", `{"name":"read"},{"name":"stat"},{"name":"glob"}`),
		parse("fs", "1.5", "", `{"name":"read"},{"name":"stat"}`),
		parse("fs", "2.0", "", `{"name":"read"}`),
		parse("fs", "0.9", "wide", `{"name":"read"},{"name":"grep"}`),
		parse("fs", "1.0", "wide", `{"name":"read"}`),
		parse("fs", "1.0", "big", `{"name":"read"},{"name":"glob"}`),
	)
	for _, tc := range []struct {
		name, tools string
		want        string // the warning's message; "" none
	}{
		{"served by the latest", "[read]", ""},
		{"two older versions", "[stat]", `tool "stat" is not in the latest version of fs (fs@2.0, fs@1.0+big, fs@1.0+wide): only fs@1.0, fs@1.5 serve it; a session on the latest version cannot call it`},
		{"an older variant", "[grep]", `tool "grep" is not in the latest version of fs (fs@2.0, fs@1.0+big, fs@1.0+wide): only fs@0.9+wide serves it; a session on the latest version cannot call it`},
		{"a variant's latest", "[glob]", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "srd_version: 1\nserver_id: fs\ndomain: files\ndisambiguation:\n  - domain: email\n    differs: mail\n" +
				"display_name: A\nintent_triggers: [x]\ntool_groups:\n  g: " + tc.tools + "\n"
			srds, probs := Parse("a.yaml", []byte(src))
			if len(probs) > 0 {
				t.Fatal(probs)
			}
			got := Lint(srds, LintOptions{Catalog: cat, KnownDomains: []string{"email"}})
			if errs := got.Errors(); len(errs) > 0 {
				t.Fatalf("errors: %v", errs)
			}
			if tc.want == "" {
				if len(got) > 0 {
					t.Errorf("warned: %v", got)
				}
				return
			}
			if len(got) != 1 || !got[0].Warning || got[0].Msg != tc.want || got[0].Field != "tool_groups.g[0]" ||
				!strings.Contains(got[0].String(), ": tool_groups.g[0]: warning: tool ") {
				t.Errorf("got %v\nwant one warning %q", got, tc.want)
			}
		})
	}
}

// TestLintUnorderedSeriesSaysTheLatestIsUnknown pins that a tool_groups
// tool the last version by spelling of a series versioned by content hash
// does not serve is warned of without calling that version the latest:
// lint said "not in the latest version of swe (swe@f00d…)" and "a session
// on the latest version cannot call it" of versions that have no order.
func TestLintUnorderedSeriesSaysTheLatestIsUnknown(t *testing.T) {
	parse := func(version, tools string) *catalog.Server {
		s, err := catalog.Parse([]byte(`{"tools":[`+tools+`]}`), "swe", version, "")
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	for _, tc := range []struct {
		name string
		cat  *catalog.Catalog
		want string // the warning's message; "" none
	}{
		{"content hashes", catalog.New(parse("2682628f07f0", `{"name":"read"},{"name":"edit"}`), parse("f00dfeed1234", `{"name":"read"}`)),
			`tool "edit" is not in swe@f00dfeed1234, the last version of swe by spelling: swe's versions are named by content hash, so which is the latest is unknown; only swe@2682628f07f0 serves it`},
		{"releases", catalog.New(parse("1.0", `{"name":"read"},{"name":"edit"}`), parse("2.0", `{"name":"read"}`)),
			`tool "edit" is not in the latest version of swe (swe@2.0): only swe@1.0 serves it; a session on the latest version cannot call it`},
		{"one hash version", catalog.New(parse("2682628f07f0", `{"name":"read"},{"name":"edit"}`)), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "srd_version: 1\nserver_id: swe\ndomain: files\ndisambiguation:\n  - domain: email\n    differs: mail\n" +
				"display_name: A\nintent_triggers: [x]\ntool_groups:\n  g: [edit]\n"
			srds, probs := Parse("a.yaml", []byte(src))
			if len(probs) > 0 {
				t.Fatal(probs)
			}
			got := Lint(srds, LintOptions{Catalog: tc.cat, KnownDomains: []string{"email"}})
			if tc.want == "" {
				if len(got) > 0 {
					t.Errorf("warned: %v", got)
				}
				return
			}
			if len(got) != 1 || !got[0].Warning || got[0].Msg != tc.want {
				t.Errorf("got %v\nwant one warning %q", got, tc.want)
			}
		})
	}
}
