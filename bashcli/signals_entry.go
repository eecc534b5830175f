//go:build !cgo && linux && (amd64 || arm64)

package bashcli

import (
	"syscall"
	"unsafe"
)

// Written by rt0 (entry_linux_*.s) before the Go runtime starts, and only
// read after; all zero when the binary was linked without EntryLDFlags.
var (
	startIgnored  [65]uint8 // [sig] == 1: SIG_IGN at start
	startMask     uint64    // the signal mask at start
	startRecorded uint8     // 1: rt0 ran
	startAct      [4]uint64 // rt0's scratch struct sigaction
)

// rt0 is the entry point named by EntryLDFlags; it is never called from Go.
func rt0()

// StartRecorded reports whether the signal state the process started with
// was recorded before the Go runtime changed it; see SignalRecord.
func StartRecorded() bool { return startRecorded != 0 }

// SignalRecord says how the start state is recorded, for guard-exec version.
func SignalRecord() string {
	if startRecorded != 0 {
		return "recorded at start by the entry point"
	}
	return "not recorded (built without cgo or " + EntryLDFlags + "; use ./build): only SIGHUP and SIGINT stay ignored for the shell"
}

// IgnoredAtStart reports the signals that were SIG_IGN when the process
// started, as rt0 recorded them. Without EntryLDFlags nothing was recorded
// and it returns nil; Exec then passes only SIGHUP and SIGINT on as
// ignored (the runtime keeps those two).
func IgnoredAtStart() []syscall.Signal {
	var sigs []syscall.Signal
	for s, ign := range startIgnored {
		if ign != 0 {
			sigs = append(sigs, syscall.Signal(s))
		}
	}
	return sigs
}

// maskToRestore reports whether prepareSignals must set a signal mask:
// only when one was blocked at start. With nothing blocked at start, the
// Go runtime gives every thread an empty mask (it only ever unblocks
// signals in the start mask), which is what exec must pass on.
func maskToRestore() bool { return startRecorded != 0 && startMask != 0 }

// kernelSigaction is the kernel's struct sigaction on amd64 and arm64.
type kernelSigaction struct {
	handler, flags, restorer, mask uint64
}

const sigIGN, sigDFL = 1, 0

func rawSigaction(sig int, act, old *kernelSigaction) syscall.Errno {
	_, _, e := syscall.RawSyscall6(syscall.SYS_RT_SIGACTION, uintptr(sig), uintptr(unsafe.Pointer(act)), uintptr(unsafe.Pointer(old)), 8, 0, 0)
	return e
}

func rawSigmask(set, old *uint64) {
	syscall.RawSyscall6(syscall.SYS_RT_SIGPROCMASK, 2 /* SIG_SETMASK */, uintptr(unsafe.Pointer(set)), uintptr(unsafe.Pointer(old)), 8, 0, 0)
}

// prepareSignals puts back what exec would otherwise lose: SIG_IGN for
// the signals ignored at start, SIG_DFL for signals ignored since, and the
// start signal mask on the calling thread (when maskToRestore, which is
// when the caller must hold the OS thread). Handlers are left alone: exec
// resets them to SIG_DFL itself.
func prepareSignals() (undo func()) {
	if startRecorded == 0 {
		return prepareUnrecorded()
	}
	var saved [65]kernelSigaction
	var changed [65]bool
	for s := 1; s < 65; s++ {
		var cur kernelSigaction
		if s == int(syscall.SIGKILL) || s == int(syscall.SIGSTOP) || rawSigaction(s, nil, &cur) != 0 {
			continue
		}
		want := uint64(sigDFL)
		if startIgnored[s] != 0 {
			want = sigIGN
		}
		if (cur.handler == sigIGN) == (want == sigIGN) {
			continue
		}
		act := kernelSigaction{handler: want}
		changed[s] = rawSigaction(s, &act, &saved[s]) == 0
	}
	var savedMask uint64
	if maskToRestore() {
		rawSigmask(&startMask, &savedMask)
	}
	return func() {
		if maskToRestore() {
			rawSigmask(&savedMask, nil)
		}
		for s := range changed {
			if changed[s] {
				rawSigaction(s, &saved[s], nil)
			}
		}
	}
}
