package streamstats

import (
	"bytes"
	"encoding/gob"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// refAdd is Sum.Add before its one-partial fast path: Shewchuk's loop for
// every value. The fast path must leave the very same partials.
func refAdd(s *Sum, x float64) {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		s.Special += x
		return
	}
	i := 0
	for _, y := range s.Partials {
		if math.Abs(x) < math.Abs(y) {
			x, y = y, x
		}
		hi := x + y
		lo := y - (hi - x)
		if lo != 0 {
			s.Partials[i] = lo
			i++
		}
		x = hi
	}
	s.Partials = append(s.Partials[:i], x)
}

func refAddSquare(s *Sum, x float64) {
	p := x * x
	refAdd(s, p)
	if e := math.FMA(x, x, -p); e != 0 && !math.IsInf(p, 0) {
		refAdd(s, e)
	}
}

func fastPathStreams() []struct {
	name string
	xs   []float64
} {
	rng := rand.New(rand.NewPCG(9, 10))
	const p53 = 1 << 53
	negz := math.Copysign(0, -1)
	wholes := make([]float64, 3000)
	mixed := make([]float64, 3000)
	for i := range wholes {
		wholes[i] = float64(rng.IntN(400000) - 1000)
		mixed[i] = wholes[i]
		if i%7 == 0 {
			mixed[i] = rng.Float64() * 0.02 // a cost in USD
		}
	}
	return []struct {
		name string
		xs   []float64
	}{
		{"whole counts", wholes},
		{"whole and fractions", mixed},
		{"negative zero only", []float64{negz, negz, negz}},
		{"signed zeros", []float64{negz, 0, negz, 3, -3, negz}},
		{"cancel to zero", []float64{5, -5, negz, 2.5, -2.5}},
		{"2^53 boundary", []float64{p53 - 1, 1, 1, -1, 1, 1, -3, p53, -p53, -p53, -1, -1}},
		{"past 2^53, back", []float64{p53, p53, 1, 3, -p53, 7, -p53, -11}},
		{"beyond int64", slices.Concat(slices.Repeat([]float64{1 << 62}, 5), []float64{1, -1 << 62, 3.5},
			slices.Repeat([]float64{-1 << 62}, 4), []float64{0.25})},
		{"huge and tiny", []float64{1e300, 1, -1e300, 1e-300, 2, -1e-300}},
		{"overflow to inf", []float64{math.MaxFloat64, math.MaxFloat64, 1, -math.MaxFloat64}},
		{"nan", []float64{1, math.NaN(), 2, 0.5}},
		{"infinities", []float64{math.Inf(1), 3, math.Inf(-1), 4}},
		{"inf only", []float64{2, math.Inf(-1), 1}},
		{"fractions", []float64{0.1, 0.2, 0.3, -0.6, 1.0 / 3, 1e-17}},
	}
}

func sameBits(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
}

func sameFloat(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || (math.IsNaN(a) && math.IsNaN(b))
}

func finite(xs []float64) bool {
	return !slices.ContainsFunc(xs, func(x float64) bool { return x-x != 0 })
}

