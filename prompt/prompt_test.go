//go:build linux

package prompt

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// The terminal tests run the test binary again as a child whose controlling
// terminal is a pty: the child asks, the test types on the pty master and
// reads what the child showed there. The child reports on stdout, a pipe.
const (
	helperEnv   = "GUARD_PROMPT_HELPER"   // "ask", "readtaken"; "bg", "swap", "swapread": see parentHelper
	questionEnv = "GUARD_PROMPT_QUESTION" // the Question, as JSON
	ignoreEnv   = "GUARD_PROMPT_IGNORE"   // "1": ignore SIGHUP before asking
	lingerEnv   = "GUARD_PROMPT_LINGER"   // "1": wait after reporting, to be signalled
)

// wait is how long anything may take before the test gives up. It is only
// a guard against hangs, never a measurement.
const wait = 10 * time.Second

func TestMain(m *testing.M) {
	if mode := os.Getenv(helperEnv); mode != "" {
		os.Exit(helper(mode))
	}
	os.Exit(m.Run())
}

// report is what the child says about its Ask.
type report struct {
	Answer       string
	Err          string
	NoTerminal   bool
	ENXIO        bool
	Timeout      bool
	Interrupted  bool
	Restored     bool // ECHO and ICANON are set on the terminal after Ask
	StillIgnored bool // SIGHUP is still ignored after Ask
}

func helper(mode string) int {
	switch mode {
	case "bg", "swap", "swapread":
		return parentHelper(mode)
	case "readtaken":
		return readTaken()
	}
	var q Question
	if err := json.Unmarshal([]byte(os.Getenv(questionEnv)), &q); err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		return 1
	}
	if os.Getenv(ignoreEnv) != "" {
		signal.Ignore(syscall.SIGHUP)
	}
	a, err := (&TTY{}).Ask(q)
	r := report{
		Answer:       a.String(),
		NoTerminal:   errors.Is(err, ErrNoTerminal),
		ENXIO:        errors.Is(err, syscall.ENXIO),
		Timeout:      errors.Is(err, ErrTimeout),
		Interrupted:  errors.Is(err, ErrInterrupted),
		StillIgnored: signal.Ignored(syscall.SIGHUP),
	}
	if err != nil {
		r.Err = err.Error()
	}
	if f, err := os.Open("/dev/tty"); err == nil {
		if tio, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS); err == nil {
			r.Restored = tio.Lflag&(unix.ECHO|unix.ICANON) == unix.ECHO|unix.ICANON
		}
		f.Close()
	}
	if err := json.NewEncoder(os.Stdout).Encode(r); err != nil {
		return 1
	}
	if os.Getenv(lingerEnv) != "" {
		// The test now sends SIGTERM: with the default action restored,
		// it kills us before we get to exit.
		time.Sleep(wait)
		return 3
	}
	return 0
}

// parentHelper plays the shell: it runs an asking child in a process group
// of its own, in the background ("bg"), or in the foreground until SIGUSR1
// makes it take the terminal back ("swap").
func parentHelper(mode string) int {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), helperEnv+"=ask")
	if mode == "swapread" {
		cmd.Env = append(os.Environ(), helperEnv+"=readtaken")
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if mode != "bg" {
		cmd.SysProcAttr = &syscall.SysProcAttr{Foreground: true, Ctty: 3}
	}
	usr1 := make(chan os.Signal, 1)
	signal.Notify(usr1, syscall.SIGUSR1)
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		return 1
	}
	if mode != "bg" {
		<-usr1
		signal.Ignore(syscall.SIGTTOU) // as a shell does, to call tcsetpgrp
		pgrp, _ := unix.Getpgid(0)
		if err := unix.IoctlSetPointerInt(3, unix.TIOCSPGRP, pgrp); err != nil {
			fmt.Fprintln(os.Stderr, "helper:", err)
			return 1
		}
		fmt.Fprint(os.NewFile(3, "tty"), "[taken]")
	}
	if err := cmd.Wait(); err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		return 1
	}
	return 0
}

