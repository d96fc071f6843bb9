package catalog

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/defersim/defersim/internal/shareddata"
)

// mkServer builds a server from compact tool JSON strings.
func mkServer(t *testing.T, name, version, variant string, tools ...string) *Server {
	t.Helper()
	var ts []*Tool
	for _, raw := range tools {
		tl, err := NewTool([]byte(raw))
		if err != nil {
			t.Fatal(err)
		}
		ts = append(ts, tl)
	}
	s, err := NewServer(name, version, variant, ts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestNewHistory(t *testing.T) {
	a := `{"name":"a","description":"first","inputSchema":{"type":"object","properties":{"x":{"type":"string"}}}}`
	aDesc := `{"name":"a","description":"first, reworded","inputSchema":{"type":"object","properties":{"x":{"type":"string"}}}}`
	aReq := `{"name":"a","description":"first, reworded","inputSchema":{"type":"object","properties":{"x":{"type":"string"}},"required":["x"]}}`
	b := `{"name":"b","inputSchema":{"type":"object"}}`
	c := `{"name":"c","inputSchema":{"type":"object"}}`
	cat := New(
		mkServer(t, "srv", "1.10.0", "", aReq, c),  // removes b, a gains a required field
		mkServer(t, "srv", "1.2.0", "", aDesc, b),  // a's description changes
		mkServer(t, "srv", "1.0.0", "", a),         // first
		mkServer(t, "srv", "1.0.0", "extra", a, b), // a variant: its own series, one version
		mkServer(t, "other", "0.1", "", b),         // single version
		mkServer(t, "same", "1", "", a),            // two identical versions
		mkServer(t, "same", "2", "", a),
	)
	h := NewHistory(cat)
	if d := cmp.Diff([]string{"other", "srv+extra"}, h.SingleVersion); d != "" {
		t.Errorf("single-version series: %s", d)
	}
	srv := h.Find("srv")
	if srv == nil {
		t.Fatal("no history for srv")
	}
	if d := cmp.Diff([]string{"1.0.0", "1.2.0", "1.10.0"}, srv.Versions); d != "" {
		t.Errorf("versions not in version order: %s", d)
	}
	type row struct {
		From, To                string
		Added, Removed, Changed int
		Class                   Class
		ByClass                 map[string]int
	}
	var got []row
	for _, r := range srv.Releases {
		got = append(got, row{r.From, r.To, r.Added, r.Removed, r.Changed, r.Class, r.ByClass})
	}
	want := []row{
		{"1.0.0", "1.2.0", 1, 0, 1, ClassSchemaCompatible, map[string]int{"description-only": 1}},
		{"1.2.0", "1.10.0", 1, 1, 1, ClassBreaking, map[string]int{"breaking": 1}},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("releases (-want +got):\n%s", d)
	}
	if srv.Breaking != 1 || srv.BreakingShare != 0.5 {
		t.Errorf("srv breaking %d share %v, want 1 and 0.5", srv.Breaking, srv.BreakingShare)
	}
	same := h.Find("same")
	if same == nil || same.Releases[0].Changed != 0 || same.Releases[0].Class != ClassNone || same.Releases[0].Unchanged != 1 {
		t.Errorf("identical versions: %+v", same)
	}
	if h.Releases != 3 || h.Breaking != 1 {
		t.Errorf("totals: %d releases, %d breaking", h.Releases, h.Breaking)
	}
	var buf bytes.Buffer
	if err := FormatHistory(&buf, h); err != nil {
		t.Fatal(err)
	}
	checkHistoryGolden(t, "history-synthetic.txt", buf.Bytes())
}

func TestNewHistoryEmpty(t *testing.T) {
	h := NewHistory(New())
	if len(h.Series) != 0 || h.Releases != 0 || h.BreakingShare != 0 {
		t.Errorf("empty catalog history: %+v", h)
	}
	var buf bytes.Buffer
	if err := FormatHistory(&buf, h); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(buf.String(), "total: 0 series with history, 0 releases") {
		t.Errorf("empty history text: %q", buf.String())
	}
}

// checkHistoryGolden compares got with testdata/golden/name, or rewrites
// it with -update.
func checkHistoryGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if d := cmp.Diff(string(want), string(got)); d != "" {
		t.Errorf("%s differs (-want +got):\n%s", path, d)
	}
}

// TestHistorySharedGolden pins the text and JSON history of the shared
// catalogs, with the token cost of each release as catalog history prints
// it.
func TestHistorySharedGolden(t *testing.T) {
	cat, err := LoadDir(shareddata.Path(t, "catalogs"))
	if err != nil {
		t.Fatal(err)
	}
	h := NewHistoryTokens(cat, commandTokens(t))
	var buf bytes.Buffer
	if err := FormatHistory(&buf, h); err != nil {
		t.Fatal(err)
	}
	checkHistoryGolden(t, "history-shared.txt", buf.Bytes())
	js, err := json.MarshalIndent(h, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	checkHistoryGolden(t, "history-shared.json", append(js, '\n'))
}

// driftMDRow is one release as DRIFT.md in the shared catalogs lists it.
type driftMDRow struct {
	key, from, to           string
	added, removed, changed int
}

// parseDriftMD reads the release table of DRIFT.md by column name.
func parseDriftMD(t *testing.T, path string) []driftMDRow {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var header []string
	var rows []driftMDRow
	sc := bufio.NewScanner(bytes.NewReader(data))
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
		get := func(col string) string {
			i := slices.Index(header, col)
			if i < 0 || i >= len(cells) {
				t.Fatalf("DRIFT.md: no %q cell in %q", col, line)
			}
			return cells[i]
		}
		num := func(col string) int {
			n, err := strconv.Atoi(get(col))
			if err != nil {
				t.Fatalf("DRIFT.md: column %s in %q: %v", col, line, err)
			}
			return n
		}
		key := get("server")
		if v := get("variant"); v != "-" && v != "" {
			key += "+" + v
		}
		rows = append(rows, driftMDRow{key, get("from"), get("to"), num("added"), num("removed"), num("changed")})
	}
	if len(rows) == 0 {
		t.Fatal("DRIFT.md: no rows")
	}
	return rows
}

// TestHistoryAgreesWithDRIFT checks the history of the shared catalogs
// against DRIFT.md series by series: the same series, the same consecutive
// version pairs, and the same added, removed and changed counts.
func TestHistoryAgreesWithDRIFT(t *testing.T) {
	dir := shareddata.Path(t, "catalogs")
	rows := parseDriftMD(t, filepath.Join(dir, "DRIFT.md"))
	cat, err := LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	h := NewHistory(cat)
	want := map[string][]string{}
	for _, r := range rows {
		want[r.key] = append(want[r.key], fmt.Sprintf("%s..%s +%d -%d ~%d", r.from, r.to, r.added, r.removed, r.changed))
	}
	got := map[string][]string{}
	for _, s := range h.Series {
		for _, r := range s.Releases {
			got[s.Key] = append(got[s.Key], fmt.Sprintf("%s..%s +%d -%d ~%d", r.From, r.To, r.Added, r.Removed, r.Changed))
		}
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("history disagrees with DRIFT.md (-DRIFT.md +history):\n%s", d)
	}
}

// TestLiveCatalogsDocQuotesHistory pins that the history docs/live-catalogs.md
// prints for the shared catalogs is the golden one: the page kept an older
// classification (17 breaking releases where the command prints 16) after
// an anyOf branch added became schema-compatible.
func TestLiveCatalogsDocQuotesHistory(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "live-catalogs.md"))
	if err != nil {
		t.Fatal(err)
	}
	const intro = "On the shared catalogs (`defersim catalog history ../shared/data/catalogs`):\n\n```\n"
	_, rest, ok := strings.Cut(string(doc), intro)
	if !ok {
		t.Fatalf("docs/live-catalogs.md: no block after %q", intro)
	}
	block, _, ok := strings.Cut(rest, "```\n")
	if !ok {
		t.Fatal("docs/live-catalogs.md: the history block is not closed")
	}
	want, err := os.ReadFile(filepath.Join("testdata", "golden", "history-shared.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(string(want), block); d != "" {
		t.Errorf("docs/live-catalogs.md quotes another history than testdata/golden/history-shared.txt (-golden +doc):\n%s", d)
	}
}

