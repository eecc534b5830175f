package judge_test

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
)

// A bug in the reader can be fatal to the whole process (a stack overflow
// is not a panic judge.Judge can recover from). Tests that feed many
// inputs run in a child process, which notes each input before judging it,
// so that a crash is reported with the input that caused it instead of
// taking every other test down with it.

const (
	childEnv    = "GUARD_EXEC_TEST_CHILD"
	progressEnv = "GUARD_EXEC_TEST_PROGRESS"
)

// isolate runs the calling test in a child process and reports its
// outcome. It returns true in the child, where the test body must run.
func isolate(t testing.TB) (inChild bool) {
	t.Helper()
	if os.Getenv(childEnv) == t.Name() {
		// Fail fast on runaway recursion: the default (1 GB) takes
		// seconds to exhaust.
		debug.SetMaxStack(32 << 20)
		return true
	}
	progress := t.TempDir() + "/progress"
	cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), childEnv+"="+t.Name(), progressEnv+"="+progress)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if err == nil {
		return false
	}
	text := out.String()
	for _, l := range strings.Split(text, "\n") {
		if f, ok := strings.CutPrefix(l, failureMark); ok {
			t.Errorf("%s", f)
		}
	}
	if strings.Contains(text, "fatal error:") || strings.Contains(text, "panic:") ||
		!strings.Contains(text, "--- FAIL") && !strings.Contains(text, failureMark) {
		t.Errorf("the test process crashed while judging %s:\n%s", unfinished(progress), head(withoutFailures(text), 25))
		return false
	}
	marked := strings.Contains(text, failureMark)
	if f := failures(text); f != "" {
		if marked {
			t.Logf("in the child process:\n%s", f)
		} else {
			t.Errorf("in the child process:\n%s", f)
		}
	}
	return false
}

const failureMark = "GUARD-EXEC-TEST-FAILURE: "

// fail reports a failure; in a child it is also written at once, so that
// it reaches the parent even if the child later crashes.
func fail(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if os.Getenv(childEnv) != "" {
		fmt.Fprintln(os.Stderr, failureMark+strings.ReplaceAll(msg, "\n", "\n"+failureMark))
		t.Fail()
		return
	}
	t.Errorf("%s", msg)
}

// progressLog records which inputs a child has started and finished. A
// fuzzing process keeps only the input it is judging, in a file of its
// own (the path with ".PID" added): a log of every input would grow by
// megabytes a second.
type progressLog struct {
	mu      sync.Mutex
	f       *os.File
	current bool
}

var (
	progOnce sync.Once
	progLog  *progressLog
)

func progress() *progressLog {
	progOnce.Do(func() {
		progLog = &progressLog{}
		p := os.Getenv(progressEnv)
		switch {
		case p == "":
		case fuzzing():
			progLog.current = true
			progLog.f, _ = os.OpenFile(fmt.Sprintf("%s.%d", p, os.Getpid()), os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
		default:
			progLog.f, _ = os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		}
	})
	return progLog
}

// note writes one line at once (no buffering, so it survives a crash).
func (p *progressLog) note(verb, name string) {
	if p.f == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.current {
		p.f.Truncate(0)
		if verb == "start" {
			p.f.WriteAt([]byte(fmt.Sprintf("%q\n", name)), 0)
		}
		return
	}
	fmt.Fprintf(p.f, "%s %q\n", verb, name)
}

// judging brackets the judging of one named input.
func judging(name string) (done func()) {
	p := progress()
	p.note("start", name)
	return func() { p.note("done", name) }
}

// unfinished lists the inputs a crashed child started but did not finish.
func unfinished(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return "an input it did not record"
	}
	defer f.Close()
	open := map[string]bool{}
	var order []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		verb, name, _ := strings.Cut(sc.Text(), " ")
		switch verb {
		case "start":
			open[name] = true
			order = append(order, name)
		case "done":
			delete(open, name)
		}
	}
	var names []string
	for _, n := range order {
		if open[n] {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return "an input it did not record"
	}
	return strings.Join(names, " or ")
}

func withoutFailures(s string) string {
	var keep []string
	for _, l := range strings.Split(s, "\n") {
		if !strings.HasPrefix(l, failureMark) {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

func head(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = append(lines[:n], "…")
	}
	return strings.Join(lines, "\n")
}

// failures keeps the lines of a child's output that describe failures.
func failures(s string) string {
	var keep []string
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, failureMark) || strings.HasPrefix(l, "--- FAIL") || strings.HasPrefix(l, "=== ") || strings.HasPrefix(l, "PASS") || strings.HasPrefix(l, "ok ") ||
			strings.HasPrefix(l, "FAIL") || strings.HasPrefix(l, "exit status") || strings.TrimSpace(l) == "" {
			continue
		}
		keep = append(keep, l)
	}
	return strings.Join(keep, "\n")
}
