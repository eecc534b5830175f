// Package state keeps guard-exec's per-user state: session approvals and
// trusted project files, under Dir.
//
// Contract: every function is cheap enough to run before each command and safe
// when many guard-exec processes run at once. Writers serialise with
// atomicfile.Lock; whole files are replaced with atomicfile.Write; session
// logs are appended one line per write. Corrupt or unreadable state never
// grants anything: a corrupt approval line is skipped, a corrupt trust file
// trusts nothing, and both are reported as errors next to whatever valid
// data was read. State is read only from regular files (a FIFO or a device
// is an error, never waited on) and in bounded memory: the trust file up to
// 8 MiB, a session file's last 1 MiB. FirstReport lets a caller say such a
// problem once rather than before every command.
package state

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/guard-exec/guard-exec/atomicfile"
	"golang.org/x/sys/unix"
)

// Dir returns $XDG_STATE_HOME/guard-exec, or $HOME/.local/state/guard-exec.
// Relative values are ignored (as the XDG spec asks); if neither variable
// gives an absolute path, Dir returns "" and the caller must not keep state.
func Dir(getenv func(string) string) string {
	if x := getenv("XDG_STATE_HOME"); filepath.IsAbs(x) {
		return filepath.Join(x, "guard-exec")
	}
	if h := getenv("HOME"); filepath.IsAbs(h) {
		return filepath.Join(h, ".local", "state", "guard-exec")
	}
	return ""
}

// SessionID names the current agent session. GUARD_EXEC_SESSION wins when
// set; otherwise the id is derived from the parent process as
// "p<ppid>-<start time>" so that a reused pid is a new session. Where
// /proc is unavailable (non-Linux) it is "p<ppid>".
func SessionID(getenv func(string) string) (string, error) {
	if s := getenv("GUARD_EXEC_SESSION"); s != "" {
		if err := validSession(s); err != nil {
			return "", fmt.Errorf("state: GUARD_EXEC_SESSION %w", err)
		}
		return s, nil
	}
	ppid := os.Getppid()
	if runtime.GOOS != "linux" {
		return "p" + strconv.Itoa(ppid), nil
	}
	return procSessionID("/proc", ppid)
}

func procSessionID(proc string, ppid int) (string, error) {
	b, err := readStat(filepath.Join(proc, strconv.Itoa(ppid), "stat"))
	if err != nil {
		return "", fmt.Errorf("state: cannot derive a session id from the parent process (set GUARD_EXEC_SESSION): %w", err)
	}
	st, err := startTime(string(b))
	if err != nil {
		return "", fmt.Errorf("state: cannot derive a session id from %s/%d/stat (set GUARD_EXEC_SESSION): %w", proc, ppid, err)
	}
	return "p" + strconv.Itoa(ppid) + "-" + st, nil
}

// readStat reads a process's stat file, of at most 64 KiB. It is read
// with plain system calls, on every command the hook answers: os.ReadFile
// would start the runtime's poller for it, and atomicfile's checks (the
// kind of file, its size) cost twice the calls, for a file the kernel
// makes.
func readStat(path string) ([]byte, error) {
	const max = 1 << 16
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	defer unix.Close(fd)
	b := make([]byte, 0, 1024)
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := unix.Read(fd, b[len(b):min(cap(b), max+1)])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "read", Path: path, Err: err}
		}
		if n == 0 {
			return b, nil
		}
		if b = b[:len(b)+n]; len(b) > max {
			return nil, &os.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w: more than %d bytes, the most read from such a file", atomicfile.ErrTooLarge, max)}
		}
	}
}

// startTime returns field 22 of a /proc/<pid>/stat line. Field 2 (comm) is
// in parentheses and may itself contain spaces and ')', so fields are
// counted from the last ')'.
func startTime(stat string) (string, error) {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return "", fmt.Errorf("no ')' after the command name")
	}
	f := strings.Fields(stat[i+1:]) // f[0] is field 3
	if len(f) < 20 {
		return "", fmt.Errorf("only %d fields after the command name", len(f))
	}
	if _, err := strconv.ParseUint(f[19], 10, 64); err != nil {
		return "", fmt.Errorf("start time %q is not a number", f[19])
	}
	return f[19], nil
}

func validSession(s string) error {
	if s == "" || len(s) > 128 {
		return fmt.Errorf("must be 1 to 128 characters long, got %d", len(s))
	}
	for _, c := range []byte(s) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-') {
			return fmt.Errorf("%q may contain only letters, digits, '.', '_' and '-'", s)
		}
	}
	return nil
}
