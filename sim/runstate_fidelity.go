package sim

import "math"

// The fidelity part of a run's state: every pair while there are at most
// SummaryOptions.FidelityPairs, and streaming statistics of every pair.

// addFidelity files a fidelity pair of the session at stream index idx.
func (st *RunState) addFidelity(idx int64, p FidelityPair) {
	if p.RecordedInput > 0 {
		rel := float64(p.SimInput-p.RecordedInput) / float64(p.RecordedInput)
		st.FidelityInput.Add(math.Abs(rel))
		st.FidelityInputRel.Add(rel)
	}
	if p.RecordedMs > 0 {
		st.FidelityLatency.Add(math.Abs(p.SimMs-p.RecordedMs) / p.RecordedMs)
	}
	if st.FidelityOverflow {
		return
	}
	if max := st.Options.FidelityPairs; max > 0 && len(st.FidelityPairs) >= max {
		st.FidelityOverflow = true
		st.FidelityPairs = nil
		return
	}
	st.FidelityPairs = append(st.FidelityPairs, IndexedPair{Index: idx, Pair: p})
}

// Fidelity returns the fidelity pairs, in session order, when every pair
// was kept (nil otherwise).
func (st *RunState) Fidelity() []FidelityPair {
	if st.FidelityOverflow {
		return nil
	}
	out := make([]FidelityPair, len(st.FidelityPairs))
	for i, p := range st.FidelityPairs {
		out[i] = p.Pair
	}
	return out
}

// FidelitySummary summarises the fidelity of strategy: from every pair
// when they were all kept (SummarizeFidelity), else from the streaming
// statistics (medians and 90th percentiles within the sketch's accuracy),
// with the sessions left out as recorded under another strategy
// (Resolution.RecordedDeferred). It is nil when nothing was compared and
// no session was left out.
func (st *RunState) FidelitySummary(strategy string) *Fidelity {
	f := st.fidelitySummary(strategy)
	if n := st.Resolution.RecordedDeferred; n > 0 {
		if f == nil {
			f = &Fidelity{Strategy: strategy}
		}
		f.OtherStrategy = n
	}
	return f
}

func (st *RunState) fidelitySummary(strategy string) *Fidelity {
	if !st.FidelityOverflow {
		return SummarizeFidelity(strategy, st.Fidelity())
	}
	in, lat := st.FidelityInput, st.FidelityLatency
	if in.N == 0 && lat.N == 0 {
		return nil
	}
	f := &Fidelity{Strategy: strategy, Requests: in.N, LatencyRequests: lat.N}
	if in.N > 0 {
		f.InputMedianAbsRelErr = in.Quantile(0.5)
		f.InputP90AbsRelErr = in.Quantile(0.9)
		f.InputMeanRelErr = st.FidelityInputRel.Value() / float64(in.N)
	}
	if lat.N > 0 {
		f.LatencyMedianAbsRelErr = lat.Quantile(0.5)
		f.LatencyP90AbsRelErr = lat.Quantile(0.9)
	}
	return f
}