// TestUnorderedSeriesHaveNoReleases pins that a series whose versions are
// content hashes gets no release history: before, its versions were diffed
// in spelling order, and an imported swe-agent catalog read "11 releases,
// 10 breaking (91%)".
func TestUnorderedSeriesHaveNoReleases(t *testing.T) {
	a := `{"name":"a","description":"first","inputSchema":{"type":"object"}}`
	b := `{"name":"b","description":"second","inputSchema":{"type":"object"}}`
	cat := New(
		mkServer(t, "hashed", "ffff0000ffff", "", a),
		mkServer(t, "hashed", "0aaa0000aaaa", "", a, b),
		mkServer(t, "released", "1.0.0", "", a),
		mkServer(t, "released", "1.1.0", "", a, b),
		mkServer(t, "single", "abcdef0123", "", a),
	)
	h := NewHistory(cat)
	if len(h.Series) != 1 || h.Series[0].Key != "released" || h.Releases != 1 {
		t.Errorf("series with history %+v, releases %d: want only released, with 1 release", h.Series, h.Releases)
	}
	want := []UnorderedSeries{{Key: "hashed", Versions: []string{"0aaa0000aaaa", "ffff0000ffff"}, Tools: []int{2, 1}}}
	if d := cmp.Diff(want, h.Unordered); d != "" {
		t.Errorf("unordered (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"single"}, h.SingleVersion); d != "" {
		t.Errorf("single version (-want +got):\n%s", d)
	}
	var buf bytes.Buffer
	if err := FormatHistory(&buf, h); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "hashed: 2 versions named by content hash, not releases") {
		t.Errorf("text history does not say why hashed has none:\n%s", buf.String())
	}
}

