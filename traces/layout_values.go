package traces

import "time"

// This file holds the value decoders of decodeLayout (layout.go). Each
// decodes the value at b[i] (whitespace before it skipped) into its
// destination and returns the offset after it, or -1 to decline the line.
// A JSON null leaves the destination as it is, as encoding/json does.

// decodeInt decodes a JSON integer that fits in 18 digits.
func decodeInt(b []byte, i int, dst *int64) int {
	if i < len(b) && b[i] == 'n' {
		return skipLiteral(b, i, "null")
	}
	end, integer := scanNumber(b, i)
	if end < 0 || !integer {
		return -1
	}
	v, ok := parseInt(b[i:end])
	if !ok {
		return -1
	}
	*dst = v
	return end
}

// decodeTime decodes "t": the common UTC form here (through c, the
// minute of the last time decoded; nil: none), any other string through
// time.Time's UnmarshalJSON (what encoding/json calls).
func decodeTime(b []byte, i int, dst *time.Time, c *minuteCache) int {
	if i < len(b) && b[i] == 'n' {
		return skipLiteral(b, i, "null")
	}
	end, escaped := scanString(b, i)
	if end < 0 {
		return -1
	}
	if !escaped {
		if t, ok := c.parse(b[i+1 : end-1]); ok {
			*dst = t
			return end
		}
	}
	if dst.UnmarshalJSON(b[i:end]) != nil {
		return -1
	}
	return end
}

// parseUTCTime parses YYYY-MM-DDThh:mm:ss[.f{1,9}]Z with every field in
// range, the shape RFC 3339 times written by defersim and most exporters
// have; ok is false for anything else (which time.Time's parser handles).
func parseUTCTime(s []byte) (t time.Time, ok bool) { return (*minuteCache)(nil).parse(s) }

// minuteCache remembers the minute (YYYY-MM-DDThh:mm) of the last time
// parsed and its Unix time: the times of consecutive lines mostly share
// it, and then only their seconds are parsed.
type minuteCache struct {
	minute [minuteLen]byte
	unix   int64
	ok     bool
}

// minuteLen is the length of YYYY-MM-DDThh:mm.
const minuteLen = len("dddd-dd-ddTdd:dd")

// parse is parseUTCTime through the cache c (nil: none).
func (c *minuteCache) parse(s []byte) (time.Time, bool) {
	if len(s) < minuteLen+len(":ssZ") {
		return time.Time{}, false
	}
	var unix int64
	if c != nil && c.ok && string(s[:minuteLen]) == string(c.minute[:]) {
		unix = c.unix
	} else {
		u, ok := parseMinute(s[:minuteLen])
		if !ok {
			return time.Time{}, false
		}
		unix = u
		if c != nil {
			copy(c.minute[:], s)
			c.unix, c.ok = u, true
		}
	}
	sec, nsec, ok := parseSeconds(s[minuteLen:])
	if !ok {
		return time.Time{}, false
	}
	// time.Unix(…).UTC() is time.Date(…, time.UTC) (the same Time, bit for
	// bit) without Date's normalisation.
	return time.Unix(unix+int64(sec), int64(nsec)).UTC(), true
}

// parseMinute parses YYYY-MM-DDThh:mm (every field in range) into the
// Unix time of the minute's start.
func parseMinute(s []byte) (int64, bool) {
	const shape = "dddd-dd-ddTdd:dd"
	for k := range len(shape) {
		if shape[k] == 'd' {
			if s[k] < '0' || s[k] > '9' {
				return 0, false
			}
		} else if s[k] != shape[k] {
			return 0, false
		}
	}
	num := func(a, b int) int {
		v := 0
		for _, c := range s[a:b] {
			v = v*10 + int(c-'0')
		}
		return v
	}
	year, month, day := num(0, 4), num(5, 7), num(8, 10)
	hour, minute := num(11, 13), num(14, 16)
	if month < 1 || month > 12 || day < 1 || day > daysIn(month, year) || hour > 23 || minute > 59 {
		return 0, false
	}
	return daysSinceEpoch(year, month, day)*86400 + int64(hour*3600+minute*60), true
}

