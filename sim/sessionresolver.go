package sim

// sessionResolver is resolveSession's state between events, so that a
// session can be resolved as it is read (NeedBuilder).
type sessionResolver struct {
	tables []*serverTable
	// missing maps the servers at a version no catalog holds to that
	// version ("": the server is at a version the catalogs hold).
	missing map[string]string
	set     *serverSet
	// named lists the server versions no catalog holds that the session
	// named so far (Resolution.namedMissing).
	named []ServerVersion
	// names reads the session's server references as series keys (a
	// variant named by its version).
	names variantNames
	key   []byte // scratch space
}

// setMissing records that server is at requested, a version no catalog
// holds ("": at one they hold).
func (rs *sessionResolver) setMissing(server, requested string) {
	if requested != "" && rs.missing == nil {
		rs.missing = map[string]string{}
	}
	if requested != "" || rs.missing != nil {
		rs.missing[server] = requested
	}
}

// change moves the session's server to the table st, as a catalog_change
// does: it replaces the server's table, or adds it in order, and the
// session's tool set follows.
func (rs *sessionResolver) change(e *Engine, server string, st *serverTable) {
	found := false
	for j, t := range rs.tables {
		if t.name == server {
			rs.tables[j], found = st, true
		}
	}
	if !found {
		rs.tables = append(rs.tables, st)
		sortTables(rs.tables)
	}
	rs.set, rs.key = e.set(rs.tables, rs.key)
}

// missingVersion returns the version no catalog holds that server is at
// ("" when none).
func (rs *sessionResolver) missingVersion(server string) string { return rs.missing[server] }
