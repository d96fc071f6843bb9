package pipeline

import (
	"context"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/defersim/defersim/sim"
)

func init() {
	register.DoFn5x1[context.Context, traceFile, func(sessionBatch), func(fileRead), func(string, sessionStarts), error](&readFn{})
	register.Emitter1[sessionBatch]()
	register.Emitter1[fileRead]()
	register.Emitter2[string, sessionStarts]()
	register.Combiner1[sessionStarts](&startsFn{})
	register.Function3x0(repeatsFn)
	register.Emitter1[repeatedSession]()
	register.Combiner1[repeatedSession](&earliestRepeatFn{})
	register.Iter1[repeatedSession]()
	register.DoFn2x1[sessionBatch, func(*fileRead) bool, sessionBatch](&indexFn{})
	register.Iter1[fileRead]()
	register.DoFn2x2[context.Context, sessionBatch, *sim.RunState, error](&replayFn{})
	register.Combiner3[*sim.RunState, *sim.RunState, *sim.RunState](&mergeFn{})
	register.DoFn5x1[context.Context, []byte, func(**sim.RunState) bool, func(*fileRead) bool, func(*repeatedSession) bool, error](&writeFn{})
	register.Iter1[*sim.RunState]()
	beam.RegisterCoder(reflect.TypeOf((*sim.RunState)(nil)), encodeState, decodeState)
}

// Build adds the replay of spec to the pipeline of s:
//
//	trace files ─Read─▶ session batches ─Index─▶ Reshuffle ─Replay─▶ states ─Merge (CombineFn)─▶ state
//	            ├──────▶ reads (fingerprints, counts) ──side input──▶ Index, Write
//	            └──────▶ session starts by id ─CombinePerKey─▶ ids in two files ─Combine─▶ earliest ──side input──▶ Write
//	state ─Write─▶ results.json, report (unless a session id was read in two files)
//
// It prepares the run once here, on the launcher, so that a bad scenario,
// catalog or option fails before a job starts.
func Build(s beam.Scope, spec Spec) error {
	d, err := prepared.get(spec)
	if err != nil {
		return InputError(err)
	}
	cfg, err := spec.Config()
	if err != nil {
		return InputError(err)
	}
	files := make([]traceFile, len(cfg.Traces))
	for i, src := range cfg.Traces {
		files[i] = traceFile{Ordinal: i, Path: src.Path}
	}
	names := make([]string, len(d.Strategies))
	for i, st := range d.Strategies {
		names[i] = st.Name
	}
	in := beam.CreateList(s.Scope("Traces"), files)
	batches, reads, starts := beam.ParDo3(s.Scope("Read"), &readFn{Spec: spec}, in)
	firsts := beam.CombinePerKey(s.Scope("Starts"), &startsFn{}, starts)
	repeats := beam.ParDo(s.Scope("Repeats"), repeatsFn, firsts)
	earliest := beam.Combine(s.Scope("EarliestRepeat"), &earliestRepeatFn{}, repeats)
	indexed := beam.ParDo(s.Scope("Index"), &indexFn{}, batches, beam.SideInput{Input: reads})
	spread := beam.Reshuffle(s.Scope("Spread"), indexed)
	states := beam.ParDo(s.Scope("Replay"), &replayFn{Spec: spec}, spread)
	merged := beam.Combine(s.Scope("Merge"), &mergeFn{Strategies: names, Summary: d.Summary}, states)
	beam.ParDo0(s.Scope("Write"), &writeFn{Spec: spec}, beam.Impulse(s),
		beam.SideInput{Input: merged}, beam.SideInput{Input: reads}, beam.SideInput{Input: earliest})
	return nil
}
