package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// ErrNotRegular is matched (errors.Is) by the error Open and ReadFile
// return for a path that is not a regular file: a FIFO would block every
// reader forever, a device such as /dev/zero never ends.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is matched by the error ReadFile returns for a file larger
// than its cap.
var ErrTooLarge = errors.New("file too large")

// Open opens path for reading if it is a regular file, without ever
// blocking: the file is opened with O_NONBLOCK (a FIFO opens at once
// instead of waiting for a writer) and the opened descriptor, not the
// path, is checked, so the file cannot be swapped in between. Symbolic
// links are followed: config files often live in a dotfiles repository.
// O_NONBLOCK has no effect on reads of a regular file.
func Open(path string) (*os.File, error) {
	return openRegular(path, os.O_RDONLY, 0)
}

// openRegular opens path with flag and O_NONBLOCK, so that a FIFO opens at
// once, and returns it if it is a regular file. The descriptor is made
// blocking again before it becomes an *os.File: os.NewFile registers a
// non-blocking descriptor with the runtime's poller, and starting the
// poller (an epoll instance, an eventfd) cost every command for nothing,
// since reads and writes of a regular file never block.
func openRegular(path string, flag int, perm os.FileMode) (*os.File, error) {
	fd, err := unix.Open(path, flag|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, uint32(perm.Perm()))
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	if err := unix.SetNonblock(fd, false); err != nil {
		unix.Close(fd)
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	return regular(os.NewFile(uintptr(fd), path), path)
}

// ReadFile reads the regular file at path, refusing other kinds of files
// (see Open) and files larger than max bytes: it reads at most max+1
// bytes whatever the file claims its size is. A missing file is an error
// matching os.ErrNotExist.
func ReadFile(path string, max int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadAll(f, path, max)
}

// ReadAll reads all of the open file f (named path in errors), at most max
// bytes; a longer file is an error matching ErrTooLarge.
func ReadAll(f *os.File, path string, max int64) ([]byte, error) {
	size := int64(512)
	if fi, err := f.Stat(); err == nil && fi.Size() > 0 {
		size = min(fi.Size(), max) + 1
	}
	b := make([]byte, 0, size)
	for {
		n, err := f.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if int64(len(b)) > max {
			return nil, &os.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w: more than %d bytes, the most read from such a file", ErrTooLarge, max)}
		}
		if err == io.EOF {
			return b, nil
		} else if err != nil {
			return nil, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // grow: the file grew since the stat
		}
	}
}

func kind(m os.FileMode) string {
	switch {
	case m&os.ModeNamedPipe != 0:
		return "a FIFO"
	case m&os.ModeCharDevice != 0:
		return "a character device"
	case m&os.ModeDevice != 0:
		return "a block device"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m.IsDir():
		return "a directory"
	}
	return "not a regular file"
}

// OpenAppend opens path for appending (O_RDWR, to read the last byte
// written), creating it with perm, if it is a regular file: a FIFO would
// swallow every record written to it, since opening one read-write never
// blocks and nobody reads it.
func OpenAppend(path string, perm os.FileMode) (*os.File, error) {
	return openRegular(path, os.O_RDWR|os.O_APPEND|os.O_CREATE, perm)
}

// regular returns f if it is a regular file, else closes it.
func regular(f *os.File, path string) (*os.File, error) {
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, &os.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w (it is %s); replace it with a regular file", ErrNotRegular, kind(fi.Mode()))}
	}
	return f, nil
}
