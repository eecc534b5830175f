//go:build unix && !linux && !darwin && !freebsd && !netbsd && !openbsd && !dragonfly

package prompt

// tcdrain is not attempted where the guard has no ioctl for it.
func tcdrain(int) {}
