package validation

import "fmt"

// Limits bound what the validator accepts, so that a hostile schema or
// argument document costs a clean error rather than a hang.
type Limits struct {
	// MaxBytes bounds a schema or an argument document.
	MaxBytes int
	// MaxDepth bounds the nesting of arrays and objects in a schema or an
	// argument document.
	MaxDepth int
	// MaxRefHops bounds how many "$ref" links Shape and Example follow in a
	// row.
	MaxRefHops int
	// MaxMemo bounds how many compiled schemas are kept; past it schemas
	// are compiled per call and not kept.
	MaxMemo int
}

// DefaultLimits are generous for real MCP schemas (the largest captured
// tool schema is tens of kilobytes, a few levels deep).
func DefaultLimits() Limits {
	return Limits{MaxBytes: 1 << 20, MaxDepth: 128, MaxRefHops: 32, MaxMemo: 4096}
}

// checkDoc rejects a JSON document over the byte or depth limit. It does
// not check that the document is valid JSON.
func (l Limits) checkDoc(what string, b []byte) error {
	if len(b) > l.MaxBytes {
		return fmt.Errorf("%s: %d bytes is over the %d-byte limit", what, len(b), l.MaxBytes)
	}
	if d := nesting(b); d > l.MaxDepth {
		return fmt.Errorf("%s: nested %d deep, over the limit of %d", what, d, l.MaxDepth)
	}
	return nil
}

// nesting returns the deepest array/object nesting of a JSON text,
// ignoring brackets inside strings.
func nesting(b []byte) int {
	depth, deepest := 0, 0
	inString, escaped := false, false
	for _, c := range b {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
			deepest = max(deepest, depth)
		case c == '}' || c == ']':
			depth--
		}
	}
	return deepest
}
