package catalog

import "fmt"

// DiffNotes says what makes a diff of a (older) with b (newer) likely not
// the comparison meant, in words a user can act on: the two files are
// different servers (or launch variants), so every tool of one reads as
// removed and of the other as added unless names happen to coincide; b is
// a version older than a, so added and removed are swapped and a change
// the release made reads backwards; both are the same version of the same
// server; a and b are a date and a release number (versionScheme, the
// mix NoteVersionsMixed warns of), whose order CompareVersions decides
// arbitrarily (a date read as a release number), so which is older is
// unknown and the note says so rather than asserting either order.
// Versions named by content hash (ContentVersion) have no release order
// and are not compared. Nil when there is nothing to note.
func DiffNotes(a, b *Server) []string {
	var out []string
	switch {
	case a.Key() != b.Key():
		out = append(out, fmt.Sprintf("%s and %s are different servers (%s, %s): the diff compares unrelated tool sets, "+
			"and only tools whose names coincide are compared; a drift series is one server (and launch variant) in several versions",
			a.Label(), b.Label(), a.Key(), b.Key()))
	case a.Version == b.Version:
		out = append(out, fmt.Sprintf("both sides are %s, the same version: the diff shows what differs between two captures of it, not a release", a.Label()))
	case mixedPair(a.Version, b.Version):
		out = append(out, fmt.Sprintf("%s and %s mix a date and a release number, %s: diff reads A as the older side; if %s is the older, give it first",
			a.Label(), b.Label(), UnknownOrder, b.Label()))
	case a.Version != "" && b.Version != "" && !ContentVersion(a.Version) && !ContentVersion(b.Version) && CompareVersions(a.Version, b.Version) > 0:
		out = append(out, fmt.Sprintf("%s is older than %s: diff reads A as the older side, so added and removed are swapped and changes read backwards; "+
			"give the older version first", b.Label(), a.Label()))
	}
	return out
}

// UnknownOrder is what catalog diff, catalog history and plan --growth's
// notes say of versions mixing a date and a release number: one wording,
// so that they cannot drift apart.
const UnknownOrder = "whose order is unknown (defersim orders a date as a release number, " +
	"2024-09-01 as 2024.9.1, which may not be the release order)"

// mixedPair reports whether one of versions a and b is a date and the
// other a release number (versionScheme).
func mixedPair(a, b string) bool {
	sa, sb := versionScheme(a), versionScheme(b)
	return sa != sb && sa != schemeOther && sb != schemeOther
}
