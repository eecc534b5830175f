package state

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestMain doubles as a helper process for the concurrency test:
// STATE_TEST_HELPER="dir session worker count" appends count approvals.
func TestMain(m *testing.M) {
	if h := os.Getenv("STATE_TEST_HELPER"); h != "" {
		f := strings.Fields(h)
		n, _ := strconv.Atoi(f[3])
		for i := range n {
			a := Approval{Rule: fmt.Sprintf("[[rule]]\ncommand = \"w%s-%d\"\n", f[2], i), Command: "cmd " + strings.Repeat("x", i%300)}
			if err := AppendApproval(f[0], f[1], a); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func env(kv ...string) func(string) string {
	return func(k string) string {
		for i := 0; i < len(kv); i += 2 {
			if kv[i] == k {
				return kv[i+1]
			}
		}
		return ""
	}
}

func TestDir(t *testing.T) {
	for _, c := range []struct {
		getenv func(string) string
		want   string
	}{
		{env("XDG_STATE_HOME", "/x", "HOME", "/h"), "/x/guard-exec"},
		{env("XDG_STATE_HOME", "rel", "HOME", "/h"), "/h/.local/state/guard-exec"},
		{env("HOME", "/h"), "/h/.local/state/guard-exec"},
		{env(), ""},
	} {
		if got := Dir(c.getenv); got != c.want {
			t.Errorf("Dir = %q, want %q", got, c.want)
		}
	}
}

func TestSessionIDFromEnv(t *testing.T) {
	id, err := SessionID(env("GUARD_EXEC_SESSION", "abc.DEF_1-2"))
	if err != nil || id != "abc.DEF_1-2" {
		t.Fatalf("got %q, %v", id, err)
	}
	for _, bad := range []string{"a/b", "../x", "a b", strings.Repeat("a", 129), "é"} {
		if _, err := SessionID(env("GUARD_EXEC_SESSION", bad)); err == nil {
			t.Errorf("GUARD_EXEC_SESSION=%q accepted", bad)
		}
	}
}

func TestSessionIDFromProc(t *testing.T) {
	proc := t.TempDir()
	os.MkdirAll(filepath.Join(proc, "42"), 0o700)
	// comm contains spaces and parentheses; starttime (field 22) is 987654.
	stat := "42 (a) b (c)) S 1 42 42 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 1000 100 18446744073709551615\n"
	os.WriteFile(filepath.Join(proc, "42", "stat"), []byte(stat), 0o600)
	if id, err := procSessionID(proc, 42); err != nil || id != "p42-987654" {
		t.Fatalf("got %q, %v", id, err)
	}
	os.WriteFile(filepath.Join(proc, "42", "stat"), []byte("42 (x) S 1 2"), 0o600)
	if _, err := procSessionID(proc, 42); err == nil {
		t.Error("short stat accepted")
	}
	if _, err := procSessionID(proc, 43); err == nil {
		t.Error("missing process accepted")
	}
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	a, err := SessionID(env())
	b, err2 := SessionID(env())
	prefix := fmt.Sprintf("p%d-", os.Getppid())
	if err != nil || err2 != nil || a != b || !strings.HasPrefix(a, prefix) || len(a) == len(prefix) {
		t.Fatalf("real /proc: %q %q %v %v", a, b, err, err2)
	}
}

func TestApprovals(t *testing.T) {
	dir := t.TempDir()
	if got, err := Approvals(dir, "s1"); got != nil || err != nil {
		t.Fatalf("missing file: %v, %v", got, err)
	}
	now := time.Now().Round(0)
	if err := AppendApproval(dir, "s1", Approval{Rule: "[[rule]]\na = 1", Time: now, Command: "ls"}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "sessions", "s1.jsonl")
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("not json\n{\"rule\":\"\",\"time\":\"2026-01-01T00:00:00Z\"}\n{\"rule\":\"[[rule]]\",\"ti") // torn tail
	f.Close()
	got, err := Approvals(dir, "s1")
	if len(got) != 1 || got[0].Rule != "[[rule]]\na = 1" || !got[0].Time.Equal(now) {
		t.Fatalf("got %+v", got)
	}
	var ce *CorruptError
	if !errors.As(err, &ce) || !errors.Is(err, ErrCorrupt) || fmt.Sprint(ce.Lines) != "[2 3]" {
		t.Fatalf("err = %v", err)
	}
	// The next append must not glue onto the torn tail.
	if err := AppendApproval(dir, "s1", Approval{Rule: "r2"}); err != nil {
		t.Fatal(err)
	}
	got, err = Approvals(dir, "s1")
	if len(got) != 2 || got[1].Rule != "r2" || !errors.As(err, &ce) || len(ce.Lines) != 3 {
		t.Fatalf("after append: %+v, %v", got, err)
	}
	if err := AppendApproval(dir, "../x", Approval{Rule: "r"}); err == nil {
		t.Error("bad session id accepted")
	}
}

func TestCleanSessions(t *testing.T) {
	dir := t.TempDir()
	sdir := filepath.Join(dir, "sessions")
	os.MkdirAll(sdir, 0o700)
	old := time.Now().Add(-8 * 24 * time.Hour)
	for _, n := range []string{"old.jsonl", "keep.txt"} {
		os.WriteFile(filepath.Join(sdir, n), nil, 0o600)
		os.Chtimes(filepath.Join(sdir, n), old, old)
	}
	os.WriteFile(filepath.Join(sdir, ".cleaned"), nil, 0o600) // cleaned just now: no scan
	if err := AppendApproval(dir, "new", Approval{Rule: "r"}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(sdir, "old.jsonl")); err != nil {
		t.Fatal("cleaned although the stamp is fresh")
	}
	os.Chtimes(filepath.Join(sdir, ".cleaned"), old, old)
	if err := AppendApproval(dir, "new", Approval{Rule: "r"}); err != nil {
		t.Fatal(err)
	}
	for n, want := range map[string]bool{"old.jsonl": false, "keep.txt": true, "new.jsonl": true} {
		if _, err := os.Stat(filepath.Join(sdir, n)); (err == nil) != want {
			t.Errorf("%s exists = %v, want %v", n, err == nil, want)
		}
	}
}

func TestConcurrentAppendApproval(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	const procs, each = 8, 100
	cmds := make([]*exec.Cmd, procs)
	for w := range cmds {
		cmds[w] = exec.Command(exe, "-test.run=^$")
		cmds[w].Env = append(os.Environ(), fmt.Sprintf("STATE_TEST_HELPER=%s sess %d %d", dir, w, each))
		cmds[w].Stderr = os.Stderr
		if err := cmds[w].Start(); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatalf("helper: %v", err)
		}
	}
	got, err := Approvals(dir, "sess")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, a := range got {
		seen[a.Rule] = true
	}
	if len(got) != procs*each || len(seen) != procs*each {
		t.Fatalf("%d approvals, %d distinct, want %d", len(got), len(seen), procs*each)
	}
}

func TestTrust(t *testing.T) {
	dir := t.TempDir()
	proj := filepath.Join(t.TempDir(), ".guard-exec.toml")
	os.WriteFile(proj, []byte("v1"), 0o600)
	check := func(content string, want bool) {
		t.Helper()
		if ok, err := IsTrusted(dir, proj, []byte(content)); ok != want || err != nil {
			t.Fatalf("IsTrusted(%q) = %v, %v; want %v", content, ok, err, want)
		}
	}
	check("v1", false)
	if err := Trust(dir, proj, []byte("v1")); err != nil {
		t.Fatal(err)
	}
	check("v1", true)
	check("v2", false) // a changed file is no longer trusted
	if fi, _ := os.Stat(filepath.Join(dir, "trust.json")); fi.Mode().Perm() != 0o600 {
		t.Errorf("trust.json mode %v", fi.Mode())
	}
	// A symlink to the file names the same project.
	link := filepath.Join(t.TempDir(), "link.toml")
	os.Symlink(proj, link)
	if ok, _ := IsTrusted(dir, link, []byte("v1")); !ok {
		t.Error("symlink to a trusted file not trusted")
	}
	if err := Untrust(dir, proj); err != nil {
		t.Fatal(err)
	}
	check("v1", false)
	if err := Untrust(dir, proj); err != nil {
		t.Fatal(err)
	}
}

func TestCorruptTrust(t *testing.T) {
	dir := t.TempDir()
	proj := filepath.Join(dir, "p.toml")
	if err := Trust(dir, proj, []byte("x")); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"{\"version\":1,\"trusted\":{", "{}", "null"} {
		os.WriteFile(filepath.Join(dir, "trust.json"), []byte(bad), 0o600)
		ok, err := IsTrusted(dir, proj, []byte("x"))
		if ok || !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "guard-exec trust") {
			t.Fatalf("%q: %v, %v", bad, ok, err)
		}
	}
	// Trusting again repairs the file.
	if err := Trust(dir, proj, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if ok, err := IsTrusted(dir, proj, []byte("x")); !ok || err != nil {
		t.Fatalf("after repair: %v, %v", ok, err)
	}
}
