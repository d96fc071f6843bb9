package streamstats

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"math"
	"reflect"

	"github.com/DataDog/sketches-go/ddsketch"
	"github.com/DataDog/sketches-go/ddsketch/store"
)

// seriesWire is the encoded form of a Series.
type seriesWire struct {
	N        int64
	Sum      Sum
	SumSq    Sum
	Min, Max float64
	Integral bool
	Alpha    float64
	Sketch   []byte // DDSketch encoding, index mapping included
}

// SeriesWire is the type Series.GobEncode encodes a series as, for guards
// of the shape of files that hold series (the runner's TestStateShape).
func SeriesWire() reflect.Type { return reflect.TypeFor[seriesWire]() }

// GobEncode encodes s losslessly (floats by their bits).
func (s *Series) GobEncode() ([]byte, error) {
	w := seriesWire{N: s.N, Sum: s.Sum, SumSq: s.SumSq, Min: s.Min, Max: s.Max, Integral: s.Integral, Alpha: s.alpha}
	s.flush()
	s.sketch.Encode(&w.Sketch, false)
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(&w); err != nil {
		return nil, fmt.Errorf("encode series: %w", err)
	}
	return buf.Bytes(), nil
}

// GobDecode decodes what GobEncode wrote.
func (s *Series) GobDecode(b []byte) error {
	var w seriesWire
	if err := gob.NewDecoder(bytes.NewReader(b)).Decode(&w); err != nil {
		return fmt.Errorf("decode series: %w", err)
	}
	if checkAccuracy(w.Alpha) != nil || w.N < 0 {
		return fmt.Errorf("decode series: invalid header (alpha %g, n %d)", w.Alpha, w.N)
	}
	if err := checkSketchBins(w.Sketch); err != nil {
		return fmt.Errorf("decode series sketch: %w", err)
	}
	sk, err := ddsketch.DecodeDDSketch(w.Sketch, store.DenseStoreConstructor, nil)
	if err != nil {
		return fmt.Errorf("decode series sketch: %w", err)
	}
	if got := sk.RelativeAccuracy(); math.Abs(got-w.Alpha) > 1e-12 {
		return fmt.Errorf("decode series: sketch accuracy %g, header %g", got, w.Alpha)
	}
	*s = Series{N: w.N, Sum: w.Sum, SumSq: w.SumSq, Min: w.Min, Max: w.Max, Integral: w.Integral, alpha: w.Alpha, sketch: sk}
	return nil
}

// MinRelativeAccuracy is the lowest relative accuracy a series accepts. A
// sketch's dense stores span its lowest to its highest bin, and the bins
// a float64 can reach number about 709/α per sign: 7.1 million at this
// bound (a dense store of up to 57 MB), 141,781 at the default α (1.1 MB;
// TestDecodeRejectsBinsNoValueMapsTo checks the bound of each).
const MinRelativeAccuracy = 1e-4

func checkAccuracy(alpha float64) error {
	if !(alpha >= MinRelativeAccuracy && alpha < 1) {
		return fmt.Errorf("quantile sketch: relative accuracy %g outside [%g, 1)", alpha, MinRelativeAccuracy)
	}
	return nil
}

// checkSketchBins decodes an encoded sketch into sparse stores — whose size
// is bounded by the encoding's — and checks that every bin is one a float64
// maps to under the sketch's own index mapping, so that decoding it into
// dense stores allocates no more than a sketch of real values can need.
func checkSketchBins(b []byte) error {
	sk, err := ddsketch.DecodeDDSketch(b, store.SparseStoreConstructor, nil)
	if err != nil {
		return err
	}
	m := sk.IndexMapping
	if m == nil {
		return fmt.Errorf("no index mapping")
	}
	if err := checkAccuracy(m.RelativeAccuracy()); err != nil {
		return err
	}
	lo, hi := m.Index(m.MinIndexableValue()), m.Index(m.MaxIndexableValue())
	for _, st := range []store.Store{sk.GetPositiveValueStore(), sk.GetNegativeValueStore()} {
		if st.IsEmpty() {
			continue
		}
		minI, _ := st.MinIndex()
		maxI, _ := st.MaxIndex()
		if minI < lo || maxI > hi {
			return fmt.Errorf("bin index range [%d, %d] outside [%d, %d], which no value reaches", minI, maxI, lo, hi)
		}
	}
	return nil
}
