//go:build !cgo && unix

package bashcli

import (
	"os/signal"
	"syscall"
)

// prepareUnrecorded is prepareSignals when nothing was recorded at start.
// Caught signals need nothing (exec resets handlers to SIG_DFL); a signal
// the program ignored is put back to the default, except SIGHUP and
// SIGINT, whose SIG_IGN may be the one the process started with (the
// runtime keeps those two). signal.Reset() for every signal would do the
// same at a cost of milliseconds: each signal is a round trip with the
// runtime's signal goroutine.
func prepareUnrecorded() (undo func()) {
	for s := syscall.Signal(1); s < 65; s++ {
		if s != syscall.SIGHUP && s != syscall.SIGINT && signal.Ignored(s) {
			signal.Reset(s)
		}
	}
	return func() {}
}

const cgoEnabled = false
