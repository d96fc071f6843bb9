package catalog

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/internal/shareddata"
)

// TestDiffHandVerified pins changes in the shared catalogs that were checked
// by reading both JSON files: the exact path, kind, class and detail.
func TestDiffHandVerified(t *testing.T) {
	dir := shareddata.Path(t, "catalogs")
	tests := []struct {
		name     string
		from, to string
		tool     string
		want     []Change // subset that must be present, exactly
		class    Class    // the tool's overall class
	}{
		{
			// close_page's only parameter pageIdx (number, required) became
			// pageId (number, required).
			name: "parameter renamed", from: "chrome-devtools-mcp@0.6.0.json", to: "chrome-devtools-mcp@0.17.0.json", tool: "close_page",
			want: []Change{
				{Path: "inputSchema.properties.pageIdx", Kind: "property-renamed", Class: ClassBreaking, Detail: "to pageId"},
				{Path: "inputSchema.required", Kind: "required-added", Class: ClassBreaking, Detail: "pageId"},
				{Path: "inputSchema.required", Kind: "required-removed", Class: ClassSchemaCompatible, Detail: "pageIdx"},
			},
			class: ClassBreaking,
		},
		{
			// move_file's destructiveHint annotation went from false to true and
			// openWorldHint was added; nothing else changed.
			name: "annotations only", from: "modelcontextprotocol__server-filesystem@2025.11.25.json", to: "modelcontextprotocol__server-filesystem@2026.8.31.json", tool: "move_file",
			want: []Change{
				{Path: "annotations.destructiveHint", Kind: "metadata-changed", Class: ClassMetadataOnly, Detail: "false → true"},
				{Path: "annotations.openWorldHint", Kind: "metadata-added", Class: ClassMetadataOnly},
			},
			class: ClassMetadataOnly,
		},
		{
			// emulate: the network-conditions enum lost its "No emulation"
			// value, and userAgent stopped accepting null.
			name: "enum narrowed and type narrowed", from: "chrome-devtools-mcp@0.17.0.json", to: "chrome-devtools-mcp@1.11.0.json", tool: "emulate",
			want: []Change{
				{Path: "inputSchema.properties.networkConditions.enum", Kind: "enum-narrowed", Class: ClassBreaking, Detail: `-["No emulation"]`},
				{Path: "inputSchema.properties.userAgent.type", Kind: "type-changed", Class: ClassBreaking, Detail: `["string","null"] → "string"`},
			},
			class: ClassBreaking,
		},
		{
			// resize_page: height went from number to integer with an
			// exclusive minimum of 0 and the 2^53-1 maximum zod adds.
			name: "number to integer", from: "chrome-devtools-mcp@0.17.0.json", to: "chrome-devtools-mcp@1.11.0.json", tool: "resize_page",
			want: []Change{
				{Path: "inputSchema.properties.height.exclusiveMinimum", Kind: "constraint-tightened", Class: ClassBreaking, Detail: "absent → 0"},
				{Path: "inputSchema.properties.height.maximum", Kind: "safe-integer-bound-added", Class: ClassSchemaCompatible, Detail: "absent → 9007199254740991"},
				{Path: "inputSchema.properties.height.type", Kind: "type-changed", Class: ClassBreaking, Detail: `"number" → "integer"`},
			},
			class: ClassBreaking,
		},
		{
			// browser_take_screenshot's image type enum gained "webp".
			name: "enum widened", from: "playwright__mcp@0.0.60.json", to: "playwright__mcp@0.0.83.json", tool: "browser_take_screenshot",
			want: []Change{
				{Path: "inputSchema.properties.type.enum", Kind: "enum-widened", Class: ClassSchemaCompatible, Detail: `+["webp"]`},
			},
		},
		{
			// A shared definition's "type" property (any string) became a const.
			name: "const added inside $defs", from: "notionhq__notion-mcp-server@2.0.0.json", to: "notionhq__notion-mcp-server@2.5.2.json", tool: "API-create-a-comment",
			want: []Change{
				{Path: "inputSchema.$defs.dataSourceIdParentRequest.properties.type.const", Kind: "const-added", Class: ClassBreaking, Detail: `"database_id"`},
			},
			class: ClassBreaking,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, err := LoadFile(filepath.Join(dir, tc.from))
			if err != nil {
				t.Fatal(err)
			}
			b, err := LoadFile(filepath.Join(dir, tc.to))
			if err != nil {
				t.Fatal(err)
			}
			var got *ToolChange
			d := Diff(a, b)
			for i := range d.Changed {
				if d.Changed[i].Name == tc.tool {
					got = &d.Changed[i]
				}
			}
			if got == nil {
				t.Fatalf("%s not among changed tools", tc.tool)
			}
			for _, w := range tc.want {
				found := false
				for _, c := range got.Changes {
					if cmp.Equal(c, w) {
						found = true
					}
				}
				if !found {
					t.Errorf("missing change %+v; got:\n%s", w, cmp.Diff(nil, got.Changes))
				}
			}
			if tc.class != ClassNone && got.Class != tc.class {
				t.Errorf("class = %s, want %s", got.Class, tc.class)
			}
		})
	}
}
