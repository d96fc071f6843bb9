package catalog

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
)

// FingerprintScope says which members of a tool its Fingerprint covers.
type FingerprintScope string

// Fingerprint scopes.
const (
	// FingerprintModel covers what the model sees: name, description and
	// input schema (a missing or null one read as {"type":"object"}).
	// Annotations, title, icons, outputSchema, _meta and any other member
	// are left out: a change in them alone changes no request. The
	// default.
	FingerprintModel FingerprintScope = "model"
	// FingerprintServed covers the whole tool object as served, every
	// member included (the fingerprint before issue 16).
	FingerprintServed FingerprintScope = "served"
)

// ParseFingerprintScope accepts "model", "served", or "" (model).
func ParseFingerprintScope(s string) (FingerprintScope, error) {
	switch f := FingerprintScope(s); f {
	case "":
		return FingerprintModel, nil
	case FingerprintModel, FingerprintServed:
		return f, nil
	}
	return "", fmt.Errorf("unknown fingerprint scope %q (want model or served)", s)
}

// modelVisible returns the members of tool v a model sees, as an object:
// name, description (when a string) and the input schema as read.
func modelVisible(v *value, schema *value) *value {
	out := &value{kind: kObject}
	out.members = append(out.members, member{key: "name", val: v.get("name")})
	if d := v.get("description"); d != nil && d.kind == kString {
		out.members = append(out.members, member{key: "description", val: d})
	}
	out.members = append(out.members, member{key: "inputSchema", val: readSchema(schema)})
	return out
}

func hexSum(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// fingerprintFor returns t's fingerprint in scope.
func (t *Tool) fingerprintFor(scope FingerprintScope) string {
	if scope == FingerprintServed {
		return t.ServedFingerprint
	}
	return t.ModelFingerprint
}

// SetFingerprintScope sets every tool's Fingerprint (and so every server's)
// to cover scope: FingerprintModel, the default of every loader, or
// FingerprintServed. Call it right after loading, before the catalog is
// shared.
func (c *Catalog) SetFingerprintScope(scope FingerprintScope) {
	for _, vs := range c.Versions {
		for _, s := range vs {
			s.SetFingerprintScope(scope)
		}
	}
}

// SetFingerprintScope sets the server's tools' fingerprints (and its own)
// to cover scope.
func (s *Server) SetFingerprintScope(scope FingerprintScope) {
	for _, t := range s.Tools {
		t.Fingerprint = t.fingerprintFor(scope)
	}
	s.Fingerprint = serverFingerprint(s.Tools)
}
