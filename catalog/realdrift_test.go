package catalog

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/internal/shareddata"
)

// realDrift is one change in the shared catalogs' histories, checked by
// reading both JSON files.
type realDrift struct {
	why      string // what the two files show
	from, to string // catalog files
	tool     string
	change   Change // must be among the tool's changes, exactly
	class    Class  // the tool's overall class (ClassNone: not checked)
}

// realDriftSet pins at least one change of every kind that occurs in the
// real histories (TestRealDriftSetCoversEveryKind checks that), and so
// every class, plus the cases issue 16 named.
var realDriftSet = []realDrift{
	// metadata-only
	{"the category annotation was shortened", "chrome-devtools-mcp@0.6.0.json", "chrome-devtools-mcp@0.17.0.json", "click",
		Change{"annotations.category", KindMetadataChanged, ClassMetadataOnly, `"Input automation" → "input"`}, ClassNone},
	{"an execution member appeared", "chrome-devtools-mcp@0.6.0.json", "chrome-devtools-mcp@0.17.0.json", "click",
		Change{"execution", KindMetadataAdded, ClassMetadataOnly, ""}, ClassNone},
	{"the execution member went again", "chrome-devtools-mcp@0.17.0.json", "chrome-devtools-mcp@1.11.0.json", "click",
		Change{"execution", KindMetadataRemoved, ClassMetadataOnly, ""}, ClassNone},
	{"move_file's destructiveHint went from false to true; nothing else changed",
		"modelcontextprotocol__server-filesystem@2025.11.25.json", "modelcontextprotocol__server-filesystem@2026.8.31.json", "move_file",
		Change{"annotations.destructiveHint", KindMetadataChanged, ClassMetadataOnly, "false → true"}, ClassMetadataOnly},
	// description-only
	{"the tool description grew by a few words", "chrome-devtools-mcp@0.6.0.json", "chrome-devtools-mcp@0.17.0.json", "evaluate_script",
		Change{"description", KindDescriptionChanged, ClassDescriptionOnly, "141 bytes → 145 bytes"}, ClassNone},
	// schema-compatible
	{"a property's description was rewritten", "chrome-devtools-mcp@0.6.0.json", "chrome-devtools-mcp@0.17.0.json", "evaluate_script",
		Change{"inputSchema.properties.function.description", KindSchemaDescriptionChanged, ClassSchemaCompatible, "243 bytes → 275 bytes"}, ClassNone},
	{"an optional property appeared", "chrome-devtools-mcp@0.6.0.json", "chrome-devtools-mcp@0.17.0.json", "click",
		Change{"inputSchema.properties.includeSnapshot", KindPropertyAdded, ClassSchemaCompatible, ""}, ClassNone},
	{"additionalProperties: false was dropped", "chrome-devtools-mcp@0.6.0.json", "chrome-devtools-mcp@0.17.0.json", "list_pages",
		Change{"inputSchema.additionalProperties", KindAdditionalPropertiesOpened, ClassSchemaCompatible, ""}, ClassNone},
	{"the draft named by $schema changed", "chrome-devtools-mcp@0.17.0.json", "chrome-devtools-mcp@1.11.0.json", "click",
		Change{"inputSchema.$schema", KindAnnotationChanged, ClassSchemaCompatible, ""}, ClassNone},
	{"zod's 2^53-1 maximum appeared on an integer", "chrome-devtools-mcp@0.17.0.json", "chrome-devtools-mcp@1.11.0.json", "list_console_messages",
		Change{"inputSchema.properties.pageIdx.maximum", KindSafeBoundAdded, ClassSchemaCompatible, "absent → 9007199254740991"}, ClassNone},
	{"an empty schema (a broken capture) became a real one: type object at the root",
		"modelcontextprotocol__server-filesystem@2025.7.29.json", "modelcontextprotocol__server-filesystem@2025.11.25.json", "create_directory",
		Change{"inputSchema.type", KindObjectTypeStated, ClassSchemaCompatible, `absent → "object"`}, ClassNone},
	{`"required": [] was dropped`, "modelcontextprotocol__server-filesystem@2025.7.29.json", "modelcontextprotocol__server-filesystem@2025.11.25.json", "list_allowed_directories",
		Change{"inputSchema.required", KindReordered, ClassSchemaCompatible, ""}, ClassSchemaCompatible},
	{"the image type enum gained webp", "playwright__mcp@0.0.60.json", "playwright__mcp@0.0.83.json", "browser_take_screenshot",
		Change{"inputSchema.properties.type.enum", KindEnumWidened, ClassSchemaCompatible, `+["webp"]`}, ClassNone},
	{"shared definitions appeared in every tool", "notionhq__notion-mcp-server@1.9.1.json", "notionhq__notion-mcp-server@2.0.0.json", "API-create-a-comment",
		Change{"inputSchema.$defs.blockObjectRequest", KindDefinitionAdded, ClassSchemaCompatible, ""}, ClassNone},
	{"a definition no property of this tool uses gained a const", "notionhq__notion-mcp-server@2.0.0.json", "notionhq__notion-mcp-server@2.5.2.json", "API-create-a-comment",
		Change{"inputSchema.$defs.dataSourceIdParentRequest", KindUnusedDefinitionChanged, ClassSchemaCompatible, ""}, ClassSchemaCompatible},
	{"parent (an object) may now also be a string: anyOf [object, string]", "notionhq__notion-mcp-server@2.0.0.json", "notionhq__notion-mcp-server@2.5.2.json", "API-create-a-comment",
		Change{"inputSchema.properties.parent.anyOf[1]", KindBranchAdded, ClassSchemaCompatible, ""}, ClassSchemaCompatible},
	{"review comments may be given by line as well as by position: items became anyOf [old, new]",
		"modelcontextprotocol__server-github@2025.3.28.json", "modelcontextprotocol__server-github@2025.4.8.json", "create_pull_request_review",
		Change{"inputSchema.properties.comments.items.anyOf[1]", KindBranchAdded, ClassSchemaCompatible, ""}, ClassSchemaCompatible},
	{"an unconstrained value became anyOf [string, number, boolean, array, null]", "wonderwhy-er__desktop-commander@0.2.0.json", "wonderwhy-er__desktop-commander@0.2.30.json", "set_config_value",
		Change{"inputSchema.properties.value.anyOf[4]", KindNullableAdded, ClassSchemaCompatible, ""}, ClassNone},
	{"pageIdx stopped being required (pageId replaced it)", "chrome-devtools-mcp@0.6.0.json", "chrome-devtools-mcp@0.17.0.json", "close_page",
		Change{"inputSchema.required", KindRequiredRemoved, ClassSchemaCompatible, "pageIdx"}, ClassNone},
	// breaking
	{"pageIdx (number) became pageId (number), descriptions nearly alike", "chrome-devtools-mcp@0.6.0.json", "chrome-devtools-mcp@0.17.0.json", "close_page",
		Change{"inputSchema.properties.pageIdx", KindPropertyRenamed, ClassBreaking, "to pageId (description 83% alike)"}, ClassBreaking},
	{"pageId is required", "chrome-devtools-mcp@0.6.0.json", "chrome-devtools-mcp@0.17.0.json", "close_page",
		Change{"inputSchema.required", KindRequiredAdded, ClassBreaking, "pageId"}, ClassBreaking},
	{"url (string) went; reqid (number) and two unrelated file paths came: no evidence of a successor",
		"chrome-devtools-mcp@0.6.0.json", "chrome-devtools-mcp@0.17.0.json", "get_network_request",
		Change{"inputSchema.properties.url", KindPropertyRemoved, ClassBreaking, ""}, ClassBreaking},
	{"includeStatic became static with the same description; filter, also new, is not its successor",
		"playwright__mcp@0.0.60.json", "playwright__mcp@0.0.83.json", "browser_network_requests",
		Change{"inputSchema.properties.includeStatic", KindPropertyRenamed, ClassBreaking, "to static (same description)"}, ClassBreaking},
	{"filter is a new property", "playwright__mcp@0.0.60.json", "playwright__mcp@0.0.83.json", "browser_network_requests",
		Change{"inputSchema.properties.filter", KindPropertyAdded, ClassSchemaCompatible, ""}, ClassBreaking},
	{"startRef/endRef became startTarget/endTarget (both new descriptions alike): each pairs with its own",
		"playwright__mcp@0.0.60.json", "playwright__mcp@0.0.83.json", "browser_drag",
		Change{"inputSchema.properties.startRef", KindPropertyRenamed, ClassBreaking, "to startTarget (description 55% alike)"}, ClassBreaking},
	{"endRef's successor", "playwright__mcp@0.0.60.json", "playwright__mcp@0.0.83.json", "browser_drag",
		Change{"inputSchema.properties.endRef", KindPropertyRenamed, ClassBreaking, "to endTarget (description 75% alike)"}, ClassBreaking},
	{"the network-conditions enum lost 'No emulation'", "chrome-devtools-mcp@0.17.0.json", "chrome-devtools-mcp@1.11.0.json", "emulate",
		Change{"inputSchema.properties.networkConditions.enum", KindEnumNarrowed, ClassBreaking, `-["No emulation"]`}, ClassBreaking},
	{"userAgent stopped accepting null", "chrome-devtools-mcp@0.17.0.json", "chrome-devtools-mcp@1.11.0.json", "emulate",
		Change{"inputSchema.properties.userAgent.type", KindNullableRemoved, ClassBreaking, `["string","null"] → "string"`}, ClassBreaking},
	{"geolocation went from anyOf [object, null] to a string: the object alternative is gone", "chrome-devtools-mcp@0.17.0.json", "chrome-devtools-mcp@1.11.0.json", "emulate",
		Change{"inputSchema.properties.geolocation.anyOf[0]", KindBranchRemoved, ClassBreaking, ""}, ClassBreaking},
	{"… and so is null", "chrome-devtools-mcp@0.17.0.json", "chrome-devtools-mcp@1.11.0.json", "emulate",
		Change{"inputSchema.properties.geolocation.anyOf[1]", KindNullableRemoved, ClassBreaking, ""}, ClassBreaking},
	{"… and a string alternative came", "chrome-devtools-mcp@0.17.0.json", "chrome-devtools-mcp@1.11.0.json", "emulate",
		Change{"inputSchema.properties.geolocation", KindBranchAdded, ClassSchemaCompatible, ""}, ClassBreaking},
	{"issue_type lost its null alternative: anyOf [enum, null] → enum", "zereight__mcp-gitlab@2.0.34.json", "zereight__mcp-gitlab@2.1.49.json", "create_issue",
		Change{"inputSchema.properties.issue_type.anyOf[1]", KindNullableRemoved, ClassBreaking, ""}, ClassBreaking},
	{"height went from number to integer", "chrome-devtools-mcp@0.17.0.json", "chrome-devtools-mcp@1.11.0.json", "resize_page",
		Change{"inputSchema.properties.height.type", KindTypeChanged, ClassBreaking, `"number" → "integer"`}, ClassBreaking},
	{"… with an exclusive minimum of 0", "chrome-devtools-mcp@0.17.0.json", "chrome-devtools-mcp@1.11.0.json", "resize_page",
		Change{"inputSchema.properties.height.exclusiveMinimum", KindConstraintTight, ClassBreaking, "absent → 0"}, ClassBreaking},
	{"text went from a string to a non-empty list of strings", "chrome-devtools-mcp@0.17.0.json", "chrome-devtools-mcp@1.11.0.json", "wait_for",
		Change{"inputSchema.properties.text.items", KindItemsAdded, ClassBreaking, ""}, ClassBreaking},
	{"the root closed its properties", "chrome-devtools-mcp@0.17.0.json", "chrome-devtools-mcp@1.11.0.json", "list_pages",
		Change{"inputSchema.additionalProperties", KindAdditionalPropertiesClosed, ClassBreaking, ""}, ClassBreaking},
	{"filter.value, any string, became an enum", "notionhq__notion-mcp-server@1.9.1.json", "notionhq__notion-mcp-server@2.0.0.json", "API-post-search",
		Change{"inputSchema.properties.filter.properties.value.enum", KindEnumAdded, ClassBreaking, "2 values"}, ClassBreaking},
	{"the parent definition's type member (any value) became a const; seen where parent uses it",
		"notionhq__notion-mcp-server@2.0.0.json", "notionhq__notion-mcp-server@2.5.2.json", "API-move-page",
		Change{"inputSchema.properties.parent.anyOf[0].oneOf[0].properties.type.const", KindConstAdded, ClassBreaking, `"page_id"`}, ClassBreaking},
	{"the unconstrained value must now have a type (string first)", "wonderwhy-er__desktop-commander@0.2.0.json", "wonderwhy-er__desktop-commander@0.2.30.json", "set_config_value",
		Change{"inputSchema.properties.value.anyOf[0].type", KindTypeAdded, ClassBreaking, `absent → "string"`}, ClassBreaking},
}

