// Package srddata embeds the routing descriptions the project ships:
// catalogs/ describes the servers of the real catalogs in ../shared/data
// (one file per server), metatool/ groups MetaTool's 199 tools into
// domains. They are the project's own words.
package srddata

import "embed"

// FS holds catalogs/*.yaml and metatool/*.yaml.
//
//go:embed catalogs/*.yaml metatool/*.yaml
var FS embed.FS

// Directories in FS.
const (
	Catalogs = "catalogs"
	MetaTool = "metatool"
)
