//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"golang.org/x/sys/unix"

	"github.com/guard-exec/guard-exec/bashargv"
	"github.com/guard-exec/guard-exec/bashcli"
)

// origArgs keeps argv as the guard was started: testscript.Main replaces
// os.Args[0] with the bare command name, but the guard looks at the path
// it was invoked by (to find the real shell and to refuse itself).
var origArgs = append([]string(nil), os.Args...)

// mainCode is main without the GC settings: run the CLI, then exec the
// real shell if it said so.
func mainCode() int {
	// Under go test from a terminal, every child shares the developer's
	// controlling terminal, where an ask would wait for an answer. The
	// scripts model agents, which start the shell detached: unless
	// testscript's ttyin gave this process a terminal of its own (it is
	// then a session leader), leave the inherited session.
	if sid, err := unix.Getsid(0); err == nil && sid != os.Getpid() {
		unix.Setsid()
	}
	code, ex := run(origArgs, os.Stdin, os.Stdout, os.Stderr, os.Environ())
	if ex != nil {
		err := bashcli.Exec(ex.path, ex.argv, ex.env)
		fmt.Fprintf(os.Stderr, "guard-exec: error: cannot start the shell %s: %v\n", ex.path, err)
		fmt.Fprintf(os.Stderr, "guard-exec: hint: set shell = \"/abs/path\" in the config or GUARD_EXEC_SHELL to a working bash\n")
		return ExitCannotRun
	}
	return code
}

func TestMain(m *testing.M) {
	cmds := map[string]func(){"guard-exec": func() { os.Exit(mainCode()) }}
	// Programs nothing covers, for the scripts to run (see cmdProgram):
	// binaries, so that the guard cannot judge them by their content (a
	// shell script would be). Registered only in the child, like the
	// shell names below: a mytool on the scripts' PATH would be found
	// where a script means a program that is not installed.
	if b := filepath.Base(os.Args[0]); programNames[b] {
		cmds[b] = func() { fmt.Println(b + " ran: " + strings.Join(os.Args[1:], " ")) }
	}
	// A script may start the guard through a link named bash or sh (or
	// -bash, as login). testscript dispatches on the base name of argv[0],
	// so register that name, but only in the child process: registered
	// names are also installed on the scripts' PATH, and a "bash" there
	// would shadow the real one for every other program.
	if b := filepath.Base(os.Args[0]); bashargv.IsShellName(strings.TrimPrefix(b, "-")) {
		cmds[b] = cmds["guard-exec"]
	}
	testscript.Main(m, cmds)
}

func TestScript(t *testing.T) {
	if _, err := os.Stat("/bin/bash"); err != nil {
		t.Skip("needs /bin/bash")
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		Setup:               setupScript,
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"status":    cmdStatus,
			"samebash":  cmdSameBash,
			"jsonfield": cmdJSONField,
			"jsonkeys":  cmdJSONKeys,
			"printfile": cmdPrintFile,
			"expandenv": cmdExpandEnv,
			"pinenv":    cmdPinEnv,
			"program":   cmdProgram,
		},
	})
}

// setupScript gives every script its own home, config, state and temp
// directories, and a fixed session id.
func setupScript(env *testscript.Env) error {
	guard, err := exec.LookPath("guard-exec")
	if err != nil {
		return fmt.Errorf("the guard-exec test command is not on PATH: %v", err)
	}
	w := env.WorkDir
	for _, d := range []string{"home", "config", "state", "tmp"} {
		if err := os.MkdirAll(filepath.Join(w, d), 0o755); err != nil {
			return err
		}
	}
	env.Setenv("HOME", filepath.Join(w, "home"))
	env.Setenv("XDG_CONFIG_HOME", filepath.Join(w, "config"))
	env.Setenv("XDG_STATE_HOME", filepath.Join(w, "state"))
	env.Setenv("TMPDIR", filepath.Join(w, "tmp"))
	env.Setenv("GUARD_EXEC_SESSION", "test")
	env.Setenv("GUARD_BIN", guard)
	env.Setenv("LC_ALL", "C")
	// testscript starts from a clean environment (PATH, HOME, TMPDIR):
	// CI, GITHUB_ACTIONS and GUARD_EXEC_* are unset unless a script sets
	// them.
	return nil
}

// exitStatus describes how a command ended: "0", "7", or "signal:SIGTERM".
func exitStatus(err error) (string, error) {
	if err == nil {
		return "0", nil
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return "", err
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return "signal:" + signalName(ws.Signal()), nil
	}
	return strconv.Itoa(ee.ExitCode()), nil
}

