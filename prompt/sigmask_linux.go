package prompt

import (
	"runtime"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// blockJobControl blocks SIGTTIN and SIGTTOU on the calling goroutine's
// thread, which it locks, until restore is called.
//
// Why: the guard checks that it owns the terminal before each read,
// write and tcsetattr, but the shell may take the terminal between the
// check and the call. The kernel then sends the call's job-control signal
// and restarts the call; with the signal caught (as the prompt catches
// it) that repeats forever, and the prompt hangs. With the signal blocked
// on the calling thread, the kernel instead fails a read with EIO and lets
// a write or tcsetattr through (drivers/tty/tty_jobctrl.c, is_ignored).
// A signal sent to the process by kill(2) still reaches another thread,
// where the prompt catches it.
func blockJobControl() (restore func()) {
	runtime.LockOSThread()
	var set, old unix.Sigset_t
	sigaddset(&set, syscall.SIGTTIN)
	sigaddset(&set, syscall.SIGTTOU)
	if err := unix.PthreadSigmask(unix.SIG_BLOCK, &set, &old); err != nil {
		runtime.UnlockOSThread()
		return func() {}
	}
	return func() {
		_ = unix.PthreadSigmask(unix.SIG_SETMASK, &old, nil)
		runtime.UnlockOSThread()
	}
}

func sigaddset(set *unix.Sigset_t, sig syscall.Signal) {
	n := uint(sig - 1)
	bits := uint(unsafe.Sizeof(set.Val[0]) * 8)
	set.Val[n/bits] |= 1 << (n % bits)
}
