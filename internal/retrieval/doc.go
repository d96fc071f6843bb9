// Package retrieval measures tool search on labelled queries: loaders for
// public labelled sets (MetaTool, BFCL live_multiple, MCP-Bench) and for the
// project's own hard-case sets over real MCP catalogs, and an evaluation
// harness that runs every search arm (a ranker, flat or routed) on the same
// queries and reports domain recall, tool top-1 and recall@k, MRR, searches
// until found and tokens of returned schemas, with paired bootstrap
// intervals. docs/retrieval.md documents the sets, the metrics and the
// retry policy.
package retrieval
