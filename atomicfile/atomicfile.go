// Package atomicfile replaces files atomically, serialises writers with
// advisory locks, and reads the files it writes in bounded time and memory.
//
// Contract: after Write returns nil, readers see either the old content or
// the complete new content at path, never a mix, and the new content and its
// directory entry have been fsynced. After a failed Write the old file is
// untouched and no temporary file is left behind. Lock takes an exclusive
// flock on path+".lock", which is never deleted, so every process locking the
// same path locks the same file. Locks are advisory: they only exclude
// other callers of Lock. Open and ReadFile never block and never read
// anything but a regular file, and ReadFile reads at most its cap: they are
// the one way guard-exec reads its configs and state. Unix only.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"golang.org/x/sys/unix"
)

// Write replaces path with data. The temporary file is created in the same
// directory (created 0700 if missing). If path exists its permission bits are
// kept, otherwise perm is used. A symbolic link at path is followed, not
// replaced: the file it points to is replaced (the temporary file is made
// next to it), so a config kept in a dotfiles repository stays linked.
// Only a regular file is replaced: anything else at path (a FIFO, a
// device, a directory) is an error matching ErrNotRegular.
func Write(path string, data []byte, perm fs.FileMode) (err error) {
	if path, err = resolve(path); err != nil {
		return fmt.Errorf("atomicfile: cannot write %s: %w", path, err)
	}
	dir := filepath.Dir(path)
	if fi, err := os.Lstat(path); err == nil {
		if !fi.Mode().IsRegular() {
			// A link to /dev/zero, a FIFO, a directory: replacing it is
			// not what anyone asked for.
			return fmt.Errorf("atomicfile: cannot write %s: %w (it is %s); remove it or replace it with a regular file", path, ErrNotRegular, kind(fi.Mode()))
		}
		perm = fi.Mode().Perm()
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("atomicfile: cannot create directory for %s: %w", path, err)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("atomicfile: cannot create temporary file for %s: %w", path, err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
			err = fmt.Errorf("atomicfile: cannot write %s: %w", path, err)
		}
	}()
	if err = f.Chmod(perm.Perm()); err != nil {
		return err
	}
	if _, err = f.Write(data); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp, path); err != nil {
		return err
	}
	return syncDir(dir)
}

// maxLinks bounds the links followed, as the kernel's ELOOP does.
const maxLinks = 40

// resolve follows symbolic links at the last component of path until it
// names something that is not a link (possibly nothing yet: a dangling
// link is written through and creates its target). Links in the
// directories above are left to the kernel, which follows them anyway.
func resolve(path string) (string, error) {
	for range maxLinks {
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return path, nil
		}
		t, err := os.Readlink(path)
		if err != nil {
			return path, err
		}
		if !filepath.IsAbs(t) {
			t = filepath.Join(filepath.Dir(path), t)
		}
		path = t
	}
	return path, fmt.Errorf("more than %d symbolic links", maxLinks)
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	// Some file systems cannot fsync directories; the rename is done anyway.
	if err := d.Sync(); err != nil && !errors.Is(err, unix.EINVAL) && !errors.Is(err, unix.ENOTSUP) {
		return err
	}
	return nil
}

// Lock blocks until it holds an exclusive flock on path+".lock", creating the
// lock file (0600) and its parent directories (0700) as needed. The returned
// unlock releases the lock; it is safe to call more than once. The lock is
// also released when the process exits.
func Lock(path string) (unlock func(), err error) {
	name := path + ".lock"
	if err := os.MkdirAll(filepath.Dir(name), 0o700); err != nil {
		return nil, fmt.Errorf("atomicfile: cannot create directory for lock %s: %w", name, err)
	}
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("atomicfile: cannot open lock %s: %w", name, err)
	}
	if err := Flock(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("atomicfile: cannot lock %s: %w", name, err)
	}
	// Closing the last descriptor releases the flock.
	return sync.OnceFunc(func() { f.Close() }), nil
}

// Flock takes an exclusive flock on an open file, retrying on EINTR.
// Closing f releases it.
func Flock(f *os.File) error {
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX)
		if err != unix.EINTR {
			return err
		}
	}
}
