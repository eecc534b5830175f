//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package prompt

import "golang.org/x/sys/unix"

func tcdrain(fd int) { _ = unix.IoctlSetInt(fd, unix.TIOCDRAIN, 0) }
