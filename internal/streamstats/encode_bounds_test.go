package streamstats

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"strings"
	"testing"

	"github.com/DataDog/sketches-go/ddsketch"
	"github.com/DataDog/sketches-go/ddsketch/mapping"
	"github.com/DataDog/sketches-go/ddsketch/store"
)

// TestDecodeRejectsBinsNoValueMapsTo pins the bound on a decoded sketch's
// memory (a FuzzDecodeState finding: a few hundred bytes of shard.bin or
// checkpoint stalled the fuzzer). A sketch's dense store spans its lowest to
// its highest bin, so an encoding with bins far apart — at indexes no float64
// maps to under its relative accuracy — made the decoder allocate gigabytes.
// Such an encoding is now an error, before any dense store is built.
func TestDecodeRejectsBinsNoValueMapsTo(t *testing.T) {
	for _, alpha := range []float64{DefaultRelativeAccuracy, MinRelativeAccuracy} {
		t.Run(fmt.Sprint(alpha), func(t *testing.T) { checkDecodeBounds(t, alpha) })
	}
}

func checkDecodeBounds(t *testing.T, alpha float64) {
	m, err := mapping.NewLogarithmicMapping(alpha)
	if err != nil {
		t.Fatal(err)
	}
	hiOK := m.Index(m.MaxIndexableValue())
	loOK := m.Index(m.MinIndexableValue())
	t.Logf("α %g: bins [%d, %d]", alpha, loOK, hiOK)
	for _, tc := range []struct {
		name    string
		indexes []int
		wantErr string
	}{
		{"reachable extremes", []int{loOK, hiOK}, ""},
		{"one past the highest", []int{0, hiOK + 1}, "bin index"},
		{"one before the lowest", []int{loOK - 1, 0}, "bin index"},
		// 2^27 bins apart: a 1 GiB dense store before the bound.
		{"far apart", []int{-1 << 26, 1 << 26}, "bin index"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, negative := range []bool{false, true} {
				pos, neg := store.NewSparseStore(), store.NewSparseStore()
				target := pos
				if negative {
					target = neg
				}
				for _, i := range tc.indexes {
					target.Add(i)
				}
				sk := ddsketch.NewDDSketch(m, pos, neg)
				w := seriesWire{N: int64(len(tc.indexes)), Alpha: alpha}
				sk.Encode(&w.Sketch, false)
				var buf bytes.Buffer
				if err := gob.NewEncoder(&buf).Encode(&w); err != nil {
					t.Fatal(err)
				}
				var s Series
				err := s.GobDecode(buf.Bytes())
				switch {
				case tc.wantErr == "" && err != nil:
					t.Fatalf("negative=%v: %v", negative, err)
				case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
					t.Fatalf("negative=%v: error = %v, want one containing %q", negative, err, tc.wantErr)
				}
			}
		})
	}
}

// TestNewSeriesBoundsAccuracy pins the lowest relative accuracy a series
// accepts: below it even reachable bins could span hundreds of megabytes.
func TestNewSeriesBoundsAccuracy(t *testing.T) {
	for _, tc := range []struct {
		alpha float64
		ok    bool
	}{{0, true}, {MinRelativeAccuracy, true}, {MinRelativeAccuracy / 2, false}, {0.5, true}, {1, false}, {-0.1, false}} {
		if _, err := NewSeries(tc.alpha); (err == nil) != tc.ok {
			t.Errorf("NewSeries(%g): err = %v, want ok=%v", tc.alpha, err, tc.ok)
		}
	}
}
