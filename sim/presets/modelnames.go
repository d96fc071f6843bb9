package presets

import (
	"regexp"
	"strings"
)

// Vendor spellings of a model name that ResolveModel reads past.
var (
	// A dated snapshot: "-20250929", "-2024-08-06", Vertex's "@20250929".
	datedSuffix = regexp.MustCompile(`(?:[-@]\d{8}|-\d{4}-\d{2}-\d{2})$`)
	// Bedrock's model version: "-v1:0", "-v2".
	bedrockVersion = regexp.MustCompile(`-v\d+(?::\d+)?$`)
	// Bedrock's provider (and cross-region) prefix: "anthropic.", "us.anthropic.".
	bedrockPrefix = regexp.MustCompile(`^(?:[a-z]{2,4}\.)?(?:anthropic|openai)\.`)
	// A version written with a dash between its digits: "4-5" for "4.5".
	dashedVersion = regexp.MustCompile(`(\d)-(\d)(-|$)`)
)

// ResolveModel maps a model name as recorded by a vendor API, a router or a
// cloud to the model preset it denotes, and reports whether there is one.
// It lowercases the name and reads past, in order: a router's provider path
// ("openai/gpt-4o", "openrouter/anthropic/claude-sonnet-4.5"), a Bedrock
// provider prefix and version ("anthropic.claude-…-v1:0"), a dated snapshot
// suffix ("-20250929", "-2024-08-06", "@20250929") or "-latest", and dashes
// between version digits ("claude-sonnet-4-5" is claude-sonnet-4.5). A name
// that still matches no preset — another model, another generation or size
// ("claude-opus-4-6", "gpt-5-mini") — resolves to nothing: callers must say
// which preset they use instead, never pick one silently.
func ResolveModel(name string) (string, bool) {
	n := strings.ToLower(strings.TrimSpace(name))
	if i := strings.LastIndexByte(n, '/'); i >= 0 {
		n = n[i+1:]
	}
	n = bedrockPrefix.ReplaceAllString(n, "")
	n = bedrockVersion.ReplaceAllString(n, "")
	n = strings.TrimSuffix(n, "-latest")
	n = datedSuffix.ReplaceAllString(n, "")
	for dashedVersion.MatchString(n) {
		n = dashedVersion.ReplaceAllString(n, "$1.$2$3")
	}
	for _, p := range modelTable() {
		if p.name == n {
			return n, true
		}
	}
	return "", false
}

// PresetNotNamed is preset, the preset a model called name was built
// from, when name does not resolve to it (ResolveModel): a renamed
// preset, as in model: {preset: claude-sonnet-4.5, name: my-sonnet}. ""
// when name resolves to it, and when preset is "" (a model written out in
// full). It is what the model's name does not say of its preset, which
// results.json records (sim.RunInfo.ModelPreset) so that what depends on
// the preset (the model's own tokenizer, StandInFor, OwnTokenizerFor) is
// said from the file as the run said it.
func PresetNotNamed(preset, name string) string {
	p, ok := ResolveModel(preset)
	if !ok {
		return preset
	}
	if n, ok := ResolveModel(name); ok && n == p {
		return ""
	}
	return preset
}

// SameModel says whether a model name (recorded in a trace, or by
// recommend's recommended_for) is the run's model: the same name, or a
// vendor's spelling of the run's model or of the preset it was built from
// ("gpt-4o-2024-08-06" is gpt-4o). The one rule every comparison of model
// names uses.
func SameModel(name, model, preset string) bool {
	name = strings.TrimSpace(name)
	if name == "" {
		return false
	}
	if strings.EqualFold(name, strings.TrimSpace(model)) {
		return true
	}
	r, ok := ResolveModel(name)
	if !ok {
		return false
	}
	if m, ok := ResolveModel(model); ok && m == r {
		return true
	}
	p, ok := ResolveModel(preset)
	return ok && p == r
}
