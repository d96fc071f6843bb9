package scenarios

import (
	"fmt"
	"strings"

	"github.com/defersim/defersim/sim/presets"
)

// UseModel replaces the scenario's model as a whole with the model preset
// name (run's, sweep's and plan --growth's --model), exactly as the file's
// `model: NAME` would: the model, the preset it names, the bounds the
// params are checked against and the params the model leaves unread all
// follow it, and so does the fingerprint. An unknown name is refused with
// the close name and the list of presets.
//
// replaced describes the model the file wrote ("claude-sonnet-4.5 (s.yaml:4:
// model)", or "an inline model (…)" for one written without a preset),
// "" when the file wrote none or wrote this one: the caller says what the
// flag replaced.
func (s *Scenario) UseModel(name string) (replaced string, err error) {
	m, err := presets.Model(name)
	if err != nil {
		return "", fmt.Errorf("--model: %w", err)
	}
	if prefix, err := CheckBounds(m, s.Params); err != nil {
		return "", fmt.Errorf("--model %s with the scenario's params: %s: %w", name, prefix, err)
	}
	if _, wrote := s.lines["model"]; wrote && !s.sameModel(m.Name) {
		replaced = s.writtenModel()
	}
	s.Model, s.ModelPreset = m, name
	s.paramsUnread = paramsUnread(s.Model, s.Params, s.paramsWritten)
	// The model no longer comes from the file: no message points at its
	// lines.
	for field := range s.lines {
		if field == "model" || strings.HasPrefix(field, "model.") {
			delete(s.lines, field)
		}
	}
	return replaced, nil
}

// ModelFlagNote is the note a command prints when its --model name
// replaced the model a scenario file wrote (replaced, UseModel's
// description of it: run, recommend, calibrate and defersim-beam print it
// in these words); "" when replaced is "". The embedded default
// scenario's model is the default: a command replaces it without a note,
// and does not call this for it.
func ModelFlagNote(name, replaced string) string {
	if replaced == "" {
		return ""
	}
	return fmt.Sprintf("--model %s replaces the scenario's model, %s", name, replaced)
}

// sameModel says whether the file's model is the preset canon with no
// value of its own: --model then changes nothing.
func (s *Scenario) sameModel(canon string) bool {
	p, ok := presets.ResolveModel(s.ModelPreset)
	return s.ModelPreset != "" && ok && p == canon && !s.hasModelKeys()
}

// writtenModel describes the model the file writes, with where.
func (s *Scenario) writtenModel() string {
	where := s.Where("model")
	switch {
	case s.ModelPreset == "":
		return fmt.Sprintf("an inline model %q (%s)", s.Model.Name, where)
	case s.hasModelKeys():
		return fmt.Sprintf("%s with values of its own (%s)", s.ModelPreset, where)
	}
	return fmt.Sprintf("%s (%s)", s.ModelPreset, where)
}

// hasModelKeys says whether the file writes model keys beside its preset.
func (s *Scenario) hasModelKeys() bool {
	for field := range s.lines {
		if strings.HasPrefix(field, "model.") && field != "model.preset" {
			return true
		}
	}
	return false
}
