package clock

import (
	"context"
	"sort"
	"testing"
	"time"
)

func TestSleepUntilIsPrecise(t *testing.T) {
	var late []time.Duration
	for i := range 50 {
		at := time.Now().Add(time.Duration(1000+i*97) * time.Microsecond) // fractions of a millisecond
		SleepUntil(context.Background(), at)
		late = append(late, time.Since(at))
	}
	sort.Slice(late, func(i, j int) bool { return late[i] < late[j] })
	if late[0] < 0 {
		t.Fatalf("woke %v early", -late[0])
	}
	// The median is what the mechanism gives; the tail is the machine's load.
	if median := late[len(late)/2]; median > 500*time.Microsecond {
		t.Fatalf("median lateness %v", median)
	}
}

func TestSleepUntilStopsWithTheContext(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	SleepUntil(ctx, start.Add(time.Hour))
	if took := time.Since(start); took > time.Second {
		t.Fatalf("took %v after the context ended", took)
	}
}
