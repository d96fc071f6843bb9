package runner

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
)

// Shard selects a deterministic share of a run's sessions: session id s
// belongs to shard Index of Count when FNV-1a-64(s) mod Count = Index. The
// share depends only on the id, not on file order or on other sessions.
// The zero Shard (Count 0) is the whole run.
type Shard struct {
	Index, Count int
}

// ParseShard parses "I/N" (0 ≤ I < N).
func ParseShard(s string) (Shard, error) {
	i, n, ok := strings.Cut(s, "/")
	if !ok {
		return Shard{}, fmt.Errorf("shard %q: want I/N, e.g. 0/4", s)
	}
	idx, err1 := strconv.Atoi(strings.TrimSpace(i))
	cnt, err2 := strconv.Atoi(strings.TrimSpace(n))
	if err1 != nil || err2 != nil {
		return Shard{}, fmt.Errorf("shard %q: want I/N with integers, e.g. 0/4", s)
	}
	sh := Shard{Index: idx, Count: cnt}
	return sh, sh.Validate()
}

// Validate checks 0 ≤ Index < Count.
func (s Shard) Validate() error {
	if s.Count < 1 || s.Index < 0 || s.Index >= s.Count {
		return fmt.Errorf("shard %d/%d: want 0 ≤ I < N", s.Index, s.Count)
	}
	return nil
}

// String returns "I/N" ("" for the whole run).
func (s Shard) String() string {
	if s.Count == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// Whole reports whether the shard is the whole run: no --shard (Count 0)
// and --shard 0/1 replay every session, resume each other's checkpoints
// and merge alike.
func (s Shard) Whole() bool { return s.Count <= 1 }

// same reports whether s and o are the same share of a run's sessions.
func (s Shard) same(o Shard) bool {
	if s.Whole() || o.Whole() {
		return s.Whole() == o.Whole()
	}
	return s == o
}

// Owns reports whether the session called id belongs to the shard.
func (s Shard) Owns(id string) bool {
	if s.Count <= 1 {
		return true
	}
	h := fnv.New64a()
	h.Write([]byte(id))
	return h.Sum64()%uint64(s.Count) == uint64(s.Index)
}
