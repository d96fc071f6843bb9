package catalog

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestKindTableMatchesDocs checks that the kind table of docs/catalogs.md
// ("### Change kinds") lists exactly Kinds, in order, with the same class
// and meaning: the docs cover every kind the code emits, and no other.
func TestKindTableMatchesDocs(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "docs", "catalogs.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var got []KindInfo
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "### "):
			in = line == "### Change kinds"
		case in && strings.HasPrefix(line, "| `"):
			cells := strings.Split(strings.Trim(line, "| "), " | ")
			if len(cells) != 3 {
				t.Fatalf("kind table row with %d cells: %q", len(cells), line)
			}
			var c Class
			if err := c.UnmarshalText([]byte(cells[1])); err != nil {
				t.Fatalf("%q: %v", line, err)
			}
			got = append(got, KindInfo{Kind(strings.Trim(cells[0], "`")), c, cells[2]})
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(Kinds, got); d != "" {
		t.Errorf("docs/catalogs.md kind table differs from catalog.Kinds (-code +docs):\n%s", d)
	}
}

// TestKindsRegistry checks that each kind is listed once, with a class.
func TestKindsRegistry(t *testing.T) {
	seen := map[Kind]bool{}
	for _, k := range Kinds {
		if seen[k.Kind] {
			t.Errorf("kind %s listed twice", k.Kind)
		}
		seen[k.Kind] = true
		if k.Class <= ClassNone || k.Class > ClassBreaking || k.Meaning == "" {
			t.Errorf("kind %s: class %s, meaning %q", k.Kind, k.Class, k.Meaning)
		}
	}
}
