package calibrate

import (
	"strings"
	"testing"
)

// TestFilePartsDisambiguatesCollidingNames pins that the scenario file
// parts of a calibration's model groups are distinct, even case-folded:
// names that fileSafe maps to one part get a suffix from their own name
// (the same in every run), others keep their plain part. (fileSafe alone
// gave acme/a and acme-a one file, the second overwriting the first.)
func TestFilePartsDisambiguatesCollidingNames(t *testing.T) {
	for _, tc := range []struct {
		names []string
		want  []string
	}{
		{[]string{"claude-sonnet-4.5", "openai/gpt-oss-120b"}, []string{"claude-sonnet-4.5", "openai-gpt-oss-120b"}},
		{[]string{"acme/a", "acme-a", "b"}, []string{"acme-a-883a14b3", "acme-a-d4eb996e", "b"}},
		{[]string{"acme-a", "acme/a"}, []string{"acme-a-d4eb996e", "acme-a-883a14b3"}},
		{[]string{"a b", "a:b", "a-b"}, nil}, // three parts a-b, each suffixed: checked below
		{[]string{"GPT-4o", "gpt-4o"}, nil},
	} {
		got, err := fileParts(tc.names)
		if err != nil {
			t.Fatalf("%q: %v", tc.names, err)
		}
		if tc.want != nil && strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("fileParts(%q) = %q, want %q", tc.names, got, tc.want)
		}
		seen := map[string]bool{}
		for _, p := range got {
			if seen[strings.ToLower(p)] {
				t.Errorf("fileParts(%q) = %q: %q twice", tc.names, got, p)
			}
			seen[strings.ToLower(p)] = true
			if fileSafe(p) != p {
				t.Errorf("fileParts(%q): %q is not file-safe", tc.names, p)
			}
		}
	}
}
