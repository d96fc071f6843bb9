package srddata

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	yaml "go.yaml.in/yaml/v3"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/shareddata"
	"github.com/defersim/defersim/srd"
)

// TestCatalogSRDsLintClean lints the shipped catalog SRDs against the real
// catalogs: every server there has one, every tool group names real tools.
func TestCatalogSRDsLintClean(t *testing.T) {
	srds, probs, err := srd.LoadFS(FS, Catalogs)
	if err != nil || len(probs) > 0 {
		t.Fatalf("load: %v %v", err, probs)
	}
	cat, err := catalog.LoadDir(shareddata.Path(t, "catalogs"))
	if err != nil {
		t.Fatal(err)
	}
	if ps := srd.Lint(srds, srd.LintOptions{Catalog: cat}); len(ps) > 0 {
		t.Errorf("catalog SRDs have problems:\n%v", ps)
	}
	described := map[string]bool{}
	for _, s := range srds {
		described[s.ServerID] = true
	}
	for _, k := range cat.ServerNames() {
		if s := cat.Latest(k); !described[s.Name] {
			t.Errorf("server %s has no SRD", s.Name)
		}
	}
}

func TestMetaToolSRDsLintClean(t *testing.T) {
	srds, probs, err := srd.LoadFS(FS, MetaTool)
	if err != nil || len(probs) > 0 {
		t.Fatalf("load: %v %v", err, probs)
	}
	if ps := srd.Lint(srds, srd.LintOptions{}); len(ps) > 0 {
		t.Errorf("MetaTool SRDs have problems:\n%v", ps)
	}
	// Each MetaTool tool is grouped exactly once (the grouping is a
	// partition of the 199 tools).
	seen := map[string]string{}
	for _, s := range srds {
		for _, tool := range s.Tools() {
			if other, dup := seen[tool]; dup {
				t.Errorf("tool %s grouped by %s and %s", tool, other, s.ServerID)
			}
			seen[tool] = s.ServerID
		}
	}
	if len(seen) != 199 {
		t.Errorf("%d MetaTool tools grouped, want 199", len(seen))
	}
}

// TestSchemaValidatesShippedSRDs checks every shipped SRD document against
// srd/srd.schema.json, and that the schema refuses a broken one.
func TestSchemaValidatesShippedSRDs(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "srd.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("srd.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("srd.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, dir := range []string{Catalogs, MetaTool} {
		entries, err := fs.ReadDir(FS, dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			data, err := fs.ReadFile(FS, path.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			for i, v := range yamlDocs(t, data) {
				if err := sch.Validate(v); err != nil {
					t.Errorf("%s document %d: %v", e.Name(), i, err)
				}
				n++
			}
		}
	}
	if n < 70 {
		t.Errorf("validated %d SRDs, want the 40 catalog and 31 MetaTool ones", n)
	}
	bad := yamlDocs(t, []byte("srd_version: 1\nserver_id: x\ndomain: Not A Slug\ndisplay_name: X\nintent_triggers: []\ndisambiguation: [{domain: y}]\npriority: 11\n"))[0]
	if err := sch.Validate(bad); err == nil {
		t.Error("schema accepted a broken SRD")
	}
}

// yamlDocs decodes each YAML document of data into JSON values.
func yamlDocs(t *testing.T, data []byte) []any {
	t.Helper()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var out []any
	for {
		var v any
		err := dec.Decode(&v)
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		js, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		jv, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, jv)
	}
}
