package catalog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCapturedSessionIsNotMovedOut pins the advice for a catalog file that
// holds a captured server session (an initialize response, then the
// tools/list one, one per line): the page error passed ErrNotCatalog
// through, so LoadDir told the user to move the file out of the directory,
// as for a file that is no catalog at all, instead of to keep only the
// tools/list responses.
func TestCapturedSessionIsNotMovedOut(t *testing.T) {
	dir := t.TempDir()
	capture := `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"kb","version":"1"}}}` + "\n" +
		`{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a","description":"d","inputSchema":{"type":"object"}}]}}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, "kb@1.json"), []byte(capture), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := LoadDir(dir)
	if err == nil {
		t.Fatal("a captured session loaded as a catalog")
	}
	msg := err.Error()
	if strings.Contains(msg, "move kb@1.json out") || !strings.Contains(msg, "keep only the tools/list responses") {
		t.Errorf("error does not say to keep the tools/list responses (or says to move the file out): %s", msg)
	}
}

// TestNotificationAfterListIsNamed pins that a tools/list response saved
// raw with a notification logged after it (one per line, as a capture of
// a server's output holds them) names the notification as no tools/list
// result: before, the file was blamed for a list cut short ("pages[0] has
// no nextCursor, so the tools/list ended there, yet 1 more follow").
func TestNotificationAfterListIsNamed(t *testing.T) {
	for _, tc := range []struct{ name, data, want string }{
		{"after", `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a","inputSchema":{"type":"object"}}]}}` + "\n" +
			`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}` + "\n", "pages[1]: not a tools/list result"},
		{"before", `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"up"}}` + "\n" +
			`{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a","inputSchema":{"type":"object"}}]}}` + "\n", "pages[0]: not a tools/list result"},
	} {
		_, err := Parse([]byte(tc.data), "kb", "1", "")
		if err == nil {
			t.Fatalf("%s: loaded", tc.name)
		}
		if msg := err.Error(); !strings.HasPrefix(msg, tc.want) || !strings.Contains(msg, "keep only the tools/list responses") || strings.Contains(msg, "nextCursor") {
			t.Errorf("%s: %s", tc.name, msg)
		}
	}
}
