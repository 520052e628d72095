package clock

import (
	"context"
	"sort"
	"testing"
	"time"
)

func TestSleepUntilIsPrecise(t *testing.T) {
	s, err := NewSleeper()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// The sleeper against the runtime's own timers, interleaved, so that both meet the
	// same host: never early, and later than time.Sleep at the median only if the
	// mechanism is broken. How late either is depends on the host's load; on a quiet
	// machine the sleeper's median is tens of microseconds, the runtime's about half a
	// millisecond (logged).
	var late, runtimeLate []time.Duration
	for i := range 50 {
		at := time.Now().Add(time.Duration(1000+i*97) * time.Microsecond) // fractions of a millisecond
		if err := s.SleepUntil(context.Background(), at); err != nil {
			t.Fatal(err)
		}
		late = append(late, time.Since(at))
		at = time.Now().Add(time.Duration(1000+i*97) * time.Microsecond)
		time.Sleep(time.Until(at))
		runtimeLate = append(runtimeLate, time.Since(at))
	}
	sort.Slice(late, func(i, j int) bool { return late[i] < late[j] })
	sort.Slice(runtimeLate, func(i, j int) bool { return runtimeLate[i] < runtimeLate[j] })
	if late[0] < 0 {
		t.Fatalf("woke %v early", -late[0])
	}
	median, runtimeMedian := late[len(late)/2], runtimeLate[len(runtimeLate)/2]
	t.Logf("median lateness %v, time.Sleep's %v", median, runtimeMedian)
	if median > runtimeMedian {
		t.Fatalf("median lateness %v, later than time.Sleep's %v", median, runtimeMedian)
	}
}

func TestSleepUntilStopsWithTheContext(t *testing.T) {
	s, err := NewSleeper()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	if err := s.SleepUntil(ctx, start.Add(time.Hour)); err == nil {
		t.Fatal("want the context's error")
	}
	if took := time.Since(start); took > time.Second {
		t.Fatalf("took %v after the context ended", took)
	}
}
