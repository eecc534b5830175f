package shellparse

import (
	"os"
	"path/filepath"
	"testing"
)

// TestPathCandidate holds the one-lstat lookup of a name on PATH to what
// resolving the whole path finds: where the file really is (when it is
// there) and what it is, for plain entries, entries that are links,
// links inside them, dangling links, files named as directories and
// entries that are not there. Where nothing is there, the name is placed
// in the entry's real directory, where the command would make it.
func TestPathCandidate(t *testing.T) {
	dir := t.TempDir()
	mk := func(p string, mode os.FileMode) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), mode); err != nil {
			t.Fatal(err)
		}
	}
	ln := func(target, p string) {
		t.Helper()
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
	mk(dir+"/real/bin/tool", 0o755)
	mk(dir+"/real/bin/data", 0o644)
	mk(dir+"/other/prog", 0o755)
	if err := os.MkdirAll(dir+"/real/bin/sub", 0o755); err != nil {
		t.Fatal(err)
	}
	ln(dir+"/real/bin", dir+"/linkbin")            // an entry that is a link
	ln("../../other/prog", dir+"/real/bin/rel")    // a relative link in it
	ln(dir+"/linkbin/tool", dir+"/real/bin/chain") // a link through a link
	ln(dir+"/nowhere/x", dir+"/real/bin/dangling")
	ln(dir+"/loop2", dir+"/loop1")
	ln(dir+"/loop1", dir+"/loop2")
	mk(dir+"/afile", 0o755)

	entries := []string{dir + "/real/bin", dir + "/linkbin", dir + "/linkbin/", dir + "//real/./bin", dir + "/afile", dir + "/missing", dir + "/loop1"}
	names := []string{"tool", "data", "sub", "rel", "chain", "dangling", "absent"}
	w := newWalker(Options{})
	for _, d := range entries {
		for _, name := range names {
			real, mode, ok := w.pathCandidate(d, name)
			if !ok {
				t.Errorf("%s/%s: not handled", d, name)
				continue
			}
			p := filepath.Join(d, name)
			wantMode := os.FileMode(0)
			if fi, err := os.Stat(p); err == nil {
				wantMode = fi.Mode()
			}
			if mode != wantMode {
				t.Errorf("%s/%s: mode %v, want %v", d, name, mode, wantMode)
			}
			want, err := filepath.EvalSymlinks(p)
			if err != nil {
				// Not there: where the command would make it.
				want = filepath.Clean(p)
				if rd, err := filepath.EvalSymlinks(filepath.Clean(d)); err == nil {
					want = filepath.Join(rd, name)
				}
			}
			if real != want {
				t.Errorf("%s/%s: real %q, want %q", d, name, real, want)
			}
		}
	}
	for _, c := range [][2]string{{"bin", "ls"}, {"/usr/../bin", "ls"}, {"/usr/bin", "../ls"}, {"/usr/bin", "a/b"}, {"/dev/fd/3", "ls"}, {"/proc/self/cwd", "ls"}} {
		if _, _, ok := w.pathCandidate(c[0], c[1]); ok {
			t.Errorf("%s/%s: handled, want it left to the caller", c[0], c[1])
		}
	}
}
