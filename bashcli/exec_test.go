//go:build linux

package bashcli

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

var probeDir string // made by TestMain; probes are built there once

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "bashcli-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	probeDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// A probe build: testdata/execprobe built one way.
type probeBuild struct {
	name    string
	env     []string // added to the go command's environment
	ldflags string
}

var (
	// The test's own cgo setting: with cgo, a C constructor records the
	// start state.
	defaultBuild = probeBuild{name: "default"}
	// The README's build: no cgo, the rt0 entry point records it.
	entryBuild = probeBuild{name: "entry", env: []string{"CGO_ENABLED=0"}, ldflags: EntryLDFlags}
	// Neither: nothing is recorded.
	bareBuild = probeBuild{name: "bare", env: []string{"CGO_ENABLED=0"}}
)

// buildProbe builds testdata/execprobe as b says, once.
func buildProbe(t *testing.T, b probeBuild) string {
	t.Helper()
	bin := filepath.Join(probeDir, "execprobe-"+b.name)
	if _, err := os.Stat(bin); err == nil {
		return bin
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command to build the probe: %v", err)
	}
	cmd := exec.Command(goBin, "build", "-ldflags="+b.ldflags, "-o", bin, "./testdata/execprobe")
	cmd.Env = append(os.Environ(), b.env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build execprobe (%s): %v\n%s", b.name, err, out)
	}
	return bin
}

func execProbe(t *testing.T) string { return buildProbe(t, defaultBuild) }

// recordingProbes are the builds that record the signal state at start:
// the default one when it has cgo, and the entry-point one where rt0
// exists.
func recordingProbes(t *testing.T) map[string]string {
	probes := map[string]string{}
	if cgoEnabled {
		probes["cgo"] = buildProbe(t, defaultBuild)
	}
	if entryPointArch() {
		probes["entry"] = buildProbe(t, entryBuild)
	}
	if len(probes) == 0 {
		t.Skip("no build here records the signals ignored at start")
	}
	return probes
}

func entryPointArch() bool {
	return runtime.GOOS == "linux" && (runtime.GOARCH == "amd64" || runtime.GOARCH == "arm64")
}

// shell runs sh -c script with args as $1… and returns stdout; the script
// ends in an exec of the probe or of bash, so the signals it ignores
// (trap "" SIG) are ignored at their start.
func shell(t *testing.T, script string, args ...string) string {
	t.Helper()
	var stderr bytes.Buffer
	cmd := exec.Command("/bin/sh", append([]string{"-c", script, "sh"}, args...)...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("sh -c %q: %v\n%s", script, err, stderr.String())
	}
	return string(out)
}

// withoutPid drops the probe's "pid=" line.
func withoutPid(s string) string {
	if strings.HasPrefix(s, "pid=") {
		s = s[strings.Index(s, "\n")+1:]
	}
	return s
}

const sigReport = `grep -E '^Sig(Ign|Blk)' /proc/self/status; trap -p`

func TestExecKeepsIgnoredSignals(t *testing.T) {
	for build, probe := range recordingProbes(t) {
		t.Run(build, func(t *testing.T) {
			for _, traps := range []string{"PIPE USR1 TERM", "PIPE USR1 TERM QUIT HUP INT ALRM CHLD", ""} {
				t.Run(traps, func(t *testing.T) {
					setup := `trap "" ` + traps + `; `
					if traps == "" {
						setup = ""
					}
					want := shell(t, setup+`exec /bin/bash -c "$1"`, sigReport)
					got := withoutPid(shell(t, setup+`exec "$1" exec bash -c "$2"`, probe, sigReport))
					if got != want {
						t.Errorf("bash after Exec sees:\n%s\nbash started directly sees:\n%s", got, want)
					}
				})
			}
		})
	}
}

// TestIgnoredAtStart checks the recorded set against the kernel's SigIgn.
func TestIgnoredAtStart(t *testing.T) {
	for build, probe := range recordingProbes(t) {
		t.Run(build, func(t *testing.T) {
			status := shell(t, `trap "" PIPE USR1 TERM; exec cat /proc/self/status`)
			var mask uint64
			for _, line := range strings.Split(status, "\n") {
				if v, ok := strings.CutPrefix(line, "SigIgn:"); ok {
					mask, _ = strconv.ParseUint(strings.TrimSpace(v), 16, 64)
				}
			}
			var want []string
			for s := 1; s <= 64; s++ {
				if mask&(1<<(s-1)) != 0 {
					want = append(want, strconv.Itoa(s))
				}
			}
			got := strings.Fields(shell(t, `trap "" PIPE USR1 TERM; exec "$1" ignored`, probe))
			if strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("IgnoredAtStart = %v, kernel SigIgn at start = %v", got, want)
			}
		})
	}
}

