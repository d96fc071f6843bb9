package catalog

import (
	"strconv"
	"strings"
)

// joinKey appends an object key to a JSON path: ".key" for identifier-like
// keys, `["key"]` otherwise.
func joinKey(path, key string) string {
	if isIdent(key) {
		if path == "" {
			return key
		}
		return path + "." + key
	}
	return path + "[" + strconv.Quote(key) + "]"
}

// joinIndex appends an array index to a JSON path.
func joinIndex(path string, i int) string {
	return path + "[" + strconv.Itoa(i) + "]"
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_', c == '$', c == '-':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return !strings.HasPrefix(s, "-")
}
