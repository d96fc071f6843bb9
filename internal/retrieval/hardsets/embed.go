// Package hardsets embeds the project's hard-case retrieval sets: queries
// written in plain user words over the real catalogs in ../shared/data,
// each with the tools that answer it. docs/retrieval.md says how they were
// made.
package hardsets

import "embed"

// FS holds the sets, one YAML file each.
//
//go:embed *.yaml
var FS embed.FS

// Names lists the sets in FS, each in "<name>.yaml".
func Names() []string { return []string{"same-name", "near-synonym", "long-tail"} }
