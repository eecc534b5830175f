//go:build linux

// Command execprobe is built by the bashcli tests to exercise Exec in a
// fresh process.
//
//	execprobe exec ARGV0 ARG...     print "pid=<pid>", then Exec /bin/bash with [ARGV0 ARG...]
//	execprobe recorded              print StartRecorded
//	execprobe ignored               print IgnoredAtStart as signal numbers
//	execprobe block SIG... -- CMD…  block the signals, then plain syscall.Exec CMD (the
//	                                signal mask survives exec), to start a process with them blocked
//	execprobe notify-exec ARG...    like exec, after signal.Notify and signal.Ignore calls
//	                                that Exec must undo
package main

import (
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"syscall"
	"unsafe"

	"github.com/guard-exec/guard-exec/bashcli"
)

func main() {
	if len(os.Args) < 2 {
		fail("usage: execprobe exec|ignored|block|notify-exec …")
	}
	switch os.Args[1] {
	case "notify-exec":
		signal.Notify(make(chan os.Signal, 1), syscall.SIGTERM, syscall.SIGUSR2)
		signal.Ignore(syscall.SIGINT, syscall.SIGQUIT)
		fallthrough
	case "exec":
		fmt.Printf("pid=%d\n", os.Getpid())
		err := bashcli.Exec("/bin/bash", os.Args[2:], append(os.Environ(), "PROBE_ENV=kept"))
		fail(err.Error())
	case "recorded":
		fmt.Println(bashcli.StartRecorded())
	case "ignored":
		for _, s := range bashcli.IgnoredAtStart() {
			fmt.Println(int(s))
		}
	case "block":
		runtime.LockOSThread()
		var set [2]uint64
		i := 2
		for ; i < len(os.Args) && os.Args[i] != "--"; i++ {
			n, err := strconv.Atoi(os.Args[i])
			if err != nil {
				fail(err.Error())
			}
			set[(n-1)/64] |= 1 << ((n - 1) % 64)
		}
		if _, _, e := syscall.RawSyscall6(syscall.SYS_RT_SIGPROCMASK, 0 /* SIG_BLOCK */, uintptr(unsafe.Pointer(&set)), 0, 8, 0, 0); e != 0 {
			fail(e.Error())
		}
		fail(syscall.Exec(os.Args[i+1], os.Args[i+1:], os.Environ()).Error())
	default:
		fail("unknown mode " + os.Args[1])
	}
}

func fail(msg string) {
	fmt.Fprintln(os.Stderr, "execprobe:", msg)
	os.Exit(99)
}
