package catalog

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestNotesHoldFileChecks pins that Notes, which run, recommend,
// calibrate, sweep, plan and trace validate record, holds one note per
// catalog file check, counting what the check names: a "+build.5" file
// name, a .meta.json contradicting its catalog, and two odd tool names.
// Before, only catalog stats, history and diff ran the checks.
func TestNotesHoldFileChecks(t *testing.T) {
	dir := t.TempDir()
	const tools = `{"tools":[{"name":"read","inputSchema":{"type":"object"}}]}`
	for f, content := range map[string]string{
		"fs@1.2.3.json":         tools,
		"fs@1.2.3+build.5.json": tools,
		"gh@2.0.json":           tools,
		"gh@2.0.meta.json":      `{"tool_count":3}`,
		"sp@1.0.json":           `{"tools":[{"name":"read file","inputSchema":{"type":"object"}},{"name":"débug","inputSchema":{"type":"object"}}]}`,
	} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cat, err := LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	servers := cat.All()
	want := map[string][]string{
		NoteBuildVariant:    {`fs@1.2.3+build.5 (rename to fs@1.2.3.json if "build.5" is build metadata)`},
		NoteMetaContradicts: {"gh@2.0: tool_count 3, but the catalog lists 1"},
		NoteToolNameUnusual: {`sp@1.0: tools[0] "read file" holds ' '`, `sp@1.0: tools[1] "débug" holds 'é'`},
	}
	checks := map[string]int{
		NoteBuildVariant:    len(BuildMetadataVariants(servers)),
		NoteMetaContradicts: len(MetaMismatches(servers)),
		NoteToolNameUnusual: len(UnusualToolNames(servers)),
	}
	notes := Notes(servers, nil)
	var kinds []string
	for _, n := range notes {
		kinds = append(kinds, n.Kind)
		if !slices.Equal(n.Items, want[n.Kind]) || n.Count != checks[n.Kind] {
			t.Errorf("%s: count %d items %q, want %d %q", n.Kind, n.Count, n.Items, checks[n.Kind], want[n.Kind])
		}
		if n.Text() == n.Kind || n.Text() == "" {
			t.Errorf("%s: no text of its own: %q", n.Kind, n.Text())
		}
	}
	if wantKinds := []string{NoteBuildVariant, NoteMetaContradicts, NoteToolNameUnusual}; !slices.Equal(kinds, wantKinds) {
		t.Errorf("kinds %q, want %q", kinds, wantKinds)
	}
}
