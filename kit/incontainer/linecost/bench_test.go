package linecost

import (
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// BenchmarkWays is each way of each Go library writing its default line, in this
// process, one op a line: the figure to set beside a container's trials, and beside the
// libraries' own benchmarks (go test -run '^$' -bench Ways ./kit/incontainer/linecost).
// Unlike those, one goroutine logs (theirs run b.RunParallel on every CPU) and the
// format way writes the library's whole default line, time stamp included. The files
// go to the test's temporary directory, whose file system decides fsync's cost.
func BenchmarkWays(b *testing.B) {
	for _, lib := range Libraries {
		if lib.Language != "go" {
			continue
		}
		for _, way := range Ways {
			b.Run(lib.ID+"/"+way, func(b *testing.B) {
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				in, err := newLibraryInstance(lib, LineDefault, way, filepath.Join(b.TempDir(), "log"), wayOptions{
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
}
