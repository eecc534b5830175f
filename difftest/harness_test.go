//go:build linux

package difftest

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

const (
	realBash    = "/bin/bash"
	nobodyID    = 65534
	logFD       = 99      // the stub log is also open on this descriptor in every run
	outputLimit = 4 << 20 // bytes of stdout/stderr kept per run
)

// harness is the state shared by all tests, built once in TestMain.
type harness struct {
	root      string // temporary directory holding everything below
	guard     string // guard-exec binary under test
	guardErr  error  // why there is no guard binary
	stubs     string // directory of recording stubs (the whole PATH of every run)
	template  string // pristine case directory: proj/ (git repo), home/, tmp/
	lost      string // records of stubs that could not find their log
	cred      *syscall.Credential
	nproc     int // RLIMIT_NPROC soft limit applied to every run (fork bombs)
	cases     []Case
	corpusErr error
	missing   []string // forwarders whose real program is absent
	pristine  map[string]string
	setupErr  error
}

var H harness

// projectFiles is the content of every fresh project directory (besides .git).
var projectFiles = map[string]string{
	"README.md":   "# demo\nhello x\n",
	"main.go":     "package main\n\nfunc main() {}\n",
	"notes.txt":   "a\nb\nc\n",
	"list.txt":    "build\ndist\n",
	"build/out.o": "obj\n",
	"src/app.py":  "print('hi')\n",
	// The scripts are read and judged by their content: build.sh and
	// env.sh run a build tool nothing covers (ask), fine.sh, lib.sh and
	// uses-lib.sh only what is allowed, wipe.sh what is denied.
	"env.sh":              "export FOO=bar\nmake env\n",
	"package.json":        "{\"name\": \"demo\", \"version\": \"1.0.0\"}\n",
	".env":                "SECRET=1\n",
	"scripts/build.sh":    "#!/bin/sh\necho building\nmake\n",
	"scripts/fine.sh":     "#!/bin/sh\necho \"fine $1\"\nls\ncat notes.txt | wc -l\n",
	"scripts/uses-lib.sh": "#!/usr/bin/env bash\nset -e\n. ./lib.sh\ngreet \"$@\"\n",
	"lib.sh":              "greet() { echo \"hi $1\"; touch greeted; }\nGREETING=hi\n",
	"scripts/wipe.sh":     "#!/bin/bash\nrm -rf ~\n",
}

// homeFiles is the content of every fresh HOME. The profiles put the stub PATH
// back in case a login shell ever reads them after /etc/profile.
func homeFiles(stubs string) map[string]string {
	p := "PATH=" + shQuote(stubs) + "; export PATH\n"
	return map[string]string{
		".profile":      p,
		".bash_profile": p,
		".config/":      "",
		".local/state/": "",
	}
}

func (h *harness) setup() error {
	var err error
	base, err := rootBase()
	if err != nil {
		return err
	}
	h.root, err = os.MkdirTemp(base, "guard-difftest-")
	if err != nil {
		return err
	}
	if err := os.Chmod(h.root, 0o755); err != nil {
		return err
	}
	if os.Geteuid() == 0 {
		// Never run corpus commands as root: a guard bug must not be able to
		// write /etc, a block device, or signal real processes.
		h.cred = &syscall.Credential{Uid: nobodyID, Gid: nobodyID, Groups: []uint32{}}
		h.nproc = 512 + countTasks(nobodyID)
	} else {
		h.nproc = 512 + countTasks(os.Getuid())
	}
	if _, err := os.Stat(realBash); err != nil {
		return fmt.Errorf("need %s: %v", realBash, err)
	}

	h.cases, h.corpusErr = loadCorpus(corpusDir())

	h.lost = filepath.Join(h.root, "lost.log")
	if err := os.WriteFile(h.lost, nil, 0o666); err != nil {
		return err
	}
	if err := os.Chmod(h.lost, 0o666); err != nil {
		return err
	}
	h.stubs = filepath.Join(h.root, "stubs")
	h.missing, err = writeStubs(h.stubs, h.lost, stubNames(h.cases))
	if err != nil {
		return err
	}
	if err := h.makeTemplate(); err != nil {
		return fmt.Errorf("template project: %w", err)
	}
	h.pristine, err = snapshot(h.template)
	if err != nil {
		return err
	}
	if err := h.checkUnprivileged(); err != nil {
		return err
	}
	h.guard, h.guardErr = h.buildGuard()
	return nil
}

