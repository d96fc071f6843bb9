package gen

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"go.yaml.in/yaml/v3"

	"github.com/defersim/defersim/internal/yamlerr"
)

// ParseParams reads generator parameters from YAML. Keys that are absent
// keep their Defaults() value (lists such as planted and server_specs are
// replaced whole); unknown keys are an error; the result is validated.
func ParseParams(data []byte) (Params, error) {
	p, err := DecodeParams(data)
	if err != nil {
		return Params{}, err
	}
	if err := p.Validate(); err != nil {
		return Params{}, fmt.Errorf("invalid generator parameters: %w", err)
	}
	return p, nil
}

// DecodeParams reads generator parameters from YAML as ParseParams does,
// without validating them: a generation over a catalog validates them with
// ValidateOver instead.
func DecodeParams(data []byte) (Params, error) {
	p := Defaults()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&p); err != nil && !errors.Is(err, io.EOF) {
		return Params{}, fmt.Errorf("parse generator parameters: %w", yamlerr.Fix(err, data))
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return Params{}, fmt.Errorf("parse generator parameters: expected one YAML document")
	}
	return p, nil
}

// YAML writes p as a complete YAML parameter file (ParseParams reads it back).
func (p Params) YAML() ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(p); err != nil {
		return nil, fmt.Errorf("encode generator parameters: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("encode generator parameters: %w", err)
	}
	return b.Bytes(), nil
}
