//go:build unix

package prompt

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
	"golang.org/x/term"
)

// promptSignals end a prompt with No. The job-control ones are caught too:
// stopping mid-prompt would leave the terminal in raw mode under the shell.
var promptSignals = []os.Signal{
	syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT,
	syscall.SIGTSTP, syscall.SIGTTIN, syscall.SIGTTOU,
}

// errBackground: the terminal now belongs to another process group. A
// type rather than fmt.Errorf, which would run fmt in every guard
// process's start-up.
var errBackground error = backgroundError{}

type backgroundError struct{}

func (backgroundError) Error() string {
	return ErrInterrupted.Error() + ": terminal taken by another process group"
}
func (backgroundError) Unwrap() error { return ErrInterrupted }

// Ask shows q on the terminal and waits for an answer. See the package
// comment for the contract.
func (t *TTY) Ask(q Question) (ans Answer, err error) {
	defer func() {
		// A panic must not escape as a crash of the guard: it is a
		// refusal. The terminal was restored by the defers below.
		if r := recover(); r != nil {
			ans, err = No, fmt.Errorf("prompt: internal error: %v", r)
		}
	}()

	defer blockJobControl()()

	path := t.path()
	f, fd, rc, err := openTTY(path)
	if err != nil {
		return No, err
	}
	defer f.Close()
	sigc := catchSignals()
	// Stop rather than Reset: Reset would also drop handlers the caller
	// installed for these signals.
	defer signal.Stop(sigc)

	old, err := term.MakeRaw(fd)
	if err != nil {
		return No, fmt.Errorf("prompt: making %s raw: %w", path, err)
	}
	var note string
	defer func() {
		if r := recover(); r != nil {
			ans, note, err = No, "", fmt.Errorf("prompt: internal error: %v", r)
		}
		ans, err = finish(f, fd, old, sigc, ans, note, err)
	}()
	ans, note, err = converse(f, rc, &q, sigc)
	return ans, err
}

// Terminal reports ErrNoTerminal unless this process could ask on its
// controlling terminal: one exists and the process is in its foreground.
func Terminal() error {
	f, _, _, err := openTTY("/dev/tty")
	if err != nil {
		return err
	}
	return f.Close()
}

// openTTY opens the controlling terminal at path for asking on it.
func openTTY(path string) (f *os.File, fd int, rc syscall.RawConn, err error) {
	// O_NOCTTY: a session leader without a terminal must not acquire one
	// by opening a tty named in Path. O_NONBLOCK: opening a serial line
	// without carrier would wait for one; non-blocking reads also let the
	// runtime poller stop the reader with a deadline.
	fd, err = unix.Open(path, unix.O_RDWR|unix.O_NOCTTY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, 0, nil, fmt.Errorf("%w: %w", ErrNoTerminal, &os.PathError{Op: "open", Path: path, Err: err})
	}
	// Never call f.Fd(): it would put the file back in blocking mode.
	f = os.NewFile(uintptr(fd), path)
	if f.SetReadDeadline(time.Time{}) != nil {
		// The poller cannot watch this terminal (kqueue on macOS):
		// read it blocking.
		_ = unix.SetNonblock(fd, false)
	}
	rc, err = f.SyscallConn()
	if err != nil {
		f.Close()
		return nil, 0, nil, fmt.Errorf("%w: %w", ErrNoTerminal, err)
	}
	if !term.IsTerminal(fd) {
		f.Close()
		return nil, 0, nil, fmt.Errorf("%w: %s is not a terminal", ErrNoTerminal, path)
	}
	if err := ownsTerminal(fd); err != nil {
		f.Close()
		return nil, 0, nil, err
	}
	return f, fd, rc, nil
}

// catchSignals catches the prompt's signals that are not ignored: Notify
// would un-ignore them, and the bash exec'd afterwards must inherit what
// we got.
func catchSignals() chan os.Signal {
	var caught []os.Signal
	for _, s := range promptSignals {
		if !signal.Ignored(s) {
			caught = append(caught, s)
		}
	}
	sigc := make(chan os.Signal, 1)
	if len(caught) > 0 { // Notify with no signals would catch all of them
		signal.Notify(sigc, caught...)
	}
	return sigc
}

// taken reports whether another process group is in the terminal's
// foreground. A terminal that hung up answers no ioctl: it is not taken.
func taken(fd int) bool {
	pgrp, err := unix.IoctlGetInt(fd, unix.TIOCGPGRP)
	return err == nil && pgrp != unix.Getpgrp()
}

// ownsTerminal reports ErrNoTerminal unless the process is in the
// terminal's foreground process group. It fails too (ENOTTY) for a tty that
// is not this process's controlling terminal.
func ownsTerminal(fd int) error {
	pgrp, err := unix.IoctlGetInt(fd, unix.TIOCGPGRP)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrNoTerminal, err)
	}
	self, err := unix.Getpgid(0)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrNoTerminal, err)
	}
	if pgrp != self {
		return fmt.Errorf("%w: in a background process group", ErrNoTerminal)
	}
	return nil
}

