package atomicfile

import (
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
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
