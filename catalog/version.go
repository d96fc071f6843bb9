package catalog

import (
	"strconv"
	"strings"
)

// CompareVersions orders version strings the way people read them: an
// optional leading "v" is ignored; the release part is compared field by
// field on dots, numeric fields numerically (so 2025.4.8 < 2025.11.25 and
// 0.0.9 < 0.0.15) and other fields bytewise, numeric before non-numeric; a
// missing field counts as 0; a pre-release ("-rc.1") sorts before its release
// and pre-release fields compare the same way. A version of digits and
// dashes only (a date: 2024-9-1, 2024-01-15) has no pre-release: its dashes
// read as dots, so 2024-9-1 < 2024-10-1. Versions that compare equal
// but are spelled differently ("1.0" and "1.0.0") are ordered bytewise so the
// order is total and deterministic. It returns -1, 0 or +1.
func CompareVersions(a, b string) int {
	if c := compareVersionParts(a, b); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

func compareVersionParts(a, b string) int {
	a = strings.TrimPrefix(strings.TrimPrefix(a, "v"), "V")
	b = strings.TrimPrefix(strings.TrimPrefix(b, "v"), "V")
	a, b = dashedDate(a), dashedDate(b)
	aRel, aPre, aHasPre := strings.Cut(a, "-")
	bRel, bPre, bHasPre := strings.Cut(b, "-")
	if aRel == "" {
		aRel = "0"
	}
	if bRel == "" {
		bRel = "0"
	}
	if c := compareFields(aRel, bRel, true); c != 0 {
		return c
	}
	switch {
	case aHasPre && !bHasPre:
		return -1
	case !aHasPre && bHasPre:
		return 1
	case aHasPre && bHasPre:
		return compareFields(aPre, bPre, false)
	}
	return 0
}

// dashedDate returns v with its dashes read as dots when v is digit fields
// joined by dashes ("2024-9-1" → "2024.9.1"): a date, whose fields after the
// first are not a pre-release (read so, 2024-9-1 came after 2024-10-15).
// Any other v is returned as it is.
func dashedDate(v string) string {
	if !strings.Contains(v, "-") {
		return v
	}
	for f := range strings.SplitSeq(v, "-") {
		if _, ok := numericField(f); !ok {
			return v
		}
	}
	return strings.ReplaceAll(v, "-", ".")
}

// compareFields compares dot-separated fields. With padZero, a missing
// field counts as "0" (1.2 == 1.2.0); otherwise fewer fields sort first.
func compareFields(a, b string, padZero bool) int {
	af := strings.Split(a, ".")
	bf := strings.Split(b, ".")
	n := max(len(af), len(bf))
	for i := range n {
		var x, y string
		switch {
		case i < len(af):
			x = af[i]
		case padZero:
			x = "0"
		default:
			return -1
		}
		switch {
		case i < len(bf):
			y = bf[i]
		case padZero:
			y = "0"
		default:
			return 1
		}
		if c := compareField(x, y); c != 0 {
			return c
		}
	}
	return 0
}

func compareField(x, y string) int {
	xn, xNum := numericField(x)
	yn, yNum := numericField(y)
	switch {
	case xNum && yNum:
		if xn != yn {
			if xn < yn {
				return -1
			}
			return 1
		}
		return 0
	case xNum:
		return -1
	case yNum:
		return 1
	}
	return strings.Compare(x, y)
}

// numericField parses an all-digit field (up to uint64).
func numericField(s string) (uint64, bool) {
	if s == "" {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, false
	}
	return n, true
}

// ContentVersion reports whether version v names content rather than a
// release: 7 to 40 hexadecimal digits, at least one of them a letter. The
// importers name a tool set they generate by the first 12 hex digits of its
// SHA-256 (docs/importers.md), and git abbreviates a commit to 7 digits or
// more; neither says which came first. CompareVersions orders such versions
// by spelling, which is deterministic but not a release order.
func ContentVersion(v string) bool {
	if len(v) < 7 || len(v) > 40 {
		return false
	}
	letter := false
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c >= '0' && c <= '9':
		case c >= 'a' && c <= 'f', c >= 'A' && c <= 'F':
			letter = true
		default:
			return false
		}
	}
	return letter
}