// converse shows the question and reads the answer.
func converse(f *os.File, rc syscall.RawConn, q *Question, sigc <-chan os.Signal) (Answer, string, error) {
	in := make(chan input)
	done := make(chan struct{})
	exited := make(chan struct{})
	go func() {
		defer close(exited)
		readKeys(rc, in, done)
	}()
	defer func() {
		close(done)
		// A deadline in the past wakes the reader. Where the poller cannot
		// watch the terminal (kqueue on macOS), the reader stays blocked
		// in read(2) and is left behind: better than hanging here.
		if f.SetReadDeadline(time.Unix(1, 0)) == nil {
			<-exited
		}
	}()

	var timeout <-chan time.Time
	if q.Timeout > 0 {
		tm := time.NewTimer(q.Timeout)
		defer tm.Stop()
		timeout = tm.C
		// Nobody reading the terminal must not block the prompt forever.
		_ = f.SetWriteDeadline(time.Now().Add(q.Timeout))
	}
	rows := 0
	_ = rc.Control(func(fd uintptr) { // f.Fd() would make the file blocking again
		if _, h, err := term.GetSize(int(fd)); err == nil {
			rows = h
		}
	})
	if _, err := io.WriteString(f, renderFit(q, rows)); err != nil {
		return No, "", writeErr(err)
	}
	shown := time.Now()

	var ed editor
	for {
		select {
		case s := <-sigc:
			return No, "", interrupted(s)
		case <-timeout:
			return No, "", fmt.Errorf("%w (%v)", ErrTimeout, q.Timeout)
		case k := <-in:
			for _, c := range k.data {
				if q.Grace > 0 && time.Since(shown) < q.Grace && c != 0x03 && c != 0x1c && c != 0x1a {
					continue // typed ahead, or before the question could be read
				}
				echo, ev := ed.key(c)
				if echo != "" {
					if _, err := io.WriteString(f, echo); err != nil {
						return No, "", writeErr(err)
					}
				}
				switch ev {
				case evEnter:
					a, note := decide(q, string(ed.line))
					return a, note, nil
				case evEOF:
					return No, "", nil
				case evInterrupt:
					return No, "", fmt.Errorf("%w by Ctrl-%c", ErrInterrupted, c+'@')
				}
			}
			switch {
			case k.err == nil:
			case errors.Is(k.err, io.EOF) || errors.Is(k.err, unix.EIO):
				// EIO: the terminal hung up.
				return No, "", nil
			case errors.Is(k.err, errBackground):
				return No, "", k.err
			default:
				return No, "", fmt.Errorf("prompt: reading terminal: %w", k.err)
			}
		}
	}
}

func interrupted(s os.Signal) error {
	name := s.String()
	if n, ok := s.(syscall.Signal); ok {
		name = unix.SignalName(n)
	}
	return fmt.Errorf("%w by %s", ErrInterrupted, name)
}

func writeErr(err error) error {
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return fmt.Errorf("%w (terminal output blocked)", ErrTimeout)
	}
	return fmt.Errorf("prompt: writing to terminal: %w", err)
}

type input struct {
	data []byte
	err  error // set on the last input
}

// readKeys sends what is typed to in until an error or done.
func readKeys(rc syscall.RawConn, in chan<- input, done <-chan struct{}) {
	defer blockJobControl()()
	buf := make([]byte, 256)
	for {
		var n int
		var rerr error
		err := rc.Read(func(fd uintptr) bool {
			// A read from the background raises SIGTTIN; caught, it
			// makes the kernel restart read(2) forever. Look first.
			if ownsTerminal(int(fd)) != nil {
				rerr = errBackground
				return true
			}
			for {
				n, rerr = unix.Read(int(fd), buf)
				if rerr != unix.EINTR {
					break
				}
			}
			// Taken between the look and the read: with SIGTTIN
			// blocked (blockJobControl), the read fails with EIO.
			if rerr == unix.EIO && taken(int(fd)) {
				rerr = errBackground
			}
			return rerr != unix.EAGAIN
		})
		if err != nil {
			rerr = err
		}
		if rerr != nil {
			n = 0
		} else if n == 0 {
			rerr = io.EOF
		}
		select {
		case in <- input{append([]byte(nil), buf[:n]...), rerr}:
		case <-done:
			return
		}
		if rerr != nil {
			return
		}
	}
}

// finish tells the person the outcome and restores the terminal. A signal
// that arrived after the answer turns it into a refusal: it was meant to
// stop this process, and is not delivered again.
func finish(f *os.File, fd int, old *term.State, sigc chan os.Signal, ans Answer, note string, err error) (Answer, error) {
	// Writes and tcsetattr from a background process group raise SIGTTOU,
	// which, caught, makes the kernel retry forever. The group that holds
	// the terminal now (the shell, after a stop) has set its own modes.
	owns := ownsTerminal(fd) == nil
	msg := "\r\n"
	if note != "" {
		msg += note + "\r\n"
	}
	msg += outcome(ans, err) + "\r\n"
	// The output is short; the deadline only matters if nobody reads.
	_ = f.SetWriteDeadline(time.Now().Add(2 * time.Second))
	if owns {
		_, _ = io.WriteString(f, msg)
		_ = term.Restore(fd, old)
	}
	signal.Stop(sigc)
	select {
	case s := <-sigc:
		if ans != No {
			ans, err = No, interrupted(s)
			if owns {
				_, _ = io.WriteString(f, outcome(ans, err)+"\r\n")
			}
		}
	default:
	}
	if owns {
		drain(fd)
	}
	return ans, err
}

// drain waits, briefly, until the terminal has taken everything written to
// it (tcdrain). On a pseudo-terminal that means the program on the other
// side has read it: a process that exits right after the question would
// otherwise leave its last lines in the pty's queue, where a reader that
// closes on exit (test harnesses, some agent terminals) loses them. Output
// stopped by Ctrl-S would block for ever, hence the bound.
func drain(fd int) {
	done := make(chan struct{})
	go func() {
		tcdrain(fd)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(500 * time.Millisecond):
	}
}
