package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
)

// clientsEnv names the directory where the clients were installed with
// `npm install --prefix DIR @anthropic-ai/claude-code@2.1.197
// @openai/codex@0.171.0 @google/gemini-cli@0.61.0` (.ci/run does).
const clientsEnv = "GUARD_EXEC_E2E_CLIENTS"

// guardBin is the guard built by ./build for this run (TestMain).
var guardBin string

// witnessBin is testdata/witness built for this run: a compiled program
// the guard cannot read as a script, so it stays unknown (ask) however
// well the guard judges scripts by their content.
var witnessBin string

func TestMain(m *testing.M) {
	os.Exit(runMain(m))
}

func runMain(m *testing.M) int {
	if os.Getenv(clientsEnv) == "" || runtime.GOOS != "linux" {
		// Every test skips, saying why; nothing to build.
		return m.Run()
	}
	dir, err := os.MkdirTemp("", "guard-exec-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	guardBin = filepath.Join(dir, "guard-exec")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "../build", guardBin).CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "e2e: ./build failed: %v\n%s", err, out)
		return 1
	}
	witnessBin = filepath.Join(dir, "witness")
	out, err = exec.CommandContext(ctx, "go", "build", "-o", witnessBin, "./testdata/witness").CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "e2e: building the witness program failed: %v\n%s", err, out)
		return 1
	}
	return m.Run()
}

// clientBin finds an installed client's executable (its node_modules/.bin
// entry) or skips the test, saying what is missing.
func clientBin(t *testing.T, name string) string {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("the end-to-end tests bind approvals through /proc: Linux only")
	}
	dir := os.Getenv(clientsEnv)
	if dir == "" {
		t.Skipf("%s is not set: install the clients with `npm install --prefix DIR @anthropic-ai/claude-code@2.1.197 @openai/codex@0.171.0 @google/gemini-cli@0.61.0` and set %s=DIR", clientsEnv, clientsEnv)
	}
	p := filepath.Join(dir, "node_modules", ".bin", name)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("%s is not installed in %s=%s: %v", name, clientsEnv, dir, err)
	}
	return p
}

// world is one test's own machine: HOME, a project (a git repository with
// witness programs), a witness directory and the plain-bash reference.
type world struct {
	t       *testing.T
	root    string
	home    string
	proj    string
	witness string // witness programs leave files here when they run
	tmp     string
	link    string // the guard's bash link, as install makes it
}

// The scripted commands. allowed runs; denyRule is refused by a rule of
// the user's config (its why must reach the model); denyAbsolute is
// refused by the absolute denylist (mkfs*) but is a harmless witness; ask
// needs a person.
const (
	cmdAllowed      = "echo hi; ls"
	cmdDenyRule     = "touch pwned"
	cmdDenyAbsolute = "./bin/mkfs.witness /dev/null"
	cmdAsk          = "./bin/mytool --flag"
	denyRuleWhy     = "e2e: the pwned witness must never be created"
)

var script = []string{cmdAllowed, cmdDenyRule, cmdDenyAbsolute, cmdAsk}

func newWorld(t *testing.T) *world {
	t.Helper()
	return newWorldIn(t, "")
}

