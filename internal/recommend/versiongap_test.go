package recommend

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/defersim/defersim/sim/presets"
)

// TestVersionGapWarns pins that sessions recorded with an older catalog
// version than the one priced are warned about: the opener the newer
// version renamed (open_doc → read_doc) gets no decision and read_doc's
// why says no training session could call it. recommend used to price the
// latest version alone and propose always-deferring the renamed opener,
// called in 0% of sessions, with no word of the gap.
func TestVersionGapWarns(t *testing.T) {
	for _, tc := range []struct {
		name     string
		versions []string // catalog versions given
		upgrade  int      // the first session on 2.0.0 (of 40)
		gone     string   // VersionGap.Gone's tools; "" no gap
		added    string
	}{
		{"the sessions' version only", []string{"1.0.0"}, 40, "", ""},
		{"a newer version renames the opener", []string{"1.0.0", "2.0.0"}, 40, "srv:open_doc", "srv:read_doc"},
		// Sessions on the version priced: its tools are learnt from them.
		{"a log spanning the upgrade", []string{"1.0.0", "2.0.0"}, 30, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			trace, cat := renamedOpenerFixture(t, tc.versions, tc.upgrade)
			cfg := defaultConfig(t, trace, cat)
			cfg.TestShare = 0
			p, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			warned := strings.Contains(strings.Join(p.Warnings, "\n"), "no training session used the catalog version priced")
			// An entry of the proposal that no version the sessions are
			// replayed on serves changes nothing in their run: the renamed
			// opener, always-deferred on no evidence, is named with the
			// version serving it, as run names a scenario's.
			var unreplayed []string
			for _, u := range p.UnreplayedEntries {
				unreplayed = append(unreplayed, fmt.Sprintf("%s[%d] %s %v %v", u.Key, u.Index, u.Entry, u.Serving, u.Replayed))
			}
			wantUnreplayed := ""
			if tc.added != "" {
				wantUnreplayed = "always_defer[0] read_doc [srv@2.0.0] [srv@1.0.0]"
			}
			if got := strings.Join(unreplayed, ","); got != wantUnreplayed {
				t.Errorf("entries no replayed version serves: %q, want %q (lists %v, %v)", got, wantUnreplayed, p.Strategy.NeverDefer, p.Strategy.AlwaysDefer)
			}
			if said := strings.Contains(strings.Join(p.Warnings, "\n"), `always_defer[0]: "read_doc": served by srv@2.0.0 only (the sessions replayed srv@1.0.0)`); said != (wantUnreplayed != "") {
				t.Errorf("warnings %q: the entry said %v, want %v", p.Warnings, said, !said)
			}
			if tc.gone == "" {
				if p.VersionGap != nil || warned {
					t.Errorf("gap %+v, warnings %q: want none", p.VersionGap, p.Warnings)
				}
				return
			}
			if p.VersionGap == nil || !warned {
				t.Fatalf("gap %+v, warnings %q: want the gap warned about", p.VersionGap, p.Warnings)
			}
			var gone []string
			for _, g := range p.VersionGap.Gone {
				gone = append(gone, g.Tool)
				if g.OpenShare != 1 {
					t.Errorf("%s opens %v of sessions, want 1", g.Tool, g.OpenShare)
				}
			}
			if got := strings.Join(gone, ","); got != tc.gone {
				t.Errorf("gone = %s, want %s", got, tc.gone)
			}
			if got := strings.Join(p.VersionGap.Added, ","); got != tc.added {
				t.Errorf("added = %s, want %s", got, tc.added)
			}
			for _, a := range p.Tools {
				// The why says what the shares are over: no session could
				// call the added tool (it said "decided on sessions that
				// could not call it" beside "its shares are of the 0 of 40
				// training sessions whose catalog versions serve it").
				added := toolLabel(a.Key) == tc.added
				if added != strings.Contains(a.Why, "in no version the sessions used") || added != strings.Contains(a.Why, "no training session could call it (none of the 40") ||
					strings.Contains(a.Why, "could not call it") || strings.Contains(a.Why, "0 of 40") {
					t.Errorf("%s: why %q (added since the sessions' version: %v)", toolLabel(a.Key), a.Why, added)
				}
			}
			w := p.Warnings[len(p.Warnings)-1]
			for _, want := range []string{"the catalog version priced of srv@2.0.0 (the sessions: 1.0.0): ", "srv:open_doc (opens 100.0%", "decides nothing for it", "srv:read_doc", "could not call it and its shares leave them out"} {
				if !strings.Contains(w, want) {
					t.Errorf("warning lacks %q: %s", want, w)
				}
			}
		})
	}
}

// renamedOpenerFixture writes srv@1.0.0 (open_doc, look), and for each
// other version asked srv@2.0.0, where open_doc is renamed read_doc, and 40
// sessions opening with open_doc before the first reply, on 1.0.0 up to
// session upgrade, then with read_doc on 2.0.0.
func renamedOpenerFixture(t *testing.T, versions []string, upgrade int) (trace, cat string) {
	t.Helper()
	served := map[string]string{}
	for _, v := range versions {
		served[v] = "read_doc"
		if v == "1.0.0" {
			served[v] = "open_doc"
		}
	}
	return openerFixture(t, served, func(i int) string {
		if i >= upgrade {
			return "2.0.0"
		}
		return "1.0.0"
	})
}

