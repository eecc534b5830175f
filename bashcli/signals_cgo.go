//go:build cgo && unix

package bashcli

/*
#include <pthread.h>
#include <signal.h>
#include <string.h>

// What the process was started with, recorded by a constructor that runs
// before the Go runtime installs its signal handlers.
static unsigned char guard_ign_at_start[NSIG];
static sigset_t guard_mask_at_start;

__attribute__((constructor)) static void guard_record_signals(void) {
	int s;
	struct sigaction sa;

	pthread_sigmask(SIG_SETMASK, NULL, &guard_mask_at_start);
	for (s = 1; s < NSIG; s++) {
		if (sigaction(s, NULL, &sa) == 0 && sa.sa_handler == SIG_IGN)
			guard_ign_at_start[s] = 1;
	}
}

static int guard_nsig(void) { return NSIG; }
static int guard_ignored_at_start(int s) { return s > 0 && s < NSIG && guard_ign_at_start[s]; }

// Saved state for guard_undo when exec fails.
static struct sigaction guard_saved[NSIG];
static unsigned char guard_changed[NSIG];
static sigset_t guard_saved_mask;

// guard_prepare puts back what exec would otherwise lose: SIG_IGN for the
// signals ignored at start, SIG_DFL for signals ignored since, and the
// start signal mask on the calling thread. Handlers are left alone: exec
// resets them to SIG_DFL itself.
static void guard_prepare(void) {
	int s;
	struct sigaction cur, sa;

	for (s = 1; s < NSIG; s++) {
		guard_changed[s] = 0;
		if (s == SIGKILL || s == SIGSTOP || sigaction(s, NULL, &cur) != 0)
			continue;
		if ((cur.sa_handler == SIG_IGN) == (guard_ign_at_start[s] != 0))
			continue;
		memset(&sa, 0, sizeof sa);
		sigemptyset(&sa.sa_mask);
		sa.sa_handler = guard_ign_at_start[s] ? SIG_IGN : SIG_DFL;
		if (sigaction(s, &sa, &guard_saved[s]) == 0)
			guard_changed[s] = 1;
	}
	pthread_sigmask(SIG_SETMASK, &guard_mask_at_start, &guard_saved_mask);
}

static void guard_undo(void) {
	int s;

	pthread_sigmask(SIG_SETMASK, &guard_saved_mask, NULL);
	for (s = 1; s < NSIG; s++) {
		if (guard_changed[s])
			sigaction(s, &guard_saved[s], NULL);
		guard_changed[s] = 0;
	}
}
*/
import "C"

import "syscall"

// IgnoredAtStart reports the signals that were SIG_IGN when the process
// started, before the Go runtime installed its handlers. The signals the C
// library keeps for itself (32 and 33 with glibc) cannot be seen.
func IgnoredAtStart() []syscall.Signal {
	var sigs []syscall.Signal
	for s := 1; s < int(C.guard_nsig()); s++ {
		if C.guard_ignored_at_start(C.int(s)) != 0 {
			sigs = append(sigs, syscall.Signal(s))
		}
	}
	return sigs
}

// prepareSignals restores the start dispositions and signal mask (see
// guard_prepare); the caller must hold the OS thread. The returned func
// undoes it.
func prepareSignals() (undo func()) {
	C.guard_prepare()
	return func() { C.guard_undo() }
}

// StartRecorded reports whether the signal state the process started with
// was recorded before the Go runtime changed it: always, with cgo (the
// constructor above).
func StartRecorded() bool { return true }

// SignalRecord says how the start state is recorded, for guard-exec version.
func SignalRecord() string { return "recorded at start by a C constructor" }

// maskToRestore: guard_prepare always sets the start mask.
func maskToRestore() bool { return true }

const cgoEnabled = true