func (h *harness) teardown() {
	if *flagKeep {
		fmt.Fprintf(os.Stderr, "difftest: kept %s\n", h.root)
		return
	}
	if h.root != "" {
		os.RemoveAll(h.root)
	}
}

// rootBase is where the case directories live. HOME and the project must not
// be inside a temporary directory (/tmp, /var/tmp, /dev/shm, $TMPDIR): the
// default policy allows writes there, and `echo x >> ~/.bashrc` or
// `touch ../x` must count as writes outside the project and the temporary
// directories. GUARD_DIFFTEST_ROOT overrides the choice.
func rootBase() (string, error) {
	if d := os.Getenv("GUARD_DIFFTEST_ROOT"); d != "" {
		return d, checkNotTemp(d)
	}
	var cands []string
	if d := os.Getenv("XDG_RUNTIME_DIR"); d != "" {
		cands = append(cands, d)
	}
	if os.Geteuid() == 0 {
		cands = append(cands, "/run", "/var/cache", "/var/lib")
	} else if d, err := os.UserCacheDir(); err == nil {
		cands = append(cands, d)
	}
	for _, d := range cands {
		if os.MkdirAll(d, 0o755) == nil && syscall.Access(d, 7 /* rwx */) == nil && checkNotTemp(d) == nil {
			return d, nil
		}
	}
	return "", fmt.Errorf("no directory outside the temporary directories to hold the cases (tried %v); set GUARD_DIFFTEST_ROOT", cands)
}

func checkNotTemp(d string) error {
	abs, err := filepath.Abs(d)
	if err != nil {
		return err
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		abs = r
	}
	for _, t := range []string{"/tmp", "/var/tmp", "/dev/shm", os.Getenv("TMPDIR")} {
		if t == "" {
			continue
		}
		if rt, err := filepath.EvalSymlinks(t); err == nil {
			t = rt
		}
		if abs == t || strings.HasPrefix(abs, strings.TrimSuffix(t, "/")+"/") {
			return fmt.Errorf("%s is inside the temporary directory %s, where the default policy allows writes", d, t)
		}
	}
	return nil
}

func corpusDir() string {
	if *flagCorpus != "" {
		return *flagCorpus
	}
	return filepath.Join("..", "testdata", "corpus")
}

// buildGuard builds cmd/guard-exec as the README does (./build), or copies $GUARD_EXEC_BIN, into the
// temporary root (readable by the unprivileged run user).
func (h *harness) buildGuard() (string, error) {
	dst := filepath.Join(h.root, "bin", "guard-exec")
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return "", err
	}
	if src := os.Getenv("GUARD_EXEC_BIN"); src != "" {
		data, err := os.ReadFile(src)
		if err != nil {
			return "", fmt.Errorf("GUARD_EXEC_BIN: %w", err)
		}
		if err := os.WriteFile(dst, data, 0o755); err != nil {
			return "", err
		}
		return dst, nil
	}
	// The README's build (../build), with the go command that runs this
	// test first on PATH.
	cmd := exec.Command("./build", dst)
	cmd.Dir = ".."
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOROOT: %v", err)
	}
	cmd.Env = append(os.Environ(), "PATH="+filepath.Join(strings.TrimSpace(string(goroot)), "bin")+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("./build: %v\n%s", err, out)
	}
	if err := os.Chmod(dst, 0o755); err != nil {
		return "", err
	}
	return dst, nil
}

