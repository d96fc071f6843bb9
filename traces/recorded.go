package traces

// RecordedDeferred reports whether a session_start's recorded_strategy
// says the recording runtime deferred tools: any value but "" (not
// recorded) and "eager". Such a session's recorded usage is not that of
// an eager replay: calibrate leaves it out and run does not compare it
// (docs/fidelity.md).
func RecordedDeferred(strategy string) bool {
	return strategy != "" && strategy != "eager"
}
