// Package sim is defersim's replay engine: it rebuilds, for every strategy of
// a scenario, each model request a recorded session would have sent, with the
// extra steps deferral causes, and measures tokens, cache use, cost, latency
// and errors.
//
// It owns: the strategy and model as data (Strategy, Model, Params) and their
// validation; the registry of named components a strategy selects (Registry:
// triggers, warm-set keyings and evictions, injections, directory formats,
// query models, search rankers, prompt-cache models, token counters) with the
// built-in ones; need extraction from a trace (ExtractNeed); the replay of a
// need under every strategy (Engine, the replayer, its accounting); and the
// mergeable state of a run (RunState). Rankers live in sim/search and
// srd/routed, presets in sim/presets; docs/engine.md states every rule the
// replay applies, docs/architecture.md how to add a component.
package sim
