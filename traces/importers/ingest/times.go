package ingest

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// naiveLayouts are accepted for timestamps recorded without a zone; they are
// read as UTC.
var naiveLayouts = []string{"2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999"}

// ParseTime reads an RFC 3339 timestamp, or one without a zone (read as UTC).
func ParseTime(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t.UTC(), nil
	}
	for _, l := range naiveLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("bad timestamp %q", s)
}

// Millis returns b−a in whole milliseconds (rounded), or 0 when either time is
// unknown or b is before a. A span longer than a time.Duration holds (about
// 292 years) gives that maximum: b.Sub(a) saturates, and the rounding is
// done on the remainder so that it cannot overflow into a negative value.
func Millis(a, b time.Time) int64 {
	if a.IsZero() || b.IsZero() || b.Before(a) {
		return 0
	}
	d := b.Sub(a)
	ms := d.Milliseconds()
	if d%time.Millisecond >= time.Millisecond/2 {
		ms++
	}
	return ms
}

// TakeTime consumes the first present member of keys as a time: an RFC 3339
// string (or one without a zone, read as UTC) or Unix seconds. It returns
// the zero time when none is present.
func TakeTime(m *Object, keys ...string) (time.Time, error) {
	for _, k := range keys {
		raw := m.Take(k)
		if raw == nil {
			continue
		}
		var s string
		if json.Unmarshal(raw, &s) == nil {
			t, err := ParseTime(s)
			if err != nil {
				return time.Time{}, m.Errorf("%s: %v", k, err)
			}
			return t, nil
		}
		var f float64
		if err := json.Unmarshal(raw, &f); err != nil || f <= 0 || f > 1e11 {
			return time.Time{}, m.Errorf("%s: want an RFC 3339 string or Unix seconds", k)
		}
		return time.Unix(0, int64(f*1e9)).UTC(), nil
	}
	return time.Time{}, nil
}