func signalName(s syscall.Signal) string {
	switch s {
	case syscall.SIGTERM:
		return "TERM"
	case syscall.SIGKILL:
		return "KILL"
	case syscall.SIGINT:
		return "INT"
	case syscall.SIGHUP:
		return "HUP"
	case syscall.SIGPIPE:
		return "PIPE"
	case syscall.SIGUSR1:
		return "USR1"
	case syscall.SIGSEGV:
		return "SEGV"
	case syscall.SIGABRT:
		return "ABRT"
	}
	return strconv.Itoa(int(s))
}

// status WANT PROG [ARGS…] runs PROG like exec (honouring stdin and
// ttyin) and requires it to end with WANT: an exit status, or
// signal:NAME (TERM, KILL, INT, …). With !, any ending but WANT. stdout,
// stderr and ttyout then hold its output.
func cmdStatus(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 2 {
		ts.Fatalf("usage: [!] status WANT PROG [ARGS…]")
	}
	got, err := exitStatus(ts.Exec(args[1], args[2:]...))
	ts.Check(err)
	if (got == args[0]) == neg {
		if neg {
			ts.Fatalf("%s ended with status %s, want anything else", args[1], got)
		}
		ts.Fatalf("%s ended with status %s, want %s", args[1], got, args[0])
	}
}

// samebash [-stdin FILE] [-status WANT] [-guard PATH] [-ref PATH] [--] ARGS…
// runs the real shell (-ref, default /bin/bash) and the guard (-guard,
// default the guard-exec command) with the same ARGS, environment and
// standard input, and requires identical stdout, stderr and exit status
// (and WANT, when given). stdout and stderr then hold the guard's output.
func cmdSameBash(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! samebash")
	}
	var stdin, want string
	guard, ref := ts.Getenv("GUARD_BIN"), "/bin/bash"
	hasStdin := false
flags:
	for len(args) > 0 {
		switch args[0] {
		case "-stdin":
			stdin, hasStdin = ts.ReadFile(args[1]), true
		case "-status":
			want = args[1]
		case "-guard":
			guard = ts.MkAbs(args[1])
		case "-ref":
			ref = args[1]
		case "--":
			args = args[1:]
			break flags
		default:
			break flags
		}
		args = args[2:]
	}
	environ := scriptEnv(ts)
	runOne := func(prog string) (stdout, stderr, status string) {
		cmd := exec.Command(prog, args...)
		cmd.Dir = ts.MkAbs(".")
		// Both run detached, with no controlling terminal, as under agents.
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		cmd.Env = environ
		if hasStdin {
			cmd.Stdin = strings.NewReader(stdin)
		}
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		st, err := exitStatus(cmd.Run())
		ts.Check(err)
		return o.String(), e.String(), st
	}
	bo, be, bs := runOne(ref)
	gotOut, gotErr, gs := runOne(guard)
	fmt.Fprint(ts.Stdout(), gotOut)
	fmt.Fprint(ts.Stderr(), gotErr)
	var diffs []string
	if bo != gotOut {
		diffs = append(diffs, fmt.Sprintf("stdout differs:\n  %s: %q\n  guard: %q", ref, bo, gotOut))
	}
	if be != gotErr {
		diffs = append(diffs, fmt.Sprintf("stderr differs:\n  %s: %q\n  guard: %q", ref, be, gotErr))
	}
	if bs != gs {
		diffs = append(diffs, fmt.Sprintf("status differs: %s %s, guard %s", ref, bs, gs))
	}
	if want != "" && bs != want {
		diffs = append(diffs, fmt.Sprintf("%s ended with %s, the script expects %s", ref, bs, want))
	}
	if len(diffs) > 0 {
		ts.Fatalf("guard-exec %s does not behave like %s:\n%s", strings.Join(args, " "), ref, strings.Join(diffs, "\n"))
	}
}

// scriptEnv returns the environment the script's exec commands get.
func scriptEnv(ts *testscript.TestScript) []string {
	// The script's environment is private to testscript: ask a child.
	if err := ts.Exec("/usr/bin/env", "-0"); err != nil {
		ts.Fatalf("env: %v", err)
	}
	out := ts.ReadFile("stdout")
	var env []string
	for _, kv := range strings.Split(out, "\x00") {
		if kv != "" {
			env = append(env, kv)
		}
	}
	return env
}

