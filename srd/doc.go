// Package srd holds server-level routing descriptions (SRDs): per-server
// metadata that tells a router which capability domain a server belongs to,
// which user intents should bring it to mind, how it differs from its
// neighbours, and how its tools group. It decodes SRD files (YAML or JSON,
// with line-numbered errors), lints a set of them against each other and
// against real catalogs, and renders the text a runtime shows the model: a
// directory grouped by domain and a one-line notice when a domain is
// activated. docs/srd.md documents the format and the rules.
package srd
