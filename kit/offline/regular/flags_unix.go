//go:build unix

package regular

import "syscall"

const (
	// nonBlock keeps opening a FIFO from waiting for a writer.
	nonBlock = syscall.O_NONBLOCK
	// noFollow makes opening fail on a symbolic link.
	noFollow = syscall.O_NOFOLLOW
)
