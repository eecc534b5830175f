package argspec_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// What pytest.go says pytest deletes, the real pytest deletes, and what it
// says stays, stays: run where a python with pytest is installed
// (Debian's python3-pytest in CI).
func TestPytestAgainstRealPytest(t *testing.T) {
	py := ""
	for _, p := range []string{"python3", "/usr/bin/python3"} {
		if exec.Command(p, "-m", "pytest", "--version").Run() == nil {
			py = p
			break
		}
	}
	if py == "" {
		t.Skip("no python with pytest here")
	}
	for _, c := range []struct {
		args    string // @D@ is a directory with a witness file in it
		deleted []string
		kept    []string // below @D@
		want    string   // the effect reported on @D@
	}{
		{"--basetemp=@D@", []string{""}, nil, "write:delete @D@ R"},
		{"--basetemp @D@", []string{""}, nil, "write:delete @D@ R"},
		{"-o cache_dir=@D@ --cache-clear", []string{"v"}, []string{"keep"}, "write:delete @D@/v R"},
		{"-o cache_dir=@D@", nil, []string{"keep", "v/keep"}, "write @D@ R"},
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "test_a.py"), []byte("def test_a(tmp_path):\n    pass\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		d := filepath.Join(dir, "wit")
		for _, f := range []string{"keep", "v/keep"} {
			os.MkdirAll(filepath.Dir(filepath.Join(d, f)), 0o755)
			if err := os.WriteFile(filepath.Join(d, f), []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		args := strings.Fields(strings.ReplaceAll(c.args, "@D@", d))
		cmd := exec.Command(py, append([]string{"-m", "pytest", "-q"}, args...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("pytest %s: %v\n%s", c.args, err, out)
		}
		for _, f := range c.deleted {
			if _, err := os.Stat(filepath.Join(d, f, "keep")); err == nil {
				t.Errorf("pytest %s: %s/keep is still there: the case tests nothing", c.args, filepath.Join("wit", f))
			}
		}
		for _, f := range c.kept {
			if _, err := os.Stat(filepath.Join(d, f)); err != nil {
				t.Errorf("pytest %s removed %s, which pytest.go says stays", c.args, f)
			}
		}
		got := effects("pytest " + strings.ReplaceAll(c.args, "@D@", d))
		if want := strings.ReplaceAll(c.want, "@D@", d); !slices.Contains(got, want) {
			t.Errorf("pytest %s: effects %q lack %q", c.args, got, want)
		}
	}
}
