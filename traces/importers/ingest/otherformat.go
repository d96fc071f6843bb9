package ingest

import (
	"encoding/json"
	"fmt"
)

// OtherFormat is the error of an importer that finds, at pos of an input
// it was told is of format, the distinguishing structure of another format
// that carries something the import would drop (a tool call, a tool
// result, the system prompt). Importing on with exit status 0 would give a
// clean-looking trace of an input the importer did not understand; found
// says what was found and what would be lost.
func OtherFormat(pos, format, other, found string) error {
	return fmt.Errorf("%s: not %s: looks like %s (%s); use --from %s", posOrTop(pos), format, other, found, other)
}

// UsageCounts returns the integer members of a usage object (raw), by
// name; members that are not integers, and a usage that is not an object,
// give none.
func UsageCounts(raw []byte) map[string]int64 {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	out := map[string]int64{}
	for k, v := range m {
		if n, err := ParseInt(v); err == nil {
			out[k] = n
		}
	}
	return out
}
