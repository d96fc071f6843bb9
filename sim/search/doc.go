// Package search holds the ranked tool-search modes of the replay engine:
// BM25 (the anchor runtime's keyword search and the Anthropic API variant),
// term counting (keyword), case-insensitive regular expressions and plain
// substrings, plus exact-name handling ("select:a,b", a bare tool name) for
// the modes whose runtimes have it. Each mode is a sim.Ranker built once
// over a corpus of sim.ToolDoc and safe for concurrent Rank calls; Register
// adds them all to a sim.Registry. docs/search.md documents the
// tokenisation, the scoring and how to add a mode.
package search
