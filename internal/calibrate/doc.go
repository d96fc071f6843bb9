// Package calibrate fits the replay's latency model and prompt overhead to
// recorded sessions: the latency parameters (overhead, prefill, cached
// prefill and decode rates) to recorded request durations, and the prompt
// overhead the trace does not carry (system prompt and tool definitions the
// recording omitted, per-message framing) to recorded input tokens. Fits
// are robust (Huber M-estimation by iteratively reweighted least squares),
// made on a seeded share of the sessions and judged on the others. See
// docs/calibrate.md.
package calibrate
