package shellparse_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/guard-exec/guard-exec/shellparse"
)

// ReadScriptFile reads regular files only, and never blocks on a FIFO.
func TestReadScriptFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ok := write("ok.sh", "#!/bin/sh\necho hi\n")
	if b, err := shellparse.ReadScriptFile(ok); err != nil || string(b) != "#!/bin/sh\necho hi\n" {
		t.Errorf("ok.sh: %q, %v", b, err)
	}
	link := filepath.Join(dir, "link.sh")
	if err := os.Symlink(ok, link); err != nil {
		t.Fatal(err)
	}
	if _, err := shellparse.ReadScriptFile(link); err != nil {
		t.Errorf("a link to a script: %v", err)
	}
	fifo := filepath.Join(dir, "fifo.sh")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		want error
	}{
		{fifo, shellparse.ErrNotRegular},
		{dir, shellparse.ErrDirectory},
		{"/dev/null", shellparse.ErrSpecial},
		{"/dev/stdin", shellparse.ErrSpecial}, // the shell's, not the guard's: a regular file here may be another there
		{"/proc/self/fd/0", shellparse.ErrSpecial},
		{filepath.Join(dir, "missing.sh"), fs.ErrNotExist},
		{write("big.sh", strings.Repeat("#", shellparse.MaxScriptBytes+1)), shellparse.ErrTooLarge},
		{write("elf", "\x7fELF\x02\x01\x01"), shellparse.ErrBinary},
		{write("nul", "ab\x00cd\n"), shellparse.ErrBinary},
	} {
		if _, err := shellparse.ReadScriptFile(c.path); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.path, err, c.want)
		}
	}
}
