package gen

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestWriteString(t *testing.T) {
	for _, s := range []string{"", "plain text", `quote " and \ slash`, "tab\tnew\nline", "é ü 日本", "<b>&</b>", "\x7f\x01"} {
		var b bytes.Buffer
		writeString(&b, s)
		var back string
		if err := json.Unmarshal(b.Bytes(), &back); err != nil || back != s {
			t.Errorf("%q: wrote %s, read back %q (%v)", s, b.Bytes(), back, err)
		}
	}
}
