//go:build !linux

package closedloop

import (
	"context"
	"errors"
	"time"
)

// drive: the generator runs in the kit's Linux containers; its event loop is epoll's.
func (sh *shared) drive(_ context.Context, workers []*worker) {
	err := errors.New("the closed-loop generator runs on Linux only")
	sh.noteError(err)
	for _, w := range workers {
		w.fail(time.Now(), err, 1)
	}
}
