package state

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// FallbackDir is where the guard records what it cannot record in Dir
// (a read-only home, as in Codex's sandboxes): guard-exec-<uid> under
// $TMPDIR, else /tmp. It is made 0700 and used only if it is a real
// directory (not a link) owned by this user and closed to others, so
// another user cannot plant or read it.
func FallbackDir(getenv func(string) string) (string, error) {
	base := getenv("TMPDIR")
	if !filepath.IsAbs(base) {
		base = "/tmp"
	}
	uid := os.Getuid()
	dir := filepath.Join(base, "guard-exec-"+strconv.Itoa(uid))
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return "", fmt.Errorf("state: cannot make %s: %w", dir, err)
	}
	st, err := os.Lstat(dir)
	if err != nil {
		return "", fmt.Errorf("state: %w", err)
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	switch {
	case !st.IsDir():
		return "", fmt.Errorf("state: %s is not a directory (a link or a file is in its place): remove it", dir)
	case !ok || int(sys.Uid) != uid:
		return "", fmt.Errorf("state: %s belongs to another user: remove it", dir)
	case st.Mode().Perm()&0o077 != 0:
		return "", fmt.Errorf("state: %s is open to other users (mode %v): remove it", dir, st.Mode().Perm())
	}
	return dir, nil
}
