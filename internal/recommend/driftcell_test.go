package recommend

import (
	"testing"

	"github.com/defersim/defersim/catalog"
)

// TestDriftCell pins the drift cell of the text and Markdown tables: up to
// two entries listed, more counted by class, most severe first. A catalog
// with many versions (an import's 12 swe-agent versions) made each row of
// the table hundreds of characters wide.
func TestDriftCell(t *testing.T) {
	b, s, m := catalog.ClassBreaking, catalog.ClassSchemaCompatible, catalog.ClassMetadataOnly
	for _, tc := range []struct {
		drift []string
		class []catalog.Class
		want  string
	}{
		{nil, nil, "-"},
		{[]string{"1.1 (breaking)"}, []catalog.Class{b}, "1.1 (breaking)"},
		{[]string{"1.1 (breaking)", "1.2 (metadata-only)"}, []catalog.Class{b, m}, "1.1 (breaking) 1.2 (metadata-only)"},
		{[]string{"a", "b", "c", "d"}, []catalog.Class{m, b, s, m}, "4 versions: 1 breaking, 1 schema-compatible, 2 metadata-only"},
	} {
		if got := driftCell(Schema{Drift: tc.drift, driftClass: tc.class}); got != tc.want {
			t.Errorf("driftCell(%v) = %q, want %q", tc.drift, got, tc.want)
		}
	}
}