// readTaken plays the prompt losing the race with the shell: it catches
// the job-control signals as Ask does, blocks them as Ask does, waits until
// the terminal is taken, and only then reads and sets the modes, as a
// reader that looked just before the shell took the terminal would.
func readTaken() int {
	sigc := make(chan os.Signal, 8)
	signal.Notify(sigc, syscall.SIGTTIN, syscall.SIGTTOU)
	defer blockJobControl()()
	fd, err := unix.Open("/dev/tty", unix.O_RDWR|unix.O_NONBLOCK, 0)
	if err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		return 1
	}
	tio, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		return 1
	}
	fmt.Fprint(os.NewFile(uintptr(fd), "tty"), "[ready]")
	for !taken(fd) {
		time.Sleep(time.Millisecond)
	}
	_, rerr := unix.Read(fd, make([]byte, 16))
	serr := unix.IoctlSetTermios(fd, unix.TCSETS, tio)
	r := report{Err: fmt.Sprintf("read: %v; tcsetattr: %v", rerr, serr)}
	if err := json.NewEncoder(os.Stdout).Encode(r); err != nil {
		return 1
	}
	return 0
}

// child is a helper process with a pty.
type child struct {
	t       *testing.T
	cmd     *exec.Cmd
	master  *os.File
	stderr  lockedBuffer
	reports chan report

	mu      sync.Mutex
	screen  []byte        // everything the child wrote to the terminal
	changed chan struct{} // a token when screen grows
	hungup  chan struct{} // closed when the terminal is gone
}

type opts struct {
	mode      string // helper mode; default "ask"
	noCtty    bool   // new session without a controlling terminal
	typeFirst string // typed before the child starts, while the terminal is in line mode
	env       []string
}

func start(t *testing.T, q Question, o opts) *child {
	t.Helper()
	master, slave := openPty(t)
	if o.typeFirst != "" {
		if _, err := master.WriteString(o.typeFirst); err != nil {
			t.Fatal(err)
		}
	}
	js, err := json.Marshal(q)
	if err != nil {
		t.Fatal(err)
	}
	if o.mode == "" {
		o.mode = "ask"
	}
	c := &child{t: t, master: master, reports: make(chan report, 1),
		changed: make(chan struct{}, 1), hungup: make(chan struct{})}
	c.cmd = exec.Command(os.Args[0])
	c.cmd.Env = append(os.Environ(), helperEnv+"="+o.mode, questionEnv+"="+string(js))
	c.cmd.Env = append(c.cmd.Env, o.env...)
	// The race detector otherwise sleeps a second at every exit.
	c.cmd.Env = append(c.cmd.Env, "GORACE="+os.Getenv("GORACE")+" atexit_sleep_ms=0")
	// A decoy: the answer must come from the terminal, never from stdin.
	c.cmd.Stdin = strings.NewReader("y\nyes\na\nw\n")
	c.cmd.Stderr = &c.stderr
	if o.noCtty {
		c.cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	} else {
		c.cmd.ExtraFiles = []*os.File{slave} // fd 3
		c.cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 3}
	}
	stdout, err := c.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	slave.Close() // the child's exit must hang the terminal up
	t.Cleanup(func() {
		c.cmd.Process.Kill()
		master.Close()
	})
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			var r report
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				r.Err = fmt.Sprintf("bad report %q: %v", sc.Text(), err)
			}
			c.reports <- r
		}
		close(c.reports)
	}()
	go func() {
		defer close(c.hungup)
		buf := make([]byte, 4096)
		for {
			n, err := master.Read(buf)
			c.mu.Lock()
			c.screen = append(c.screen, buf[:n]...)
			c.mu.Unlock()
			select {
			case c.changed <- struct{}{}:
			default:
			}
			if err != nil {
				return // EIO once the child and its terminal are gone
			}
		}
	}()
	return c
}

