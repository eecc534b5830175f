//go:build !cgo && unix

package bashcli

import (
	"os/signal"
	"syscall"
)

// IgnoredAtStart reports the signals that were SIG_IGN when the process
// started. Limitation: without cgo nothing runs before the Go runtime
// replaces those dispositions, so the set is unknown and this returns nil;
// Exec then passes only SIGHUP and SIGINT on as ignored (the runtime keeps
// those two), and every other signal reaches the real shell as SIG_DFL.
// Build with cgo (the default where a C compiler exists) to avoid this.
func IgnoredAtStart() []syscall.Signal { return nil }

// prepareSignals has nothing recorded to restore without cgo. Caught
// signals need nothing (exec resets handlers to SIG_DFL); a signal the
// program ignored is put back to the default, except SIGHUP and SIGINT,
// whose SIG_IGN may be the one the process started with (the runtime
// keeps those two). signal.Reset() for every signal would do the same at
// a cost of milliseconds: each signal is a round trip with the runtime's
// signal goroutine.
func prepareSignals() (undo func()) {
	for s := syscall.Signal(1); s < 65; s++ {
		if s != syscall.SIGHUP && s != syscall.SIGINT && signal.Ignored(s) {
			signal.Reset(s)
		}
	}
	return func() {}
}

const cgoEnabled = false
