package report

import (
	"strings"
	"testing"

	"github.com/defersim/defersim/sim"
)

// TestBootstrapMemory pins issue B1: the bytes counted are those the
// bootstrap allocates (builder.bootstrap, prepare, stats.Resampling.run),
// each case's figure worked out by hand from that code.
func TestBootstrapMemory(t *testing.T) {
	for _, tc := range []struct {
		name string
		sh   BootstrapShape
		want int64
	}{
		// 8·1000·1·(3·2+1) + 8·1000 replicates; 1·10·12 per worker;
		// ranked: 1·10·4 counts + 2·1·10·4 orders + 1·1·10·12 differences.
		{"ranked", BootstrapShape{Resamples: 1000, Strategies: 2, Metrics: 1, Sessions: 10, Workers: 1}, 64000 + 120 + 40 + 80 + 120},
		// 100,000 sessions > 16·5000: gathered, 2 workers × 5000 × 12.
		{"gathered", BootstrapShape{Resamples: 100, Strategies: 3, Metrics: 2, Sessions: 100000, Workers: 2}, 800*2*11 + 800 + 2*5000*12},
		// Sessions unknown: the worst case, n = 16·100 = 1600 ranked.
		{"unknown sessions", BootstrapShape{Resamples: 10, Strategies: 1, Metrics: 1, MaxSessions: 100, Workers: 1}, 240 + 80 + 1200 + 6400 + 6400},
		// No cap, 8 workers but 2 resamples: 2 workers.
		{"workers capped", BootstrapShape{Resamples: 2, Strategies: 1, Metrics: 1, Sessions: 4, MaxSessions: -1, Workers: 8}, 48 + 16 + 96 + 32 + 16},
		{"unknown sessions, no cap", BootstrapShape{Resamples: 10, Strategies: 2, Metrics: 1, MaxSessions: -1, Workers: 1}, 560 + 80},
		// --bootstrap 100000000, 12 strategies, 13 metrics, before the replay.
		{"issue", BootstrapShape{Resamples: 100_000_000, Strategies: 12, Metrics: 13, Workers: 1},
			800_000_000*13*47 + 800_000_000 + 60_000 + 320_000 + 12*13*320_000 + 11*13*80_000*12},
		{"no resamples", BootstrapShape{Resamples: 0, Strategies: 12, Metrics: 13, Workers: 1}, 0},
		{"one session", BootstrapShape{Resamples: 1000, Strategies: 12, Metrics: 13, Sessions: 1, Workers: 1}, 0},
	} {
		if got := BootstrapMemory(tc.sh); got != tc.want {
			t.Errorf("%s: BootstrapMemory = %d, want %d", tc.name, got, tc.want)
		}
	}
}

// TestCheckBootstrapMemory pins that a bootstrap beyond the limit is
// refused with what it needs, the limit, the largest --bootstrap that fits
// and the ways out, and that a value at the limit passes.
func TestCheckBootstrapMemory(t *testing.T) {
	sh := BootstrapShape{Resamples: 100_000_000, Strategies: 12, Metrics: 13, Workers: 1}
	err := CheckBootstrapMemory(sh, 0)
	if err == nil {
		t.Fatal("--bootstrap 100000000 passed the default limit")
	}
	for _, want := range []string{"--bootstrap 100000000 needs 456.2 GiB", "12 strategies × 13 metrics", "limit of 4.0 GiB",
		"at most 838927 fits", "--bootstrap-memory", "--bootstrap -1"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message lacks %q: %v", want, err)
		}
	}
	// (4 GiB − 187,580,000 bytes not per resample) / (8·(13·47+1)) = 838,927.96.
	fits := sh
	fits.Resamples = 838927
	if BootstrapMemory(fits) > DefaultBootstrapMemory {
		t.Errorf("the suggested 838927 needs %d > %d", BootstrapMemory(fits), DefaultBootstrapMemory)
	}
	fits.Resamples++
	if BootstrapMemory(fits) <= DefaultBootstrapMemory {
		t.Errorf("838928 fits too: the suggestion is not the largest")
	}
	need := BootstrapMemory(sh)
	if err := CheckBootstrapMemory(sh, need); err != nil {
		t.Errorf("at the limit: %v", err)
	}
	if err := CheckBootstrapMemory(sh, -1); err != nil {
		t.Errorf("no limit: %v", err)
	}
}

// TestBuildBootstrapMemory pins that Build refuses before allocating a
// bootstrap one byte over its limit, and runs one just within it.
func TestBuildBootstrapMemory(t *testing.T) {
	o := syntheticOutcomes(3, 40, 1)
	need := BootstrapMemory(BootstrapShape{Resamples: 200, Strategies: 3, Metrics: len(DefaultBootstrapMetrics()),
		Sessions: 40, Workers: 1})
	for _, tc := range []struct {
		limit int64
		fail  bool
	}{{need, false}, {need - 1, true}} {
		res, err := Build(o, sim.RunInfo{Seed: 1}, BuildOptions{Bootstrap: 200, Workers: 1, BootstrapMemory: tc.limit})
		switch {
		case tc.fail && (err == nil || !strings.Contains(err.Error(), "raise --bootstrap-memory")):
			t.Errorf("limit %d (need %d): err %v, want a refusal", tc.limit, need, err)
		case !tc.fail && err != nil:
			t.Errorf("limit %d (need %d): %v", tc.limit, need, err)
		case !tc.fail && res.Strategies[1].Metrics[sim.Metrics[sim.MCostUSD].Name].MeanCI == nil:
			t.Errorf("limit %d: no interval", tc.limit)
		}
	}
}

func TestParseBytes(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"4096", 4096, true}, {"8GiB", 8 << 30, true}, {"512 MiB", 512 << 20, true}, {"1TiB", 1 << 40, true},
		{"-1", -1, true}, {"0", 0, true}, {"-2", 0, false}, {"-1GiB", 0, false}, {"4GB", 0, false}, {"", 0, false},
		{"99999999TiB", 0, false},
	} {
		got, err := ParseBytes(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseBytes(%q) = %d, %v; want %d, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}