// parseSeconds parses :ss[.f{1,9}]Z (seconds up to 59).
func parseSeconds(s []byte) (sec, nsec int, ok bool) {
	if len(s) < len(":ssZ") || s[0] != ':' || s[len(s)-1] != 'Z' ||
		s[1] < '0' || s[1] > '5' || s[2] < '0' || s[2] > '9' {
		return 0, 0, false
	}
	sec = int(s[1]-'0')*10 + int(s[2]-'0')
	if frac := s[3 : len(s)-1]; len(frac) > 0 {
		if len(frac) < 2 || len(frac) > 10 || frac[0] != '.' {
			return 0, 0, false
		}
		scale := 1_000_000_000
		for _, c := range frac[1:] {
			if c < '0' || c > '9' {
				return 0, 0, false
			}
			scale /= 10
			nsec += int(c-'0') * scale
		}
	}
	return sec, nsec, true
}

// daysSinceEpoch counts the days from 1970-01-01 to the given date of the
// proleptic Gregorian calendar (the days-from-civil algorithm: years start
// in March, so the leap day ends a year).
func daysSinceEpoch(year, month, day int) int64 {
	if month <= 2 {
		year--
	}
	era := year / 400
	if year < 0 {
		era = (year - 399) / 400
	}
	yoe := year - era*400                          // [0, 399]
	doy := (153*((month+9)%12)+2)/5 + day - 1      // [0, 365]
	doe := yoe*365 + yoe/4 - yoe/100 + doy         // [0, 146096]
	return int64(era)*146097 + int64(doe) - 719468 // 719468: days from 0000-03-01 to 1970-01-01
}

func daysIn(month, year int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// decodeStrings decodes a list of strings (an empty list is an empty,
// non-nil slice, as encoding/json makes it).
func decodeStrings(b []byte, i int, dst *[]string, tab *strtab) int {
	if i < len(b) && b[i] == 'n' {
		return skipLiteral(b, i, "null")
	}
	if i >= len(b) || b[i] != '[' {
		return -1
	}
	out := []string{}
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == ']' {
		*dst = out
		return i + 1
	}
	for {
		var s string
		if i >= len(b) || b[i] != '"' { // null inside a list: the general decoders
			return -1
		}
		if i = decodeString(b, i, &s, tab); i < 0 {
			return -1
		}
		out = append(out, s)
		if i = skipWS(b, i); i >= len(b) {
			return -1
		}
		if b[i] == ']' {
			*dst = out
			return i + 1
		}
		if b[i] != ',' {
			return -1
		}
		i = skipWS(b, i+1)
	}
}

// decodeObject calls member for each key of the object at b[i], with the
// key's offset in b and the offset of its value; member returns the offset
// after the value (or -1).
func decodeObject(b []byte, i int, member func(key []byte, koff, i int) int) int {
	if i >= len(b) || b[i] != '{' {
		return -1
	}
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1
	}
	for {
		key, j := scanKey(b, i)
		if j < 0 {
			return -1
		}
		if j = skipWS(b, j); j >= len(b) || b[j] != ':' {
			return -1
		}
		if i = member(key, i+1, skipWS(b, j+1)); i < 0 {
			return -1
		}
		if i = skipWS(b, i); i >= len(b) {
			return -1
		}
		if b[i] == '}' {
			return i + 1
		}
		if b[i] != ',' {
			return -1
		}
		i = skipWS(b, i+1)
	}
}

