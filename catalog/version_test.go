package catalog

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCompareVersions(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"0.0.9", "0.0.15", -1},
		{"2025.4.8", "2025.11.25", -1},
		{"2025.11.25", "2026.8.31", -1},
		{"0.6.2", "2025.1.14", -1},
		{"1.0.0-rc.1", "1.0.0", -1},
		{"1.0.0-alpha", "1.0.0-beta", -1},
		{"1.0.0-rc.2", "1.0.0-rc.10", -1},
		{"1.0.0-rc", "1.0.0-rc.1", -1},
		{"v1.2.3", "1.2.4", -1},
		{"1.2", "1.2.0", -1}, // equal by value; bytewise tie-break
		{"1.2.0", "1.2.0", 0},
		{"1.2.x", "1.2.3", 1}, // numeric before non-numeric
		{"", "0.1", -1},
		{"99999999999999999999999", "1", 1}, // over uint64: compared as text
		// Dates with dashes are releases, not pre-releases of their year.
		{"2024-9-1", "2024-10-1", -1},
		{"2024-10-1", "2024-10-15", -1},
		{"2024-01-15", "2024-03-02", -1},
		{"2024-01-15", "2024", 1},
		{"2024-01-15", "2024.1.15", -1}, // equal by value; bytewise tie-break
		{"1.2.3-1", "1.2.3", -1},        // not digits and dashes only: a pre-release
	}
	for _, tc := range tests {
		if got := CompareVersions(tc.a, tc.b); got != tc.want {
			t.Errorf("CompareVersions(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if got := CompareVersions(tc.b, tc.a); got != -tc.want {
			t.Errorf("CompareVersions(%q, %q) = %d, want %d (antisymmetry)", tc.b, tc.a, got, -tc.want)
		}
	}
}

// TestDateVersionsInReleaseOrder pins that versions written as dates with
// dashes sort as dates: before, 2024-9-1 was read as a pre-release "9-1" of
// 2024 and sorted after 2024-10-15, so a history diffed September after
// October and stats counted September as the latest.
func TestDateVersionsInReleaseOrder(t *testing.T) {
	in := []string{"2024-10-15", "2024-9-1", "2025-1-2", "2024-10-1"}
	slices.SortFunc(in, CompareVersions)
	want := []string{"2024-9-1", "2024-10-1", "2024-10-15", "2025-1-2"}
	if diff := cmp.Diff(want, in); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestSortVersions(t *testing.T) {
	in := []string{"2025.11.25", "0.6.2", "2026.8.31", "2025.5.12", "2025.1.14"}
	slices.SortFunc(in, CompareVersions)
	want := []string{"0.6.2", "2025.1.14", "2025.5.12", "2025.11.25", "2026.8.31"}
	if diff := cmp.Diff(want, in); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestContentVersion(t *testing.T) {
	for _, tc := range []struct {
		v    string
		want bool
	}{
		{"2682628f07f0", true}, // the importers' 12 hex digits of a SHA-256
		{"f050845145ce", true},
		{"abc1234", true},                                    // a short git commit
		{"0123456789abcdef0123456789abcdef01234567", true},   // a full one
		{"abc123", false},                                    // too short to be a hash
		{"0123456789abcdef0123456789abcdef012345678", false}, // too long
		{"202501141234", false},                              // digits only: a number, ordered as one
		{"2025.11.25", false},
		{"1.0.0", false},
		{"v1.10.0", false},
		{"0.0.45+caps", false},
		{"deadbeefg", false}, // not hex
		{"1.0.0-rc.1", false},
		{"ABCDEF1234", true},
	} {
		if got := ContentVersion(tc.v); got != tc.want {
			t.Errorf("ContentVersion(%q) = %v, want %v", tc.v, got, tc.want)
		}
	}
}
