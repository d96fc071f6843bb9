package traces

// HasDuplicateKey reports whether the JSON value content (valid JSON, as
// an event's args or meta would hold it) has a key twice in one of its
// objects, compared exactly as the reader compares keys inside content.
// A trace line holding such a value is refused (docs/reliability.md), so
// writers of traces (the importers) check what they copy from elsewhere.
func HasDuplicateKey(content []byte) bool {
	line := make([]byte, 0, len(content)+len(`{"args":}`))
	line = append(line, `{"args":`...)
	line = append(line, content...)
	line = append(line, '}')
	_, dup := findDuplicateKey(line)
	return dup
}
