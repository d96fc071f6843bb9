package calibrate

import (
	"fmt"
	"hash/fnv"
	"math"
	"strconv"
	"strings"
)

// Role is what a calibration does with a session.
type Role int8

// Roles of a session.
const (
	// Unused: read but neither fitted on nor judged (with --test, the
	// calibration traces' sessions outside the --fit-on selection).
	Unused Role = iota
	// FitRole: the fit is made on it.
	FitRole
	// HeldOut: the fit is judged on it.
	HeldOut
)

// Kinds of FitOn selection.
const (
	FitShare = "share" // a seeded hash of the session id below Share
	FitEven  = "even"  // sessions at even positions (0, 2, 4, … in input order)
	FitOdd   = "odd"   // sessions at odd positions (1, 3, 5, …)
	FitAll   = "all"   // every session (needs test traces to judge on)
)

// FitOn selects the calibration traces' sessions that are fitted on. The
// others are held out, or unused when test traces are given.
type FitOn struct {
	Kind  string  `json:"kind"`
	Share float64 `json:"share,omitempty"`
}

// ParseFitOn reads --fit-on: a share in (0, 1] ("1" is all), "even", "odd"
// or "all".
func ParseFitOn(s string) (FitOn, error) {
	switch v := strings.ToLower(strings.TrimSpace(s)); v {
	case FitEven, FitOdd, FitAll:
		return FitOn{Kind: v}, nil
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || !(f > 0 && f <= 1) {
		return FitOn{}, fmt.Errorf("--fit-on %q: want a share in (0, 1], even, odd or all", s)
	}
	if f == 1 {
		return FitOn{Kind: FitAll}, nil
	}
	return FitOn{Kind: FitShare, Share: f}, nil
}

// String is the selection as --fit-on spells it.
func (f FitOn) String() string {
	if f.Kind == FitShare {
		return strconv.FormatFloat(f.Share, 'g', -1, 64)
	}
	return f.Kind
}

// Describe says in words which sessions are fitted on.
func (f FitOn) Describe(seed int64) string {
	switch f.Kind {
	case FitEven:
		return "sessions at even positions (0, 2, 4, … in input order)"
	case FitOdd:
		return "sessions at odd positions (1, 3, 5, … in input order)"
	case FitAll:
		return "every session"
	}
	return fmt.Sprintf("a share %g of the sessions by a hash of their id (seed %d)", f.Share, seed)
}

func (f FitOn) validate() error {
	switch f.Kind {
	case FitEven, FitOdd, FitAll:
		return nil
	case FitShare:
		if f.Share > 0 && f.Share < 1 {
			return nil
		}
		return fmt.Errorf("fit share %v: want a value in (0, 1)", f.Share)
	}
	return fmt.Errorf("fit selection %q: want share, even, odd or all", f.Kind)
}

// fits reports whether the calibration session at position pos (0-based,
// in input order across the calibration traces) with this id is fitted on.
func (f FitOn) fits(seed int64, pos int, id string) bool {
	switch f.Kind {
	case FitEven:
		return pos%2 == 0
	case FitOdd:
		return pos%2 == 1
	case FitAll:
		return true
	}
	return InFitSet(seed, id, f.Share)
}

// InFitSet reports whether a session belongs to the fit set: a seeded hash
// of its id, uniform in [0, 1), below share. The split depends only on the
// seed and the id, never on file order.
func InFitSet(seed int64, id string, share float64) bool {
	return unit(seed, id) < share
}

func unit(seed int64, id string) float64 {
	h := fnv.New64a()
	var b [8]byte
	for i := range b {
		b[i] = byte(uint64(seed) >> (8 * i))
	}
	h.Write(b[:])
	h.Write([]byte(id))
	x := h.Sum64()
	// splitmix64 finaliser: spread the FNV bits.
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return float64(x>>11) / math.Exp2(53)
}
