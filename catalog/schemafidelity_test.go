package catalog

import "testing"

// TestSchemaFidelityMark pins that the import's schema-fidelity mark in a
// tool's _meta is read (and that nothing else sets it).
func TestSchemaFidelityMark(t *testing.T) {
	for _, tc := range []struct {
		raw, want string
	}{
		{`{"name":"a","inputSchema":{"type":"object"}}`, ""},
		{`{"name":"a","_meta":{"defersim/schema":"approximate","defersim/schema_note":"listing"}}`, SchemaApproximate},
		{`{"name":"a","_meta":{"defersim/schema":"missing"}}`, SchemaMissing},
		{`{"name":"a","_meta":{"defersim/schema":3}}`, ""},
		{`{"name":"a","_meta":"approximate"}`, ""},
		{`{"name":"a","annotations":{"defersim/schema":"missing"}}`, ""},
	} {
		tool, err := NewTool([]byte(tc.raw))
		if err != nil {
			t.Fatalf("%s: %v", tc.raw, err)
		}
		if tool.SchemaFidelity != tc.want {
			t.Errorf("%s: SchemaFidelity = %q, want %q", tc.raw, tool.SchemaFidelity, tc.want)
		}
	}
}
