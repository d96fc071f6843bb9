package sim

// DirectoryTokens is what strategy s's directory block adds to every
// request in deferred mode when the registry is every catalog server, each
// at versions[server] (its latest when versions names none), listed and
// ordered as for a session that names them all (the local servers first):
// the text s's directory format renders of the tools s defers there,
// counted with the content tokenizer, plus message_overhead_tokens, as a
// replay counts it. It is 0 when the format shows no names (none) or
// renders nothing (s defers no tool there): a replay then sends no
// directory block. s is resolved against the engine's registry and
// routing domains; it need not be one of the engine's strategies.
func (e *Engine) DirectoryTokens(s Strategy, versions map[string]string) (int64, error) {
	s.Normalize()
	f, err := e.reg.directory(s.Directory, e.domains)
	if err != nil {
		return 0, err
	}
	if !f.ShowsNames() {
		return 0, nil
	}
	tables := make([]*serverTable, 0, len(e.tables.names))
	for _, name := range e.tables.names {
		if st := e.tables.lookup(name, versions[name]); st != nil {
			tables = append(tables, st)
		}
	}
	sortTables(tables)
	servers := make([]DirectoryServer, 0, len(tables))
	for _, t := range tables {
		ds := DirectoryServer{Name: t.name, Listed: true}
		for _, ti := range t.tools {
			if computeDeferrable(&s, ti) {
				ds.Tools = append(ds.Tools, ti)
			}
		}
		servers = append(servers, ds)
	}
	return e.directoryBlock(f, servers).tokens, nil
}
