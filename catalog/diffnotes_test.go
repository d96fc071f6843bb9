package catalog

import (
	"strings"
	"testing"
)

// TestDiffNotes pins what a diff says when its two sides are likely not
// the comparison meant: different servers, different launch variants,
// the newer version given first, the same version twice. A release in
// order, and versions named by content hash (no order), say nothing; a
// date and a release number (an order CompareVersions decides
// arbitrarily) say their order is unknown instead of asserting one.
// Before, `catalog diff` printed such diffs as ordinary releases (another
// server's tools all "removed", a downgrade's removals as additions).
func TestDiffNotes(t *testing.T) {
	srv := func(name, version, variant string) *Server {
		return &Server{Name: name, Version: version, Variant: variant}
	}
	for _, tc := range []struct {
		name string
		a, b *Server
		want string // a substring of the one note; "" for none
	}{
		{"release in order", srv("fs", "1.2.0", ""), srv("fs", "1.10.0", ""), ""},
		{"different servers", srv("fs", "1.0", ""), srv("git", "1.0", ""), "are different servers (fs, git)"},
		{"different variants", srv("pw", "1.0", "vision"), srv("pw", "1.1", ""), "are different servers (pw+vision, pw)"},
		{"newer first", srv("fs", "1.10.0", ""), srv("fs", "1.2.0", ""), "fs@1.2.0 is older than fs@1.10.0"},
		{"same version", srv("fs", "1.0", ""), srv("fs", "1.0", ""), "both sides are fs@1.0, the same version"},
		// Mixed schemes: CompareVersions puts the date after 1.10.0 and
		// before 2025.4.8, an arbitrary order; the note said "older than"
		// of whichever came second.
		{"date then release", srv("fs", "2024-09-01", ""), srv("fs", "1.10.0", ""), "fs@2024-09-01 and fs@1.10.0 mix a date and a release number, whose order is unknown"},
		{"release then date", srv("fs", "1.10.0", ""), srv("fs", "20240901", ""), "if fs@20240901 is the older, give it first"},
		{"calendar release then date", srv("fs", "2025.4.8", ""), srv("fs", "2024-09-01", ""), "whose order is unknown"},
		{"content hashes", srv("swe", "2682628f07f0", ""), srv("swe", "0abc1234def5", ""), ""},
		{"no versions", srv("tools_airline", "", ""), srv("tools_airline", "", ""), "the same version"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := DiffNotes(tc.a, tc.b)
			switch {
			case tc.want == "" && len(got) > 0:
				t.Errorf("notes %q, want none", got)
			case tc.want != "" && (len(got) != 1 || !strings.Contains(got[0], tc.want)):
				t.Errorf("notes %q, want one containing %q", got, tc.want)
			}
		})
	}
}
