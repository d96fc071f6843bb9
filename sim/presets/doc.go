// Package presets holds defersim's named strategies, models and default
// parameters. Each strategy preset reproduces one runtime's documented,
// dated deferral rule (REFERENCE §1–2) and says so in its Source; each model
// preset carries list prices, prompt-cache rules and latency defaults
// (REFERENCE §3–4). docs/presets.md documents every one, with the arithmetic
// behind the latency defaults.
//
// Every lookup returns a fresh value: callers may change what they get.
package presets
