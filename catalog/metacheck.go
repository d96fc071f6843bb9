package catalog

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// MetaMismatches names each server version whose capture metadata (the
// X.meta.json beside X.json, Server.Meta) contradicts the catalog it
// describes: its "tool_count" is not the number of tools the file lists,
// its version ("package_version" of the shared captures, "version" of a
// defersim snapshot) is another than the file name's, or, in a defersim
// snapshot's metadata, its "fingerprint" is not the tools' model
// fingerprint. The catalog was edited after its capture, or the .meta.json
// is another capture's: the file is still read as it is.
func MetaMismatches(servers []*Server) []string {
	var out []string
	for _, m := range metaMismatches(servers) {
		out = append(out, fmt.Sprintf("%s: its .meta.json says %s: the catalog was edited after its capture, or the .meta.json is another capture's (the catalog is read as it is)",
			where(m.server), m.why))
	}
	return out
}

// found is a server version a catalog file check finds, and what it
// found there.
type found struct {
	server *Server
	why    string
}

// metaMismatches are the server versions MetaMismatches names, in load
// order, each with what its metadata says that the catalog does not.
func metaMismatches(servers []*Server) []found {
	var out []found
	for _, s := range servers {
		if len(s.Meta) == 0 {
			continue
		}
		var m struct {
			Format         string  `json:"format"`
			ToolCount      *int64  `json:"tool_count"`
			PackageVersion *string `json:"package_version"`
			Version        *string `json:"version"`
			Fingerprint    *string `json:"fingerprint"`
		}
		if json.Unmarshal(s.Meta, &m) != nil {
			continue // a member of another type: not a capture's metadata this reads
		}
		var why []string
		if m.ToolCount != nil && *m.ToolCount != int64(len(s.Tools)) {
			why = append(why, fmt.Sprintf("tool_count %d, but the catalog lists %d", *m.ToolCount, len(s.Tools)))
		}
		for _, v := range []struct {
			key string
			val *string
		}{{"package_version", m.PackageVersion}, {"version", m.Version}} {
			if v.val != nil && *v.val != "" && s.Version != "" && compareVersionParts(*v.val, s.Version) != 0 {
				why = append(why, fmt.Sprintf("%s %q, but the file name's version is %q", v.key, *v.val, s.Version))
			}
		}
		if strings.HasPrefix(m.Format, "defersim-snapshot-meta/") && m.Fingerprint != nil && len(why) == 0 {
			if fp := modelServerFingerprint(s.Tools); *m.Fingerprint != fp {
				why = append(why, fmt.Sprintf("fingerprint %.12s…, but the catalog's tools are %.12s…", *m.Fingerprint, fp))
			}
		}
		if len(why) == 0 {
			continue
		}
		out = append(out, found{s, strings.Join(why, "; ")})
	}
	return out
}

// modelServerFingerprint is the server fingerprint of tools over their
// model fingerprints (FingerprintModel, as a snapshot records it), whatever
// scope their Fingerprint was set to.
func modelServerFingerprint(tools []*Tool) string {
	sorted := slices.Clone(tools)
	slices.SortFunc(sorted, func(a, b *Tool) int { return strings.Compare(a.Name, b.Name) })
	h := sha256.New()
	for _, t := range sorted {
		h.Write([]byte(t.ModelFingerprint))
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil))
}
