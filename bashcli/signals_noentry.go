//go:build !cgo && unix && !(linux && (amd64 || arm64))

package bashcli

import "syscall"

// IgnoredAtStart reports the signals that were SIG_IGN when the process
// started. Limitation: on this platform without cgo nothing runs before
// the Go runtime replaces those dispositions, so the set is unknown and
// this returns nil; Exec then passes only SIGHUP and SIGINT on as ignored
// (the runtime keeps those two), and every other signal reaches the real
// shell as SIG_DFL. Build with cgo to avoid this.
func IgnoredAtStart() []syscall.Signal { return nil }

// StartRecorded reports whether the signal state the process started with
// was recorded before the Go runtime changed it; see SignalRecord.
func StartRecorded() bool { return false }

// SignalRecord says how the start state is recorded, for guard-exec version.
func SignalRecord() string {
	return "not recorded (built without cgo): only SIGHUP and SIGINT stay ignored for the shell"
}

func prepareSignals() (undo func()) { return prepareUnrecorded() }

func maskToRestore() bool { return false }
