package tokens

import (
	"fmt"
	"strconv"
	"strings"
)

// ByName returns the counter called name: "o200k_base", "cl100k_base", or
// "bytes/N" for the bytes/N estimator with any positive N (e.g. "bytes/3.5").
func ByName(name string) (Counter, error) {
	name = strings.TrimSpace(name)
	if rest, ok := strings.CutPrefix(name, "bytes/"); ok {
		n, err := strconv.ParseFloat(rest, 64)
		if err != nil || !(n > 0) || n > 1e9 {
			return nil, fmt.Errorf("counter %q: want bytes/N with a positive number N", name)
		}
		return NewEstimator(n), nil
	}
	for _, enc := range Encodings {
		if name == enc {
			return NewTiktoken(name)
		}
	}
	return nil, fmt.Errorf("unknown counter %q (known: o200k_base, cl100k_base, bytes/N)", name)
}

// ParseList resolves a comma-separated list of counter names, in order.
// Duplicate names are an error.
func ParseList(list string) ([]Counter, error) {
	var out []Counter
	seen := map[string]bool{}
	for _, part := range strings.Split(list, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		c, err := ByName(part)
		if err != nil {
			return nil, err
		}
		if seen[c.Name()] {
			return nil, fmt.Errorf("counter %q listed twice", c.Name())
		}
		seen[c.Name()] = true
		out = append(out, c)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no counters in %q", list)
	}
	return out, nil
}
