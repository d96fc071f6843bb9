package plan

import (
	"strings"
	"testing"

	"github.com/defersim/defersim/report"
)

// TestFreeCacheWritesSaidAtTheirPrice pins that plan's price line, in
// text and Markdown, says of a cache-write price equal to the input price
// (gpt-4o: writes free of surcharge, billed as uncached input, absent from
// an OpenAI bill) that it is the input price: it printed "cache write 2.5"
// as if writes were a charge of their own. A write surcharge (Anthropic's
// 1.25×) is printed as before, without the note.
func TestFreeCacheWritesSaidAtTheirPrice(t *testing.T) {
	const note = "(the input price: no write surcharge)"
	for _, tc := range []struct {
		name   string
		prices report.Prices
		want   string
		noted  bool
	}{
		{"openai, free writes", report.Prices{Model: "gpt-4o", Input: 2.5, CacheWrite: 2.5, CacheRead: 1.25, Output: 10}, "cache write 2.5 " + note + ", cache read 1.25", true},
		{"a free model", report.Prices{Model: "local", Output: 0}, "cache write 0, cache read 0", false},
		{"anthropic, 1.25x", report.Prices{Model: "claude-sonnet-4.5", Input: 3, CacheWrite: 3.75, CacheRead: 0.3, Output: 15}, "cache write 3.75, cache read 0.3", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := sketchResults(nil)
			res.Prices = &tc.prices
			_, text, md := projectionTexts(t, res)
			for form, out := range map[string]string{"text": text, "markdown": md} {
				if !strings.Contains(out, tc.want) {
					t.Errorf("%s lacks %q:\n%s", form, tc.want, out)
				}
				if got := strings.Contains(out, note); got != tc.noted {
					t.Errorf("%s says %q: %v, want %v", form, note, got, tc.noted)
				}
			}
		})
	}
}
