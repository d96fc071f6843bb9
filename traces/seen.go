package traces

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io"
)

// SessionSet remembers the sessions read by the Readers that share it
// (ReadOptions.Seen), so that a session id starting again after it was
// read, in the same file or an earlier one, is a line error of kind
// KindDuplicateSession instead of a second session.
//
// It keeps no id: each session costs one map entry of a 64-bit hash of
// its id and the place of its session_start (file and line packed in 64
// bits), 23 to 38 bytes (docs/performance.md). Two ids with the same hash
// would be taken for one: where Reread is set and the Reader stops at the
// repeat (no SkipBad), the line the hash points to is read again and must
// hold the same id, so a stop is always exact (the second of two such ids
// is then not remembered); a skipped repeat, and one Validate lists, is
// decided by the hash alone (odds of a false match about n²/2⁶⁵ for n
// sessions: one in 370,000 runs of ten million sessions).
//
// Readers sharing a set must read one after the other, not at once.
type SessionSet struct {
	at    map[uint64]uint64
	files []string
	// Reread, when set, opens the i-th file read with the set again (in
	// the order the Readers started), to confirm a repeat.
	Reread func(file int) (io.ReadCloser, error)
}

// NewSessionSet returns an empty set.
func NewSessionSet() *SessionSet {
	return &SessionSet{at: make(map[uint64]uint64)}
}

// Places are packed as file<<lineBits | line; a file index or line
// number past the bounds is stored as unknown (the message then names no place).
const (
	lineBits    = 44
	maxSeenLine = 1<<lineBits - 1
	maxSeenFile = 1<<(64-lineBits) - 1
)

// addFile registers the next file read with the set and returns its index.
func (s *SessionSet) addFile(name string) int {
	s.files = append(s.files, name)
	return len(s.files) - 1
}

// sessionHash is the first 64 bits of the SHA-256 of id: deterministic,
// so a run's outcome never depends on a random seed.
func sessionHash(id string) uint64 {
	var buf [64]byte // ids this short are hashed without allocating
	b := buf[:0]
	if len(id) > len(buf) {
		b = nil
	}
	sum := sha256.Sum256(append(b, id...))
	return binary.LittleEndian.Uint64(sum[:8])
}

// start records session id starting at line of file, unless it was read
// before: then it returns where it started first (file -1 when unknown),
// and dup is true. With confirm, a match of the hash is checked by
// reading that line again (when Reread is set): a different id there is
// no repeat (and the set keeps the first).
func (s *SessionSet) start(id string, file, line int, confirm bool) (firstFile, firstLine int, dup bool) {
	if s.at == nil {
		s.at = make(map[uint64]uint64)
	}
	h := sessionHash(id)
	loc, ok := s.at[h]
	if !ok {
		if file >= 0 && file <= maxSeenFile && line >= 0 && line <= maxSeenLine {
			s.at[h] = uint64(file)<<lineBits | uint64(line)
		} else {
			s.at[h] = maxSeenFile << lineBits // unknown place
		}
		return 0, 0, false
	}
	firstFile, firstLine = int(loc>>lineBits), int(loc&maxSeenLine)
	if firstFile == maxSeenFile || firstFile >= len(s.files) {
		return -1, 0, true
	}
	if confirm && s.Reread != nil {
		if got, err := s.idAt(firstFile, firstLine); err == nil && got != id {
			return 0, 0, false // another id with the same hash
		}
	}
	return firstFile, firstLine, true
}

// idAt reads the session id of the event at line of file again.
func (s *SessionSet) idAt(file, line int) (string, error) {
	rc, err := s.Reread(file)
	if err != nil {
		return "", err
	}
	defer rc.Close()
	src, err := newLineSource(rc, s.files[file], DefaultMaxLineBytes)
	if err != nil {
		return "", err
	}
	defer src.close()
	for {
		l, _, err := src.next()
		if err != nil {
			return "", err
		}
		if src.line == line {
			var ev Event
			if err := decodeEventIn(l, &ev, newStrtab()); err != nil {
				return "", err
			}
			return ev.Session, nil
		}
	}
}

// repeated describes session id starting again at line n of file cur
// (named name) when it started first at firstLine of file firstFile (-1:
// unknown).
func (s *SessionSet) repeated(id, name string, cur, n, firstFile, firstLine int) *LineError {
	if firstFile < 0 {
		return DuplicateSessionError(id, name, n, "", 0, false)
	}
	return DuplicateSessionError(id, name, n, s.files[firstFile], firstLine, firstFile != cur)
}

// DuplicateSessionError is the line error of session id starting again at
// line of file after it started at firstLine of firstFile ("": the place
// is unknown). otherFile says that firstFile is another file of the run
// than file, even when the two have the same name (the message then asks
// whether the file was given twice). A reader sharing a SessionSet
// returns it; so does a reader of a run's files that finds the repeat
// another way (the Beam pipeline, which reads each file apart).
func DuplicateSessionError(id, file string, line int, firstFile string, firstLine int, otherFile bool) *LineError {
	where, hint := "earlier in the run", ""
	if firstFile != "" {
		where = fmt.Sprintf("at %s:%d", firstFile, firstLine)
		if otherFile && firstFile == file {
			hint = ": is the file given twice?"
		}
	}
	advice := ""
	if hint == "" {
		advice = duplicateSessionAdvice
	}
	return &LineError{File: file, Line: line, Kind: KindDuplicateSession,
		Reason: fmt.Sprintf("session %q starts again: already read %s (duplicate session id%s)%s", id, where, hint, advice)}
}

// duplicateSessionAdvice says what to do about a repeated session id that
// is not a file given twice: the two cases it can be, and the fix of each.
const duplicateSessionAdvice = "; the same session read twice (overlapping exports, a file concatenated with itself) is skipped with --skip-bad, " +
	"two sessions that share an id need distinct ids"