func (h *harness) makeTemplate() error {
	h.template = filepath.Join(h.root, "template")
	proj := filepath.Join(h.template, "proj")
	for _, d := range []string{proj, filepath.Join(h.template, "home"), filepath.Join(h.template, "tmp")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	write := func(base string, files map[string]string) error {
		for name, content := range files {
			p := filepath.Join(base, name)
			if strings.HasSuffix(name, "/") {
				if err := os.MkdirAll(p, 0o755); err != nil {
					return err
				}
				continue
			}
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			mode := os.FileMode(0o644)
			if strings.HasSuffix(name, ".sh") {
				mode = 0o755
			}
			if err := os.WriteFile(p, []byte(content), mode); err != nil {
				return err
			}
			if err := os.Chmod(p, mode); err != nil {
				return err
			}
		}
		return nil
	}
	if err := write(proj, projectFiles); err != nil {
		return err
	}
	if err := write(filepath.Join(h.template, "home"), homeFiles(h.stubs)); err != nil {
		return err
	}
	// git is a stub inside the runs, so the repository is made here with the
	// real git when there is one, else by hand (the layout git itself accepts).
	if gitBin, err := exec.LookPath("git"); err == nil {
		cmd := exec.Command(gitBin, "init", "-q", "--template=", proj)
		cmd.Env = append(os.Environ(), "HOME="+filepath.Join(h.template, "home"), "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git init: %v\n%s", err, out)
		}
	} else {
		g := filepath.Join(proj, ".git")
		for _, d := range []string{"objects/info", "objects/pack", "refs/heads", "refs/tags"} {
			if err := os.MkdirAll(filepath.Join(g, d), 0o755); err != nil {
				return err
			}
		}
		if err := os.WriteFile(filepath.Join(g, "HEAD"), []byte("ref: refs/heads/main\n"), 0o644); err != nil {
			return err
		}
		cfg := "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n"
		if err := os.WriteFile(filepath.Join(g, "config"), []byte(cfg), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// checkUnprivileged proves that runs really drop root before any corpus command runs.
func (h *harness) checkUnprivileged() error {
	if h.cred == nil {
		return nil
	}
	dir := filepath.Join(h.root, "check")
	if err := h.resetCase(dir); err != nil {
		return err
	}
	r := h.run(dir, "bash", realBash, []string{"-c", `echo "$EUID"; ulimit -u`}, 10*time.Second)
	if f := strings.Fields(string(r.stdout)); r.startErr != nil || r.exitCode() != 0 || len(f) == 0 || f[0] != strconv.Itoa(nobodyID) {
		return fmt.Errorf("cannot drop root privileges for the corpus runs (refusing to run it as root): %v %q %q", r.startErr, r.stdout, r.stderr)
	}
	return nil
}

// caseDirs of one case: <dir>/proj (cwd), <dir>/home, <dir>/tmp, <dir>/stub.log.
func proj(dir string) string    { return filepath.Join(dir, "proj") }
func home(dir string) string    { return filepath.Join(dir, "home") }
func tmpdir(dir string) string  { return filepath.Join(dir, "tmp") }
func stubLog(dir string) string { return filepath.Join(dir, "stub.log") }

// resetCase recreates dir as a pristine copy of the template, owned by the run user.
func (h *harness) resetCase(dir string) error {
	if err := os.RemoveAll(dir); err != nil {
		// something made a directory unreadable for us; try to fix it up
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			os.Chmod(p, 0o755)
			return nil
		})
		if err := os.RemoveAll(dir); err != nil {
			return err
		}
	}
	if err := copyTree(h.template, dir); err != nil {
		return err
	}
	if h.cred != nil {
		return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			return os.Lchown(p, nobodyID, nobodyID)
		})
	}
	return nil
}

func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			if err := os.MkdirAll(target, 0o755); err != nil {
				return err
			}
			return os.Chmod(target, info.Mode().Perm())
		case info.Mode()&fs.ModeSymlink != 0:
			l, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(l, target)
		default:
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if err := os.WriteFile(target, data, info.Mode().Perm()); err != nil {
				return err
			}
			return os.Chmod(target, info.Mode().Perm())
		}
	})
}

// runEnv is the complete, fixed environment of every run.
func (h *harness) runEnv(dir string) []string {
	return []string{
		"PATH=" + h.stubs,
		"PWD=" + proj(dir),
		"HOME=" + home(dir),
		"TMPDIR=" + tmpdir(dir),
		"LANG=C",
		"XDG_CONFIG_HOME=" + filepath.Join(home(dir), ".config"),
		"XDG_STATE_HOME=" + filepath.Join(home(dir), ".local", "state"),
		"STUB_LOG=" + stubLog(dir),
	}
}

