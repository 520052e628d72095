package logmode

import (
	"io"
	"testing"
)

// BenchmarkLog is one request's logging work per mode, as the caller sees it, into a
// sink that costs nothing: record building, the generated and written counts (bytes,
// lines, SHA-256) and the span timing, which is everything the API adds to a request
// besides the write itself. For json-queue the queue is made large enough for the whole
// benchmark, so that only the caller's side (building, counting, enqueueing) is timed.
func BenchmarkLog(b *testing.B) {
	for _, mode := range allModes {
		b.Run(string(mode), func(b *testing.B) {
			sink := NewSyncSink(io.Discard, 0)
			if mode.Queued() {
				sink = NewQueueSink(io.Discard, b.N+1, 0)
			}
			logger, err := NewLogger(mode, sink)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(mode.BytesPerRequest()))
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				if _, err := logger.Log(int64(i)); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			sink.Close()
		})
	}
}
