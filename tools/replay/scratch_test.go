package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/guard-exec/guard-exec/judge"
	"github.com/guard-exec/guard-exec/policy"
)

func TestProjectRoot(t *testing.T) {
	for _, tc := range []struct {
		cmds []string
		want string
	}{
		{[]string{"cd /testbed && ls", "cat /testbed/a.py"}, "/testbed"},
		// A file named in every command is not the root.
		{[]string{"cat /app/answer.txt", "echo 1 > /app/answer.txt", "wc -l /app/answer.txt"}, "/app"},
		{[]string{"ls /home/user/p/src/a.go", "cat /home/user/p/README", "ls /home/user/p/docs/x"}, "/home/user/p"},
		{[]string{"ls"}, "/app"},
		// A Windows drive under WSL.
		{[]string{"touch /mnt/c/python/p/LICENSE", "ls /mnt/c/python/p/docs/", "cat /home/user/notes/a.md"}, "/mnt/c/python/p"},
		// Nor a directory it makes.
		{[]string{"mkdir -p /app/ssl", "openssl genrsa -out /app/ssl/k", "cat /app/ssl/k /app/ssl/c"}, "/app"},
	} {
		if got := projectRoot(tc.cmds); got != tc.want {
			t.Errorf("projectRoot(%q) = %q, want %q", tc.cmds, got, tc.want)
		}
	}
}

func TestScratchText(t *testing.T) {
	sc, err := newScratch(t.TempDir(), "/app/ssl")
	if err != nil {
		t.Fatal(err)
	}
	d := sc.dir
	for in, want := range map[string]string{
		"cat /app/ssl/x && ls /app":           "cat " + d + "/app/ssl/x && ls " + d + "/app",
		"cd /home/user/p; ls ~/x /Users/user": "cd " + d + "/home/user/p; ls ~/x " + d + "/home/user",
		"echo x > /tmp/a.py":                  "echo x > " + d + "/tmp/a.py",
		"python3 -c \"open('/app/x')\"":       "python3 -c \"open('" + d + "/app/x')\"",
		// Not these paths: other directories that start alike, paths
		// inside others, URLs.
		"ls /application /usr/app /tmpfs /home/username": "ls /application /usr/app /tmpfs /home/username",
		"curl http://h/app/x":                            "curl http://h/app/x",
		"PYTHONPATH=/app:/tmp x":                         "PYTHONPATH=" + d + "/app:" + d + "/tmp x",
	} {
		if got := sc.Text(in); got != want {
			t.Errorf("Text(%q)\n = %q\nwant %q", in, got, want)
		}
	}
	if got := sc.Unmap("cannot read " + d + "/app/x; " + d + "/home/user/y"); got != "cannot read /app/x; /home/user/y" {
		t.Errorf("Unmap = %q", got)
	}
}