// decodeServers decodes "servers": a list of {name, version} objects.
func decodeServers(b []byte, i int, dst *[]ServerRef, tab *strtab, ks *keyStack) int {
	if i < len(b) && b[i] == 'n' {
		return skipLiteral(b, i, "null")
	}
	if i >= len(b) || b[i] != '[' {
		return -1
	}
	if tab != nil && len(tab.serversRaw) > 0 && len(b)-i >= len(tab.serversRaw) &&
		string(b[i:i+len(tab.serversRaw)]) == string(tab.serversRaw) {
		// The list the last session_start had: a copy of its value.
		*dst = append([]ServerRef{}, tab.servers...)
		return i + len(tab.serversRaw)
	}
	end := decodeServerList(b, i, dst, tab, ks)
	if tab != nil && end > 0 {
		tab.serversRaw = append(tab.serversRaw[:0], b[i:end]...)
		tab.servers = append(tab.servers[:0], *dst...)
	}
	return end
}

// decodeServerList decodes the list of server objects at b[i] ('[').
func decodeServerList(b []byte, i int, dst *[]ServerRef, tab *strtab, ks *keyStack) int {
	out := []ServerRef{}
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == ']' {
		*dst = out
		return i + 1
	}
	for {
		var ref ServerRef
		var seen uint8
		o := ks.open()
		i = decodeObject(b, i, func(key []byte, koff, i int) int {
			f := serverField(key)
			switch {
			case f >= 0:
				if seen&(1<<f) != 0 {
					return -1
				}
				seen |= 1 << f
				if f == 0 {
					return decodeString(b, i, &ref.Name, tab)
				}
				return decodeString(b, i, &ref.Version, tab)
			case foldsTo(key, serverField) || !ks.add(&o, koff, koff+len(key), true):
				return -1
			}
			return skipValue(b, i, 0, ks)
		})
		if i < 0 {
			return -1
		}
		ks.close(&o)
		out = append(out, ref)
		if i = skipWS(b, i); i >= len(b) {
			return -1
		}
		if b[i] == ']' {
			*dst = out
			return i + 1
		}
		if b[i] != ',' {
			return -1
		}
		i = skipWS(b, i+1)
	}
}

func serverField(key []byte) int {
	switch string(key) {
	case "name":
		return 0
	case "version":
		return 1
	}
	return -1
}

// decodeUsage decodes "usage".
func decodeUsage(b []byte, i int, dst **Usage, ks *keyStack) int {
	if i < len(b) && b[i] == 'n' {
		return skipLiteral(b, i, "null")
	}
	u := &Usage{}
	var seen uint8
	o := ks.open()
	i = decodeObject(b, i, func(key []byte, koff, i int) int {
		f := usageField(key)
		switch {
		case f >= 0:
			if seen&(1<<f) != 0 {
				return -1
			}
			seen |= 1 << f
			return decodeInt(b, i, [...]*int64{&u.Input, &u.CacheRead, &u.CacheWrite, &u.Output}[f])
		case foldsTo(key, usageField) || !ks.add(&o, koff, koff+len(key), true):
			return -1
		}
		return skipValue(b, i, 0, ks)
	})
	if i >= 0 {
		*dst = u
		ks.close(&o)
	}
	return i
}

func usageField(key []byte) int {
	switch string(key) {
	case "input":
		return 0
	case "cache_read":
		return 1
	case "cache_write":
		return 2
	case "output":
		return 3
	}
	return -1
}

// decodeMeta decodes "meta": an object of strings.
func decodeMeta(b []byte, i int, dst *map[string]string) int {
	if i < len(b) && b[i] == 'n' {
		return skipLiteral(b, i, "null")
	}
	m := map[string]string{}
	i = decodeObject(b, i, func(key []byte, _, i int) int {
		if i >= len(b) || b[i] != '"' { // null or not a string: the general decoders
			return -1
		}
		if _, dup := m[string(key)]; dup {
			return -1
		}
		var v string
		end := decodeString(b, i, &v, nil)
		m[string(key)] = v
		return end
	})
	if i >= 0 {
		*dst = m
	}
	return i
}
