package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestDrawIsDeterministicAndInRange(t *testing.T) {
	r := NewResampling(50, 10, 0, 7)
	a, b := make([]int32, r.M), make([]int32, r.M)
	r.Draw(3, a)
	r.Draw(3, b)
	if !slices.Equal(a, b) {
		t.Fatal("same seed and resample drew different units")
	}
	r.Draw(4, b)
	if slices.Equal(a, b) {
		t.Fatal("resamples 3 and 4 drew the same units")
	}
	for _, i := range a {
		if i < 0 || int(i) >= r.N {
			t.Fatalf("index %d out of range", i)
		}
	}
}

// meanReplicates bootstraps the mean of x with the given worker count.
func meanReplicates(x []float64, r Resampling) []float64 {
	reps := make([]float64, r.Resamples)
	r.Run(func(b int, idx []int32, _ []float64) {
		s := 0.0
		for _, i := range idx {
			s += x[i]
		}
		reps[b] = s / float64(len(idx))
	})
	return reps
}

func TestRunIndependentOfWorkers(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	x := make([]float64, 200)
	for i := range x {
		x[i] = rng.ExpFloat64()
	}
	r := NewResampling(len(x), 64, 0, 42)
	r.Workers = 1
	one := meanReplicates(x, r)
	r.Workers = 3
	three := meanReplicates(x, r)
	if !slices.Equal(one, three) {
		t.Fatal("replicates depend on the number of workers")
	}
}

func TestPairedDifferenceInterval(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	n := 40
	base := make([]float64, n)
	better := make([]float64, n) // always 10 lower, plus noise
	same := make([]float64, n)   // noise around the baseline, no shift
	for i := range base {
		base[i] = 100 + 20*rng.NormFloat64()
		better[i] = base[i] - 10 + rng.NormFloat64()
		same[i] = base[i] + rng.NormFloat64()
	}
	r := NewResampling(n, 1000, 0, 1)
	diffCI := func(s []float64) (lo, hi float64) {
		d := make([]float64, n)
		for i := range d {
			d[i] = s[i] - base[i]
		}
		reps := meanReplicates(d, r)
		est := Summarize(d, 2).Mean
		lo, hi, ok := Interval(reps, est, 1, 0.95)
		if !ok {
			t.Fatal("no interval")
		}
		return lo, hi
	}
	if lo, hi := diffCI(better); !(hi < 0) || lo > -9 || hi < -11 {
		t.Errorf("shift of −10: CI [%v, %v] should exclude 0 and be near −10", lo, hi)
	}
	if lo, hi := diffCI(same); !(lo < 0 && hi > 0) {
		t.Errorf("no shift: CI [%v, %v] should contain 0", lo, hi)
	}
}

func TestIntervalScaling(t *testing.T) {
	reps := []float64{8, 9, 10, 11, 12}
	lo, hi, ok := Interval(slices.Clone(reps), 10, 1, 0.5) // quartiles
	if !ok || lo != 9 || hi != 11 {
		t.Fatalf("unscaled: [%v, %v] %v", lo, hi, ok)
	}
	lo, hi, _ = Interval(slices.Clone(reps), 10, 0.5, 0.5)
	if lo != 9.5 || hi != 10.5 {
		t.Fatalf("scaled by 0.5: [%v, %v]", lo, hi)
	}
	if _, _, ok := Interval([]float64{math.NaN(), math.Inf(1)}, 0, 1, 0.95); ok {
		t.Fatal("interval from non-finite replicates")
	}
}

func TestScale(t *testing.T) {
	if s := NewResampling(100, 10, 25, 0).Scale(); s != 0.5 {
		t.Fatalf("scale of 25 out of 100 = %v, want 0.5", s)
	}
	if s := NewResampling(10, 10, 25, 0).Scale(); s != 1 {
		t.Fatalf("uncapped scale = %v, want 1", s)
	}
}
