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
	top := topServerVersions(r.MissingVersions, n)
	if len(top) == 0 {
		return nil
	}
	out := make([]VersionCount, len(top))
	for i, t := range top {
		out[i] = VersionCount{Server: t.Server, Requested: t.Version, Calls: t.n}
	}
	return out
}

// serverVersionCount is a key of a server-version table and its count.
type serverVersionCount struct {
	ServerVersion
	n int64
}

// topServerVersions returns up to n keys of m, largest count first (then
// by server and version).
func topServerVersions(m map[ServerVersion]int64, n int) []serverVersionCount {
	out := make([]serverVersionCount, 0, len(m))
	for k, v := range m {
		out = append(out, serverVersionCount{k, v})
	}
	slices.SortFunc(out, func(a, b serverVersionCount) int {
		return cmp.Or(cmp.Compare(b.n, a.n), CompareServerVersion(a.ServerVersion, b.ServerVersion))
	})
	return out[:min(n, len(out))]
}

// CompareServerVersion orders the keys of Resolution.MissingVersions: by
// server, then version, bytewise.
func CompareServerVersion(a, b ServerVersion) int {
	return cmp.Or(cmp.Compare(a.Server, b.Server), cmp.Compare(a.Version, b.Version))
}
