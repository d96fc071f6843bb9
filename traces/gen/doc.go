// Package gen generates synthetic but realistic MCP tool catalogs and agent
// sessions (trace format v1) from a small set of documented parameters.
//
// Generated traces record what sessions *need* (user turns, tool calls with
// arguments valid against the schema version in force, result sizes, pauses),
// not what a particular runtime did; model timings and usage are emitted only
// when Params.Recorded asks for them. Output is deterministic: the same
// Params (seed included) give byte-identical files. Sessions are generated one
// at a time from per-session random streams, so a trace of any size is
// produced in bounded memory. See docs/generator.md for every parameter, its
// default and the real-data figure it was calibrated to.
package gen
