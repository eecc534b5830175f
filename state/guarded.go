package state

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// A guarded shell leaves a mark that its descendants can find without the
// environment changing (the guard must hand bash exactly the environment it
// was given): an empty file named after the shell's process id and start
// time, which stay the same across exec. The guard's own approval commands
// (trust, hook) look for a marked ancestor and refuse to act for a program
// that runs under a guard.

func guardedDir(dir string) string { return filepath.Join(dir, "guarded") }

// MarkGuarded records that process pid (about to exec the real shell) is a
// guarded shell. Old marks of exited processes are swept now and then.
func MarkGuarded(dir string, pid int) error {
	id, err := procID("/proc", pid)
	if err != nil {
		return err
	}
	gd := guardedDir(dir)
	f, err := os.OpenFile(filepath.Join(gd, id), os.O_CREATE|os.O_WRONLY, 0o600)
	if errors.Is(err, os.ErrNotExist) {
		if err = os.MkdirAll(gd, 0o700); err == nil {
			f, err = os.OpenFile(filepath.Join(gd, id), os.O_CREATE|os.O_WRONLY, 0o600)
		}
	}
	if err != nil {
		return err
	}
	f.Close()
	if pid%256 == 0 {
		// About one shell in 256: a sweep reads every mark and /proc
		// for each, while a stale mark is an empty file.
		sweepGuarded(gd)
	}
	return nil
}

// UnderGuard reports whether an ancestor of this process is a guarded
// shell.
func UnderGuard(dir string) bool {
	if dir == "" {
		return false
	}
	gd := guardedDir(dir)
	if _, err := os.Stat(gd); err != nil {
		return false
	}
	for pid, n := os.Getppid(), 0; pid > 1 && n < 64; n++ {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			return false
		}
		st, err := startTime(string(stat))
		if err != nil {
			return false
		}
		if _, err := os.Stat(filepath.Join(gd, strconv.Itoa(pid)+"-"+st)); err == nil {
			return true
		}
		pid = parentOf(string(stat))
	}
	return false
}

func procID(proc string, pid int) (string, error) {
	b, err := os.ReadFile(filepath.Join(proc, strconv.Itoa(pid), "stat"))
	if err != nil {
		return "", err
	}
	st, err := startTime(string(b))
	if err != nil {
		return "", err
	}
	return strconv.Itoa(pid) + "-" + st, nil
}

// parentOf returns field 4 (ppid) of a /proc/<pid>/stat line.
func parentOf(stat string) int {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(stat[i+1:])
	if len(f) < 2 {
		return 0
	}
	n, _ := strconv.Atoi(f[1])
	return n
}

// sweepGuarded removes marks of processes that no longer exist.
func sweepGuarded(gd string) {
	entries, err := os.ReadDir(gd)
	if err != nil {
		return
	}
	for _, e := range entries {
		pid, st, ok := strings.Cut(e.Name(), "-")
		if !ok {
			continue
		}
		n, _ := strconv.Atoi(pid)
		if id, err := procID("/proc", n); err == nil && id == pid+"-"+st {
			continue
		}
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) < time.Minute {
			continue // a process too young to sweep
		}
		os.Remove(filepath.Join(gd, e.Name()))
	}
}
