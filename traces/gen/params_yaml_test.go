package gen

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestParseParams(t *testing.T) {
	for _, tc := range []struct {
		name    string
		yaml    string
		wantErr string
		check   func(t *testing.T, p Params)
	}{
		{name: "empty keeps defaults", yaml: "", check: func(t *testing.T, p Params) {
			if d := cmp.Diff(Defaults(), p); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		}},
		{name: "partial dist keeps other fields", yaml: "seed: 9\nschema_bytes: {median: 500}\n", check: func(t *testing.T, p Params) {
			if p.Seed != 9 || p.SchemaBytes.Median != 500 || p.SchemaBytes.Sigma != Defaults().SchemaBytes.Sigma {
				t.Errorf("got seed %d schema_bytes %+v", p.Seed, p.SchemaBytes)
			}
		}},
		{name: "list replaced whole", yaml: "planted:\n  - {tool: web_search, server: web, open: 0.9}\n", check: func(t *testing.T, p Params) {
			if len(p.Planted) != 1 || p.Planted[0].Open != 0.9 {
				t.Errorf("planted = %+v", p.Planted)
			}
		}},
		{name: "unknown key", yaml: "sesions: 3\n", wantErr: "field sesions not found"},
		{name: "unknown nested key", yaml: "drift: {server: 2}\n", wantErr: "field server not found"},
		{name: "bad type", yaml: "sessions: many\n", wantErr: "cannot unmarshal"},
		{name: "probability out of range", yaml: "error_rate: 1.5\n", wantErr: "error_rate: must be in [0, 1]"},
		{name: "openers over 1", yaml: "planted:\n  - {tool: web_search, server: web, open: 0.7}\n  - {tool: web_fetch, server: web, open: 0.7}\n", wantErr: "sum to"},
		{name: "planted on unknown server", yaml: "planted: [{tool: x, server: nowhere}]\n", wantErr: "not one of server_specs"},
		{name: "too few servers", yaml: "servers: 2\n", wantErr: "fewer than the 4 server_specs"},
		{name: "dist without max", yaml: "turns: {median: 3, sigma: 1, min: 1, max: 0}\n", wantErr: "turns.max"},
		{name: "bad start", yaml: "start: yesterday\n", wantErr: "start:"},
		{name: "two documents", yaml: "seed: 1\n---\nseed: 2\n", wantErr: "one YAML document"},
		{name: "drift needs two versions", yaml: "drift: {servers: 1, versions: 1}\n", wantErr: "drift.versions"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ParseParams([]byte(tc.yaml))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, p)
		})
	}
}

func TestParamsYAMLRoundTrip(t *testing.T) {
	p := Defaults()
	p.Seed, p.Recorded, p.Drift.MidSession = 42, true, 0.5
	y, err := p.YAML()
	if err != nil {
		t.Fatal(err)
	}
	q, err := ParseParams(y)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(p, q); d != "" {
		t.Errorf("round trip (-want +got):\n%s", d)
	}
}

func FuzzParseParams(f *testing.F) {
	d, _ := Defaults().YAML()
	f.Add(d)
	f.Add([]byte("seed: 3\nsessions: 10\nzipf: 0.5\n"))
	f.Add([]byte("drift: {servers: 2, versions: 5, kinds: {description: 1}}\n"))
	f.Add([]byte("schema_bytes: {median: .nan}\n"))
	f.Add([]byte("planted: [{tool: a, server: web, open: 1}]\n"))
	f.Add([]byte("over: {servers: [a, b], schedule: even, mid_session: 0.25}\n"))
	f.Add([]byte("over: {schedule: latest}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParseParams(data)
		if err != nil {
			return
		}
		// Whatever parses must validate and survive a round trip.
		if err := p.Validate(); err != nil {
			t.Fatalf("parsed params do not validate: %v", err)
		}
		y, err := p.YAML()
		if err != nil {
			t.Fatal(err)
		}
		q, err := ParseParams(y)
		if err != nil {
			t.Fatalf("re-parse: %v\n%s", err, y)
		}
		// An empty list written as "planted:" (null) comes back as [].
		if d := cmp.Diff(p, q, cmpopts.EquateEmpty()); d != "" {
			t.Fatalf("round trip (-want +got):\n%s", d)
		}
	})
}
