package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"unicode/utf8"

	"github.com/defersim/defersim/internal/atomicfile"
)

// MarshalResults encodes res as JSON indented by two spaces (arrays of
// numbers on one line) with a trailing newline. Struct fields keep their
// declared order and map keys are sorted, so equal results give identical
// bytes.
func MarshalResults(res *Results) ([]byte, error) {
	if res == nil {
		return nil, errors.New("marshal results: nil results")
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(res); err != nil {
		return nil, fmt.Errorf("marshal results: %w", err)
	}
	out, err := indentJSON(buf.Bytes())
	if err != nil {
		return nil, fmt.Errorf("marshal results: %w", err)
	}
	return out, nil
}

// WriteResults writes res to path atomically (see MarshalResults).
func WriteResults(path string, res *Results) error {
	data, err := MarshalResults(res)
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("write results: %w", err)
	}
	return nil
}

// ReadResults reads a results.json file. It rejects files without a
// schema_version, with a version other than SchemaVersion, or whose content
// cannot be rendered.
func ReadResults(path string) (*Results, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read results: %w", err)
	}
	res, err := DecodeResults(data)
	if err != nil {
		return nil, fmt.Errorf("read results %s: %w", path, err)
	}
	return res, nil
}

// DecodeResults parses results.json content (see ReadResults). Unknown
// fields are ignored: later v1 writers may add fields. Content that is not
// UTF-8 is rejected (defersim never writes it: the file is damaged).
func DecodeResults(data []byte) (*Results, error) {
	if !utf8.Valid(data) {
		return nil, fmt.Errorf("not a results file: invalid UTF-8 at byte offset %d", invalidUTF8At(data))
	}
	var head struct {
		SchemaVersion *int `json:"schema_version"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("not a results file: %w", ResultsJSONError(data, err))
	}
	switch {
	case head.SchemaVersion == nil:
		return nil, errors.New("not a defersim results file: no schema_version")
	case *head.SchemaVersion != SchemaVersion:
		return nil, fmt.Errorf("results schema_version %d is not supported: this defersim reads version %d "+
			"(re-run the scenario, or use the defersim release that wrote the file)", *head.SchemaVersion, SchemaVersion)
	}
	var res Results
	if err := json.Unmarshal(data, &res); err != nil {
		return nil, fmt.Errorf("decode results: %w", ResultsJSONError(data, err))
	}
	if err := res.check(); err != nil {
		return nil, err
	}
	return &res, nil
}

// check verifies what the renderers rely on.
func (r *Results) check() error {
	if len(r.Strategies) == 0 {
		return errors.New("results hold no strategies")
	}
	if r.Sessions < 0 {
		return fmt.Errorf("results: negative session count %d", r.Sessions)
	}
	seen := map[string]bool{}
	for i, s := range r.Strategies {
		if s.Name == "" {
			return fmt.Errorf("results: strategy %d has no name", i)
		}
		if seen[s.Name] {
			return fmt.Errorf("results: strategy %q appears twice", s.Name)
		}
		seen[s.Name] = true
		for name, d := range s.Metrics {
			if n := len(d.Quantiles); n != 0 && n != QuantileGridPoints {
				return fmt.Errorf("results: strategy %q metric %s has %d quantiles, want %d or none",
					s.Name, name, n, QuantileGridPoints)
			}
			if d.Count < 0 {
				return fmt.Errorf("results: strategy %q metric %s has a negative count", s.Name, name)
			}
		}
	}
	return r.consistent()
}

// invalidUTF8At returns the offset of the first byte of data that does not
// start a valid UTF-8 sequence.
func invalidUTF8At(data []byte) int {
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return len(data)
}
