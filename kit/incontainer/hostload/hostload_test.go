package hostload

import (
	"context"
	"os"
	"testing"
	"time"
)

func TestUtilisation(t *testing.T) {
	// 400 ticks passed, 300 of them idle: 25% busy.
	if have := Utilisation(1000, 600, 1400, 900); have != 25 {
		t.Fatalf("have %v, want 25", have)
	}
	if have := Utilisation(1000, 600, 1000, 600); have != 0 {
		t.Fatalf("no time passed: have %v", have)
	}
	// All idle, with the round-off of float sums: 0, never a hair below.
	if have := Utilisation(0.1, 0.1, 0.1+0.2, 0.1+0.2000000001); have != 0 {
		t.Fatalf("all idle: have %v", have)
	}
}

func TestSamplerReadsThisHost(t *testing.T) {
	s, err := NewSampler("/proc")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 250*time.Millisecond)
	defer cancel()
	samples := s.Every(ctx, 100*time.Millisecond)
	if len(samples) < 2 {
		t.Fatalf("%d samples", len(samples))
	}
	for _, sm := range samples {
		if sm.CPUBusyPct < 0 || sm.CPUBusyPct > 100 || sm.Load1 < 0 {
			t.Fatalf("implausible sample %+v", sm)
		}
	}
}

func TestShare(t *testing.T) {
	// 400 ticks passed, 20 of them stolen: 5%.
	if have := Share(1000, 30, 1400, 50); have != 5 {
		t.Fatalf("have %v, want 5", have)
	}
	if have := Share(1000, 30, 1000, 30); have != 0 {
		t.Fatalf("no time passed: have %v", have)
	}
}

func TestSamplerReadsPressureWhereTheKernelHasIt(t *testing.T) {
	s, err := NewSampler("/proc")
	if err != nil {
		t.Fatal(err)
	}
	sm, err := s.Sample()
	if err != nil {
		t.Fatal(err)
	}
	if sm.StealPct < 0 || sm.StealPct > 100 {
		t.Fatalf("steal %v", sm.StealPct)
	}
	_, statErr := os.Stat("/proc/pressure/cpu")
	if (statErr == nil) != (sm.CPUPressure != nil) {
		t.Fatalf("/proc/pressure/cpu: stat error %v, but the sample's pressure is %+v", statErr, sm.CPUPressure)
	}
}