// TestExecUndoesSignalCalls: signal.Notify and signal.Ignore in the guard
// must not leak into the shell.
func TestExecUndoesSignalCalls(t *testing.T) {
	for build, probe := range recordingProbes(t) {
		t.Run(build, func(t *testing.T) {
			want := shell(t, `trap "" PIPE; exec /bin/bash -c "$1"`, sigReport)
			got := withoutPid(shell(t, `trap "" PIPE; exec "$1" notify-exec bash -c "$2"`, probe, sigReport))
			if got != want {
				t.Errorf("bash after Exec sees:\n%s\nbash started directly sees:\n%s", got, want)
			}
		})
	}
}

// TestExecKeepsSignalMask: signals blocked at start stay blocked, including
// those the Go runtime unblocks in its threads (SIGBUS, SIGPROF).
func TestExecKeepsSignalMask(t *testing.T) {
	for build, probe := range recordingProbes(t) {
		t.Run(build, func(t *testing.T) {
			block := []string{probe, "block", "7", "12", "27", "--"}
			run := func(argv ...string) string {
				out, err := exec.Command(block[0], append(block[1:], argv...)...).Output()
				if err != nil {
					t.Fatalf("%q: %v", argv, err)
				}
				return withoutPid(string(out))
			}
			want := run("/bin/bash", "-c", "grep SigBlk /proc/self/status")
			got := run(probe, "exec", "bash", "-c", "grep SigBlk /proc/self/status")
			if got != want || !strings.Contains(want, "4000840") {
				t.Errorf("bash after Exec sees %q, started directly %q (want SIGBUS, SIGUSR2, SIGPROF blocked)", got, want)
			}
		})
	}
}

// TestStartRecorded: which builds record the start state. A build with
// neither cgo nor the entry point records nothing and still keeps SIGHUP
// and SIGINT ignored (the Go runtime leaves those two alone).
func TestStartRecorded(t *testing.T) {
	if entryPointArch() {
		if got := shell(t, `exec "$1" recorded`, buildProbe(t, entryBuild)); got != "true\n" {
			t.Errorf("entry build: StartRecorded = %q, want true", got)
		}
	}
	bare := buildProbe(t, bareBuild)
	if got := shell(t, `exec "$1" recorded`, bare); got != "false\n" {
		t.Errorf("bare build: StartRecorded = %q, want false", got)
	}
	if got := shell(t, `trap "" PIPE HUP; exec "$1" ignored`, bare); got != "" {
		t.Errorf("bare build: IgnoredAtStart = %q, want none", got)
	}
	got := withoutPid(shell(t, `trap "" PIPE HUP INT; exec "$1" exec bash -c "$2"`, bare, "grep SigIgn /proc/self/status"))
	if got != "SigIgn:\t0000000000000003\n" {
		t.Errorf("bare build: bash after Exec has %q, want SIGHUP and SIGINT ignored only", got)
	}
}

func TestExecStatusPidEnvFds(t *testing.T) {
	probe := execProbe(t)

	t.Run("exit status", func(t *testing.T) {
		err := exec.Command(probe, "exec", "bash", "-c", "exit 7").Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 7 {
			t.Fatalf("want exit status 7, got %v", err)
		}
	})

	t.Run("death by signal", func(t *testing.T) {
		err := exec.Command(probe, "exec", "bash", "-c", "kill -TERM $$").Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("want death by SIGTERM, got %v", err)
		}
		ws := ee.Sys().(syscall.WaitStatus)
		if !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
			t.Fatalf("want death by SIGTERM, got %v", ws)
		}
	})

	t.Run("pid argv0 env fds", func(t *testing.T) {
		script := `echo "$$|$0|$1|$PROBE_ENV|$FROM_TEST"; read -r line; echo "stdin:$line"; echo fd3 >&3; grep ^flags /proc/self/fdinfo/0`
		run := func(argv ...string) (out []string, fd3 string, pid int) {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			cmd := exec.Command(argv[0], argv[1:]...)
			cmd.Env = append(os.Environ(), "FROM_TEST=yes")
			cmd.Stdin = strings.NewReader("typed\n")
			cmd.ExtraFiles = []*os.File{w}
			b, err := cmd.Output()
			w.Close()
			if err != nil {
				t.Fatalf("%q: %v", argv, err)
			}
			var buf bytes.Buffer
			buf.ReadFrom(r)
			return strings.Split(strings.TrimSpace(string(b)), "\n"), buf.String(), cmd.Process.Pid
		}
		lines, fd3, pid := run(probe, "exec", "my-bash", "-c", script, "name0", "one")
		p := strconv.Itoa(pid)
		if len(lines) != 4 || lines[0] != "pid="+p || lines[1] != p+"|name0|one|kept|yes" || lines[2] != "stdin:typed" || fd3 != "fd3\n" {
			t.Fatalf("want pid=%s, %s|name0|one|kept|yes, stdin:typed, and fd3 on fd 3; got %q and %q on fd 3", p, p, lines, fd3)
		}
		// fd 0 reaches bash with the flags it has when bash is started directly.
		direct, _, _ := run("/bin/bash", "-c", script, "name0", "one")
		if lines[3] != direct[len(direct)-1] {
			t.Errorf("fd 0 %s, started directly %s", lines[3], direct[len(direct)-1])
		}
	})
}