// TestScratchApply replays a few commands in a scratch: what a
// here-document writes is there for the next command, what a later
// command may change is gone, and a script written and run by one
// command is still unread when that command is judged.
func TestScratchApply(t *testing.T) {
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		t.Log("no python3: Python scripts stay opaque")
	}
	base, err := scratchBase()
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(base)
	sc, err := newScratch(base, "/app")
	if err != nil {
		t.Fatal(err)
	}
	root := sc.Path("/app")
	p, err := policy.Build(policy.Sources{Env: &policy.Env{Home: sc.Home(), Project: root, Temp: []string{sc.Temp()}}})
	if err != nil {
		t.Fatal(err)
	}
	run := func(cmd string) *judge.Result {
		t.Helper()
		res := judge.Judge(p, judge.Request{Source: sc.Text(cmd), Cwd: root, AllParts: true,
			Getenv: func(k string) string { return map[string]string{"HOME": sc.Home(), "TMPDIR": sc.Temp()}[k] }})
		if res.Decided != policy.Deny {
			if err := sc.Apply(res); err != nil {
				t.Fatal(err)
			}
		}
		return res
	}
	read := func(rel string) (string, bool) {
		b, err := os.ReadFile(filepath.Join(root, rel))
		return string(b), err == nil
	}

	// A shell script written with cat and a quoted here-document, then
	// run: judged by its content (a denied command inside is denied).
	run("cat > check.sh <<'EOF'\necho $HOME\nls\nEOF")
	if s, ok := read("check.sh"); !ok || s != "echo $HOME\nls\n" {
		t.Fatalf("check.sh = %q, %v", s, ok)
	}
	run("chmod +x check.sh")
	if res := run("./check.sh"); res.Decided != policy.Allow {
		t.Errorf("./check.sh of known text: %v (%s), want allow", res.Decided, res.Reason)
	}
	run("cat <<'EOF' > bad.sh\nrm -rf /\nEOF")
	if res := run("bash bad.sh"); res.Decided != policy.Deny {
		t.Errorf("bash bad.sh: %v (%s), want deny", res.Decided, res.Reason)
	}
	// Appended with >> to a file the replay wrote; tee too.
	run("cat >> check.sh <<'EOF'\npwd\nEOF")
	run("tee -a check.sh <<'EOF'\ndate\nEOF")
	if s, _ := read("check.sh"); s != "echo $HOME\nls\npwd\ndate\n" {
		t.Errorf("after appends check.sh = %q", s)
	}
	// An unquoted here-document with an expansion: its text is not
	// known, so nothing is written.
	run("cat > vars.sh <<EOF\necho $PATH\nEOF")
	if _, ok := read("vars.sh"); ok {
		t.Error("vars.sh written from a here-document with an expansion")
	}
	// Edited by a program the replay does not run: forgotten, so it
	// asks as unreadable rather than being judged as it was.
	run("sed -i 's/ls/rm -rf ~/' check.sh")
	if _, ok := read("check.sh"); ok {
		t.Error("check.sh kept after sed -i changed it")
	}
	if res := run("./check.sh"); res.Decided == policy.Allow {
		t.Errorf("./check.sh after an edit the replay cannot follow: allowed")
	}
	// A file written and run by the same command is judged as the
	// guard judges it: by what the command writes.
	if res := run("cat > t.sh <<'EOF'\necho hi\nEOF\nbash t.sh"); res.Decided != policy.Allow {
		t.Errorf("writing and running t.sh in one command: %s (%s)", res.Decided, res.Reason)
	}
	if res := run("cat > t2.sh <<'EOF'\nrm -rf ~\nEOF\nbash t2.sh"); res.Decided != policy.Deny {
		t.Errorf("writing and running t2.sh (rm -rf ~) in one command: %s (%s)", res.Decided, res.Reason)
	}
	// Paths outside the scratch are never written.
	run("cat > /etc/x.conf <<'EOF'\nx\nEOF")
	for f := range sc.written {
		if !strings.HasPrefix(f, sc.dir+"/") {
			t.Errorf("wrote %s outside the scratch", f)
		}
	}
}

func TestScratchSWE(t *testing.T) {
	sc, err := newScratch(t.TempDir(), "/app")
	if err != nil {
		t.Fatal(err)
	}
	root := sc.Path("/app")
	f := filepath.Join(root, "r.py")
	steps := []struct{ cmd, want string }{
		{"create r.py", ""},
		{"edit 1:1\nimport json\nprint(1)\nend_of_edit", "import json\nprint(1)\n"},
		{"edit 2:2\nprint(2)\nprint(3)\nend_of_edit", "import json\nprint(2)\nprint(3)\n"},
		{"edit 1:1\nend_of_edit", "print(2)\nprint(3)\n"},
		{"edit 3:3\nx = 1\nend_of_edit", "print(2)\nprint(3)\nx = 1\n"},
		{"open other.py", "print(2)\nprint(3)\nx = 1\n"},
		{"edit 1:1\nimport os\nend_of_edit", "print(2)\nprint(3)\nx = 1\n"}, // not the replay's file
		{"open r.py", "print(2)\nprint(3)\nx = 1\n"},
		{"edit 1:1 r.py\nimport os\nend_of_edit", "(gone)"}, // not SWE-agent's syntax: forgotten
	}
	for _, s := range steps {
		if err := sc.SWE(s.cmd, root); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(f)
		got := string(b)
		if err != nil {
			got = "(gone)"
		}
		if got != s.want {
			t.Errorf("after %q: r.py = %q, want %q", s.cmd, got, s.want)
		}
	}
}
