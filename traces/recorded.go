package traces

// RecordedDeferred reports whether a session_start's recorded_strategy
// says the recording runtime deferred tools: any value but "" (not
// recorded) and "eager". Such a session's recorded usage is not that of
// an eager replay: calibrate leaves it out and run does not compare it
// (docs/fidelity.md).
func RecordedDeferred(strategy string) bool {
	return strategy != "" && strategy != "eager"
}

// NotReplayed reports whether events of kind t are read but not used by
// the replay (docs/trace-format.md, "What the replay reads"): a
// deferral_change says what the recording runtime deferred, which the
// replayed strategies decide for themselves. Readers count them
// (Counts.Unreplayed) and commands say so.
func NotReplayed(t EventType) bool { return t == DeferralChange }
