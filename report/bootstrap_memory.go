package report

import (
	"fmt"
	"strconv"
	"strings"
)

// DefaultBootstrapMemory is the default limit on the memory the bootstrap
// may allocate (BuildOptions.BootstrapMemory, --bootstrap-memory): 4 GiB.
// The default bootstrap of 1,000 resamples over 12 strategies needs a few
// megabytes, so only a --bootstrap far beyond what intervals need
// (about 800,000 resamples at 12 strategies and the default metrics) is
// refused, and a run that fits stays within what a CI runner or laptop
// has (runners commonly have 7–16 GiB, shared with the replay).
const DefaultBootstrapMemory int64 = 4 << 30

// BootstrapShape is what the memory of a bootstrap depends on.
type BootstrapShape struct {
	// Resamples drawn (BuildOptions.Bootstrap resolved: ≤ 0 means none).
	Resamples int
	// Strategies of the run, the baseline included.
	Strategies int
	// Metrics bootstrapped (len(DefaultBootstrapMetrics()) by default).
	Metrics int
	// Sessions resampled; 0 when not known yet (before the replay): the
	// count then is the most any number of sessions needs.
	Sessions int
	// MaxSessions caps the sessions drawn per resample, as
	// BuildOptions.MaxBootstrapSessions (0 = default, < 0 = no cap).
	MaxSessions int
	// Workers as BuildOptions.Workers (0 = GOMAXPROCS).
	Workers int
}

// BootstrapMemory returns the bytes Build's bootstrap allocates for sh:
// per strategy and bootstrapped metric three arrays of Resamples float64
// (the mean, p50 and p95 replicates), one more per strategy other than
// the baseline (the median differences), one such array at a time while
// intervals are computed, and per worker the drawn indices and a scratch
// buffer of M = min(Sessions, MaxSessions) units. When the series are
// ranked (Sessions ≤ rankedMaxRatio·M) it adds per series the ranked
// order (4 bytes a session), per series other than the baseline's the
// ranked differences (4 bytes) and the differences sorted to rank them
// (8 bytes), and per worker the multiplicities (4 bytes a session).
// Fixed-size headers (under 100 bytes per series) are not counted. With
// Sessions unknown and no cap the session-dependent part is left out.
func BootstrapMemory(sh BootstrapShape) int64 {
	R, S, K := int64(sh.Resamples), int64(sh.Strategies), int64(sh.Metrics)
	if R <= 0 || S <= 0 || K <= 0 || (sh.Sessions > 0 && sh.Sessions < 2) {
		return 0 // Build draws no resample
	}
	maxM := sh.MaxSessions
	if maxM == 0 {
		maxM = DefaultMaxBootstrapSessions
	}
	W := int64(workers(sh.Workers))
	W = min(W, R)
	const f64, i32 = 8, 4
	bytes := R*f64*K*(3*S+(S-1)) + R*f64

	n := int64(sh.Sessions)
	if n == 0 {
		if maxM < 0 {
			return bytes // unknown: no session-dependent part counted
		}
		n = rankedMaxRatio * int64(maxM) // the largest n whose series are ranked
	}
	m := n
	if maxM > 0 {
		m = min(m, int64(maxM))
	}
	bytes += W * m * (i32 + f64)
	if n <= rankedMaxRatio*m {
		bytes += W*n*i32 + S*K*n*i32 + (S-1)*K*n*(i32+f64)
	}
	return bytes
}

// CheckBootstrapMemory refuses a bootstrap whose memory (BootstrapMemory)
// exceeds limit (0 = DefaultBootstrapMemory, < 0 = no limit), saying what
// it needs and what to do.
func CheckBootstrapMemory(sh BootstrapShape, limit int64) error {
	if limit == 0 {
		limit = DefaultBootstrapMemory
	}
	if limit < 0 {
		return nil
	}
	need := BootstrapMemory(sh)
	if need <= limit {
		return nil
	}
	smaller := "no --bootstrap fits"
	if n := maxResamples(sh, limit); n > 0 {
		smaller = fmt.Sprintf("pass a smaller --bootstrap (at most %d fits)", n)
	}
	return fmt.Errorf("--bootstrap %d needs %s for the intervals of %d strategies × %d metrics, more than the limit of %s: "+
		"%s, raise --bootstrap-memory, or --bootstrap -1 for no intervals",
		sh.Resamples, FormatBytes(need), sh.Strategies, sh.Metrics, FormatBytes(limit), smaller)
}

// maxResamples is the largest number of resamples of sh within limit
// (0 when none fits).
func maxResamples(sh BootstrapShape, limit int64) int {
	lo, hi := 0, sh.Resamples // BootstrapMemory grows with Resamples
	for lo < hi {
		mid := lo + (hi-lo+1)/2
		s := sh
		s.Resamples = mid
		if BootstrapMemory(s) <= limit {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// byteUnits are the binary units ParseBytes accepts and FormatBytes writes.
var byteUnits = []struct {
	name string
	size int64
}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}}

// FormatBytes writes n in the largest binary unit it reaches, with one
// decimal (e.g. "4.0 GiB"), or in bytes below 1 KiB.
func FormatBytes(n int64) string {
	for _, u := range byteUnits {
		if n >= u.size {
			return strconv.FormatFloat(float64(n)/float64(u.size), 'f', 1, 64) + " " + u.name
		}
	}
	return strconv.FormatInt(n, 10) + " B"
}

// ParseBytes reads a size: a whole number of bytes, optionally followed by
// KiB, MiB, GiB or TiB (e.g. "512MiB", "8 GiB"); "-1" means no limit.
func ParseBytes(s string) (int64, error) {
	t := strings.TrimSpace(s)
	mult := int64(1)
	for _, u := range byteUnits {
		if num, ok := strings.CutSuffix(t, u.name); ok {
			t, mult = strings.TrimSpace(num), u.size
			break
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || (n < 0 && !(n == -1 && mult == 1)) {
		return 0, fmt.Errorf("size %q: want a number of bytes, optionally with KiB, MiB, GiB or TiB (e.g. 8GiB), or -1 for no limit", s)
	}
	if n > 0 && n > (1<<63-1)/mult {
		return 0, fmt.Errorf("size %q is too large", s)
	}
	return n * mult, nil
}

// ByteSize is a flag value holding a size in bytes (ParseBytes).
type ByteSize int64

// String implements flag.Value.
func (b *ByteSize) String() string {
	switch {
	case *b == 0:
		return FormatBytes(DefaultBootstrapMemory)
	case *b < 0:
		return "-1"
	}
	return FormatBytes(int64(*b))
}

// Set implements flag.Value.
func (b *ByteSize) Set(s string) error {
	n, err := ParseBytes(s)
	if err != nil {
		return err
	}
	*b = ByteSize(n)
	return nil
}

// Type implements pflag.Value.
func (b *ByteSize) Type() string { return "size" }
