package presets

import "fmt"

// claudeTokenGapPct is how many more tokens, in percent, newer Claude
// generations turn the same text into (REFERENCE §3: about 30%). It is not
// applied to any count: it is the figure the stand-in note quotes so that
// a reader knows how far to sweep params.token_scale.
const claudeTokenGapPct = 30

// TokenizerStandIn says why the run's counter (params.tokenizer) stands in
// for the named model preset's own, when the preset's vendor does not
// publish its tokenizer (every Claude preset): the sentence names the
// model and the parameter that sweeps the gap. "" when the preset counts
// with its own tokenizer or name is no preset (vendor spellings resolve
// as in ResolveModel).
func TokenizerStandIn(name string) string {
	short := TokenizerStandInShort(name)
	if short == "" {
		return ""
	}
	return fmt.Sprintf("%s (newer Claude models count ~%d%% more tokens for the same text: sweep params.token_scale to see the effect, or let calibrate fit it to recorded usage)",
		short, claudeTokenGapPct)
}

// TokenizerStandInShort is the start of TokenizerStandIn's sentence, which
// a report's run line and its plots' captions quote ("a stand-in:
// claude-sonnet-4.5's tokenizer is not published"); "" when
// TokenizerStandIn is.
func TokenizerStandInShort(name string) string {
	own, ok := OwnTokenizer(name)
	if !ok || own != "" {
		return ""
	}
	canon, _ := ResolveModel(name)
	return fmt.Sprintf("a stand-in: %s's tokenizer is not published", canon)
}

// OwnTokenizerFor is OwnTokenizer of a model built from preset ("" for
// an inline model) and called name: the first of preset and name that is
// a preset decides, as in StandInFor, so a gpt-4o renamed my-gpt counts
// with o200k_base; ok is false when neither is a preset.
func OwnTokenizerFor(preset, name string) (tokenizer string, ok bool) {
	for _, n := range []string{preset, name} {
		if n == "" {
			continue
		}
		if t, ok := OwnTokenizer(n); ok {
			return t, true
		}
	}
	return "", false
}

// StandInFor is note (TokenizerStandIn or TokenizerStandInShort) for a
// model built from preset ("" for an inline model) and called name: the
// first of preset and name that is a preset decides, so a model renamed
// from gpt-4o to "claude-sonnet-4.5" counts with gpt-4o's own tokenizer;
// "" when that preset has its own tokenizer, or neither is a preset.
func StandInFor(preset, name string, note func(string) string) string {
	for _, n := range []string{preset, name} {
		if n == "" {
			continue
		}
		if s := note(n); s != "" {
			return s
		}
		if _, ok := OwnTokenizer(n); ok {
			return ""
		}
	}
	return ""
}