// openerFixture writes catalogs srv@V serving opener served[V] (and
// look), and 40 sessions, session i on version at(i) opening with its
// opener.
func openerFixture(t *testing.T, served map[string]string, at func(i int) string) (trace, cat string) {
	t.Helper()
	dir := t.TempDir()
	cat = filepath.Join(dir, "catalog")
	if err := os.Mkdir(cat, 0o755); err != nil {
		t.Fatal(err)
	}
	for v, opener := range served {
		body := fmt.Sprintf(`{"tools":[{"name":%q,"description":"Open a document by id.","inputSchema":{"type":"object","properties":{"id":{"type":"string"}}}},`+
			`{"name":"look","description":"Look.","inputSchema":{"type":"object"}}]}`, opener)
		if err := os.WriteFile(filepath.Join(cat, "srv@"+v+".json"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var b strings.Builder
	for i := range 40 {
		id, ts := fmt.Sprintf("s%02d", i), "2026-01-01T00:00:00Z"
		version := at(i)
		opener := served[version]
		fmt.Fprintf(&b, `{"v":1,"type":"session_start","session":%q,"t":%q,"servers":[{"name":"srv","version":%q}]}`+"\n", id, ts, version)
		fmt.Fprintf(&b, `{"type":"user","session":%q,"t":%q,"text":"open my doc"}`+"\n", id, ts)
		fmt.Fprintf(&b, `{"type":"model_request","session":%q,"t":%q,"id":"r1"}`+"\n", id, ts)
		fmt.Fprintf(&b, `{"type":"tool_call","session":%q,"t":%q,"request":"r1","call_id":"c1","tool":%q,"server":"srv","args":{"id":"x"}}`+"\n", id, ts, opener)
		fmt.Fprintf(&b, `{"type":"model_request","session":%q,"t":%q,"id":"r2"}`+"\n", id, ts)
		fmt.Fprintf(&b, `{"type":"assistant","session":%q,"t":%q,"text":"here it is"}`+"\n", id, ts)
		fmt.Fprintf(&b, `{"type":"session_end","session":%q,"t":%q}`+"\n", id, ts)
	}
	trace = filepath.Join(dir, "t.jsonl")
	if err := os.WriteFile(trace, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return trace, cat
}

// TestVersionGapVersionsInReleaseOrder pins that the version-gap warning
// lists the versions the sessions used in release order: it sorted them as
// text, "0.10.0, 0.9.0" (review; check's were fixed alike).
func TestVersionGapVersionsInReleaseOrder(t *testing.T) {
	trace, cat := openerFixture(t, map[string]string{"0.9.0": "open_doc", "0.10.0": "open_doc", "1.0.0": "read_doc"},
		func(i int) string { return []string{"0.9.0", "0.10.0"}[i%2] })
	cfg := defaultConfig(t, trace, cat)
	cfg.TestShare = 0
	p, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if p.VersionGap == nil {
		t.Fatalf("no version gap; warnings %q", p.Warnings)
	}
	if got, want := strings.Join(p.VersionGap.Servers, "; "), "srv@1.0.0 (the sessions: 0.9.0, 0.10.0)"; got != want {
		t.Errorf("servers %q, want %q", got, want)
	}
}

// TestDescriptionNamesPricedModel pins that the proposal's description,
// which travels with the snippet into a run's results and report, names
// the model recommend priced the rules with: run under another --model,
// the lists replay as written though that model's economics did not choose
// them, and the snippet said nothing of it outside its comments.
func TestDescriptionNamesPricedModel(t *testing.T) {
	trace, cat := renamedOpenerFixture(t, []string{"1.0.0"}, 40)
	for _, model := range []string{"claude-sonnet-4.5", "gpt-4o"} {
		cfg := defaultConfig(t, trace, cat)
		cfg.TestShare = 0
		m, err := presets.Model(model)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Model, cfg.ModelPreset = m, model
		p, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if want := "Proposed by defersim recommend for " + model + " on 40 sessions: "; !strings.HasPrefix(p.Strategy.Description, want) {
			t.Errorf("description %q, want it to begin %q", p.Strategy.Description, want)
		}
	}
}

// TestVersionGapSharesOverSessionsThatCouldCall pins that a gone tool's
// shares in the version-gap warning are over the training sessions that
// could call it, as the decisions' are since shares follow the versions
// served: half the sessions on 1.0.0 (opening with open_doc), half on
// 1.5.0 (scan_doc), neither served by the priced 2.0.0, each opens every
// session that could call it (1), where the warning said 0.5.
func TestVersionGapSharesOverSessionsThatCouldCall(t *testing.T) {
	trace, cat := openerFixture(t, map[string]string{"1.0.0": "open_doc", "1.5.0": "scan_doc", "2.0.0": "read_doc"},
		func(i int) string { return []string{"1.0.0", "1.5.0"}[i%2] })
	cfg := defaultConfig(t, trace, cat)
	cfg.TestShare = 0
	p, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if p.VersionGap == nil || len(p.VersionGap.Gone) != 2 {
		t.Fatalf("gap %+v: want open_doc and scan_doc gone", p.VersionGap)
	}
	for _, g := range p.VersionGap.Gone {
		if g.OpenShare != 1 {
			t.Errorf("%s opens %v of the sessions that could call it, want 1", g.Tool, g.OpenShare)
		}
	}
}