type result struct {
	stdout, stderr []byte
	state          *os.ProcessState
	startErr       error
	timedOut       bool
	stragglers     bool // processes of the run were still alive when it ended
	records        []record
	logErr         error
	elapsed        time.Duration
}

func (r result) exitCode() int {
	if r.state == nil {
		return -1
	}
	return r.state.ExitCode()
}

// status describes how the run ended, comparably across runs.
func (r result) status() string {
	switch {
	case r.startErr != nil:
		return "not started: " + r.startErr.Error()
	case r.timedOut:
		return "timed out"
	case r.state == nil:
		return "no status"
	}
	ws := r.state.Sys().(syscall.WaitStatus)
	if ws.Signaled() {
		return "killed by " + ws.Signal().String()
	}
	return "exit " + strconv.Itoa(ws.ExitStatus())
}

type capWriter struct {
	mu  sync.Mutex
	buf bytes.Buffer
	cut bool
}

func (w *capWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if room := outputLimit - w.buf.Len(); room < len(p) {
		if room > 0 {
			w.buf.Write(p[:room])
		}
		w.cut = true
		return len(p), nil
	}
	return w.buf.Write(p)
}

func (w *capWriter) bytes() []byte {
	w.mu.Lock()
	defer w.mu.Unlock()
	b := append([]byte{}, w.buf.Bytes()...)
	if w.cut {
		b = append(b, "\n[difftest: output cut]\n"...)
	}
	return b
}

// tramp puts the run's process limit in place (as the run user, after the
// credential change) and then execs the program with the wanted argv[0].
const tramp = `ulimit -Su "$1" 2>/dev/null; __a=$2; shift 2; exec -a "$__a" "$@"`

// run executes prog (argv[0] = argv0) in a fresh session with no terminal,
// stdin /dev/null, cwd dir/proj, the fixed environment and a fresh stub log,
// then waits for every process of its process group to be gone.
func (h *harness) run(dir, argv0, prog string, args []string, timeout time.Duration) result {
	var res result
	logPath := stubLog(dir)
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_TRUNC|os.O_WRONLY|os.O_APPEND, 0o666)
	if err != nil {
		res.startErr = err
		return res
	}
	defer logf.Close()
	os.Chmod(logPath, 0o666)
	if h.cred != nil {
		os.Chown(logPath, nobodyID, nobodyID)
	}

	full := append([]string{"-c", tramp, "difftest", strconv.Itoa(h.nproc), argv0, prog}, args...)
	cmd := exec.Command(realBash, full...)
	cmd.Dir = proj(dir)
	cmd.Env = h.runEnv(dir)
	var stdout, stderr capWriter
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	extra := make([]*os.File, logFD-2)
	extra[logFD-3] = logf
	cmd.ExtraFiles = extra
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Credential: h.cred}
	cmd.WaitDelay = 2 * time.Second

	start := time.Now()
	if err := cmd.Start(); err != nil {
		res.startErr = err
		return res
	}
	pgid := cmd.Process.Pid
	var timedOut atomic.Bool
	timer := time.AfterFunc(timeout, func() {
		timedOut.Store(true)
		syscall.Kill(-pgid, syscall.SIGKILL)
	})
	waitErr := cmd.Wait()
	var exitErr *exec.ExitError
	if waitErr != nil && !errors.As(waitErr, &exitErr) && !errors.Is(waitErr, exec.ErrWaitDelay) {
		res.startErr = waitErr
	}
	res.state = cmd.ProcessState
	// Background jobs (`cmd &`, process substitutions) may outlive the shell:
	// wait for the whole process group so that their records are complete.
	if !waitGroupGone(pgid, start.Add(timeout)) {
		res.stragglers = true
	}
	syscall.Kill(-pgid, syscall.SIGKILL)
	timer.Stop()
	res.timedOut = timedOut.Load()
	res.elapsed = time.Since(start)
	res.stdout = stdout.bytes()
	res.stderr = stderr.bytes()
	// A process that left the group (setsid's grandchildren, a daemon) may
	// still be writing its record: a reader can see a write half done. Wait
	// for it rather than call the log corrupt; its record counts too.
	for tries := 0; ; tries++ {
		data, err := os.ReadFile(logPath)
		if err != nil {
			res.logErr = err
			break
		}
		if res.records, res.logErr = parseRecords(data); res.logErr == nil || tries == 20 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	return res
}

