package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "sub", "f.json")
	if err := Write(p, []byte("one"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, 0o640); err != nil {
		t.Fatal(err)
	}
	if err := Write(p, []byte("two"), 0o600); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil || string(b) != "two" {
		t.Fatalf("content %q, %v", b, err)
	}
	fi, _ := os.Stat(p)
	if fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want original 0640 kept", fi.Mode().Perm())
	}
	ents, _ := os.ReadDir(filepath.Dir(p))
	if len(ents) != 1 {
		t.Errorf("temporary files left: %v", ents)
	}
}

func TestWriteFailureLeavesOriginal(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	if err := Write(p, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(p+"x", 0o700); err != nil { // a directory cannot be replaced by a file
		t.Fatal(err)
	}
	if err := Write(p+"x", []byte("new"), 0o600); err == nil {
		t.Fatal("want error when replacing a directory")
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 2 {
		t.Errorf("temporary files left: %v", ents)
	}
}

func TestLockExcludes(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a", "counter")
	if err := Write(p, []byte("0"), 0o600); err != nil {
		t.Fatal(err)
	}
	const n = 50
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			unlock, err := Lock(p)
			if err != nil {
				t.Error(err)
				return
			}
			defer unlock()
			b, _ := os.ReadFile(p)
			v, _ := strconv.Atoi(string(b))
			if err := Write(p, []byte(strconv.Itoa(v+1)), 0o600); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	b, _ := os.ReadFile(p)
	if string(b) != strconv.Itoa(n) {
		t.Fatalf("counter %s, want %d: lock did not exclude", b, n)
	}
	unlock, err := Lock(p)
	if err != nil {
		t.Fatal(err)
	}
	unlock()
	unlock()
}

func TestReadFileOnlyRegular(t *testing.T) {
	dir := t.TempDir()
	reg := filepath.Join(dir, "reg")
	os.WriteFile(reg, []byte("0123456789"), 0o600)
	fifo := filepath.Join(dir, "fifo")
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero")
	os.Symlink("/dev/zero", zero)
	link := filepath.Join(dir, "link")
	os.Symlink("reg", link)
	sparse := filepath.Join(dir, "sparse")
	if err := os.WriteFile(sparse, nil, 0o600); err != nil || os.Truncate(sparse, 2<<30) != nil {
		t.Fatal("cannot make a sparse file")
	}
	for _, c := range []struct {
		path string
		max  int64
		want string
		err  error
	}{
		{reg, 10, "0123456789", nil},
		{reg, 100, "0123456789", nil},
		{link, 10, "0123456789", nil}, // dotfiles: links are followed
		{reg, 9, "", ErrTooLarge},
		{sparse, 1 << 20, "", ErrTooLarge},
		{fifo, 10, "", ErrNotRegular}, // opened without blocking, refused
		{zero, 10, "", ErrNotRegular},
		{dir, 10, "", ErrNotRegular},
		{filepath.Join(dir, "none"), 10, "", os.ErrNotExist},
	} {
		done := make(chan struct{})
		var b []byte
		var err error
		go func() { b, err = ReadFile(c.path, c.max); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("ReadFile(%s) blocks", c.path)
		}
		if string(b) != c.want || !errors.Is(err, c.err) || (c.err == nil) != (err == nil) {
			t.Errorf("ReadFile(%s, %d) = %q, %v; want %q, %v", filepath.Base(c.path), c.max, b, err, c.want, c.err)
		}
	}
}

func TestWriteThroughLink(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "dotfiles"), 0o700)
	target := filepath.Join(dir, "dotfiles", "config.toml")
	os.WriteFile(target, []byte("old"), 0o640)
	hop := filepath.Join(dir, "hop")
	os.Symlink("dotfiles/config.toml", hop) // relative
	link := filepath.Join(dir, "config.toml")
	os.Symlink(hop, link) // a chain
	dangling := filepath.Join(dir, "dangling")
	os.Symlink("dotfiles/new.toml", dangling)
	for _, c := range []struct{ path, target string }{{link, target}, {dangling, filepath.Join(dir, "dotfiles", "new.toml")}} {
		if err := Write(c.path, []byte("new"), 0o600); err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Lstat(c.path); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s is no longer a link", c.path)
		}
		if b, err := os.ReadFile(c.target); string(b) != "new" {
			t.Errorf("target %s = %q, %v; want the new content", c.target, b, err)
		}
	}
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o640 {
		t.Errorf("target mode %v, want 0640 kept", fi.Mode().Perm())
	}
	if ents, _ := os.ReadDir(filepath.Join(dir, "dotfiles")); len(ents) != 2 {
		t.Errorf("temporary files left next to the target: %v", ents)
	}
	// Never a device or a FIFO: the test makes its own FIFO to point at,
	// so that a failure cannot replace a real device.
	fifo := filepath.Join(dir, "fifo")
	unix.Mkfifo(fifo, 0o600)
	toFifo := filepath.Join(dir, "to-fifo")
	os.Symlink(fifo, toFifo)
	for _, p := range []string{fifo, toFifo, filepath.Join(dir, "dotfiles")} {
		if err := Write(p, []byte("x"), 0o600); !errors.Is(err, ErrNotRegular) {
			t.Errorf("Write(%s) = %v, want ErrNotRegular", filepath.Base(p), err)
		}
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced")
	}
	loop := filepath.Join(dir, "loop")
	os.Symlink("loop", loop)
	if err := Write(loop, []byte("x"), 0o600); err == nil {
		t.Error("a link loop was written")
	}
}
