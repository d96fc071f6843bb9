package sim

// The resolution of a run is counted on the sessions as the traces record
// them (resolveSession). A scenario upgrade (servers.NAME.upgrades) then
// moves a server to another version, which may no longer serve a tool a
// session calls: the replay leaves such a call out (replayer.resolve), so
// it is unresolved in the replay as much as a call of a tool no catalog
// holds. upgradeRemoved finds those calls and moves them from the class
// they resolved to as recorded into unknown_tool, counting them also in
// Resolution.UpgradeRemoved, so that the run's limit on unresolved calls
// holds for them and the report says where they came from.

// callTools walks n's registry as the replay builds it (newSession,
// changeVersion) and calls fn with each call of the need, in order, and the
// tool it resolves to there (nil: the registry in force serves none), with
// the resolver state that says which servers are at a version no catalog
// holds.
func (e *Engine) callTools(n *Need, key []byte, fn func(c *Call, ti *Tool, rs *sessionResolver)) []byte {
	tt := e.tables
	rs := sessionResolver{key: key}
	if len(n.Servers) == 0 {
		for _, name := range tt.names {
			rs.tables = append(rs.tables, tt.latest[name])
		}
	}
	for _, ref := range n.Servers {
		st := tt.lookup(ref.Name, ref.Version)
		if st == nil {
			continue
		}
		rs.tables = append(rs.tables, st)
		requested := ""
		if ref.Version != "" && st.version != ref.Version {
			requested = ref.Version
		}
		rs.setMissing(ref.Name, requested)
	}
	sortTables(rs.tables)
	rs.set, rs.key = e.set(rs.tables, rs.key)
	for i := range n.Steps {
		st := &n.Steps[i]
		switch st.Kind {
		case StepCatalogChange:
			t := tt.lookup(st.Server, st.Version)
			if t == nil {
				continue
			}
			if t.version != st.Version {
				rs.setMissing(st.Server, st.Version)
			} else {
				rs.setMissing(st.Server, "")
			}
			rs.change(e, st.Server, t)
		case StepModel:
			for k := range st.Calls {
				c := &st.Calls[k]
				var ti *Tool
				if c.Server != "" {
					ti = rs.set.bySrv[toolKey{c.Server, c.Tool}]
				} else {
					ti = rs.set.byName[c.Tool]
				}
				fn(c, ti, &rs)
			}
		}
	}
	return rs.key
}

// recordedCall is how a call resolved before the scenario's upgrades.
type recordedCall struct {
	ti    *Tool
	class string
}

// recordedCalls returns how each call of n resolves in the registry the
// trace records (before applyUpgrades), in call order; buf is reused.
func (e *Engine) recordedCalls(n *Need, buf []recordedCall, key []byte) ([]recordedCall, []byte) {
	buf = buf[:0]
	key = e.callTools(n, key, func(c *Call, ti *Tool, rs *sessionResolver) {
		buf = append(buf, recordedCall{ti: ti, class: e.callClass(c.Server, ti, rs)})
	})
	return buf, key
}

// upgradeRemoved moves into unknown_tool the calls of n (after
// applyUpgrades) that resolved as recorded (before, from recordedCalls)
// and that the registry the upgrades put in force does not serve.
func (e *Engine) upgradeRemoved(n *Need, before []recordedCall, res *Resolution, key []byte) []byte {
	k := 0
	return e.callTools(n, key, func(c *Call, ti *Tool, _ *sessionResolver) {
		b := before[k]
		k++
		if ti != nil || b.ti == nil {
			return
		}
		switch b.class {
		case ClassResolved, ClassSchemaApproximate, ClassSchemaMissing:
		default:
			return // counted unresolved already
		}
		server := c.Server
		if server == "" {
			server = b.ti.server
		}
		res.reclassify(ToolClass{Server: server, Tool: c.Tool, Class: b.class}, ClassUnknownTool)
		res.UpgradeRemoved++
	})
}

// reclassify moves one call counted under from (a resolved class) into
// class to.
func (r *Resolution) reclassify(from ToolClass, to string) {
	switch from.Class {
	case ClassResolved:
		r.Resolved--
	case ClassSchemaApproximate, ClassSchemaMissing:
		if from.Class == ClassSchemaApproximate {
			r.SchemaApproximate--
		} else {
			r.SchemaMissing--
		}
		if n, ok := r.Tools[from]; ok {
			if n <= 1 {
				delete(r.Tools, from)
			} else {
				r.Tools[from] = n - 1
			}
		} else {
			r.ToolsBeyond.add(from.Class, -1)
		}
	}
	r.Calls--
	r.count(from.Server, from.Tool, to)
}