// TestRealDriftSet checks each change of realDriftSet against Diff.
func TestRealDriftSet(t *testing.T) {
	dir := shareddata.Path(t, "catalogs")
	for _, tc := range realDriftSet {
		t.Run(tc.tool+"/"+string(tc.change.Kind), func(t *testing.T) {
			d := Diff(loadOne(t, dir, tc.from), loadOne(t, dir, tc.to))
			i := slices.IndexFunc(d.Changed, func(c ToolChange) bool { return c.Name == tc.tool })
			if i < 0 {
				t.Fatalf("%s: %s not among changed tools", tc.why, tc.tool)
			}
			got := d.Changed[i]
			if !slices.Contains(got.Changes, tc.change) {
				t.Errorf("%s: missing %+v; got:\n%s", tc.why, tc.change, cmp.Diff(nil, got.Changes))
			}
			if tc.class != ClassNone && got.Class != tc.class {
				t.Errorf("%s: class %s, want %s", tc.why, got.Class, tc.class)
			}
		})
	}
}

// TestRealDriftSetCoversEveryKind requires realDriftSet to hold an example
// of every kind Diff finds in the real histories, and of every class: a
// new kind appearing there must be checked by hand and added.
func TestRealDriftSetCoversEveryKind(t *testing.T) {
	cat, err := LoadDir(shareddata.Path(t, "catalogs"))
	if err != nil {
		t.Fatal(err)
	}
	pinned := map[Kind]bool{}
	classes := map[Class]bool{}
	for _, tc := range realDriftSet {
		pinned[tc.change.Kind] = true
		classes[tc.change.Class] = true
	}
	for _, r := range realReleases(cat) {
		for _, tc := range r.diff.Changed {
			for _, c := range tc.Changes {
				if !pinned[c.Kind] {
					t.Errorf("%s %s: kind %s occurs in the real histories but realDriftSet has no example", r.name, tc.Name, c.Kind)
					pinned[c.Kind] = true
				}
				if c.Class != ClassOf(c.Kind) || c.Class == ClassNone {
					t.Errorf("%s %s: %+v: class is not the kind's registered class", r.name, tc.Name, c)
				}
			}
		}
	}
	for c := ClassMetadataOnly; c <= ClassBreaking; c++ {
		if !classes[c] {
			t.Errorf("realDriftSet has no %s example", c)
		}
	}
}

