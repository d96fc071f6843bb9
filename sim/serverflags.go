package sim

// serverFlags says which of the catalog's servers (by index in
// toolTables.names: Tool.srv, serverTable.srv) a run has connected and
// listed. reset clears only the servers the run marked, so a run's reset
// costs what the run used, not the catalog's size.
type serverFlags struct {
	f      []uint8 // by server index: srvConnected | srvListed
	marked []int32 // the indexes whose f is not zero
}

// Flags of serverFlags.
const (
	srvConnected uint8 = 1 << iota
	srvListed
)

func (s *serverFlags) has(srv int32, flag uint8) bool {
	return int(srv) < len(s.f) && s.f[srv]&flag != 0
}

func (s *serverFlags) mark(srv int32, flag uint8) {
	if int(srv) >= len(s.f) {
		s.f = append(s.f, make([]uint8, int(srv)+1-len(s.f))...)
	}
	if s.f[srv] == 0 {
		s.marked = append(s.marked, srv)
	}
	s.f[srv] |= flag
}

func (s *serverFlags) reset() {
	for _, i := range s.marked {
		s.f[i] = 0
	}
	s.marked = s.marked[:0]
}