func gobBytes(t *testing.T, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(v); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestSumFastPathMatchesLoop checks that Add and AddSquare leave the
// partials (bit for bit), the value, the exact sum and the encoding that
// the plain loop leaves, also after merges and gob round trips.
func TestSumFastPathMatchesLoop(t *testing.T) {
	for _, tc := range fastPathStreams() {
		t.Run(tc.name, func(t *testing.T) {
			var got, want, gotSq, wantSq, a, b Sum
			for i, x := range tc.xs {
				got.Add(x)
				refAdd(&want, x)
				gotSq.AddSquare(x)
				refAddSquare(&wantSq, x)
				if i%3 == 0 {
					a.Add(x)
				} else {
					b.Add(x)
				}
				if !sameBits(got.Partials, want.Partials) {
					t.Fatalf("after %d values: partials %v, want %v", i+1, got.Partials, want.Partials)
				}
			}
			if !sameBits(gotSq.Partials, wantSq.Partials) || !sameFloat(gotSq.Special, wantSq.Special) {
				t.Errorf("squares: partials %v special %v, want %v %v", gotSq.Partials, gotSq.Special, wantSq.Partials, wantSq.Special)
			}
			if !sameFloat(got.Value(), want.Value()) || !sameFloat(got.Special, want.Special) {
				t.Errorf("value %v (special %v), want %v (%v)", got.Value(), got.Special, want.Value(), want.Special)
			}
			// Big panics on partials an overflow made non-finite, as before.
			if finite(want.Partials) && got.Big().Cmp(want.Big()) != 0 {
				t.Errorf("big %v, want %v", got.Big(), want.Big())
			}
			if g, w := gobBytes(t, &got), gobBytes(t, &want); !bytes.Equal(g, w) {
				t.Errorf("encoding differs from the loop's")
			}

			// Merge, with the loop as reference, and a gob round trip.
			var ra, rb Sum
			for i, x := range tc.xs {
				if i%3 == 0 {
					refAdd(&ra, x)
				} else {
					refAdd(&rb, x)
				}
			}
			for _, p := range ra.Partials {
				refAdd(&rb, p)
			}
			rb.Special += ra.Special
			var dec Sum
			if err := gob.NewDecoder(bytes.NewReader(gobBytes(t, &a))).Decode(&dec); err != nil {
				t.Fatal(err)
			}
			b.Merge(&dec)
			if !sameBits(b.Partials, rb.Partials) || !sameFloat(b.Special, rb.Special) {
				t.Errorf("merged partials %v, want %v", b.Partials, rb.Partials)
			}
			// Order-free only while no partial overflowed (as before).
			if finite(want.Partials) && !sameFloat(b.Value(), got.Value()) {
				t.Errorf("merged value %v, want %v", b.Value(), got.Value())
			}
		})
	}
}

// TestSeriesEncodingUnchanged pins that a Series encodes to the bytes it
// encoded to before the fast paths, for the same stream: its sums hold the
// partials the loop leaves, and min and max follow math.Min and math.Max.
func TestSeriesEncodingUnchanged(t *testing.T) {
	for _, tc := range fastPathStreams() {
		t.Run(tc.name, func(t *testing.T) {
			got, ref := newSeries(t, 0), newSeries(t, 0)
			for _, x := range tc.xs {
				got.Add(x)
				// The Series.Add of before, with the loop's sums.
				ref.N++
				refAdd(&ref.Sum, x)
				refAddSquare(&ref.SumSq, x)
				ref.Min = math.Min(ref.Min, x)
				ref.Max = math.Max(ref.Max, x)
				ref.Integral = ref.Integral && x == math.Trunc(x)
				if !math.IsInf(x, 0) && !math.IsNaN(x) {
					ref.sketch.Add(x)
				}
			}
			if !sameFloat(got.Min, ref.Min) || !sameFloat(got.Max, ref.Max) {
				t.Errorf("min, max = %v, %v, want %v, %v", got.Min, got.Max, ref.Min, ref.Max)
			}
			g, err := got.GobEncode()
			if err != nil {
				t.Fatal(err)
			}
			w, err := ref.GobEncode()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(g, w) {
				t.Fatalf("encoding differs from the encoding before the fast paths")
			}
			var dec Series
			if err := dec.GobDecode(g); err != nil {
				t.Fatal(err)
			}
			if !sameFloat(dec.Sum.Value(), ref.Sum.Value()) ||
				(finite(ref.SumSq.Partials) && dec.SumSq.Big().Cmp(ref.SumSq.Big()) != 0) {
				t.Errorf("decoded sums %v, %v, want %v, %v", dec.Sum.Value(), dec.SumSq.Big(), ref.Sum.Value(), ref.SumSq.Big())
			}
		})
	}
}
