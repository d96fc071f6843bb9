package recommend

import (
	"hash/fnv"
	"iter"
	"math"

	"github.com/defersim/defersim/catalog"
	"github.com/defersim/defersim/internal/runner"
	"github.com/defersim/defersim/sim"
	"github.com/defersim/defersim/traces"
)

// isHeldOut reports whether a session is held apart for validation: a
// seeded hash of its id, uniform in [0, 1), below testShare. The split
// depends only on the seed and the id.
func isHeldOut(seed int64, id string, testShare float64) bool {
	h := fnv.New64a()
	var b [8]byte
	for i := range b {
		b[i] = byte(uint64(seed) >> (8 * i))
	}
	h.Write(b[:])
	h.Write([]byte(id))
	x := h.Sum64()
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return float64(x>>11)/math.Exp2(53) < testShare
}

// Learnt is what the training sessions say.
type Learnt struct {
	Usage *Usage
	// Eager replay figures of the training sessions.
	Requests    int64
	FirstPrompt int64 // sum over sessions of the first request's prompt tokens
	Prompt      int64 // sum over requests of prompt tokens
	// HeldOut is the number of sessions held apart for validation.
	HeldOut int
	// Resolution is how every session (training and held-out) resolves
	// against the catalogs, as a run files it: its unresolved calls and
	// the sessions by recorded model.
	Resolution sim.Resolution
}

// newEngine is the engine recommend replays the training sessions with,
// eagerly (learn), and prices the base's directory with
// (Engine.DirectoryTokens): a run's registry and routing domains (the
// embedded routing descriptions, as the validation's run has them), and
// the local servers a run has (their tools first in the registry).
func newEngine(cat *catalog.Catalog, model sim.Model, params sim.Params, eager sim.Strategy, seed int64, local []string, runModel func(string) bool) (*sim.Engine, error) {
	reg, err := runner.DefaultRegistry()
	if err != nil {
		return nil, err
	}
	domains, err := runner.DefaultDomains()
	if err != nil {
		return nil, err
	}
	return sim.NewEngine(sim.Config{Strategies: []sim.Strategy{eager}, Model: model, Params: params,
		Catalog: cat, Seed: seed, FidelityStrategy: "-", RunModel: runModel, LocalServers: local, Registry: reg, Domains: domains})
}

// learn reads every session once and resolves it against the catalogs
// (Learnt.Resolution): held-out sessions are counted (the
// validation reads them again from the traces, selecting them by id; no
// copy of them is written); training sessions are counted and replayed
// by eng (newEngine), eagerly, for the session shape the rules price with.
func learn(sessions func() iter.Seq2[*traces.Session, error], cat *catalog.Catalog, eng *sim.Engine, seed int64, testShare float64, resolve resolver) (*Learnt, error) {
	l := &Learnt{Usage: newUsage(cat)}
	for s, err := range sessions() {
		if err != nil {
			return nil, err
		}
		eng.Resolve(s, &l.Resolution)
		if isHeldOut(seed, s.ID, testShare) {
			l.HeldOut++
			continue
		}
		need := sim.ExtractNeed(s)
		l.Usage.Add(need, eng.NeedVersions(need), resolve)
		out := eng.ReplayNeed(need)[0]
		if len(out.PerRequest) > 0 {
			l.FirstPrompt += out.PerRequest[0].Input
		}
		for _, rq := range out.PerRequest {
			l.Prompt += rq.Input
			l.Requests++
		}
	}
	return l, nil
}
