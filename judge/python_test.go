package judge

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/guard-exec/guard-exec/policy"
	"github.com/guard-exec/guard-exec/pycode"
)

// TestPythonJudgedByContent judges python commands with the real python3:
// harmless code is allowed, and a command the code runs is judged as that
// command (a deny rule for the witness `touch pwned` decides it). Nothing
// is run but the parser.
func TestPythonJudgedByContent(t *testing.T) {
	py, err := exec.LookPath("python3")
	if _, e := os.Stat("/usr/bin/python3"); e == nil {
		py, err = "/usr/bin/python3", nil
	}
	if err != nil {
		t.Skip("no python3 on PATH: the analysis needs a real interpreter")
	}
	dir := t.TempDir()
	f, err := policy.ParseFile("t.toml", []byte("[[rule]]\ndecision = \"deny\"\ncommand = \"touch pwned\"\n"), policy.User)
	if err != nil {
		t.Fatal(err)
	}
	pol, err := policy.Build(policy.Sources{Env: &policy.Env{Home: "/nonexistent-home", Project: dir, Temp: []string{"/tmp"}}, User: f})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Dir(py)
	getenv := func(k string) string {
		if k == "PATH" {
			return path
		}
		return ""
	}
	an := &pycode.Analyser{Getenv: getenv}
	for _, tc := range []struct{ src, want, reason string }{
		{`python3 -c 'print(1+1)'`, "allow", ""},
		{`python3 -c 'import os; os.system("touch pwned")'`, "deny", ""},
		{"python3 <<'EOF'\nimport subprocess\nsubprocess.run(['touch', 'pwned'])\nEOF", "deny", ""},
		{`echo 'print(2)' | python3`, "allow", ""},
		{`python3 -c 'import shutil; shutil.rmtree("build")'`, "ask", "uses shutil.rmtree"},
		{`python3 -c 'open("/etc/hosts", "w").write("x")'`, "ask", "outside the project"},
		{`python3 -c 'def f(:'`, "ask", "syntax error"},
	} {
		res := Judge(pol, Request{Source: tc.src, Cwd: dir, Getenv: getenv, Params: []string{"bash"}, Python: an})
		if res.Decision != tc.want || !strings.Contains(res.Reason, tc.reason) {
			t.Errorf("%s: %s (%s), want %s (%s)", tc.src, res.Decision, res.Reason, tc.want, tc.reason)
		}
		if tc.want == "deny" {
			found := false
			for _, p := range res.Commands {
				if strings.Join(p.Argv, " ") == "touch pwned" && len(p.Via) > 0 && strings.HasPrefix(p.Via[len(p.Via)-1], "python ") {
					found = true
				}
			}
			if !found {
				t.Errorf("%s: no part `touch pwned` via python", tc.src)
			}
		}
	}
	// Without an analyser the code stays opaque, as before.
	if res := Judge(pol, Request{Source: `python3 -c 'print(1)'`, Cwd: dir, Getenv: getenv}); res.Decision != "ask" {
		t.Errorf("without an analyser: %s", res.Decision)
	}
	if _, err := os.Stat(filepath.Join(dir, "pwned")); err == nil {
		t.Error("the witness ran")
	}
}