// waitGroupGone waits until no live (non-zombie) process is in the process group.
func waitGroupGone(pgid int, deadline time.Time) bool {
	for {
		if err := syscall.Kill(-pgid, 0); errors.Is(err, syscall.ESRCH) {
			return true
		}
		if !groupHasLive(pgid) {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(3 * time.Millisecond)
	}
}

// procStat returns the state, pgrp and uid-independent fields of /proc/PID/stat.
func procStat(pid string) (state byte, pgrp int, ok bool) {
	data, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return 0, 0, false
	}
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0, 0, false
	}
	f := strings.Fields(string(data[i+1:]))
	if len(f) < 3 {
		return 0, 0, false
	}
	pg, err := strconv.Atoi(f[2])
	if err != nil {
		return 0, 0, false
	}
	return f[0][0], pg, true
}

func groupHasLive(pgid int) bool {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return false
	}
	for _, e := range ents {
		if e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		if st, pg, ok := procStat(e.Name()); ok && pg == pgid && st != 'Z' && st != 'X' {
			return true
		}
	}
	return false
}

// countTasks counts the threads of a user (RLIMIT_NPROC counts threads).
func countTasks(uid int) int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	want := strconv.Itoa(uid)
	n := 0
	for _, e := range ents {
		if e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		data, err := os.ReadFile("/proc/" + e.Name() + "/status")
		if err != nil {
			continue
		}
		var owner bool
		threads := 1
		for _, line := range strings.Split(string(data), "\n") {
			if f := strings.Fields(line); len(f) >= 2 {
				switch f[0] {
				case "Uid:":
					owner = f[1] == want
				case "Threads:":
					threads, _ = strconv.Atoi(f[1])
				}
			}
		}
		if owner {
			n += threads
		}
	}
	return n
}

// snapshot describes every file under proj/, home/ and tmp/ of a case
// directory (type, permissions, size, content hash), except the guard's own
// state directory.
func snapshot(dir string) (map[string]string, error) {
	out := map[string]string{}
	for _, top := range []string{"proj", "home", "tmp"} {
		base := filepath.Join(dir, top)
		err := filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
			rel, _ := filepath.Rel(dir, p)
			if err != nil {
				out[rel] = "unreadable: " + err.Error()
				return nil
			}
			if rel == filepath.Join("home", ".local", "state", "guard-exec") {
				return fs.SkipDir
			}
			info, err := d.Info()
			if err != nil {
				out[rel] = "unreadable: " + err.Error()
				return nil
			}
			m := info.Mode()
			switch {
			case m.IsDir():
				out[rel] = fmt.Sprintf("dir %v", m.Perm())
			case m&fs.ModeSymlink != 0:
				l, _ := os.Readlink(p)
				out[rel] = "symlink -> " + l
			case m.IsRegular():
				f, err := os.Open(p)
				if err != nil {
					out[rel] = "unreadable: " + err.Error()
					return nil
				}
				hsh := sha256.New()
				n, _ := io.Copy(hsh, io.LimitReader(f, 16<<20))
				f.Close()
				out[rel] = fmt.Sprintf("file %v %d bytes sha256:%x", m.Perm(), n, hsh.Sum(nil)[:8])
			default:
				out[rel] = "special " + m.String()
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// diffSnapshots lists the paths that differ between two snapshots.
func diffSnapshots(a, b map[string]string, aName, bName string) []string {
	var out []string
	seen := map[string]bool{}
	for k := range a {
		seen[k] = true
	}
	for k := range b {
		seen[k] = true
	}
	var ks []string
	for k := range seen {
		ks = append(ks, k)
	}
	sortStrings(ks)
	for _, k := range ks {
		va, oka := a[k]
		vb, okb := b[k]
		switch {
		case !oka:
			out = append(out, fmt.Sprintf("%s: only after %s (%s)", k, bName, vb))
		case !okb:
			out = append(out, fmt.Sprintf("%s: only after %s (%s)", k, aName, va))
		case va != vb:
			out = append(out, fmt.Sprintf("%s: %s after %s, %s after %s", k, va, aName, vb, bName))
		}
	}
	return out
}
