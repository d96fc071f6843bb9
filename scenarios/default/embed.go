// Package defaultdata embeds the default data set that defersim replays when
// run with no arguments: a synthetic catalog (some servers in several
// versions) and a trace of sessions over it, both made by the generator in
// traces/gen from params.yaml. Regenerate with:
//
//	go generate ./scenarios/default
//
// A test checks that regeneration reproduces the committed files exactly.
package defaultdata

import (
	"embed"
	"io/fs"
)

//go:generate go run ../../cmd/gendefault -dir .

// Paths inside FS().
const (
	// CatalogDir holds <server>@<version>.json MCP tools/list results.
	CatalogDir = "catalog"
	// TraceFile is the gzip-compressed trace (format v1).
	TraceFile = "trace.jsonl.gz"
	// ParamsFile holds the generator parameters the data was made from.
	ParamsFile = "params.yaml"
)

//go:embed params.yaml trace.jsonl.gz catalog
var files embed.FS

// FS returns the embedded data set, read-only.
func FS() fs.FS { return files }
