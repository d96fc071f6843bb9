package calibrate

import (
	"iter"
	"strings"

	"github.com/defersim/defersim/sim/presets"
	"github.com/defersim/defersim/traces"
)

// Data says where a calibration's sessions come from and what each is for.
type Data struct {
	// Traces are the calibration traces: FitOn selects the sessions fitted
	// on; the others are held out, or unused when Test is given.
	Traces []string
	// Test traces are held out, every session of them.
	Test  []string
	FitOn FitOn
	// Seed drives the FitShare selection.
	Seed int64
	// Read, when set, reads one trace file (the CLI passes one that reads a
	// FIFO or pipe from a spooled copy, since a calibration reads its
	// traces several times); nil opens the file.
	Read func(path string) iter.Seq2[*traces.Session, error]
}

// Item is one session with its role.
type Item struct {
	Session *traces.Session
	Role    Role
	// Group is the session's model group (modelKey of its recorded model).
	Group string
	// file is the index of the session's file among Traces, then Test.
	file int
}

// Source yields sessions with their roles; it may be called more than once
// (each call reads the files again).
type Source func() iter.Seq2[Item, error]

// source reads the calibration traces, then the test traces, and yields
// the sessions of group (every group when all is true).
func (d *Data) source(group string, all bool) Source {
	return func() iter.Seq2[Item, error] {
		return func(yield func(Item, error) bool) {
			pos, file := 0, -1
			for _, set := range []struct {
				paths []string
				test  bool
			}{{d.Traces, false}, {d.Test, true}} {
				for _, p := range set.paths {
					file++
					read := readFile
					if d.Read != nil {
						read = d.Read
					}
					for s, err := range read(p) {
						if err != nil {
							yield(Item{}, err)
							return
						}
						it := Item{Session: s, Role: HeldOut, Group: sessionGroup(s), file: file}
						if !set.test {
							switch {
							case d.FitOn.fits(d.Seed, pos, s.ID):
								it.Role = FitRole
							case len(d.Test) > 0:
								it.Role = Unused
							}
							pos++
						}
						if !all && it.Group != group {
							continue
						}
						if !yield(it, nil) {
							return
						}
					}
				}
			}
		}
	}
}

// readFile yields the sessions of one trace file.
func readFile(path string) iter.Seq2[*traces.Session, error] {
	return func(yield func(*traces.Session, error) bool) {
		r, err := traces.Open(path, traces.ReadOptions{})
		if err != nil {
			yield(nil, err)
			return
		}
		defer r.Close()
		for s, err := range r.Sessions() {
			if !yield(s, err) || err != nil {
				return
			}
		}
	}
}

// sessionGroup is the model group of a session: its recorded model's preset
// when the name resolves to one, else the name as recorded.
func sessionGroup(s *traces.Session) string {
	if st := s.Start(); st != nil {
		return modelKey(st.Model())
	}
	return ""
}

func modelKey(recorded string) string {
	if p, ok := presets.ResolveModel(recorded); ok {
		return p
	}
	return strings.TrimSpace(recorded)
}

// RecordedModel returns the model named by the first session_start of the
// traces that has one ("" when none does). read, when set, reads a trace
// (see Data.Read).
func RecordedModel(paths []string, read ...func(string) iter.Seq2[*traces.Session, error]) (string, error) {
	rf := readFile
	if len(read) > 0 && read[0] != nil {
		rf = read[0]
	}
	for _, p := range paths {
		for s, err := range rf(p) {
			if err != nil {
				return "", err
			}
			if st := s.Start(); st != nil && st.Model() != "" {
				return st.Model(), nil
			}
		}
	}
	return "", nil
}
