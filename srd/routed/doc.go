// Package routed is the routed tool-search mode: stage one ranks capability
// domains (from server-level routing descriptions: intent triggers, names,
// summaries and the text of each domain's tools), stage two ranks tools,
// and a tool's final score mixes its own score with its domain's, so the
// router steers without cutting anything off. A hard-filter variant keeps
// only the tools of the best domains, for comparison. Both wrap any
// sim.RankerFactory (BM25 by default) and are registered as the search modes
// "routed" and "routed-hard". docs/srd.md describes the scoring.
package routed
