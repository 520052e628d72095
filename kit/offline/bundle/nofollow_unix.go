//go:build unix

package bundle

import "syscall"

// noFollow makes opening a bundle file fail on a symbolic link.
const noFollow = syscall.O_NOFOLLOW
