package catalog

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/defersim/defersim/internal/shareddata"
)

// driftRow is one line of the shared data's DRIFT.md table.
type driftRow struct {
	server, variant, from, to                  string
	added, removed, changed, desc, schema, oth int
}

// readDriftTable parses the Markdown table of DRIFT.md.
func readDriftTable(t *testing.T, path string) []driftRow {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []driftRow
	var header []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if !strings.HasPrefix(line, "|") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		if header == nil {
			header = cells
			continue
		}
		if strings.HasPrefix(cells[0], "---") {
			continue
		}
		if len(cells) != len(header) {
			t.Fatalf("DRIFT.md row has %d cells, header %d: %q", len(cells), len(header), line)
		}
		col := func(name string) string {
			for i, h := range header {
				if h == name {
					return cells[i]
				}
			}
			t.Fatalf("DRIFT.md: no column %q in %v", name, header)
			return ""
		}
		num := func(name string) int {
			n, err := strconv.Atoi(col(name))
			if err != nil {
				t.Fatalf("DRIFT.md column %s: %v", name, err)
			}
			return n
		}
		r := driftRow{
			server: col("server"), variant: col("variant"), from: col("from"), to: col("to"),
			added: num("added"), removed: num("removed"), changed: num("changed"),
			desc: num("desc"), schema: num("schema"), oth: num("other-only"),
		}
		if r.variant == "-" {
			r.variant = ""
		}
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		t.Fatal("DRIFT.md: no table rows")
	}
	return rows
}

func catalogFile(dir, server, version, variant string) string {
	name := server + "@" + version
	if variant != "" {
		name += "+" + variant
	}
	return filepath.Join(dir, name+".json")
}

// TestDiffAgreesWithDRIFT checks Diff against every series in DRIFT.md:
// added, removed and changed counts must be equal, and so must the counts of
// tools whose description changed, whose inputSchema changed, and whose
// change is in other members only.
func TestDiffAgreesWithDRIFT(t *testing.T) {
	dir := shareddata.Path(t, "catalogs")
	rows := readDriftTable(t, filepath.Join(dir, "DRIFT.md"))
	for _, r := range rows {
		t.Run(fmt.Sprintf("%s+%s@%s..%s", r.server, r.variant, r.from, r.to), func(t *testing.T) {
			a, err := LoadFile(catalogFile(dir, r.server, r.from, r.variant))
			if err != nil {
				t.Fatal(err)
			}
			b, err := LoadFile(catalogFile(dir, r.server, r.to, r.variant))
			if err != nil {
				t.Fatal(err)
			}
			d := Diff(a, b)
			var desc, schema, other int
			for _, tc := range d.Changed {
				dc, sc := tc.DescriptionChanged(), tc.SchemaChanged()
				if dc {
					desc++
				}
				if sc {
					schema++
				}
				if !dc && !sc {
					other++
				}
			}
			got := [6]int{len(d.Added), len(d.Removed), len(d.Changed), desc, schema, other}
			want := [6]int{r.added, r.removed, r.changed, r.desc, r.schema, r.oth}
			if got != want {
				t.Errorf("added/removed/changed/desc/schema/other-only = %v, DRIFT.md says %v", got, want)
			}
		})
	}
}
