package catalog

import (
	"slices"
	"strings"
)

// New builds a catalog from servers. Versions of a series (same Key) are
// sorted with CompareVersions; when two servers share a key and version the
// later argument replaces the earlier one.
func New(servers ...*Server) *Catalog {
	c := &Catalog{Versions: map[string][]*Server{}, toolServers: map[string][]string{}}
	for _, s := range servers {
		if s == nil {
			continue
		}
		k := s.Key()
		vs := c.Versions[k]
		if i := slices.IndexFunc(vs, func(o *Server) bool { return o.Version == s.Version }); i >= 0 {
			vs[i] = s
		} else {
			vs = append(vs, s)
		}
		c.Versions[k] = vs
	}
	for k, vs := range c.Versions {
		slices.SortStableFunc(vs, func(a, b *Server) int { return CompareVersions(a.Version, b.Version) })
		for _, s := range vs {
			for _, t := range s.Tools {
				if keys := c.toolServers[t.Name]; !slices.Contains(keys, k) {
					c.toolServers[t.Name] = append(keys, k)
				}
			}
		}
	}
	for _, keys := range c.toolServers {
		slices.Sort(keys)
	}
	return c
}

// ServerNames returns the series keys (server name, plus "+variant" for a
// launch variant), sorted.
func (c *Catalog) ServerNames() []string {
	out := make([]string, 0, len(c.Versions))
	for k := range c.Versions {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// Latest returns the highest version of the series server (a key as
// ServerNames returns it), or nil.
func (c *Catalog) Latest(server string) *Server {
	vs := c.Versions[server]
	if len(vs) == 0 {
		return nil
	}
	return vs[len(vs)-1]
}

// Unordered reports whether the versions of series server have no release
// order: it has two or more versions and one of them is a ContentVersion.
// Latest then returns the last version by spelling, which is no newer than
// the others, and consecutive versions are not releases.
func (c *Catalog) Unordered(server string) bool {
	vs := c.Versions[server]
	return len(vs) > 1 && slices.ContainsFunc(vs, func(s *Server) bool { return ContentVersion(s.Version) })
}

// LatestAll returns the latest version of every series, in key order.
func (c *Catalog) LatestAll() []*Server {
	var out []*Server
	for _, k := range c.ServerNames() {
		out = append(out, c.Latest(k))
	}
	return out
}

// All returns every server version, by key then ascending version.
func (c *Catalog) All() []*Server {
	var out []*Server
	for _, k := range c.ServerNames() {
		out = append(out, c.Versions[k]...)
	}
	return out
}

// At returns series server at version, or nil. The variant may be given
// either in the server key ("playwright__mcp+caps-vision-pdf", "0.0.45") or
// in the version ("playwright__mcp", "0.0.45+caps-vision-pdf"): SeriesRef.
func (c *Catalog) At(server, version string) *Server {
	server, version = SeriesRef(server, version)
	for _, s := range c.Versions[server] {
		if s.Version == version {
			return s
		}
	}
	return nil
}

// HasTool reports whether any version of server serves a tool called tool.
// server "" means any server; a bare server name also matches its launch
// variants ("playwright__mcp" matches "playwright__mcp+caps-vision-pdf").
func (c *Catalog) HasTool(server, tool string) bool {
	keys := c.toolKeys(tool)
	if server == "" {
		return len(keys) > 0
	}
	for _, k := range keys {
		if k == server || strings.HasPrefix(k, server+"+") {
			return true
		}
	}
	return false
}

// toolKeys returns the series serving tool, using the index built by New or,
// for a Catalog built as a literal, a scan.
func (c *Catalog) toolKeys(tool string) []string {
	if c.toolServers != nil {
		return c.toolServers[tool]
	}
	var keys []string
	for k, vs := range c.Versions {
		for _, s := range vs {
			if s.Tool(tool) != nil {
				keys = append(keys, k)
				break
			}
		}
	}
	return keys
}

// SeriesRef returns the series key and the plain version that a reference
// to server at version names. A launch variant may be written in the
// server's name, as a series key ("playwright__mcp+caps-vision-pdf" at
// "0.0.45"), or in its version, as the catalog file name writes it
// ("playwright__mcp" at "0.0.45+caps-vision-pdf"): both name series
// "playwright__mcp+caps-vision-pdf" at "0.0.45". A version's first "+"
// starts the variant, as ParseFileName reads a file name; a "+" with
// nothing after it is not a variant. Every lookup of a (server, version)
// pair a trace, scenario or flag writes goes through it (At, the engine,
// trace validate and stats), so that they agree on what it names.
func SeriesRef(server, version string) (key, plain string) {
	if v, variant, ok := strings.Cut(version, "+"); ok && variant != "" {
		return server + "+" + variant, v
	}
	return server, version
}

// HasVariant reports whether version carries a launch variant after a "+"
// (SeriesRef).
func HasVariant(version string) bool { return plainVersion(version) != version }

// plainVersion is version without its launch variant (SeriesRef).
func plainVersion(version string) string {
	_, v := SeriesRef("", version)
	return v
}

// variantOf is the launch variant version carries ("" when none).
func variantOf(version string) string {
	key, _ := SeriesRef("", version)
	return strings.TrimPrefix(key, "+")
}

// MixedSchemes reports whether the versions of series server mix dates and
// release numbers (the series MixedVersionSchemes names). Latest then
// returns the last in CompareVersions order, which reads a date as a
// release number (2024-09-01 as 2024.9.1): which version is newest is
// unknown.
func (c *Catalog) MixedSchemes(server string) bool {
	return len(mixedVersionSchemes(c.Versions[server])) > 0
}
