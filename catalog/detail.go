package catalog

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// unionKeys returns the member keys of two objects, sorted.
func unionKeys(a, b *value) []string {
	var keys []string
	for _, v := range []*value{a, b} {
		if v == nil || v.kind != kObject {
			continue
		}
		for _, m := range v.members {
			keys = append(keys, m.key)
		}
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}

// maxDetailValue bounds a value quoted in a Detail.
const maxDetailValue = 40

// shortValue renders a short scalar or a size for anything longer.
func shortValue(v *value) string {
	if v == nil {
		return "absent"
	}
	c := v.canonical()
	if len(c) <= maxDetailValue && v.kind != kObject {
		return string(c)
	}
	return fmt.Sprintf("<%d bytes>", len(c))
}

func leafDetail(a, b *value) string { return shortValue(a) + " → " + shortValue(b) }

func sizeDetail(a, b *value) string {
	size := func(v *value) string {
		if v == nil {
			return "absent"
		}
		if v.kind == kString {
			return strconv.Itoa(len(v.text)) + " bytes"
		}
		return strconv.Itoa(len(v.canonical())) + " bytes"
	}
	return size(a) + " → " + size(b)
}

func setDetail(gone, extra []string) string {
	var parts []string
	if len(gone) > 0 {
		parts = append(parts, "-"+joinShort(gone))
	}
	if len(extra) > 0 {
		parts = append(parts, "+"+joinShort(extra))
	}
	return strings.Join(parts, " ")
}

func joinShort(vals []string) string {
	s := strings.Join(vals, ",")
	if len(s) > 3*maxDetailValue {
		return fmt.Sprintf("<%d values>", len(vals))
	}
	return "[" + s + "]"
}
