package validation

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/atomicfile"
	"github.com/defersim/defersim/internal/shareddata"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// explains lists, per failure class, the catalog.Diff change kinds that can
// cause it. A failure with no such change in the tool's diff is a
// disagreement between the validator and the diff.
// (assertion-added/-changed covers dependentRequired, dependencies and
// unevaluatedProperties, named by the change's path.)
var explains = map[string][]catalog.Kind{
	ClassMissingRequired: {catalog.KindRequiredAdded, catalog.KindAssertionAdded, catalog.KindAssertionChange},
	ClassUnknownProperty: {catalog.KindAdditionalPropertiesClosed, catalog.KindAdditionalPropertiesNarrowed, catalog.KindPropertyRemoved,
		catalog.KindPropertyRenamed, catalog.KindAssertionAdded, catalog.KindSchemaClosed},
	ClassType: {catalog.KindTypeChanged, catalog.KindTypeAdded, catalog.KindNullableRemoved, catalog.KindBranchRemoved,
		catalog.KindSchemaReplaced, catalog.KindItemsAdded},
	ClassEnum:  {catalog.KindEnumNarrowed, catalog.KindEnumAdded, catalog.KindConstAdded, catalog.KindConstChanged},
	ClassOther: nil, // any breaking change
	// An argument the new schema no longer defines, on an object it leaves
	// open: accepted, and ignored by the server.
	ClassIgnoredArgument: {catalog.KindPropertyRemoved, catalog.KindPropertyRenamed},
}

// driftRow is one series step, for the golden report.
type driftRow struct {
	Series, From, To string
	Common           int // tools served by both versions
	SchemaChanged    int // of which the input schema changed
	Breaking         int // of which catalog.Diff calls the change breaking
	// Broke counts tools whose old-valid arguments the new schema rejects,
	// by class, for the minimal (required only) and full (every property)
	// recorded-style arguments; Ignored those it accepts with an argument
	// it does not define (minimal, full).
	Minimal, Full map[string]int
	Ignored       [2]int
}

// TestDriftAcceptance is the acceptance test of issue 4 ("Malformed
// calls"): on every pair of consecutive real versions, arguments valid for
// the old schema are validated (shaped for the old schema, which the model
// still sees) against the new one, and each failure class must be one the
// tool's catalog.Diff explains; tools whose change Diff does not call
// breaking must not fail; a top-level required property added must give
// missing_required.
func TestDriftAcceptance(t *testing.T) {
	cat, err := catalog.LoadDir(shareddata.Path(t, "catalogs"))
	if err != nil {
		t.Fatal(err)
	}
	v := New()
	var rows []driftRow
	ungenerable := 0
	// silent counts tools Diff calls breaking whose generated arguments
	// stay valid, by their breaking change kinds (logged: a breaking
	// change need not break every call).
	silent := map[string]int{}
	for _, key := range cat.ServerNames() {
		vs := cat.Versions[key]
		for i := 1; i < len(vs); i++ {
			a, b := vs[i-1], vs[i]
			row := driftRow{Series: key, From: a.Version, To: b.Version, Minimal: map[string]int{}, Full: map[string]int{}}
			for _, at := range a.Tools {
				bt := b.Tool(at.Name)
				if bt == nil {
					continue
				}
				row.Common++
				tc, changed := catalog.DiffTool(at, bt)
				if changed && tc.SchemaChanged() {
					row.SchemaChanged++
				}
				breaking := changed && tc.Class == catalog.ClassBreaking
				if breaking {
					row.Breaking++
				}
				failed := false
				for _, all := range []bool{false, true} {
					label := fmt.Sprintf("%s %s→%s %s all=%v", key, a.Version, b.Version, at.Name, all)
					args, err := Example(at.InputSchema, all)
					if err != nil {
						ungenerable++
						t.Logf("%s: no instance: %v", label, err)
						continue
					}
					if c := v.Check(at.InputSchema, at.InputSchema, args); c != "" {
						ungenerable++
						t.Logf("%s: generated %s is not valid for the old schema (%s)", label, args, c)
						continue
					}
					f, err := v.Validate(at.InputSchema, bt.InputSchema, args)
					if err != nil {
						t.Errorf("%s: %v", label, err)
						continue
					}
					if f.Class == "" {
						continue
					}
					failed = true
					if f.Class == ClassIgnoredArgument {
						row.Ignored[map[bool]int{false: 0, true: 1}[all]]++
					} else if all {
						row.Full[f.Class]++
					} else {
						row.Minimal[f.Class]++
					}
					if !breaking {
						t.Errorf("%s: %s at %s (%s) but Diff says %v", label, f.Class, f.Instance, f.Keyword, tc.Class)
						continue
					}
					if want := explains[f.Class]; want != nil && !slices.ContainsFunc(tc.Changes, func(c catalog.Change) bool {
						return slices.Contains(want, c.Kind)
					}) {
						t.Errorf("%s: %s at %s (%s), but Diff shows no %v; changes: %s", label, f.Class, f.Instance, f.Keyword, want, kinds(tc))
					}
				}
				if breaking && !failed {
					silent[breakingKinds(tc)]++
				}
				// A top-level required property added must surface as
				// missing_required with the minimal arguments.
				if slices.ContainsFunc(tc.Changes, func(c catalog.Change) bool {
					return c.Kind == "required-added" && c.Path == "inputSchema.required"
				}) {
					args, err := Example(at.InputSchema, false)
					if err == nil {
						if got := v.Check(at.InputSchema, bt.InputSchema, args); got != ClassMissingRequired {
							t.Errorf("%s %s: required-added gave %q with %s", key, at.Name, got, args)
						}
					}
				}
			}
			if row.SchemaChanged > 0 {
				rows = append(rows, row)
			}
		}
	}
	for _, k := range sortedKeys(silent) {
		t.Logf("breaking per Diff, old arguments still valid: %3d × %s", silent[k], k)
	}
	if ungenerable > 0 {
		t.Errorf("%d recorded-style argument sets could not be built valid for their schema", ungenerable)
	}
	// At least three series must break, and with more than one class.
	broke := map[string]bool{}
	classes := map[string]bool{}
	for _, r := range rows {
		for c := range r.Full {
			broke[r.Series] = true
			classes[c] = true
		}
		for c := range r.Minimal {
			broke[r.Series] = true
			classes[c] = true
		}
	}
	if len(broke) < 3 || len(classes) < 2 {
		t.Errorf("breaking drift in %d series with %d classes; want ≥ 3 series, ≥ 2 classes", len(broke), len(classes))
	}
	got := driftTable(rows)
	path := filepath.Join("testdata", "drift_breakage.md")
	if *update {
		if err := atomicfile.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("breakage table changed (-want +got); rerun with -update if intended:\n%s", diff)
	}
}