// lockedBuffer is a child's stderr, read while the child may still write.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// openPty opens a pty whose master can be closed while a read is blocked
// on it: pty.Open leaves the master in blocking mode, where Close waits for
// the read to end before the terminal is really released.
func openPty(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, slave, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	fd, err := unix.Dup(int(m.Fd()))
	if err == nil {
		err = unix.SetNonblock(fd, true)
	}
	if err != nil {
		t.Fatal(err)
	}
	unix.CloseOnExec(fd)
	return os.NewFile(uintptr(fd), m.Name()), slave
}

func (c *child) output() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return string(c.screen)
}

// waitFor waits until the terminal shows s.
func (c *child) waitFor(s string) {
	c.t.Helper()
	deadline := time.After(wait)
	for !strings.Contains(c.output(), s) {
		select {
		case <-c.changed:
		case <-c.hungup:
			if !strings.Contains(c.output(), s) {
				c.t.Fatalf("terminal closed without showing %q; it showed:\n%s\nstderr: %s", s, c.output(), c.stderr.String())
			}
		case <-deadline:
			c.t.Fatalf("terminal did not show %q; it showed:\n%s", s, c.output())
		}
	}
}

func (c *child) typ(s string) {
	c.t.Helper()
	if _, err := c.master.WriteString(s); err != nil {
		c.t.Fatal(err)
	}
}

// result waits for the child's report, its exit and the end of its
// terminal output.
func (c *child) result() (report, string) {
	c.t.Helper()
	var r report
	select {
	case got, ok := <-c.reports:
		if !ok {
			c.t.Fatalf("child reported nothing; stderr: %s; terminal:\n%s", c.stderr.String(), c.output())
		}
		r = got
	case <-time.After(wait):
		c.t.Fatalf("no answer from the child; terminal:\n%s\nstderr: %s", c.output(), c.stderr.String())
	}
	exited := make(chan error, 1)
	go func() { exited <- c.cmd.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			c.t.Fatalf("child: %v; stderr: %s", err, c.stderr.String())
		}
	case <-time.After(wait):
		c.t.Fatal("child did not exit")
	}
	select {
	case <-c.hungup:
	case <-time.After(wait):
		c.t.Fatal("terminal not hung up after the child exited")
	}
	return r, c.output()
}

var full = Question{
	Command:     "cd /src && git push --force origin main\necho pushed",
	Parts:       []NeedsApproval{{Text: "git push --force origin main", Reason: "rewrites history on the remote"}},
	SessionRule: "git push --force *",
	PersistRule: "[[allow]]\ncommand = \"git push --force *\"",
	ConfigPath:  "/home/u/.config/guard-exec/config.toml",
}

const answerPrompt = "answer ["

