package importers

import (
	"slices"
	"testing"

	"github.com/defersim/defersim/traces"
)

// TestChatLogImportersExist pins that the importers a chat-log line fed to
// validate or run is pointed at (traces.ChatLogImporters, spelt in traces,
// which cannot import this package) are formats trace import knows.
func TestChatLogImportersExist(t *testing.T) {
	for _, name := range traces.ChatLogImporters() {
		if !slices.Contains(Names(), name) {
			t.Errorf("traces names importer %q, which trace import does not know (%v)", name, Names())
		}
	}
}
