// Command witness stands in for a program the guard knows nothing about: a
// compiled binary whose content cannot be read as a script. It prints
// "NAME ran: ARGS" and appends ARGS to ../../witness/NAME beside its
// project (the world's witness directory), so a test can tell that it ran.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, "witness:", err)
		os.Exit(2)
	}
	name := filepath.Base(os.Args[0])
	args := strings.Join(os.Args[1:], " ")
	fmt.Printf("%s ran: %s\n", name, args)
	path := filepath.Join(filepath.Dir(exe), "..", "..", "witness", name)
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err == nil {
		_, err = fmt.Fprintln(f, args)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		os.Exit(2)
	}
}
