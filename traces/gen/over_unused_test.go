package gen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOverRefusesCatalogKeys pins that a generation over a catalog refuses
// the parameters that shape a generated catalog when they differ from their
// defaults (drift.mid_session: 0.5 or servers: 3 were silently ignored, and
// params.yaml written back claimed them), and that the params.yaml it writes
// says they were not used and reads back.
func TestOverRefusesCatalogKeys(t *testing.T) {
	cat := testCatalog(t)
	for _, tc := range []struct {
		name string
		set  func(p *Params)
		want string // "" = accepted
	}{
		{"defaults", func(p *Params) {}, ""},
		{"session keys are used", func(p *Params) { p.Zipf = 2; p.Locality = 0.5; p.Recorded = true }, ""},
		{"drift.mid_session", func(p *Params) { p.Drift.MidSession = 0.5 }, "drift.mid_session shapes a generated catalog and is not used over a catalog (--catalogs): remove it, or leave it at its default; over a catalog, over.mid_session"},
		{"drift off", func(p *Params) { p.Drift.Servers = 0 }, "drift.servers shapes"},
		{"drift kinds", func(p *Params) { p.Drift.Kinds.Description = 1 }, "drift.kinds shapes"},
		{"servers, before its own check", func(p *Params) { p.Servers = 3 }, "servers shapes"},
		{"several", func(p *Params) { p.ToolsPerServer.Max = 40; p.Planted = nil; p.SchemaBytes.Median = 500 },
			"tools_per_server, schema_bytes and planted shape a generated catalog and are not used"},
		{"server_specs", func(p *Params) { p.ServerSpecs = p.ServerSpecs[:1] }, "server_specs shapes"},
		{"description_share", func(p *Params) { p.DescriptionShare = 0.5 }, "description_share shapes"},
		{"a session key still validated", func(p *Params) { p.Locality = 3 }, "locality: must be in [0, 1]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := overParams(6, 0.5, "notes")
			tc.set(&p)
			_, err := NewOver(cat, p)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("NewOver: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tc.want)
			}
		})
	}

	g, err := NewOver(cat, overParams(6, 0.5, "notes"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := g.WriteDir(dir, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, ParamsFile))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(data), overParamsHeader) {
		t.Errorf("params.yaml does not start with the not-used header:\n%.300s", data)
	}
	back, err := DecodeParams(data)
	if err != nil {
		t.Fatal(err)
	}
	if err := back.ValidateOver(); err != nil {
		t.Errorf("params.yaml written over a catalog does not read back: %v", err)
	}
}
