package runner

import (
	"iter"

	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/traces"
)

// Engine returns the engine a run of cfg replays with, built exactly as
// Run builds it (for tests and tools that replay sessions themselves).
func Engine(cfg Config) (*sim.Engine, error) {
	p, err := prepare(cfg)
	if err != nil {
		return nil, err
	}
	return p.eng, nil
}

// Sessions returns the sessions of cfg's traces in the order a run reads
// them (every session, whatever the shard).
func Sessions(cfg Config) iter.Seq2[*traces.Session, error] {
	return allSessions(cfg.Traces, nil, traces.ReadOptions{SkipBad: cfg.SkipBad}, nil, nil, cfg.Transform)
}
