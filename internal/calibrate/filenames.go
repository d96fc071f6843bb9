package calibrate

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
)

// fileParts returns the file-name part of each model group's scenario:
// fileSafe of its name, unless two names give the same part (names that
// differ only in characters fileSafe replaces, "acme/a" and "acme-a", or
// only in case, one file on a case-insensitive file system): then each of
// them gets "-" and 8 hex digits of its name's SHA-256 appended, the same
// for the same name in every run. Parts that still coincide are an error.
func fileParts(names []string) ([]string, error) {
	parts := make([]string, len(names))
	count := map[string]int{}
	for i, n := range names {
		parts[i] = fileSafe(n)
		count[strings.ToLower(parts[i])]++
	}
	for i, n := range names {
		if count[strings.ToLower(parts[i])] > 1 {
			sum := sha256.Sum256([]byte(n))
			parts[i] += "-" + hex.EncodeToString(sum[:4])
		}
	}
	seen := map[string]int{}
	for i, p := range parts {
		if j, ok := seen[strings.ToLower(p)]; ok {
			return nil, fmt.Errorf("the scenarios of models %q and %q would have the same file name (%s): calibrate them separately", names[j], names[i], p)
		}
		seen[strings.ToLower(p)] = i
	}
	return parts, nil
}

// fileSafe turns a model name into a file-name part.
func fileSafe(s string) string {
	if s == "" {
		return "model"
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '-', r == '_':
			return r
		}
		return '-'
	}, s)
}
