//go:build unix

package bashcli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
)

// ShellEnv names the environment variable that overrides the real shell.
const ShellEnv = "GUARD_EXEC_SHELL"

// EntryLDFlags are the linker flags that make the guard start at rt0 (a few
// instructions of assembly that record the ignored signals and the signal
// mask, then enter the Go runtime) in a build without cgo, on linux/amd64
// and linux/arm64:
//
//	CGO_ENABLED=0 go build -ldflags="-E=github.com/guard-exec/guard-exec/bashcli.rt0" ./cmd/guard-exec
//
// The Go runtime replaces each ignored signal's SIG_IGN with its own
// handler before any Go code runs, and exec turns handlers into SIG_DFL, so
// without a record the real shell would find SIGPIPE, SIGQUIT, SIGTERM…
// no longer ignored. A cgo build records them in a C constructor instead,
// which works everywhere but costs the C library's start-up (≈0.8 ms per
// command on a 2-core VM). A build with neither keeps only SIGHUP and
// SIGINT (StartRecorded reports false).
const EntryLDFlags = "-E=github.com/guard-exec/guard-exec/bashcli.rt0"

// DefaultShell is the real shell when neither ShellEnv nor the
// configuration names one.
const DefaultShell = "/bin/bash"

// RealShell picks the shell to exec: $GUARD_EXEC_SHELL if set (env looks
// it up, e.g. os.Getenv), else configured if not "", else /bin/bash. The
// path must be absolute and name an executable regular file that is not
// the running guard itself (compared with os.SameFile, following
// symlinks, against os.Executable and against argv[0]), since exec'ing
// the guard would loop forever.
func RealShell(env func(string) string, configured string) (string, error) {
	path, source, fix := env(ShellEnv), ShellEnv, "set "+ShellEnv+" to the real bash, such as /bin/bash"
	if path == "" {
		path, source, fix = configured, "the configured shell", "set the configured shell to the real bash, such as /bin/bash"
	}
	if path == "" {
		path, source, fix = DefaultShell, "the default", "install bash at "+DefaultShell+", or set "+ShellEnv+" or the configured shell to the real bash"
	}
	fail := func(why string) error {
		return fmt.Errorf("cannot use %q (%s) as the real shell: %s; %s", path, source, why, fix)
	}
	if !filepath.IsAbs(path) {
		return "", fail("it is not an absolute path")
	}
	fi, err := os.Stat(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return "", fail(err.Error())
	}
	if !fi.Mode().IsRegular() {
		return "", fail("it is not a regular file")
	}
	if err := syscall.Access(path, 1 /* X_OK */); err != nil {
		return "", fail("it is not executable: " + err.Error())
	}
	if self, ok := sameAsGuard(fi, os.Executable, os.Args[0]); ok {
		return "", fail("it is this guard itself (" + self + "), and exec'ing it would loop forever")
	}
	return path, nil
}

// sameAsGuard reports whether fi is the running program: the file
// os.Executable names, or the file argv[0] names. A bare argv[0] (no
// slash) says how the caller spelled it, not where it was found, so it is
// looked up in PATH only when the executable is unknown.
func sameAsGuard(fi os.FileInfo, executable func() (string, error), argv0 string) (string, bool) {
	var candidates []string
	exe, err := executable()
	if err == nil {
		candidates = append(candidates, exe)
	}
	if strings.Contains(argv0, "/") {
		candidates = append(candidates, argv0)
	} else if err != nil && argv0 != "" {
		if p, err := exec.LookPath(argv0); err == nil {
			candidates = append(candidates, p)
		}
	}
	for _, c := range candidates {
		if gi, err := os.Stat(c); err == nil && os.SameFile(fi, gi) { // Stat follows symlinks
			return c, true
		}
	}
	return "", false
}

// Exec replaces the process with the program at path, with argv (argv[0]
// as given) and env. The PID, open file descriptors without close-on-exec,
// rlimits and the working directory carry over, and the new program's
// exit status or death by signal reaches the parent unchanged.
//
// Before exec it restores the signal mask the process started with, sets SIG_IGN again on the signals
// that were ignored at start (IgnoredAtStart: the Go runtime had replaced
// them with handlers, which exec would turn into SIG_DFL) and SIG_DFL on
// signals ignored since. Deferred functions do not run.
//
// Exec returns only on failure, with the dispositions and mask put back
// (the os/signal notifications stay cancelled). Do not call it from two
// goroutines at once.
func Exec(path string, argv []string, env []string) error {
	if maskToRestore() {
		// The signal mask is per thread: set it on the thread that execs.
		// Locking costs a thread (the runtime's template thread), so it is
		// done only when there is a mask to set; otherwise every thread
		// the goroutine may run on has the mask it started with.
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
	}
	undo := prepareSignals()
	err := syscall.Exec(path, argv, env)
	undo()
	return fmt.Errorf("cannot exec the real shell %s: %w; check that it exists and is executable", path, err)
}
