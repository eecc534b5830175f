package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCodexTUI drives Codex's own UI in tmux with the README set-up, in
// its default permissions, doing what a person does once: trust the
// folder and the hook in the "Hooks need review" dialog. Then the script
// runs as in codex exec, and afterwards codex exec runs the hook without
// --dangerously-bypass-hook-trust: the trust given once holds.
func TestCodexTUI(t *testing.T) {
	bin := clientBin(t, "codex")
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed: Codex's interactive UI is driven through it")
	}
	w := newWorld(t)
	w.install("codex")
	m := newFakeModel(t, script, filepath.Join(w.root, "model.log"))
	codexConfig(t, w, m)
	argv, why := asLoginShell(t, w, w.link, []string{bin})
	if why != "" {
		t.Skip("codex: the README set-up needs the guard as login shell: " + why)
	}
	env := []string{"E2E_FAKE_API_KEY=e2e-fake-key", "CODEX_HOME=" + filepath.Join(w.home, ".codex")}
	x := &tmux{t: t, sock: filepath.Join(w.root, "tmux.sock")}
	targv := []string{"new-session", "-d", "-s", "e2e", "-x", "160", "-y", "50", "-c", w.proj, "env", "-i"}
	x.start(append(append(append(targv, w.baseEnv()...), env...), argv...))

	x.waitFor(time.Minute, "Trust this folder?", "› 1. Trust and continue")
	x.press(time.Minute, "Enter", "Trust this folder?", "Hooks need review")
	x.cmd("send-keys", "-t", "e2e", "2")
	x.waitFor(time.Minute, "› 2. Trust all and continue")
	x.cmd("send-keys", "-t", "e2e", "Enter")
	x.waitFor(time.Minute, "Ask Codex to do anything")
	x.cmd("send-keys", "-t", "e2e", "-l", "run the scripted commands")
	time.Sleep(time.Second) // not a paste
	x.cmd("send-keys", "-t", "e2e", "Enter")
	x.waitFor(time.Minute, "• done")
	x.cmd("send-keys", "-t", "e2e", "C-c")
	x.cmd("send-keys", "-t", "e2e", "C-c")

	outcomes := []outcome{
		{cmd: cmdAllowed, runs: true, hook: "allow", shell: "allow"},
		{cmd: cmdDenyRule, reason: denyRuleWhy, hook: "deny"},
		{cmd: cmdDenyAbsolute, reason: "formatting a file system destroys everything on it", hook: "deny"},
		{cmd: cmdAsk, reason: "no rule matched; this needs confirmation", hook: "ask"},
	}
	w.checkResults(m, outcomes, codexUnwrap)
	w.checkWitnesses()
	w.checkAudit(outcomes)
	w.checkNoPending()

	// The trust is kept: codex exec now runs the hook without being told
	// to skip the review.
	m.reset()
	argv, _ = asLoginShell(t, w, w.link, []string{bin, "exec", "--json", "run the scripted commands"})
	out := w.run("codex-exec", 3*time.Minute, env, argv...)
	if strings.Contains(out, "bypass-hook-trust") {
		t.Errorf("codex exec was told to bypass hook trust:\n%s", out)
	}
	w.checkResults(m, outcomes, codexUnwrap)
	w.checkWitnesses()
	// The guarded login shell would refuse these too: that the hook ran
	// shows in its records, one per command in each session.
	recs := w.audit()
	for _, o := range outcomes {
		if hook, _ := w.recordsFor(recs, o.cmd); len(hook) != 2 {
			t.Errorf("%q: %d hook records after two sessions, want 2: the trust given in the dialog did not hold", o.cmd, len(hook))
		}
	}
	if t.Failed() {
		b, _ := os.ReadFile(filepath.Join(w.home, ".codex", "config.toml"))
		t.Logf("config.toml after the dialog:\n%s", b)
	}
}
