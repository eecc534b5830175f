//go:build !linux

package main

import (
	"os"

	"golang.org/x/sys/unix"
)

// replaceStdin puts text where fd 0 was, so the shell reads exactly the
// script that was judged.
func replaceStdin(text []byte) error {
	f, err := os.CreateTemp("", "guard-exec-stdin-")
	if err != nil {
		return err
	}
	os.Remove(f.Name())
	defer f.Close()
	if _, err := f.Write(text); err != nil {
		return err
	}
	if _, err := f.Seek(0, 0); err != nil {
		return err
	}
	return unix.Dup2(int(f.Fd()), 0)
}

// memFile returns a file descriptor, inherited across exec, holding text.
func memFile(name, text string) (int, error) {
	f, err := os.CreateTemp("", name+"-")
	if err != nil {
		return -1, err
	}
	os.Remove(f.Name())
	if _, err := f.WriteString(text); err != nil {
		return -1, err
	}
	if _, err := f.Seek(0, 0); err != nil {
		return -1, err
	}
	fd, err := unix.Dup(int(f.Fd()))
	f.Close()
	return fd, err
}
