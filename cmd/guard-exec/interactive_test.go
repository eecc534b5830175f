package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The startup file of a guarded interactive shell must be valid bash, and
// its first statement must install the guard: a mistake there would leave a
// shell that runs everything unjudged.
func TestInteractiveRC(t *testing.T) {
	// A guard that refuses everything (a missing program fails): nothing
	// after the first line may run, not even reading the trap back.
	refuse := filepath.Join(t.TempDir(), "rc")
	os.WriteFile(refuse, []byte(interactiveRC("/nonexistent/guard-exec", false)), 0o600)
	witness := filepath.Join(t.TempDir(), "pwned")
	exec.Command("/bin/bash", "--norc", "--noprofile", "-c", `. "$1"; touch "$2"`, "x", refuse, witness).Run()
	if _, err := os.Stat(witness); err == nil {
		t.Fatal("a command ran although the guard refused it")
	}
	for _, login := range []bool{false, true} {
		rc := interactiveRC("/opt/guard exec's/guard-exec", login)
		if !strings.HasPrefix(rc, "trap '") || !strings.Contains(strings.SplitN(rc, "\n", 2)[0], "__judge-interactive") {
			t.Fatalf("the guard is not the first statement of the startup file:\n%s", rc)
		}
		path := filepath.Join(t.TempDir(), "rc")
		if err := os.WriteFile(path, []byte(rc), 0o600); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command("/bin/bash", "-n", path).CombinedOutput(); err != nil {
			t.Fatalf("bash -n rejects the startup file (login %v): %v\n%s\n%s", login, err, out, rc)
		}
		// Sourcing it installs the trap (a non-interactive shell is enough
		// to read the trap back); /bin/true stands in for an approving guard.
		ok := interactiveRC("/bin/true", login)
		if err := os.WriteFile(path, []byte(ok), 0o600); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command("/bin/bash", "--norc", "--noprofile", "-c", `HOME=/nonexistent; . "$1"; trap -p DEBUG`, "x", path).CombinedOutput()
		if err != nil || !strings.Contains(string(out), "__guard_exec_debug") {
			t.Fatalf("sourcing the startup file did not install the guard (login %v): %v\n%s", login, err, out)
		}
	}
}