// jsonAt returns the value at a dotted path ("commands.0.argv") in FILE,
// or ok=false when there is none.
func jsonAt(ts *testscript.TestScript, file, path string) (v any, ok bool) {
	var root any
	dec := json.NewDecoder(strings.NewReader(ts.ReadFile(file)))
	dec.UseNumber()
	if err := dec.Decode(&root); err != nil {
		ts.Fatalf("%s is not JSON: %v", file, err)
	}
	if dec.More() {
		ts.Fatalf("%s holds more than one JSON value", file)
	}
	v = root
	if path == "." || path == "" {
		return v, true
	}
	for _, k := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			v, ok = x[k]
			if !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(k)
			if err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// jsonfield FILE PATH [VALUE]: the JSON in FILE (or stdout) has PATH,
// equal to VALUE when given (a string compares with its text, anything
// else with its compact JSON). With !: PATH is absent, or not VALUE.
func cmdJSONField(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 && len(args) != 3 {
		ts.Fatalf("usage: jsonfield FILE PATH [VALUE]")
	}
	v, ok := jsonAt(ts, args[0], args[1])
	if len(args) == 2 {
		if ok == neg {
			ts.Fatalf("%s: %s present = %v, want %v", args[0], args[1], ok, !neg)
		}
		return
	}
	got := ""
	if s, isStr := v.(string); isStr {
		got = s
	} else if ok {
		b, _ := json.Marshal(v)
		got = string(b)
	}
	if (ok && got == args[2]) == neg {
		if !ok {
			ts.Fatalf("%s: %s is absent, want %q", args[0], args[1], args[2])
		}
		ts.Fatalf("%s: %s = %q, want %s%q", args[0], args[1], got, map[bool]string{true: "anything but ", false: ""}[neg], args[2])
	}
}

// jsonkeys [-atleast] FILE PATH KEY…: the object at PATH has exactly
// these keys (with -atleast: these keys and maybe others).
func cmdJSONKeys(ts *testscript.TestScript, neg bool, args []string) {
	atLeast := len(args) > 0 && args[0] == "-atleast"
	if atLeast {
		args = args[1:]
	}
	if neg || len(args) < 2 {
		ts.Fatalf("usage: jsonkeys [-atleast] FILE PATH KEY…")
	}
	v, ok := jsonAt(ts, args[0], args[1])
	m, isObj := v.(map[string]any)
	if !ok || !isObj {
		ts.Fatalf("%s: %s is not an object", args[0], args[1])
	}
	var got []string
	for k := range m {
		got = append(got, k)
	}
	want := append([]string(nil), args[2:]...)
	if atLeast {
		for _, k := range want {
			if _, ok := m[k]; !ok {
				ts.Fatalf("%s: %s has keys %q, want at least %q", args[0], args[1], got, want)
			}
		}
		return
	}
	sort.Strings(got)
	sort.Strings(want)
	if !reflect.DeepEqual(got, want) {
		ts.Fatalf("%s: %s has keys %q, want %q", args[0], args[1], got, want)
	}
}

// programNames are the programs cmdProgram installs.
var programNames = map[string]bool{"mytool": true, "othertool": true}

// program PATH… puts a program named like PATH's base name (mytool,
// othertool) at each PATH: a binary (this test binary, through a link)
// that prints "NAME ran: ARGS".
func cmdProgram(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: program PATH…")
	}
	bin, err := os.Executable()
	ts.Check(err)
	for _, p := range args {
		if !programNames[filepath.Base(p)] {
			ts.Fatalf("program: %s: the program dispatches on its name, one of %v", p, programNames)
		}
		ts.Check(os.MkdirAll(filepath.Dir(ts.MkAbs(p)), 0o755))
		ts.Check(os.Symlink(bin, ts.MkAbs(p)))
	}
}

// printfile FILE TEXT writes TEXT to FILE after Go string unescaping
// (\n, \x04 …), for terminal input with control characters.
func cmdPrintFile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: printfile FILE TEXT")
	}
	text, err := strconv.Unquote(`"` + strings.ReplaceAll(args[1], `"`, `\"`) + `"`)
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(text), 0o644))
}

// expandenv FILE… replaces $VAR and ${VAR} in each file with the script's
// environment ($WORK, $HOME …), for configs that need absolute paths.
func cmdExpandEnv(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: expandenv FILE…")
	}
	for _, f := range args {
		text := os.Expand(ts.ReadFile(f), ts.Getenv)
		ts.Check(os.WriteFile(ts.MkAbs(f), []byte(text), 0o644))
	}
}

// cmdPinEnv sets an environment variable to the pin of a file, as a
// workflow's GUARD_EXEC_TRUST holds it: pinenv NAME FILE.
func cmdPinEnv(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: pinenv NAME FILE")
	}
	ts.Setenv(args[0], projectHash([]byte(ts.ReadFile(args[1]))))
}
