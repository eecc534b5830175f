//go:build linux

package difftest

import (
	"os"
	"os/exec"
	"testing"
)

// TestBuiltGuardKeepsIgnoredSignals: the guard as the README builds it
// passes on the signals its caller ignored, and the signal mask, exactly
// as bash started directly would see them (docs/bash-facts.md, "exec").
func TestBuiltGuardKeepsIgnoredSignals(t *testing.T) {
	requireSetup(t)
	if H.guardErr != nil {
		t.Fatalf("no guard binary: %v", H.guardErr)
	}
	dir := t.TempDir()
	env := append(os.Environ(), "XDG_STATE_HOME="+dir+"/state", "XDG_CONFIG_HOME="+dir+"/config", "GUARD_EXEC_SESSION=difftest")
	const report = "grep -E '^Sig(Ign|Blk)' /proc/self/status"
	run := func(shell string) string {
		cmd := exec.Command("/bin/sh", "-c", `trap "" PIPE QUIT TERM USR1 ALRM; exec "$1" -c "$2"`, "sh", shell, report)
		cmd.Env, cmd.Dir = env, dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", shell, err, out)
		}
		return string(out)
	}
	want, got := run("/bin/bash"), run(H.guard)
	if got != want {
		t.Errorf("under the guard bash sees:\n%s\nstarted directly:\n%s", got, want)
	}
}
