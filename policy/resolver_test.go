package policy

import (
	"os"
	"path/filepath"
	"testing"
)

// The resolver follows links in the existing part of a path as the kernel
// would, and keeps the part that does not exist as written.
func TestResolver(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(dir, "real", "sub"), 0o755))
	must(os.Symlink(filepath.Join(dir, "real"), filepath.Join(dir, "abs")))
	must(os.Symlink("real/sub", filepath.Join(dir, "rel")))
	must(os.Symlink("../../real", filepath.Join(dir, "real", "sub", "up")))
	must(os.Symlink("/", filepath.Join(dir, "root")))
	must(os.Symlink("loop", filepath.Join(dir, "loop")))
	must(os.Symlink(filepath.Join(dir, "nowhere", "x"), filepath.Join(dir, "dangling")))
	res := Resolver()
	for in, want := range map[string]string{
		"real/sub/f":       "real/sub/f",
		"abs/sub/f":        "real/sub/f",
		"rel/f":            "real/sub/f",
		"rel/up/sub/new/f": "real/sub/new/f",
		"abs/../real/f":    "real/f", // cleaned lexically first, like every path the policy sees
		"missing/a/b":      "missing/a/b",
		"dangling":         "nowhere/x",
		"dangling/y":       "nowhere/x/y",
		"loop/x":           "loop/x",
	} {
		got, ok := res(filepath.Join(dir, in))
		if !ok || got != filepath.Join(dir, want) {
			t.Errorf("Resolve(%s) = %q, %v; want %q", in, got, ok, filepath.Join(dir, want))
		}
	}
	// Links into /proc name open files, not paths: kept as written.
	if got, ok := res("/dev/stdout"); !ok || got != "/dev/stdout" {
		t.Errorf("Resolve(/dev/stdout) = %q, %v", got, ok)
	}
	if got, ok := res(filepath.Join(dir, "root", "etc", "passwd")); !ok || got != "/etc/passwd" {
		t.Errorf("a link to / = %q, %v", got, ok)
	}
	// Each answer is the same as EvalSymlinks where the whole path exists.
	for _, in := range []string{"abs/sub", "rel", "rel/up", "real/sub/up/sub"} {
		p := filepath.Join(dir, in)
		want, err := filepath.EvalSymlinks(p)
		must(err)
		if got, _ := res(p); got != want {
			t.Errorf("Resolve(%s) = %q, EvalSymlinks %q", in, got, want)
		}
	}
}