func TestAnswers(t *testing.T) {
	bare := full
	bare.SessionRule, bare.PersistRule = "", ""
	tests := []struct {
		name  string
		q     Question
		first string // typed while the terminal is still in line mode
		keys  string // typed once the prompt is shown
		want  Answer
		err   func(report) bool
		shows string
	}{
		{name: "y", keys: "y\r", want: Once, shows: "→ allowed once"},
		{name: "yes", keys: "yes\r", want: Once},
		{name: "YES padded", keys: " YES \r", want: Once},
		{name: "newline ends", keys: "y\n", want: Once},
		{name: "a", keys: "a\r", want: Session, shows: "→ allowed for this session"},
		{name: "w", keys: "w\r", want: Always, shows: "→ allowed always"},
		{name: "n", keys: "n\r", want: No, shows: "→ refused"},
		{name: "no", keys: "no\r", want: No},
		{name: "empty line", keys: "\r", want: No, shows: "→ refused"},
		{name: "garbage", keys: "maybe\r", want: No, shows: "unrecognised answer, treated as no"},
		{name: "backspace", keys: "n\x7fy\r", want: Once, shows: "n\b \by"},
		{name: "ctrl-u", keys: "no\x15y\r", want: Once},
		{name: "arrow key dropped", keys: "\x1b[Ay\r", want: Once},
		{name: "a not offered", q: bare, keys: "a\r", want: No, shows: "unrecognised answer"},
		{name: "w not offered", q: bare, keys: "w\r", want: No, shows: "unrecognised answer"},
		{name: "ctrl-c", keys: "y\x03", want: No, err: func(r report) bool { return r.Interrupted }, shows: "→ refused (interrupted)"},
		{name: "ctrl-backslash", keys: "\x1c", want: No, err: func(r report) bool { return r.Interrupted }},
		{name: "ctrl-d", keys: "\x04", want: No},
		{name: "ctrl-d after y", keys: "y\x04", want: No},
		// As testscript's ttyin: the input and an EOT are all there
		// before the prompt, typed while the terminal is in line mode.
		{name: "ttyin y", first: "y\n\x04", want: Once},
		{name: "ttyin n", first: "n\n\x04", want: No},
		{name: "ttyin nothing", first: "\x04", want: No},
		{name: "ttyin w", first: "w\n\x04", want: Always},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			q := full
			if tt.q.Command != "" {
				q = tt.q
			}
			c := start(t, q, opts{typeFirst: tt.first})
			if tt.keys != "" {
				c.waitFor(answerPrompt)
				c.typ(tt.keys)
			}
			r, screen := c.result()
			if r.Answer != tt.want.String() {
				t.Errorf("answer %s (err %q), want %s; terminal:\n%s", r.Answer, r.Err, tt.want, screen)
			}
			if tt.err == nil && r.Err != "" || tt.err != nil && !tt.err(r) {
				t.Errorf("unexpected error %q", r.Err)
			}
			if !r.Restored {
				t.Error("terminal modes not restored")
			}
			if !strings.Contains(screen, tt.shows) {
				t.Errorf("terminal does not show %q:\n%s", tt.shows, screen)
			}
			if strings.Contains(screen, answerPrompt) && !strings.Contains(screen, "→ ") {
				t.Errorf("no outcome shown:\n%s", screen)
			}
		})
	}
}

func TestPromptText(t *testing.T) {
	t.Parallel()
	c := start(t, full, opts{})
	c.waitFor(answerPrompt)
	c.typ("n\r")
	_, screen := c.result()
	shown := screen[:strings.Index(screen, answerPrompt)]
	for _, want := range []string{
		"git push --force origin main",
		"echo pushed",
		"rewrites history on the remote",
		"y  allow once",
		"a  allow for this session",
		full.SessionRule,
		"w  allow always",
		"[[allow]]\r\n",
		`command = "git push --force *"` + "\r\n",
		"(appended to " + full.ConfigPath + ")",
		"n  no",
	} {
		if !strings.Contains(shown, want) {
			t.Errorf("prompt lacks %q:\n%s", want, shown)
		}
	}
	if strings.Count(screen, "\n") != strings.Count(screen, "\r\n") {
		t.Errorf("a line ends without \\r\\n in raw mode:\n%q", screen)
	}

	bare := full
	bare.SessionRule, bare.PersistRule = "", ""
	text := render(&bare)
	for _, unwanted := range []string{"a  allow", "w  allow", "appended", "/a", "/w"} {
		if strings.Contains(text, unwanted) {
			t.Errorf("prompt offers what has no rule (%q):\n%s", unwanted, text)
		}
	}
}

func TestTimeout(t *testing.T) {
	t.Parallel()
	q := full
	q.Timeout = 100 * time.Millisecond
	r, screen := start(t, q, opts{}).result()
	if r.Answer != "no" || !r.Timeout {
		t.Errorf("got %s, %q; want no and ErrTimeout", r.Answer, r.Err)
	}
	if !r.Restored {
		t.Error("terminal modes not restored")
	}
	if !strings.Contains(screen, "→ refused (no answer in time)") {
		t.Errorf("outcome not shown:\n%s", screen)
	}
}

func TestSignals(t *testing.T) {
	for _, sig := range []syscall.Signal{
		syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGQUIT,
		syscall.SIGTSTP, syscall.SIGTTIN, syscall.SIGTTOU,
	} {
		t.Run(unix.SignalName(sig), func(t *testing.T) {
			t.Parallel()
			c := start(t, full, opts{})
			c.waitFor(answerPrompt)
			if err := c.cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			r, screen := c.result()
			if r.Answer != "no" || !r.Interrupted {
				t.Errorf("got %s, %q; want no and ErrInterrupted", r.Answer, r.Err)
			}
			if !r.Restored {
				t.Error("terminal modes not restored")
			}
			if !strings.Contains(screen, "→ refused (interrupted)") {
				t.Errorf("outcome not shown:\n%s", screen)
			}
		})
	}
}

