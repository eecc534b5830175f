package audit

import (
	"bufio"
	"bytes"
	"encoding/json"
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
// AUDIT_TEST_HELPER="path worker count maxbytes keep" appends count records.
func TestMain(m *testing.M) {
	if h := os.Getenv("AUDIT_TEST_HELPER"); h != "" {
		f := strings.Fields(h)
		n, _ := strconv.Atoi(f[2])
		max, _ := strconv.ParseInt(f[3], 10, 64)
		keep, _ := strconv.Atoi(f[4])
		l := &Log{Path: f[0], MaxBytes: max, Keep: keep}
		for i := range n {
			r := Record{Session: "s", Mode: "enforce", Decision: "allow", Command: fmt.Sprintf("w%s %d %s", f[1], i, strings.Repeat("x", i%200))}
			if err := l.Append(r); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func rec(cmd string) Record {
	return Record{Time: time.Now(), Session: "s", Mode: "enforce", Command: cmd, Decision: "allow"}
}

func TestConcurrentAppend(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "logs", "audit.jsonl")
	const procs, each = 8, 150
	cmds := make([]*exec.Cmd, procs)
	for w := range cmds {
		cmds[w] = exec.Command(exe, "-test.run=^$")
		cmds[w].Env = append(os.Environ(), fmt.Sprintf("AUDIT_TEST_HELPER=%s %d %d 8192 100000", path, w, each))
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
	// Every line of every file is one complete JSON record.
	files, _ := filepath.Glob(path + "*")
	if len(files) < 4 {
		t.Fatalf("only %d files: expected several rotations", len(files))
	}
	lines := 0
	for _, f := range files {
		b, _ := os.ReadFile(f)
		if len(b) > 0 && b[len(b)-1] != '\n' {
			t.Errorf("%s does not end with a newline", f)
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		for sc.Scan() {
			lines++
			if !json.Valid(sc.Bytes()) {
				t.Errorf("%s: torn line %q", f, sc.Text())
			}
		}
	}
	// No record lost or duplicated, and each writer's records in order.
	last := map[string]int{}
	total := 0
	err = ReadAll(path, func(r Record) error {
		f := strings.Fields(r.Command)
		i, _ := strconv.Atoi(f[1])
		if prev, ok := last[f[0]]; ok && i != prev+1 {
			t.Errorf("%s: record %d after %d", f[0], i, prev)
		} else if !ok && i != 0 {
			t.Errorf("%s: first record %d", f[0], i)
		}
		last[f[0]] = i
		total++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if total != procs*each || lines != total || len(last) != procs {
		t.Fatalf("read %d records (%d lines, %d writers), want %d", total, lines, len(last), procs*each)
	}
}

func TestRotation(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.jsonl")
	l := &Log{Path: path, MaxBytes: 300, Keep: 2}
	for i := range 20 {
		if err := l.Append(rec(fmt.Sprint("cmd ", i))); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range []string{"", ".1", ".2"} {
		fi, err := os.Stat(path + s)
		if err != nil && s != "" {
			t.Fatalf("%s missing: %v", s, err)
		}
		if err == nil && fi.Mode().Perm() != 0o600 {
			t.Errorf("mode of %s: %v", s, fi.Mode())
		}
	}
	if _, err := os.Stat(path + ".3"); err == nil {
		t.Error("kept more than Keep rotated files")
	}
	var got []string
	if err := ReadAll(path, func(r Record) error { got = append(got, r.Command); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 || got[len(got)-1] != "cmd 19" {
		t.Fatalf("newest records lost: %v", got)
	}
	for i, c := range got {
		if want := fmt.Sprint("cmd ", 20-len(got)+i); c != want {
			t.Fatalf("got %v: want the newest records in order", got)
		}
	}
}

func TestCorruptLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.jsonl")
	l := &Log{Path: path}
	l.Append(rec("one"))
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("garbage\n{}\n{\"time\":\"2026-01-01T00:00:00Z\",\"deci") // torn tail
	f.Close()
	l.Append(rec("two")) // must start on a fresh line
	os.WriteFile(path+".1", []byte("{\"time\":\"2026-01-01T00:00:00Z\",\"decision\":\"deny\",\"command\":\"old\"}\nxx\n"), 0o600)
	var got []string
	err := ReadAll(path, func(r Record) error { got = append(got, r.Command); return nil })
	var ce *CorruptError
	if !errors.As(err, &ce) || ce.Skipped != 4 || len(ce.Files) != 2 {
		t.Fatalf("err = %v", err)
	}
	if strings.Join(got, ",") != "old,one,two" {
		t.Fatalf("got %v", got)
	}
	stop := errors.New("stop")
	if err := Read(path, func(Record) error { return stop }); err != stop {
		t.Fatalf("fn error not returned: %v", err)
	}
	if err := Read(path+".none", func(Record) error { return nil }); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing file: %v", err)
	}
}

func TestRedact(t *testing.T) {
	r := Redact(Record{
		Command: "TOKEN=s3cret curl -H 'Authorization: x' --data=pw -pSECRET -rf https://x | grep y",
		Reason:  "network access",
		Parts:   []PartRecord{{Argv: []string{"curl", "-H", "Authorization: x", "--force", "--data=pw", "dd", "if=/dev/sda"}, Reason: "net"}},
	})
	h := hash
	want := "TOKEN=" + h("s3cret") + " curl -H " + h("'Authorization:") + " " + h("x'") + " --data=" + h("pw") + " " +
		h("-pSECRET") + " -rf " + h("https://x") + " | " + h("grep") + " " + h("y")
	if r.Command != want {
		t.Errorf("command\n got %s\nwant %s", r.Command, want)
	}
	argv := []string{"curl", "-H", h("Authorization: x"), "--force", "--data=" + h("pw"), h("dd"), "if=" + h("/dev/sda")}
	if fmt.Sprint(r.Parts[0].Argv) != fmt.Sprint(argv) {
		t.Errorf("argv %q", r.Parts[0].Argv)
	}
	if !r.Redacted || r.Reason != "network access" || r.Parts[0].Reason != "net" || len(h("x")) != 14 {
		t.Errorf("record %+v", r)
	}
	if again := Redact(r); again.Command != r.Command {
		t.Error("Redact is not idempotent")
	}
	// Through Append nothing secret reaches the disk.
	path := filepath.Join(t.TempDir(), "a.jsonl")
	l := &Log{Path: path, Redact: true}
	if err := l.Append(Record{Session: "s", Decision: "deny", Command: "mysql -psecretpw db", Parts: []PartRecord{{Argv: []string{"mysql", "-psecretpw"}}}}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if bytes.Contains(b, []byte("secretpw")) || !bytes.Contains(b, []byte(`"redacted":true`)) {
		t.Errorf("log %s", b)
	}
}

func TestFormat(t *testing.T) {
	tm := time.Date(2026, 11, 30, 7, 40, 1, 0, time.Local)
	var b bytes.Buffer
	Format(&b, Record{Time: tm, Decision: "deny", Command: "rm -rf /", Parts: []PartRecord{{Argv: []string{"rm", "-rf", "/"}, Decision: "deny", Source: "builtin", Reason: "recursive delete of /"}}})
	Format(&b, Record{Time: tm, Decision: "ask", Mode: "audit", Answer: "once", Command: "ls; git push\n\x1b[2J", Parts: []PartRecord{
		{Argv: []string{"ls"}, Decision: "allow"},
		{Argv: []string{"git", "push", "a b"}, Decision: "ask", Rule: "r", Reason: "pushes"},
	}})
	want := "2026-11-30 07:40:01  deny   rm -rf /   (builtin: recursive delete of /)\n" +
		"2026-11-30 07:40:01  ask    ls; git push\\n\\x1b[2J  [answer: once]  [audit mode: not enforced]\n" +
		"    allow  ls\n" +
		"    ask    git push 'a b'   (pushes)\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	f := Filter{Since: tm, Decision: "deny"}
	if !f.Match(Record{Time: tm, Decision: "deny"}) || f.Match(Record{Time: tm, Decision: "ask"}) || f.Match(Record{Time: tm.Add(-time.Second), Decision: "deny"}) {
		t.Error("filter")
	}
}
