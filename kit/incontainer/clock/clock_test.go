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
	var late []time.Duration
	for i := range 50 {
		at := time.Now().Add(time.Duration(1000+i*97) * time.Microsecond) // fractions of a millisecond
		if err := s.SleepUntil(context.Background(), at); err != nil {
			t.Fatal(err)
		}
		late = append(late, time.Since(at))
	}
	sort.Slice(late, func(i, j int) bool { return late[i] < late[j] })
	if late[0] < 0 {
		t.Fatalf("woke %v early", -late[0])
	}
	// The median is what the mechanism gives (runtime timers: about half a
	// millisecond); the tail is the machine's load.
	if median := late[len(late)/2]; median > 400*time.Microsecond {
		t.Fatalf("median lateness %v", median)
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
