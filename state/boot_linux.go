package state

import "golang.org/x/sys/unix"

// bootNanos is the time since boot (CLOCK_BOOTTIME, the clock of /proc's
// start times).
func bootNanos() (int64, error) {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_BOOTTIME, &ts); err != nil {
		return 0, err
	}
	return ts.Nano(), nil
}
