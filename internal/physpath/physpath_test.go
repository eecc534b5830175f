package physpath

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// tree makes a directory with real directories, links to directories
// (absolute and relative), a link to a file, a dangling link and a loop.
func tree(t testing.TB) string {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"a/b/c", "a/x", "d"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"a/b/c/f", "a/x/f", "d/f", "f"} {
		if err := os.WriteFile(filepath.Join(root, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{
		"l":     filepath.Join(root, "a/b/c"),
		"a/r":   "b/c",
		"a/b/u": "../../d",
		"lf":    "a/x/f",
		"dang":  "nowhere/deep",
		"loop":  "loop",
		"root":  "/",
		"lu":    "l/..", // l's target's parent: a/b, not the root
	} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// kernel is what the kernel opens for path, or "" when it opens nothing.
func kernel(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	real, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(int(f.Fd())))
	if err != nil {
		return ""
	}
	return real
}

func TestAgainstTheKernel(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		t.Skip("no /proc/self/fd to ask the kernel")
	}
	root := tree(t)
	for _, p := range []string{
		"l/../f", "l/../../x/f", "l/../..", "a/r/../c/f", "a/r/../../x/f", "a/b/u/../a/x/f", "a/b/u/f",
		"lf/..", "a/b/c/../../x/f", "l/./../c/f", "l//../c", "a/../l/../c/f", "loop/..", "l/../../../d/f",
		"lu/c/f", "lu/../x/f", "lu",
		"root", "root/", "root/..", "root/tmp/..",
	} {
		got, ok := New()(root + "/" + p)
		want := kernel(root + "/" + p)
		if want == "" {
			continue // lf/..: the kernel fails, and nothing runs
		}
		if !ok || got != want {
			t.Errorf("%s: got %q, %v; the kernel opens %s (cleaned as text: %s)", p, got, ok, want, filepath.Join(root, p))
		}
	}
}

func TestNotThereYet(t *testing.T) {
	root := tree(t)
	r := New()
	for _, p := range []string{"new/../f", "a/new/../../f", "dang/..", "dang/../f"} {
		if got, ok := r(root + "/" + p); ok {
			t.Errorf("%s: resolved to %s; a component before .. is not there, and may be made a link", p, got)
		}
	}
	// Without "..", what is not there is kept as written.
	if got, ok := r(root + "/l/new/x"); !ok || got != root+"/a/b/c/new/x" {
		t.Errorf("l/new/x: %q, %v", got, ok)
	}
}

// FuzzAgainstTheKernel walks random paths over the tree: wherever the
// kernel opens a file, the resolver names it.
func FuzzAgainstTheKernel(f *testing.F) {
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		f.Skip("no /proc/self/fd to ask the kernel")
	}
	root := tree(f)
	parts := []string{"a", "b", "c", "x", "d", "f", "l", "r", "u", "lf", "dang", "loop", "..", ".", "", "root"}
	f.Add([]byte{6, 12, 5})
	f.Add([]byte{0, 7, 12, 1, 2, 5})
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 12 {
			return
		}
		var comps []string
		for _, c := range b {
			comps = append(comps, parts[int(c)%len(parts)])
		}
		p := root + "/" + strings.Join(comps, "/")
		want := kernel(p)
		if want == "" {
			return
		}
		// Every component is there: nothing the kernel opens is unknown
		// (a link to / included: rm -rf link/ empties the root).
		if got, ok := New()(p); !ok || got != want {
			t.Fatalf("%s: got %q, %v; the kernel opens %s", p, got, ok, want)
		}
	})
}

// A process's open files are the command's, not this process's: below
// /dev/fd/N and /proc/self/fd/N nothing is looked up here (a red team's
// /dev/fd/3/settings.json, read through the guard's own fd 3).
func TestOpenFilesNotOurs(t *testing.T) {
	f, err := os.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := strconv.Itoa(int(f.Fd()))
	r := New()
	for _, p := range []string{"/dev/fd/" + n + "/x", "/proc/self/fd/" + n + "/x", "/proc/thread-self/fd/" + n + "/x"} {
		if real, ok := r(p); ok && !strings.Contains(real, "/fd/"+n) {
			t.Errorf("%s resolved to %s, through this process's descriptor", p, real)
		}
	}
}