func TestHangup(t *testing.T) {
	t.Parallel()
	c := start(t, full, opts{})
	c.waitFor(answerPrompt)
	c.master.Close()
	r, _ := c.result()
	if r.Answer != "no" {
		t.Errorf("got %s, %q; want no", r.Answer, r.Err)
	}
}

// After Ask, a signal that had its default action gets it again: the guard
// goes on to exec bash, which must not inherit a caught signal.
func TestSignalHandlersReleased(t *testing.T) {
	t.Parallel()
	c := start(t, full, opts{env: []string{lingerEnv + "=1"}})
	c.waitFor(answerPrompt)
	c.typ("y\r")
	select {
	case r := <-c.reports:
		if r.Answer != "once" {
			t.Fatalf("answer %s (%q), want once", r.Answer, r.Err)
		}
	case <-time.After(wait):
		t.Fatal("no answer from the child")
	}
	if err := c.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	err := c.cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGTERM {
		t.Errorf("child after Ask: %v; want killed by SIGTERM", err)
	}
}

// A signal ignored before Ask stays ignored, and does not end the prompt.
func TestIgnoredSignal(t *testing.T) {
	t.Parallel()
	c := start(t, full, opts{env: []string{ignoreEnv + "=1"}})
	c.waitFor(answerPrompt)
	if err := c.cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	c.typ("y\r")
	r, _ := c.result()
	if r.Answer != "once" || r.Err != "" {
		t.Errorf("got %s, %q; want once", r.Answer, r.Err)
	}
	if !r.StillIgnored {
		t.Error("SIGHUP no longer ignored after Ask")
	}
}

func TestNoControllingTerminal(t *testing.T) {
	t.Parallel()
	r, screen := start(t, full, opts{noCtty: true}).result()
	if r.Answer != "no" || !r.NoTerminal || !r.ENXIO {
		t.Errorf("got %s, %q; want no and ErrNoTerminal wrapping ENXIO", r.Answer, r.Err)
	}
	if screen != "" {
		t.Errorf("wrote to a terminal: %q", screen)
	}
}

func TestBackgroundProcessGroup(t *testing.T) {
	t.Parallel()
	// No timeout: an Ask that waited for input here would hang the test.
	r, screen := start(t, full, opts{mode: "bg"}).result()
	if r.Answer != "no" || !r.NoTerminal {
		t.Errorf("got %s, %q; want no and ErrNoTerminal", r.Answer, r.Err)
	}
	if screen != "" {
		t.Errorf("wrote to the terminal from the background: %q", screen)
	}
}

// When another process group takes the terminal mid-prompt (as a shell does
// after a stop), the prompt ends without touching the terminal again: a
// read, a write or tcsetattr from the background would raise SIGTTIN or
// SIGTTOU, and with those caught the kernel retries the call forever.
func TestTerminalTaken(t *testing.T) {
	t.Parallel()
	c := start(t, full, opts{mode: "swap"})
	c.waitFor(answerPrompt)
	if err := c.cmd.Process.Signal(syscall.SIGUSR1); err != nil {
		t.Fatal(err)
	}
	c.waitFor("[taken]")
	c.typ("y\r")
	r, screen := c.result()
	if r.Answer != "no" || !r.Interrupted {
		t.Errorf("got %s, %q; want no and ErrInterrupted", r.Answer, r.Err)
	}
	if strings.Contains(screen, "→") {
		t.Errorf("wrote to the terminal from the background:\n%s", screen)
	}
}

