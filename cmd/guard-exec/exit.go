package main

// Exit statuses of guard-exec, in one place (the README lists them too).
//
// When the guard allows a command it execs the real shell, so the caller
// sees the shell's own status, signals included. Bash's own usage errors
// keep bash's status (2). The guard's own statuses are chosen outside the
// ones bash uses for itself (1, 2, 126, 127, 128+n).
const (
	// ExitRefused: the command did not run. It was denied, a person said
	// no, there was no terminal to ask on, it could not be read reliably,
	// or the configuration is broken (the guard then refuses everything).
	ExitRefused = 3
	// ExitCannotRun: the guard could not start the real shell (it is
	// missing, or resolves to the guard itself).
	ExitCannotRun = 4

	// Statuses of `guard-exec check`: 0 allow, 1 ask, ExitRefused deny,
	// 2 usage error, ExitCannotRun for a broken configuration.
	ExitCheckAsk   = 1
	ExitUsage      = 2
	ExitCheckError = ExitCannotRun
)