// TestRealDriftKindsGolden pins, for every release of the shared catalogs,
// how many tools' served and model-visible fingerprints changed, how many
// tools fall in each class and how many changes of each kind Diff reports
// (testdata/golden/drift-kinds.txt; refresh with -update).
func TestRealDriftKindsGolden(t *testing.T) {
	cat, err := LoadDir(shareddata.Path(t, "catalogs"))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	total := map[string]int{}
	var served, model int
	for _, r := range realReleases(cat) {
		kinds := map[string]int{}
		var s, m int
		for _, tc := range r.diff.Changed {
			for _, c := range tc.Changes {
				kinds[string(c.Kind)]++
				total[string(c.Kind)]++
			}
			from, to := r.from.Tool(tc.Name), r.to.Tool(tc.Name)
			if from.ServedFingerprint != to.ServedFingerprint {
				s++
			}
			if from.ModelFingerprint != to.ModelFingerprint {
				m++
			}
			// The model-visible fingerprint changes exactly when something
			// beyond metadata does.
			if (from.ModelFingerprint != to.ModelFingerprint) != (tc.Class > ClassMetadataOnly) {
				t.Errorf("%s %s: class %s, model fingerprints %s → %s", r.name, tc.Name, tc.Class, from.ModelFingerprint, to.ModelFingerprint)
			}
		}
		served += s
		model += m
		fmt.Fprintf(&buf, "%s: fingerprints changed served %d, model %d; tools %s; changes %s\n", r.name, s, m, counts(r.diff.ByClass), counts(kinds))
	}
	fmt.Fprintf(&buf, "total: fingerprints changed served %d, model %d; changes %s\n", served, model, counts(total))
	checkGolden(t, "drift-kinds.txt", buf.Bytes())
}

type realRelease struct {
	name     string
	from, to *Server
	diff     DiffResult
}

// realReleases diffs every pair of consecutive versions of every series.
func realReleases(cat *Catalog) []realRelease {
	var out []realRelease
	for _, key := range cat.ServerNames() {
		vs := cat.Versions[key]
		for i := 1; i < len(vs); i++ {
			out = append(out, realRelease{key + " " + vs[i-1].Version + "→" + vs[i].Version, vs[i-1], vs[i], Diff(vs[i-1], vs[i])})
		}
	}
	return out
}

func counts(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

func loadOne(t *testing.T, dir, name string) *Server {
	t.Helper()
	s, err := LoadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return s
}