// The race TestTerminalTaken can only sometimes lose, lost every time: a
// read and a tcsetattr that the shell's taking of the terminal overtook
// return (EIO, done) instead of being retried by the kernel forever.
func TestTakenBetweenLookAndRead(t *testing.T) {
	t.Parallel()
	c := start(t, full, opts{mode: "swapread"})
	c.waitFor("[ready]")
	if err := c.cmd.Process.Signal(syscall.SIGUSR1); err != nil {
		t.Fatal(err)
	}
	r, _ := c.result()
	if want := "read: " + unix.EIO.Error() + "; tcsetattr: <nil>"; r.Err != want {
		t.Errorf("got %q, want %q", r.Err, want)
	}
}

// A terminal that is not the controlling one is never used, even when named.
func TestNotControllingTerminal(t *testing.T) {
	master, slave := openPty(t)
	defer master.Close()
	defer slave.Close()
	for _, path := range []string{slave.Name(), "/nonexistent/tty", os.DevNull} {
		a, err := (&TTY{Path: path}).Ask(full)
		if a != No || !errors.Is(err, ErrNoTerminal) {
			t.Errorf("%s: got %v, %v; want no and ErrNoTerminal", path, a, err)
		}
	}
	// Anything written would already be buffered: Ask has returned.
	fds := []unix.PollFd{{Fd: int32(master.Fd()), Events: unix.POLLIN}}
	if n, err := unix.Poll(fds, 0); err != nil || n != 0 {
		t.Errorf("wrote to a terminal that is not the controlling one (poll: %d, %v)", n, err)
	}
}

func TestRender(t *testing.T) {
	var lines []string
	for i := 1; i <= 60; i++ {
		lines = append(lines, fmt.Sprintf("echo line%d", i))
	}
	q := Question{
		Command: strings.Join(lines, "\n") + "\n",
		Parts: []NeedsApproval{{
			Text:   "rm -rf /\r\x1b[2Kecho hi \u202egnp.exe",
			Reason: strings.Repeat("x", 1000),
		}},
		SessionRule: "rm *",
	}
	text := render(&q)
	for _, want := range []string{
		"echo line40\r\n",
		"… (20 more lines)\r\n",
		`rm -rf /\r\x1b[2Kecho hi \u202egnp.exe`,
		strings.Repeat("x", maxLineRunes) + "… (600 more characters)",
		"remembering:\r\n       rm *\r\n",
		"answer [y/a/N]: ",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("render lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "line41") {
		t.Error("render shows more than the first 40 lines")
	}
	if strings.ContainsAny(text, "\x1b\u202e") {
		t.Error("render passes control characters through")
	}
}

func TestAnswerString(t *testing.T) {
	for a, want := range map[Answer]string{No: "no", Once: "once", Session: "session", Always: "always"} {
		if a.String() != want {
			t.Errorf("%d.String() = %q, want %q", int(a), a.String(), want)
		}
	}
}

// TestRenderFit: a question with many parts is shortened to the terminal,
// so that its first line and the command stay on the screen, and says what
// the answer covers and how long it waits.
func TestRenderFit(t *testing.T) {
	q := Question{Command: "make all && deploy", Timeout: 2 * time.Minute, SessionRule: "[[rule]]\ndecision = \"allow\"\ncommand = 'x'\n"}
	for i := 0; i < 60; i++ {
		q.Parts = append(q.Parts, NeedsApproval{Text: fmt.Sprintf("tool%d --flag", i), Reason: "no rule matched;\nthis needs confirmation"})
	}
	for _, rows := range []int{0, 24, 40, 80} {
		text := renderFit(&q, rows)
		n := strings.Count(text, "\n")
		if rows > 0 && n >= rows {
			t.Errorf("rows %d: %d lines, the header scrolls away", rows, n)
		}
		if !strings.HasPrefix(text, "guard-exec: this command needs your approval:\r\n    make all && deploy\r\n") {
			t.Errorf("rows %d: the header and command do not come first:\n%s", rows, text)
		}
		if !strings.Contains(text, "covers all 60 parts") || !strings.Contains(text, "no answer within 2m0s is no") {
			t.Errorf("rows %d: what the answer covers or the timeout is not said:\n%s", rows, text)
		}
	}
}
