package streamstats

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"math"

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
	if !(w.Alpha > 0 && w.Alpha < 1) || w.N < 0 {
		return fmt.Errorf("decode series: invalid header (alpha %g, n %d)", w.Alpha, w.N)
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
