package gitindex

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestAgainstGit reads the index git writes, in each version and object
// format, and compares with what git ls-files says it tracks.
func TestAgainstGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	long := strings.Repeat("d/", 2100) + "f" // a name longer than 0xfff bytes
	for _, c := range []struct {
		name string
		init []string
		prep [][]string
	}{
		{"v2", nil, nil},
		{"v3", nil, [][]string{{"add", "-N", "later.txt"}}}, // intent-to-add sets an extended flag
		{"v4", nil, [][]string{{"update-index", "--index-version", "4"}}},
		{"sha256", []string{"--object-format=sha256"}, nil},
		{"sha256 v4", []string{"--object-format=sha256"}, [][]string{{"update-index", "--index-version", "4"}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			run := func(args ...string) (string, error) {
				cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@x"}, args...)...)
				cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
				out, err := cmd.CombinedOutput()
				return string(out), err
			}
			git := func(args ...string) string {
				out, err := run(args...)
				if err != nil {
					t.Fatalf("git %v: %v: %s", args, err, out)
				}
				return out
			}
			if out, err := run(append([]string{"init", "-q"}, c.init...)...); err != nil {
				t.Skipf("this git cannot make the repository: %s", out) // an older git, without sha256
			}
			files := []string{".env", "src/main.go", "src/deep/x/.env.local", "a b/c", "über.txt", "id_rsa", "z"}
			for _, f := range append(files, "later.txt") {
				p := filepath.Join(dir, f)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Skip(err)
				}
				if err := os.WriteFile(p, []byte(f), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			git(append([]string{"add", "--"}, files...)...)
			// A name longer than a path may be, straight into the index.
			blob := strings.TrimSpace(git("hash-object", "-w", "z"))
			git("update-index", "--add", "--cacheinfo", "100644,"+blob+","+long)
			for _, p := range c.prep {
				git(p...)
			}
			want := strings.Split(strings.TrimSuffix(git("ls-files", "-z", "--stage"), "\x00"), "\x00")
			for i, l := range want {
				_, want[i], _ = strings.Cut(l, "\t")
			}
			got, err := Paths(filepath.Join(dir, ".git", "index"), 1<<24)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Errorf("paths %q, git says %q", got, want)
			}
		})
	}
}

// An index that is not one, or is cut short, is an error, never a list.
func TestBroken(t *testing.T) {
	for _, b := range []string{"", "DIRC", "DIRC\x00\x00\x00\x02\x00\x00\x00\x05", "XXXX\x00\x00\x00\x02\x00\x00\x00\x00",
		"DIRC\x00\x00\x00\x09\x00\x00\x00\x00"} {
		if _, err := parse([]byte(b), 20); err == nil {
			t.Errorf("%q: no error", b)
		}
	}
}

// FuzzParse: whatever the bytes, parse ends, and what it lists are names.
func FuzzParse(f *testing.F) {
	f.Add([]byte("DIRC\x00\x00\x00\x02\x00\x00\x00\x01"))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, h := range []int{20, 32} {
			paths, err := parse(b, h)
			if err == nil && slices.Contains(paths, "") {
				t.Fatalf("an empty name listed")
			}
		}
	})
}
