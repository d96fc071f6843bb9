package catalog

import "fmt"

// Canonical returns the canonical JSON of raw: object keys sorted bytewise
// (by their UTF-8 bytes), no insignificant whitespace, numbers exactly as
// written (1.0 stays 1.0, 1e3 stays 1e3), strings re-encoded with minimal
// escaping and no HTML escaping (only '"', '\\' and control characters are
// escaped; invalid UTF-8 becomes U+FFFD). Array order is kept. Duplicate
// object keys, trailing data and nesting deeper than MaxDepth are errors.
// The result is deterministic and Canonical(Canonical(x)) == Canonical(x).
func Canonical(raw []byte) ([]byte, error) {
	v, err := parseValue(raw)
	if err != nil {
		return nil, fmt.Errorf("canonical JSON: %w", err)
	}
	return v.canonical(), nil
}
