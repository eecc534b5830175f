package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/guard-exec/guard-exec/bashargv"
	"github.com/guard-exec/guard-exec/shellparse"
)

// scriptText reads the script operand of a `bash FILE` invocation the way
// bash will find it, and makes sure bash runs exactly the bytes read.
//
// Bash opens FILE relative to the working directory and, when that fails
// with ENOENT and FILE has no slash, takes the first readable file of
// that name on PATH (shell.c, open_shell_script): the guard judges that
// same file. A script that is not a regular file (a pipe from <(…), a
// FIFO, a device) can be read only once, and its writer may send bash
// other text than it sent the guard: it is read here once, into a memory
// file, and bash gets that. Where the operand names a descriptor
// (/dev/fd/N, /proc/self/fd/N, /dev/stdin …) above 2, the memory file
// takes its number, so $0 and BASH_SOURCE stay as bash shows them;
// otherwise the operand in bash's argv becomes /dev/fd/M of the memory
// file (README: $0 then shows that name). A regular file is read by bash
// again after it was judged: a change in between is not seen (README).
//
// ok is false when the file cannot be opened: bash will say so itself.
func scriptText(e *env, inv *bashargv.Invocation, ex *execSpec) (text []byte, ok bool, err error) {
	path := inv.File
	if !filepath.IsAbs(path) {
		path = filepath.Join(e.cwd, path)
	}
	f, err := os.Open(path)
	if os.IsNotExist(err) && !strings.Contains(inv.File, "/") {
		if found := pathScript(e, inv.File); found != "" {
			f, err = os.Open(found)
		}
	}
	if err != nil {
		return nil, false, nil
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, false, nil
	}
	text, err = readSized(f, fi)
	if err != nil {
		if fi.Mode().IsRegular() {
			return nil, false, nil
		}
		return nil, false, fmt.Errorf("cannot read the script %s: %v", inv.File, err)
	}
	if fi.Mode().IsRegular() || fi.IsDir() {
		return text, true, nil
	}
	fd, err := memFile("guard-exec-script", string(text))
	if err != nil {
		return nil, false, fmt.Errorf("cannot keep the script %s for bash to read: %v", inv.File, err)
	}
	if n, isFd := descriptorPath(path); isFd && n > 2 {
		if err := unix.Dup2(fd, n); err != nil {
			return nil, false, fmt.Errorf("cannot hand bash the script %s: %v", inv.File, err)
		}
		unix.Close(fd)
		return text, true, nil
	}
	if inv.FileIndex <= 0 || inv.FileIndex >= len(ex.argv) {
		return nil, false, fmt.Errorf("internal error: the script operand is not where it was read")
	}
	ex.argv[inv.FileIndex] = "/dev/fd/" + strconv.Itoa(fd)
	return text, true, nil
}

// readSized reads a script as readScript does, a regular file into a
// buffer of its size: io.ReadAll grows its buffer by half again each time,
// allocating twice the text or more (8 MB for a 3 MB script).
func readSized(f *os.File, fi os.FileInfo) ([]byte, error) {
	if !fi.Mode().IsRegular() || fi.Size() <= 0 || fi.Size() > shellparse.MaxBytes {
		return readScript(f)
	}
	var b bytes.Buffer
	b.Grow(int(fi.Size()) + bytes.MinRead) // room to see EOF without growing
	_, err := b.ReadFrom(io.LimitReader(f, shellparse.MaxBytes+1))
	return b.Bytes(), err
}

// pathScript is bash's find_path_file for a script name: the first file
// of that name in a PATH directory that is readable and not a directory.
func pathScript(e *env, name string) string {
	for _, dir := range filepath.SplitList(e.get("PATH")) {
		if dir == "" {
			dir = "."
		}
		p := filepath.Join(dir, name)
		if !filepath.IsAbs(p) {
			p = filepath.Join(e.cwd, p)
		}
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && unix.Access(p, unix.R_OK) == nil {
			return p
		}
	}
	return ""
}

// descriptorPath reports whether path names one of this process's file
// descriptors (/dev/fd/N, /proc/self/fd/N, /proc/PID/fd/N, or a symbolic
// link to one, as /dev/stdin is), and which.
func descriptorPath(path string) (int, bool) {
	for hops := 0; hops < 8; hops++ {
		p := filepath.Clean(path)
		for _, dir := range []string{"/dev/fd/", "/proc/self/fd/", "/proc/" + strconv.Itoa(os.Getpid()) + "/fd/"} {
			if rest, ok := strings.CutPrefix(p, dir); ok {
				n, err := strconv.Atoi(rest)
				return n, err == nil && n >= 0
			}
		}
		target, err := os.Readlink(p)
		if err != nil {
			return 0, false
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(p), target)
		}
		path = target
	}
	return 0, false
}
