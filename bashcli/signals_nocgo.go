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

// prepareSignals has nothing recorded to restore without cgo: it can only
// put back the default for signals the Go program ignored or caught.
func prepareSignals() (undo func()) {
	signal.Reset()
	return func() {}
}

const cgoEnabled = false
