package install

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// Apply carries out p in order. It stops at the first error; every change
// before it is complete, and none is half-done. Changes already in effect
// are skipped, so Apply can be run again.
func Apply(p *Plan) error {
	for _, c := range p.Changes {
		var err error
		switch c.Kind {
		case KindMkdir:
			err = os.MkdirAll(c.Path, 0o755)
		case KindSymlink:
			err = applyLink(c)
		case KindEdit:
			err = applyEdit(c)
		case KindRemove:
			err = applyRemove(c)
		default:
			err = fmt.Errorf("unknown change kind %q", c.Kind)
		}
		if err != nil {
			return fmt.Errorf("%s %s: %w (nothing after it was changed; fix this and run the command again)", c.Kind, c.Path, err)
		}
	}
	return nil
}

func applyLink(c Change) error {
	if t, err := os.Readlink(c.Path); err == nil && t == c.LinkTarget {
		return nil
	}
	if fi, err := os.Lstat(c.Path); err == nil && fi.Mode()&os.ModeSymlink == 0 {
		return errors.New("a file that is not a link is in the way")
	}
	// A new link renamed over the old one replaces it atomically.
	tmp := filepath.Join(filepath.Dir(c.Path), fmt.Sprintf(".%s.guard-exec-%d", filepath.Base(c.Path), os.Getpid()))
	os.Remove(tmp)
	if err := os.Symlink(c.LinkTarget, tmp); err != nil {
		return err
	}
	if err := os.Rename(tmp, c.Path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

func applyEdit(c Change) error {
	path := realPath(c.Path)
	cur, err := readFile(path)
	if err != nil {
		return err
	}
	if cur != nil && bytes.Equal(cur, c.After) {
		return nil
	}
	if (cur == nil) != (c.Before == nil) || !bytes.Equal(cur, c.Before) {
		return errors.New("the file changed since the plan was made")
	}
	mode := fs.FileMode(0o644)
	if cur != nil {
		fi, err := os.Stat(path)
		if err != nil {
			return err
		}
		mode = fi.Mode().Perm()
		bak := path + ".guard-exec.bak"
		if _, err := os.Lstat(bak); errors.Is(err, os.ErrNotExist) {
			if err := writeAtomic(bak, cur, mode); err != nil {
				return fmt.Errorf("backing up: %w", err)
			}
		}
	}
	return writeAtomic(path, c.After, mode)
}

func applyRemove(c Change) error {
	fi, err := os.Lstat(c.Path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	switch {
	case c.LinkTarget != "":
		if t, err := os.Readlink(c.Path); err != nil || t != c.LinkTarget {
			return errors.New("no longer the guard-exec link the plan expected")
		}
	case c.Before != nil:
		cur, err := os.ReadFile(c.Path)
		if err != nil {
			return err
		}
		if !bytes.Equal(cur, c.Before) {
			return errors.New("the file changed since the plan was made")
		}
	case !fi.IsDir():
		return errors.New("expected an empty directory")
	}
	err = os.Remove(c.Path)
	if c.Before == nil && c.LinkTarget == "" && errors.Is(err, syscall.ENOTEMPTY) {
		return nil // something new appeared in the directory: keep it
	}
	return err
}

// writeAtomic replaces path with data through a synced temporary file in
// the same directory.
func writeAtomic(path string, data []byte, mode fs.FileMode) (err error) {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".guard-exec-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err = f.Chmod(mode); err != nil {
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
	if err = os.Rename(f.Name(), path); err != nil {
		return err
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync() // best effort: some file systems cannot sync a directory
		d.Close()
	}
	return nil
}
