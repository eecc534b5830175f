// Package bashcli starts the real bash in the guard's place, so that
// guard-exec can stand in for bash. (Reading bash's command line is
// package bashargv's.)
//
// Contract:
//
//   - RealShell picks the absolute path of the real shell and refuses the
//     guard itself, so the guard can never exec itself in a loop.
//   - Exec replaces the process with the real shell, keeping PID, argv,
//     env and fds, and restoring the signal dispositions (and the signal
//     mask) the process was started with, which the Go runtime changes.
//     On linux/amd64 and arm64 the program starts at rt0 (EntryLDFlags),
//     which records them before the runtime changes them.
//
// The package never prints and never exits: it returns errors.
package bashcli
