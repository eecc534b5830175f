//go:build linux

package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/guard-exec/guard-exec/state"
)

// The approval queue's scripts (testdata/queue) run guards in the
// background, as agents do, and the person's side on pseudo-terminals:
//
//	waitpending N            wait until exactly N requests are pending
//	ptystart NAME PROG ARGS… start PROG with a pty of its own as its terminal
//	ptyexpect NAME REGEXP    wait until NAME's terminal shows REGEXP (after the last match)
//	ptysend NAME TEXT        type TEXT (Go escapes: \r, \x03) on NAME's terminal
//	ptystop NAME [-kill]     wait for NAME to end (or SIGKILL it); stdout is what it showed
//	sleep DURATION
//
// Typing is real: keys arrive when they are sent, so the input grace
// period of the approvals console is tested as a person meets it.
func TestQueueScript(t *testing.T) {
	if _, err := os.Stat("/bin/bash"); err != nil {
		t.Skip("needs /bin/bash")
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/queue",
		RequireExplicitExec: true,
		Setup:               setupScript,
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"status":      cmdStatus,
			"program":     cmdProgram,
			"waitpending": cmdWaitPending,
			"ptystart":    cmdPtyStart,
			"ptyexpect":   cmdPtyExpect,
			"ptysend":     cmdPtySend,
			"ptystop":     cmdPtyStop,
			"sleep": func(ts *testscript.TestScript, neg bool, args []string) {
				d, err := time.ParseDuration(args[0])
				ts.Check(err)
				time.Sleep(d)
			},
		},
	})
}

const scriptWait = 15 * time.Second

func cmdWaitPending(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 || neg {
		ts.Fatalf("usage: waitpending N")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	dir := filepath.Join(ts.Getenv("XDG_STATE_HOME"), "guard-exec")
	deadline := time.Now().Add(scriptWait)
	for {
		rs, err := state.Pending(dir)
		ts.Check(err)
		if len(rs) == want {
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("%d requests pending after %v, want %d", len(rs), scriptWait, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

type ptyProc struct {
	cmd  *exec.Cmd
	tty  *os.File
	mu   sync.Mutex
	out  bytes.Buffer
	pos  int
	done chan struct{}
}

var ptys sync.Map // "ts pointer/name" -> *ptyProc

func ptyKey(ts *testscript.TestScript, name string) string { return fmt.Sprintf("%p/%s", ts, name) }

func getPty(ts *testscript.TestScript, name string) *ptyProc {
	p, ok := ptys.Load(ptyKey(ts, name))
	if !ok {
		ts.Fatalf("no pty process %q", name)
	}
	return p.(*ptyProc)
}

func cmdPtyStart(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 2 || neg {
		ts.Fatalf("usage: ptystart NAME PROG ARGS…")
	}
	prog := args[1]
	if prog == "guard-exec" {
		prog = ts.Getenv("GUARD_BIN")
	}
	env := scriptEnv(ts)
	cmd := exec.Command(prog, args[2:]...)
	cmd.Env, cmd.Dir = env, ts.MkAbs(".")
	tty, err := pty.Start(cmd)
	ts.Check(err)
	p := &ptyProc{cmd: cmd, tty: tty, done: make(chan struct{})}
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := tty.Read(buf)
			p.mu.Lock()
			p.out.Write(buf[:n])
			p.mu.Unlock()
			if err != nil {
				break
			}
		}
		close(p.done)
	}()
	ptys.Store(ptyKey(ts, args[0]), p)
	ts.Defer(func() {
		cmd.Process.Kill()
		cmd.Wait()
		tty.Close()
	})
}

func cmdPtyExpect(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 || neg {
		ts.Fatalf("usage: ptyexpect NAME REGEXP")
	}
	p := getPty(ts, args[0])
	re, err := regexp.Compile(args[1])
	ts.Check(err)
	deadline := time.Now().Add(scriptWait)
	for {
		p.mu.Lock()
		b := p.out.Bytes()[p.pos:]
		loc := re.FindIndex(b)
		if loc != nil {
			p.pos += loc[1]
		}
		all := p.out.String()
		p.mu.Unlock()
		if loc != nil {
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("%s did not show %q in %v; it showed:\n%s", args[0], args[1], scriptWait, all)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func cmdPtySend(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 || neg {
		ts.Fatalf("usage: ptysend NAME TEXT")
	}
	p := getPty(ts, args[0])
	text, err := strconv.Unquote(`"` + args[1] + `"`)
	ts.Check(err)
	_, err = p.tty.WriteString(text)
	ts.Check(err)
}

func cmdPtyStop(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 1 || len(args) > 2 || neg {
		ts.Fatalf("usage: ptystop NAME [-kill]")
	}
	p := getPty(ts, args[0])
	if len(args) == 2 {
		if args[1] != "-kill" {
			ts.Fatalf("usage: ptystop NAME [-kill]")
		}
		p.cmd.Process.Signal(syscall.SIGKILL)
	}
	exited := make(chan error, 1)
	go func() { exited <- p.cmd.Wait() }()
	select {
	case <-exited:
	case <-time.After(scriptWait):
		p.cmd.Process.Kill()
		ts.Fatalf("%s did not end in %v", args[0], scriptWait)
	}
	select {
	case <-p.done:
	case <-time.After(time.Second):
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprint(ts.Stdout(), p.out.String())
}

// A desktop notification is sent where a notifier exists, by absolute path
// only (a program on the agent's PATH would run unjudged), and its absence
// costs nothing.
func TestNotify(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "notified")
	fake := filepath.Join(dir, "notify-send")
	os.WriteFile(fake, []byte("#!/bin/sh\nprintf '%s\\n' \"$@\" > "+out+".tmp && mv "+out+".tmp "+out+"\n"), 0o755)
	saved := notifiers
	defer func() { notifiers = saved }()

	notifiers = []string{filepath.Join(dir, "absent")}
	notify(state.Request{ID: 7, Command: "make"})

	notifiers = []string{filepath.Join(dir, "absent"), fake}
	notify(state.Request{ID: 7, Command: "make deploy\x1b[2J\nsecond line"})
	deadline := time.Now().Add(scriptWait)
	for {
		b, err := os.ReadFile(out)
		if err == nil {
			s := string(b)
			if !regexp.MustCompile(`approval needed \(7\)`).MatchString(s) || !regexp.MustCompile(`make deploy\\x1b\[2J\n`).MatchString(s) ||
				regexp.MustCompile("second line|\x1b").MatchString(s) {
				t.Errorf("notification:\n%s", s)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no notification")
		}
		time.Sleep(10 * time.Millisecond)
	}
	for _, p := range saved {
		if !filepath.IsAbs(p) {
			t.Errorf("notifier %q is not an absolute path", p)
		}
	}
}