// killUnder kills the processes whose program lies under dir.
func killUnder(dir string) {
	procs, _ := os.ReadDir("/proc")
	for _, p := range procs {
		pid, err := strconv.Atoi(p.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		exe, err := os.Readlink(filepath.Join("/proc", p.Name(), "exe"))
		if err == nil && strings.HasPrefix(strings.TrimSuffix(exe, " (deleted)"), dir+"/") {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// newWorldIn makes the world in a new directory under base ("": the
// test's temporary directory).
func newWorldIn(t *testing.T, base string) *world {
	t.Helper()
	var root string
	if base == "" {
		root = t.TempDir()
	} else {
		dir, err := os.MkdirTemp(base, "guard-exec-e2e-")
		if err != nil {
			t.Skipf("this test needs a HOME outside /tmp, in %s: %v", base, err)
		}
		t.Cleanup(func() { os.RemoveAll(dir) })
		root = dir
	}
	if os.Getenv("GUARD_EXEC_E2E_KEEP") != "" {
		// For debugging a client: keep its world and say where.
		var err error
		root, err = os.MkdirTemp(base, "guard-exec-e2e-world-")
		must(t, err)
		t.Logf("world kept in %s", root)
	}
	// A client may leave a daemon of its own behind (Codex's app server
	// outlives its UI): whatever still runs from the world goes with it.
	t.Cleanup(func() { killUnder(root) })
	w := &world{t: t, root: root, home: filepath.Join(root, "home"), proj: filepath.Join(root, "proj"),
		witness: filepath.Join(root, "witness"), tmp: filepath.Join(root, "tmp")}
	for _, d := range []string{w.home, filepath.Join(w.proj, "bin"), w.witness, w.tmp, filepath.Join(w.home, ".config", "guard-exec")} {
		must(t, os.MkdirAll(d, 0o755))
	}
	must(t, os.WriteFile(filepath.Join(w.proj, "README"), []byte("a project\n"), 0o644))
	body, err := os.ReadFile(witnessBin)
	must(t, err)
	for _, name := range []string{"mytool", "mkfs.witness"} {
		// A copy, not a link: the witness finds its world from its own path.
		must(t, os.WriteFile(filepath.Join(w.proj, "bin", name), body, 0o755))
	}
	git := exec.Command("git", "init", "-q", w.proj)
	if out, err := git.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	cfg := fmt.Sprintf("[[rule]]\ndecision = \"deny\"\ncommand = \"touch pwned\"\nwhy = %q\n", denyRuleWhy)
	must(t, os.WriteFile(filepath.Join(w.home, ".config", "guard-exec", "config.toml"), []byte(cfg), 0o644))
	w.link = filepath.Join(w.home, ".local", "share", "guard-exec", "bin", "bash")
	return w
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// baseEnv is the environment every process of the test sees: nothing of
// the caller's configuration (XDG_*, GUARD_EXEC_*, API keys) leaks in.
func (w *world) baseEnv() []string {
	return []string{
		"HOME=" + w.home,
		"PATH=" + os.Getenv("PATH"),
		"USER=root", "LOGNAME=root",
		"TMPDIR=" + w.tmp,
		"LANG=C.UTF-8",
		"TERM=xterm-256color",
	}
}

// install runs `guard-exec install CLIENT` against the test's HOME, as the
// README says.
func (w *world) install(client string) {
	w.t.Helper()
	cmd := exec.Command(guardBin, "install", client)
	cmd.Dir = w.proj
	cmd.Env = w.baseEnv()
	out, err := cmd.CombinedOutput()
	if err != nil {
		w.t.Fatalf("guard-exec install %s: %v\n%s", client, err, out)
	}
}

// plainBash is what bash itself prints for cmd in the project.
func (w *world) plainBash(cmd string) string {
	w.t.Helper()
	c := exec.Command("bash", "-c", cmd)
	c.Dir = w.proj
	c.Env = w.baseEnv()
	out, err := c.CombinedOutput()
	if err != nil {
		w.t.Fatalf("bash -c %q: %v\n%s", cmd, err, out)
	}
	return string(out)
}

// plainBashTerminal is what a terminal (160 columns) shows of bash
// running cmd: CRLF back to LF, tabs expanded to the next multiple of 8
// (ls separates columns with tabs; a client that renders the terminal
// reads spaces).
func (w *world) plainBashTerminal(cmd string) string {
	w.t.Helper()
	c := exec.Command("bash", "-c", cmd)
	c.Dir = w.proj
	c.Env = w.baseEnv()
	f, err := pty.StartWithSize(c, &pty.Winsize{Rows: 50, Cols: 160})
	if err != nil {
		w.t.Fatalf("bash -c %q on a terminal: %v", cmd, err)
	}
	out, _ := io.ReadAll(f) // EIO once bash is gone
	f.Close()
	if err := c.Wait(); err != nil {
		w.t.Fatalf("bash -c %q on a terminal: %v\n%s", cmd, err, out)
	}
	var b strings.Builder
	col := 0
	for _, r := range strings.ReplaceAll(string(out), "\r\n", "\n") {
		switch r {
		case '\t':
			b.WriteByte(' ')
			for col++; col%8 != 0; col++ {
				b.WriteByte(' ')
			}
			continue
		case '\n':
			col = -1
		}
		b.WriteRune(r)
		col++
	}
	return b.String()
}

// run starts a client and waits for it, bounded by timeout; its output
// goes to a file in the world (and the test log on failure).
func (w *world) run(name string, timeout time.Duration, env []string, argv ...string) string {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = w.proj
	cmd.Env = append(w.baseEnv(), env...)
	cmd.Stdin = nil
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.CombinedOutput()
	os.WriteFile(filepath.Join(w.root, name+".out"), out, 0o644)
	if ctx.Err() != nil {
		w.t.Fatalf("%s did not finish within %v; output:\n%s", name, timeout, tail(out))
	}
	if err != nil {
		w.t.Logf("%s exited: %v", name, err)
	}
	return string(out)
}

func tail(b []byte) string {
	const n = 6000
	if len(b) > n {
		return "…" + string(b[len(b)-n:])
	}
	return string(b)
}

// auditRecord is the part of an audit record the tests read.
type auditRecord struct {
	Via      string `json:"via"`
	Command  string `json:"command"`
	Decision string `json:"decision"`
	Answer   string `json:"answer"`
	Client   string `json:"client"`
}

// audit reads every audit log of the world: the state directory's, and
// the fallback under TMPDIR (used where the state directory cannot be
// written).
func (w *world) audit() []auditRecord {
	w.t.Helper()
	var recs []auditRecord
	paths := []string{
		filepath.Join(w.home, ".local", "state", "guard-exec", "audit.jsonl"),
		filepath.Join(w.tmp, fmt.Sprintf("guard-exec-%d", os.Getuid()), "audit.jsonl"),
	}
	for _, p := range paths {
		f, err := os.Open(p)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		must(w.t, err)
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var r auditRecord
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				w.t.Errorf("%s: bad record %q: %v", p, sc.Text(), err)
			}
			recs = append(recs, r)
		}
		f.Close()
	}
	return recs
}

// checkWitnesses fails if any refused command ran.
func (w *world) checkWitnesses(ran ...string) {
	w.t.Helper()
	if _, err := os.Stat(filepath.Join(w.proj, "pwned")); err == nil {
		w.t.Errorf("%q ran: %s exists", cmdDenyRule, filepath.Join(w.proj, "pwned"))
	}
	for _, name := range []string{"mytool", "mkfs.witness"} {
		_, err := os.Stat(filepath.Join(w.witness, name))
		if want := slices.Contains(ran, name); want != (err == nil) {
			w.t.Errorf("witness %s ran = %v, want %v", name, err == nil, want)
		}
	}
}

// checkNoPending fails if a pending question outlived the session.
func (w *world) checkNoPending() {
	w.t.Helper()
	dir := filepath.Join(w.home, ".local", "state", "guard-exec", "pending")
	ents, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		w.t.Fatal(err)
	}
	for _, e := range ents {
		b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		w.t.Errorf("a pending question outlived the session: %s: %s", e.Name(), b)
	}
}

// recordsFor returns the audit records whose command contains cmd (a
// client wraps the command in its scaffolding before the shell sees it),
// leaving out the test's own attempts (foreignTake).
func (w *world) recordsFor(recs []auditRecord, cmd string) (hook, shell []auditRecord) {
	for _, r := range recs {
		if !strings.Contains(r.Command, cmd) || strings.Contains(r.Command, w.foreignCwd()) {
			continue
		}
		switch r.Via {
		case "hook":
			hook = append(hook, r)
		case "shell":
			shell = append(shell, r)
		}
	}
	return hook, shell
}

// outcome is what should happen to one scripted command.
type outcome struct {
	cmd      string
	runs     bool   // it runs (its output reaches the model)
	reason   string // text of the guard's reason the model must read ("" when it runs)
	hook     string // the hook's decision in the audit log ("" when no hook judges it)
	shell    string // the guarded shell's decision ("" when it never reaches the shell)
	answered string // the shell record's answer, when it has one
	// The shell may have nowhere to record (Codex's read-only sandbox
	// leaves nothing writable): then its record may be missing.
	shellMayNotRecord bool
}

// checkResults compares what the model read with what should have
// happened: the allowed command's output is plain bash's, byte for byte
// (unwrap takes the client's framing off a tool result), and each refusal
// carries the guard's reason.
func (w *world) checkResults(m *fakeModel, outcomes []outcome, unwrap func(string) (string, bool)) {
	w.t.Helper()
	w.checkResultsWith(m, outcomes, unwrap, w.plainBash)
}

// checkResultsWith is checkResults with another reference for the output.
func (w *world) checkResultsWith(m *fakeModel, outcomes []outcome, unwrap func(string) (string, bool), plain func(string) string) {
	w.t.Helper()
	res := m.Results()
	if len(res) != len(outcomes) {
		w.t.Errorf("the model got %d tool results, want %d: %q", len(res), len(outcomes), res)
	}
	for i, o := range outcomes {
		if i >= len(res) {
			break
		}
		got := res[i]
		if o.runs {
			out, ok := unwrap(got)
			if want := plain(o.cmd); !ok || out != want {
				w.t.Errorf("%q: the model read %q, plain bash prints %q", o.cmd, got, want)
			}
			continue
		}
		if !strings.Contains(got, o.reason) {
			w.t.Errorf("%q: the model read %q, want the guard's reason %q in it", o.cmd, got, o.reason)
		}
	}
}

// checkAudit asserts one record per command and layer: the hook judged
// each command once, and the guarded shell judged once each command that
// reached it.
func (w *world) checkAudit(outcomes []outcome) {
	w.t.Helper()
	recs := w.audit()
	for _, o := range outcomes {
		hook, shell := w.recordsFor(recs, o.cmd)
		if o.hook == "" && len(hook) != 0 || o.hook != "" && (len(hook) != 1 || hook[0].Decision != o.hook) {
			w.t.Errorf("%q: hook records %+v, want one %q", o.cmd, hook, o.hook)
		}
		if o.shellMayNotRecord && len(shell) == 0 {
			continue
		}
		if o.shell == "" && len(shell) != 0 || o.shell != "" && (len(shell) != 1 || shell[0].Decision != o.shell || shell[0].Answer != o.answered) {
			w.t.Errorf("%q: shell records %+v, want one %q (answer %q)", o.cmd, shell, o.shell, o.answered)
		}
	}
	if w.t.Failed() {
		for _, r := range recs {
			w.t.Logf("audit: %+v", r)
		}
	}
}