// TestExecFailure: a failed exec returns an error and leaves the process
// working: same dispositions, signals still delivered to Go.
func TestExecFailure(t *testing.T) {
	before := procStatus(t, "SigIgn")
	err := Exec("/nonexistent/bash", []string{"bash"}, os.Environ())
	if !errors.Is(err, syscall.ENOENT) || !strings.Contains(err.Error(), "/nonexistent/bash") {
		t.Fatalf("Exec of a missing file: %v", err)
	}
	if after := procStatus(t, "SigIgn"); after != before {
		t.Errorf("SigIgn before %s, after failed Exec %s", before, after)
	}
	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGUSR1)
	defer signal.Stop(c)
	syscall.Kill(os.Getpid(), syscall.SIGUSR1)
	select {
	case <-c:
	case <-time.After(time.Minute): // only reached if delivery is broken
		t.Fatal("SIGUSR1 not delivered after a failed Exec")
	}
}

func procStatus(t *testing.T, field string) string {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			return strings.TrimSpace(v)
		}
	}
	t.Fatalf("no %s in /proc/self/status", field)
	return ""
}

func TestRealShell(t *testing.T) {
	dir := t.TempDir()
	noexec := filepath.Join(dir, "noexec")
	os.WriteFile(noexec, []byte("#!/bin/sh\n"), 0o644)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	selfLink := filepath.Join(dir, "bash")
	if err := os.Symlink(self, selfLink); err != nil {
		t.Fatal(err)
	}
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == ShellEnv {
				return v
			}
			return ""
		}
	}
	for _, tc := range []struct {
		env, configured, want, errPart string
	}{
		{"", "", "/bin/bash", ""},
		{"", "/bin/sh", "/bin/sh", ""},
		{"/bin/sh", "/bin/bash", "/bin/sh", ""},
		{"bash", "", "", "not an absolute path; set GUARD_EXEC_SHELL"},
		{"", "bin/bash", "", "(the configured shell) as the real shell: it is not an absolute path"},
		{"/nonexistent/bash", "", "", "no such file or directory"},
		{dir, "", "", "not a regular file"},
		{noexec, "", "", "not executable"},
		{self, "", "", "it is this guard itself"},
		{selfLink, "", "", "it is this guard itself"},
		{"", selfLink, "", "loop forever; set the configured shell"},
	} {
		got, err := RealShell(env(tc.env), tc.configured)
		if tc.errPart == "" && (err != nil || got != tc.want) {
			t.Errorf("RealShell(%q, %q) = %q, %v; want %q", tc.env, tc.configured, got, err, tc.want)
		}
		if tc.errPart != "" && (err == nil || !strings.Contains(err.Error(), tc.errPart)) {
			t.Errorf("RealShell(%q, %q) = %q, %v; want an error containing %q", tc.env, tc.configured, got, err, tc.errPart)
		}
	}
}

func TestSameAsGuard(t *testing.T) {
	dir := t.TempDir()
	guard := filepath.Join(dir, "bash")
	os.WriteFile(guard, []byte("#!/bin/sh\n"), 0o755)
	fi, _ := os.Stat(guard)
	noExe := func() (string, error) { return "", errors.New("no /proc") }
	t.Setenv("PATH", dir)
	if _, ok := sameAsGuard(fi, noExe, "bash"); !ok {
		t.Error("bare argv[0] found in PATH not recognised when the executable is unknown")
	}
	if _, ok := sameAsGuard(fi, noExe, guard); !ok {
		t.Error("argv[0] path not recognised")
	}
	other := func() (string, error) { return "/bin/sh", nil }
	if _, ok := sameAsGuard(fi, other, "bash"); ok {
		t.Error("bare argv[0] looked up in PATH although the executable is known")
	}
}
