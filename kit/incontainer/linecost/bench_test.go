package linecost

import (
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// BenchmarkWays is each way in this process, one op a line: the figure to set beside a
// container's trials (go test -run '^$' -bench Ways ./kit/incontainer/linecost). The
// files go to the test's temporary directory, whose file system decides fsync's cost.
func BenchmarkWays(b *testing.B) {
	for _, way := range Ways {
		b.Run(way, func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			in, err := newInstance(way, filepath.Join(b.TempDir(), "log"), wayOptions{
				bufferBytes: DefaultBufferBytes, flushInterval: time.Second,
				queueSize: DefaultQueueSize, queueFull: Block,
			}, nil)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			in.run(int64(b.N))
			b.StopTimer()
			if err := in.finish(); err != nil {
				b.Fatal(err)
			}
		})
	}
}
