package main

import (
	"os"

	"golang.org/x/sys/unix"
)

// replaceStdin puts text where fd 0 was, so the shell reads exactly the
// script that was judged. A memory file keeps it off the disk.
func replaceStdin(text []byte) error {
	fd, err := unix.MemfdCreate("guard-exec-stdin", 0)
	var f *os.File
	if err == nil {
		f = os.NewFile(uintptr(fd), "guard-exec-stdin")
	} else {
		f, err = os.CreateTemp("", "guard-exec-stdin-")
		if err != nil {
			return err
		}
		os.Remove(f.Name())
	}
	defer f.Close()
	if _, err := f.Write(text); err != nil {
		return err
	}
	if _, err := f.Seek(0, 0); err != nil {
		return err
	}
	return unix.Dup3(int(f.Fd()), 0, 0)
}

// memFile returns a file descriptor, inherited across exec, holding text.
func memFile(name, text string) (int, error) {
	fd, err := unix.MemfdCreate(name, 0)
	if err != nil {
		return -1, err
	}
	if _, err := unix.Write(fd, []byte(text)); err != nil {
		unix.Close(fd)
		return -1, err
	}
	return fd, nil
}
