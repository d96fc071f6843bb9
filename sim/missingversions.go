package sim

import (
	"cmp"
	"slices"
)

// ServerVersion is a key of Resolution.MissingVersions: a server and a
// version of it that a session asked for.
type ServerVersion struct {
	Server, Version string
}

// addMissingVersion files n version-missing calls under k, keeping the
// MaxResolutionTools smallest keys (boundedAdd).
func (r *Resolution) addMissingVersion(k ServerVersion, n int64) {
	if r.MissingVersions == nil {
		r.MissingVersions = map[ServerVersion]int64{}
	}
	if _, n, out := boundedAdd(r.MissingVersions, &r.MissingVersionsMax, k, n, CompareServerVersion); out {
		r.MissingVersionsBeyond += n
	}
}

// VersionCount is the calls of a server at a version the sessions asked
// for and no catalog holds (Resolution.MissingVersions), with the versions
// the catalogs do hold (in release order; filled by the summary).
type VersionCount struct {
	Server    string   `json:"server"`
	Requested string   `json:"requested"`
	Calls     int64    `json:"calls"`
	Held      []string `json:"held,omitempty"`
}

// TopMissingVersions returns up to n requested versions, most calls first
// (then by server and version).
func (r *Resolution) TopMissingVersions(n int) []VersionCount {
	var out []VersionCount
	for k, v := range r.MissingVersions {
		out = append(out, VersionCount{Server: k.Server, Requested: k.Version, Calls: v})
	}
	slices.SortFunc(out, func(a, b VersionCount) int {
		return cmp.Or(cmp.Compare(b.Calls, a.Calls), cmp.Compare(a.Server, b.Server), cmp.Compare(a.Requested, b.Requested))
	})
	return out[:min(n, len(out))]
}

// CompareServerVersion orders the keys of Resolution.MissingVersions: by
// server, then version, bytewise.
func CompareServerVersion(a, b ServerVersion) int {
	return cmp.Or(cmp.Compare(a.Server, b.Server), cmp.Compare(a.Version, b.Version))
}
