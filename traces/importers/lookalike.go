package importers

import (
	"fmt"
	"strings"

	"github.com/defersim/defersim/traces/importers/sniff"
)

// lookalike returns the hint an import of format adds to its error on
// inputs, or to the note of an input without a session: the other format
// every one of inputs looks like (sniff.File), as "; it looks like F
// (why); use --from F". It is "" when an input looks like none, like
// format itself, or inputs look like different formats.
func lookalike(format string, inputs ...string) string {
	var like, why string
	for i, in := range inputs {
		f, w := sniff.File(in)
		if f == "" || f == format || (i > 0 && f != like) {
			return ""
		}
		if i == 0 {
			like, why = f, w
		}
	}
	if like == "" {
		return ""
	}
	return fmt.Sprintf("; it looks like %s (%s); use --from %s", like, why, like)
}

// withLookalike adds to err, an import's error on inputs, the format they
// look like (lookalike), unless err already names the format to use (the
// errors of ingest.OtherFormat).
func withLookalike(err error, format string, inputs ...string) error {
	if strings.Contains(err.Error(), "; use --from ") {
		return err
	}
	if hint := lookalike(format, inputs...); hint != "" {
		return fmt.Errorf("%w%s", err, hint)
	}
	return err
}
