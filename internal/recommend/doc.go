// Package recommend proposes a defer list from recorded sessions: which
// tools open sessions and should never be deferred, which are expensive and
// rare and should always be deferred, and the schema budget above which
// deferring pays. The rules are explicit economics under a scenario's prices
// and latency (docs/recommend.md). The proposal validates itself: it is
// replayed against the current strategy and every preset on sessions held
// apart from the ones it learnt from.
package recommend
