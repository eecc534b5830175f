// Package atomicfile replaces files atomically and serialises writers with
// advisory locks.
//
// Contract: after Write returns nil, readers see either the old content or
// the complete new content at path, never a mix, and the new content and its
// directory entry have been fsynced. After a failed Write the old file is
// untouched and no temporary file is left behind. Lock takes an exclusive
// flock on path+".lock", which is never deleted, so every process locking the
// same path locks the same file. Locks are advisory: they only exclude
// other callers of Lock. Unix only.
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
// kept, otherwise perm is used. A symlink at path is replaced, not followed.
func Write(path string, data []byte, perm fs.FileMode) (err error) {
	dir := filepath.Dir(path)
	if fi, err := os.Stat(path); err == nil {
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
