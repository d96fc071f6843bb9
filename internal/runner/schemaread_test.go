package runner

import (
	"strings"
	"testing"

	"github.com/defersim/defersim/catalog"
)

// TestSchemaReadAsObjectCountsInWords pins the catalog.schema_read_as_object
// assumption's count: "1 tool", "2 tools"; it said "1 tool(s)".
func TestSchemaReadAsObjectCountsInWords(t *testing.T) {
	for _, tc := range []struct {
		tools, want string
	}{
		{`{"name":"a"}`, "1 tool: "},
		{`{"name":"a"},{"name":"b"}`, "2 tools: "},
	} {
		srv, err := catalog.Parse([]byte(`{"tools":[`+tc.tools+`]}`), "srv", "1.0", "")
		if err != nil {
			t.Fatal(err)
		}
		var got string
		for _, a := range catalogAssumptions(catalog.New(srv), catalog.FingerprintScope("model")) {
			if a.Name == "catalog.schema_read_as_object" {
				got = a.Value
			}
		}
		if !strings.HasPrefix(got, tc.want) {
			t.Errorf("tools %s: %q, want it to start %q", tc.tools, got, tc.want)
		}
	}
}
