// Package plan turns replay results into capacity figures: tokens by kind,
// dollars and latency per day and month for a session volume, with the
// results' confidence intervals carried through; catalog growth (the same
// sessions replayed over catalogs scaled with servers drawn like the
// existing ones, or real catalogs added); and parameter sweeps. See
// docs/plan.md.
package plan
