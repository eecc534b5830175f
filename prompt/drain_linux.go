package prompt

import "golang.org/x/sys/unix"

// tcdrain is ioctl(TCSBRK) with a non-zero argument: wait, send no break.
func tcdrain(fd int) { _ = unix.IoctlSetInt(fd, unix.TCSBRK, 1) }
