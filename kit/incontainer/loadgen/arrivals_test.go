package loadgen

import (
	"math"
	"testing"
	"time"
)

// gaps are the mean and coefficient of variation of the gaps between offsets.
func gaps(offsets []time.Duration) (mean, cv float64) {
	n := float64(len(offsets) - 1)
	for i := 1; i < len(offsets); i++ {
		mean += float64(offsets[i] - offsets[i-1])
	}
	mean /= n
	var ss float64
	for i := 1; i < len(offsets); i++ {
		d := float64(offsets[i]-offsets[i-1]) - mean
		ss += d * d
	}
	return mean, math.Sqrt(ss/(n-1)) / mean
}

func TestArrivalsKeepTheRate(t *testing.T) {
	const rate, n = 2000.0, 200_000
	want := float64(time.Second) / rate
	for _, tc := range []struct {
		arrivals string
		cv       float64 // an exponential's is 1, a fixed interval's 0
	}{{Constant, 0}, {"", 0}, {Poisson, 1}} {
		offsets := Offsets(tc.arrivals, rate, n, 42)
		if offsets[0] != 0 {
			t.Errorf("%s: the first send at %v, want 0", tc.arrivals, offsets[0])
		}
		mean, cv := gaps(offsets)
		// Over 200,000 exponential gaps the mean's standard error is 0.22%.
		if math.Abs(mean/want-1) > 0.01 || math.Abs(cv-tc.cv) > 0.02 {
			t.Errorf("%s: mean gap %.1f us (want %.1f), CV %.3f (want %.0f)", tc.arrivals, mean/1e3, want/1e3, cv, tc.cv)
		}
		for i := 1; i < n; i++ {
			if offsets[i] < offsets[i-1] {
				t.Fatalf("%s: send %d before send %d", tc.arrivals, i, i-1)
			}
		}
	}
}

func TestPoissonIsSeeded(t *testing.T) {
	a, b, c := Offsets(Poisson, 100, 1000, 7), Offsets(Poisson, 100, 1000, 7), Offsets(Poisson, 100, 1000, 8)
	same, other := true, false
	for i := range a {
		same = same && a[i] == b[i]
		other = other || a[i] != c[i]
	}
	if !same || !other {
		t.Errorf("one seed gives one schedule (%v), another another (%v)", same, other)
	}
	if CheckArrivals("bursty") == nil || CheckArrivals(Poisson) != nil {
		t.Error("CheckArrivals")
	}
}