// TestHistoryWritesNoVersion pins that a release from a file without
// @VERSION writes its version "(no version)": before, the FROM cell was
// empty and the row read as a release from nothing.
func TestHistoryWritesNoVersion(t *testing.T) {
	a := `{"name":"a","inputSchema":{"type":"object"}}`
	h := NewHistory(New(mkServer(t, "fs", "", "", a), mkServer(t, "fs", "2.0", "", a)))
	var buf bytes.Buffer
	if err := FormatHistory(&buf, h); err != nil {
		t.Fatal(err)
	}
	var row string
	for l := range strings.Lines(buf.String()) {
		if strings.Contains(l, "1→1") {
			row = l
		}
	}
	if f := strings.Fields(row); len(f) < 4 || f[0] != "(no" || f[1] != "version)" || f[2] != "2.0" {
		t.Errorf("release row %q: want it to start (no version) 2.0", row)
	}
}

// TestHistoryMarksMixedSchemesOrderUnknown pins that a series whose
// versions mix a date and release numbers is marked order unknown in
// history's text and JSON, in catalog diff's words (DiffNotes), while a
// series of release numbers only is not: before, history.json's
// series[].releases stated the date-read-as-release order as fact and only
// a stderr warning said otherwise.
func TestHistoryMarksMixedSchemesOrderUnknown(t *testing.T) {
	a := `{"name":"a","inputSchema":{"type":"object"}}`
	b := `{"name":"b","inputSchema":{"type":"object"}}`
	mixed := []*Server{
		mkServer(t, "fs", "1.2.0", "", a),
		mkServer(t, "fs", "2024-09-01", "", a, b),
		mkServer(t, "fs", "1.10.0", "", b),
	}
	cat := New(append(mixed, mkServer(t, "web", "1.0.0", "", a), mkServer(t, "web", "1.1.0", "", a, b))...)
	h := NewHistory(cat)
	fs, web := h.Find("fs"), h.Find("web")
	if fs == nil || web == nil {
		t.Fatalf("series %+v: want fs and web", h.Series)
	}
	if !fs.OrderUnknown || web.OrderUnknown || h.OrderUnknown != len(fs.Releases) || len(fs.Releases) != 2 {
		t.Errorf("order unknown: fs %v, web %v, releases %d (fs has %d); want fs only, its 2 releases",
			fs.OrderUnknown, web.OrderUnknown, h.OrderUnknown, len(fs.Releases))
	}
	// The note says what catalog diff says of a date beside a release.
	diff := DiffNotes(mixed[0], mixed[1])
	if len(diff) != 1 || !strings.Contains(diff[0], UnknownOrder) || !strings.Contains(fs.OrderNote, UnknownOrder) {
		t.Errorf("history's note %q and diff's %q do not share %q", fs.OrderNote, diff, UnknownOrder)
	}
	js, err := json.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Series []map[string]any `json:"series"`
		N      int              `json:"order_unknown_releases"`
	}
	if err := json.Unmarshal(js, &doc); err != nil {
		t.Fatal(err)
	}
	for _, s := range doc.Series {
		_, marked := s["order_unknown"]
		if want := s["key"] == "fs"; marked != want || (want && s["order_unknown"] != true) {
			t.Errorf("history.json series %v: order_unknown %v, want %v", s["key"], s["order_unknown"], want)
		}
	}
	if doc.N != 2 {
		t.Errorf("history.json order_unknown_releases %d, want 2", doc.N)
	}
	var buf bytes.Buffer
	if err := FormatHistory(&buf, h); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	for _, want := range []string{
		"fs: 3 versions, 2 releases",
		"\n  order unknown: versions mix dates and release numbers, " + UnknownOrder,
		"of which 2 releases of series whose version order is unknown",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text history lacks %q:\n%s", want, text)
		}
	}
	if strings.Count(text, "order unknown:") != 1 {
		t.Errorf("text history marks other than fs:\n%s", text)
	}
}
