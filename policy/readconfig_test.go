package policy_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/guard-exec/guard-exec/policy"
)

// within fails the test instead of hanging when fn blocks (a FIFO read the
// old way waits for a writer forever).
func within(t *testing.T, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); fn() }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatalf("%s blocks", what)
	}
}

func TestLoadFileOnlyRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.toml")
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero.toml")
	os.Symlink("/dev/zero", zero)
	big := filepath.Join(dir, "big.toml")
	os.WriteFile(big, nil, 0o600)
	os.Truncate(big, policy.MaxConfigBytes+1)
	good := filepath.Join(dir, "good.toml")
	os.WriteFile(good, []byte("mode = \"audit\"\n"), 0o600)
	link := filepath.Join(dir, "link.toml")
	os.Symlink("good.toml", link)
	for _, c := range []struct {
		path string
		want string // "" loads; else in the error
	}{
		{good, ""},
		{link, ""},
		{filepath.Join(dir, "missing.toml"), ""},
		{fifo, "a FIFO"},
		{zero, "a character device"},
		{big, "more than"},
		{dir, "a directory"},
	} {
		var err error
		within(t, "LoadFile("+c.path+")", func() { _, err = policy.LoadFile(c.path, policy.User) })
		var ce *policy.ConfigError
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", filepath.Base(c.path), err)
		case c.want != "" && (!errors.As(err, &ce) || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: error %v, want a config error saying %q", filepath.Base(c.path), err, c.want)
		}
	}
}

func TestAppendRule(t *testing.T) {
	dir := t.TempDir()
	rule := "[[rule]]\ncommand = \"ls\"\ndecision = \"allow\"\n"
	// A config kept in a dotfiles repository stays a link.
	target := filepath.Join(dir, "dotfiles", "config.toml")
	os.MkdirAll(filepath.Dir(target), 0o700)
	os.WriteFile(target, []byte("mode = \"enforce\""), 0o600)
	link := filepath.Join(dir, "config.toml")
	os.Symlink("dotfiles/config.toml", link)
	if err := policy.AppendRule(link, rule, nil); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the config link was replaced by a file")
	}
	if b, _ := os.ReadFile(target); string(b) != "mode = \"enforce\"\n\n"+rule {
		t.Errorf("target = %q", b)
	}
	// A FIFO is refused, not waited on, and stays.
	fifo := filepath.Join(dir, "fifo.toml")
	unix.Mkfifo(fifo, 0o600)
	var err error
	within(t, "AppendRule(FIFO)", func() { err = policy.AppendRule(fifo, rule, nil) })
	if err == nil || !strings.Contains(err.Error(), "FIFO") {
		t.Errorf("AppendRule(FIFO) = %v, want a refusal", err)
	}
	if fi, _ := os.Lstat(fifo); fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced")
	}
}