func kinds(tc catalog.ToolChange) string {
	var ks []string
	for _, c := range tc.Changes {
		if c.Class == catalog.ClassBreaking {
			ks = append(ks, c.Path+":"+string(c.Kind))
		}
	}
	return strings.Join(ks, ", ")
}

// breakingKinds lists the distinct kinds of a tool's breaking changes.
func breakingKinds(tc catalog.ToolChange) string {
	var ks []string
	for _, c := range tc.Changes {
		if c.Class == catalog.ClassBreaking && !slices.Contains(ks, string(c.Kind)) {
			ks = append(ks, string(c.Kind))
		}
	}
	slices.Sort(ks)
	return strings.Join(ks, ",")
}

func driftTable(rows []driftRow) string {
	var sb strings.Builder
	sb.WriteString("# Old-valid arguments against the next version's schema\n\n")
	sb.WriteString("Generated by TestDriftAcceptance (`go test ./validation -run DriftAcceptance -update`).\n")
	sb.WriteString("Per series step: tools served by both versions, with a changed input schema, breaking per `catalog.Diff`;\n")
	sb.WriteString("then tools whose old-valid arguments fail the new schema, by class, for minimal (required-only) and full arguments,\n")
	sb.WriteString("and tools whose old-valid arguments pass it with an argument it no longer defines (ignored by the server).\n\n")
	sb.WriteString("| series | from | to | common | schema changed | breaking | broke (minimal) | broke (full) | ignored argument (minimal) | ignored argument (full) |\n")
	sb.WriteString("|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&sb, "| %s | %s | %s | %d | %d | %d | %s | %s | %d | %d |\n", r.Series, r.From, r.To, r.Common, r.SchemaChanged, r.Breaking,
			counts(r.Minimal), counts(r.Full), r.Ignored[0], r.Ignored[1])
	}
	return sb.String()
}

func counts(m map[string]int) string {
	if len(m) == 0 {
		return "0"
	}
	total := 0
	var parts []string
	for _, c := range classPriority {
		if n := m[c]; n > 0 {
			total += n
			parts = append(parts, fmt.Sprintf("%s %d", c, n))
		}
	}
	return fmt.Sprintf("%d (%s)", total, strings.Join(parts, ", "))
}
