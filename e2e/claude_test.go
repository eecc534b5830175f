package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// claudeEnv points Claude Code at the fake model server and keeps it off
// the network.
func claudeEnv(m *fakeModel) []string {
	return []string{
		"ANTHROPIC_BASE_URL=" + m.url,
		"ANTHROPIC_API_KEY=sk-ant-api03-e2e-fake-key-0123456789abcdefghij",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_AUTOUPDATER=1",
		"DISABLE_TELEMETRY=1",
	}
}

// claudeUnwrap: Claude Code hands the model the command's output with the
// trailing newline removed.
func claudeUnwrap(s string) (string, bool) { return s + "\n", true }

// TestClaudeCodePrint drives `claude -p` with the README set-up
// (`guard-exec install claude-code`), in the default permission mode and
// in the permissive one people run agents in.
func TestClaudeCodePrint(t *testing.T) {
	bin := clientBin(t, "claude")
	for _, mode := range []struct {
		name  string
		flags []string
		env   []string
	}{
		{"default", nil, nil},
		// Refused as root unless IS_SANDBOX=1.
		{"skip-permissions", []string{"--dangerously-skip-permissions"}, []string{"IS_SANDBOX=1"}},
	} {
		t.Run(mode.name, func(t *testing.T) {
			w := newWorld(t)
			w.install("claude-code")
			m := newFakeModel(t, script, filepath.Join(w.root, "model.log"))
			argv := append([]string{bin, "-p", "run the scripted commands", "--output-format", "stream-json", "--verbose"}, mode.flags...)
			out := w.run("claude", 2*time.Minute, append(claudeEnv(m), mode.env...), argv...)
			if !strings.Contains(out, `"type":"result"`) {
				t.Errorf("claude -p gave no result:\n%s", tail([]byte(out)))
			}
			outcomes := []outcome{
				{cmd: cmdAllowed, runs: true, hook: "allow", shell: "allow"},
				{cmd: cmdDenyRule, reason: denyRuleWhy, hook: "deny"},
				{cmd: cmdDenyAbsolute, reason: "formatting a file system destroys everything on it", hook: "deny"},
				// In -p mode Claude Code has nobody to ask: the hook's ask is
				// a refusal, even when permissions are skipped.
				{cmd: cmdAsk, reason: "no rule matched; this needs confirmation", hook: "ask"},
			}
			w.checkResults(m, outcomes, claudeUnwrap)
			w.checkWitnesses()
			w.checkAudit(outcomes)
			w.checkNoPending()
		})
	}
}

// tmux drives a terminal program in a private tmux server.
type tmux struct {
	t    *testing.T
	sock string
}

func (x *tmux) cmd(args ...string) string {
	x.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", x.sock}, args...)...).CombinedOutput()
	if err != nil {
		x.t.Fatalf("tmux %q: %v\n%s", args, err, out)
	}
	return string(out)
}

// start runs the new-session argv and, at the test's end, shows the last
// screen if the test failed and stops the program, waiting until it is
// gone (it must not write into the world while the world is removed).
func (x *tmux) start(argv []string) {
	x.t.Helper()
	x.cmd(argv...)
	pid, err := strconv.Atoi(strings.TrimSpace(x.cmd("display-message", "-p", "-t", "e2e", "#{pane_pid}")))
	if err != nil {
		x.t.Fatalf("tmux: the pane's process: %v", err)
	}
	x.t.Cleanup(func() {
		if x.t.Failed() {
			out, _ := exec.Command("tmux", "-S", x.sock, "capture-pane", "-p", "-t", "e2e").CombinedOutput()
			x.t.Logf("last screen:\n%s", out)
		}
		exec.Command("tmux", "-S", x.sock, "kill-server").Run()
		// Bounded: a zombie nobody reaps would answer forever.
		for i := 0; i < 100 && syscall.Kill(pid, 0) == nil; i++ {
			if i == 50 {
				syscall.Kill(pid, syscall.SIGKILL)
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
}

func (x *tmux) screen() string { return x.cmd("capture-pane", "-p", "-t", "e2e") }

// waitFor waits until the screen shows every text, and returns the
// screen.
func (x *tmux) waitFor(timeout time.Duration, texts ...string) string {
	x.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		s := x.screen()
		all := true
		for _, text := range texts {
			all = all && strings.Contains(s, text)
		}
		if all {
			return s
		}
		if time.Now().After(deadline) {
			x.t.Fatalf("the screen never showed %q within %v; it shows:\n%s", texts, timeout, s)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// press sends a key on a screen that shows from, until it shows to: a
// TUI that has drawn its dialog may not read keys yet, and a key sent then
// is lost (Codex's folder-trust dialog under load). Sent again only while
// the screen still shows from.
func (x *tmux) press(timeout time.Duration, key, from, to string) string {
	x.t.Helper()
	deadline := time.Now().Add(timeout)
	x.cmd("send-keys", "-t", "e2e", key)
	sent := time.Now()
	for {
		s := x.screen()
		if strings.Contains(s, to) {
			return s
		}
		if time.Now().After(deadline) {
			x.t.Fatalf("the screen never showed %q within %v after %s; it shows:\n%s", to, timeout, key, s)
		}
		if strings.Contains(s, from) && time.Since(sent) > 3*time.Second {
			x.cmd("send-keys", "-t", "e2e", key)
			sent = time.Now()
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// claudeOnboarded writes the state Claude Code's interactive UI keeps in
// ~/.claude.json, so that it starts without its first-run questions:
// onboarding done, the API key approved, the project folder trusted.
func claudeOnboarded(t *testing.T, w *world, key string) {
	t.Helper()
	st := map[string]any{
		"hasCompletedOnboarding": true,
		"customApiKeyResponses":  map[string]any{"approved": []string{key[len(key)-20:]}, "rejected": []string{}},
		"projects":               map[string]any{w.proj: map[string]any{"hasTrustDialogAccepted": true, "hasCompletedProjectOnboarding": true}},
	}
	b, err := json.Marshal(st)
	must(t, err)
	must(t, os.WriteFile(filepath.Join(w.home, ".claude.json"), b, 0o600))
}

// TestClaudeCodeInteractive drives Claude Code's own UI in tmux with the
// README set-up: the model asks for a command the guard would ask about,
// the person answers Yes (it runs, once, only after the answer), then for
// another, the person answers No (it never runs), and nothing the hook
// left behind outlives the session.
func TestClaudeCodeInteractive(t *testing.T) {
	bin := clientBin(t, "claude")
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed: Claude Code's interactive UI is driven through it")
	}
	w := newWorld(t)
	w.install("claude-code")
	const cmdAsk2 = "./bin/mytool --again"
	m := newFakeModel(t, []string{cmdAsk, cmdAsk2}, filepath.Join(w.root, "model.log"))
	env := claudeEnv(m)
	key := strings.TrimPrefix(env[1], "ANTHROPIC_API_KEY=")
	claudeOnboarded(t, w, key)

	x := &tmux{t: t, sock: filepath.Join(w.root, "tmux.sock")}
	argv := []string{"new-session", "-d", "-s", "e2e", "-x", "160", "-y", "50", "-c", w.proj, "env", "-i"}
	argv = append(append(append(argv, w.baseEnv()...), env...), bin)
	x.start(argv)
	witness := filepath.Join(w.witness, "mytool")
	ran := func() string { b, _ := os.ReadFile(witness); return string(b) }

	x.waitFor(time.Minute, "? for shortcuts")
	x.cmd("send-keys", "-t", "e2e", "-l", "run the scripted commands")
	x.cmd("send-keys", "-t", "e2e", "Enter")
	s := x.waitFor(time.Minute, "Do you want to proceed?")
	if got := ran(); got != "" || !strings.Contains(s, cmdAsk) {
		t.Fatalf("%q ran before the person answered (witness %q), or the prompt is not about it", cmdAsk, got)
	}
	session := pendingSession(t, w)
	w.foreignTake(cmdAsk, session, "while Claude Code asks")
	x.cmd("send-keys", "-t", "e2e", answerKey(t, s, "Yes"))
	// The model goes on with the second command: another prompt.
	s = x.waitFor(time.Minute, "Do you want to proceed?", "Bash command\n\n   "+cmdAsk2)
	if got := ran(); got != "--flag\n" {
		t.Errorf("after Yes the witness holds %q, want %q (the approved command, once)", got, "--flag\n")
	}
	// The approval was taken once: nothing is left to take again.
	w.foreignTake(cmdAsk, session, "after Yes")
	if got := pendingSession(t, w); got != session {
		t.Errorf("the second question is for session %q, the first was %q", got, session)
	}
	w.foreignTake(cmdAsk2, session, "while Claude Code asks")
	x.cmd("send-keys", "-t", "e2e", answerKey(t, s, "No"))
	time.Sleep(3 * time.Second)
	w.foreignTake(cmdAsk2, session, "after No")
	if got := ran(); got != "--flag\n" {
		t.Errorf("after No the witness holds %q: %q ran", got, cmdAsk2)
	}
	// A No aborts the turn; the next prompt clears the session's questions.
	x.cmd("send-keys", "-t", "e2e", "-l", "finish")
	x.cmd("send-keys", "-t", "e2e", "Enter")
	x.waitFor(time.Minute, "● done")
	w.checkNoPending()
	x.cmd("send-keys", "-t", "e2e", "-l", "/exit")
	x.cmd("send-keys", "-t", "e2e", "Enter")
	time.Sleep(2 * time.Second)

	res := m.Results()
	if len(res) < 1 || !strings.Contains(res[0], "mytool ran: --flag") {
		t.Errorf("the model did not read the approved command's output: %q", res)
	}
	w.checkAudit([]outcome{
		{cmd: cmdAsk, hook: "ask", shell: "ask", answered: "approved-by-client"},
		{cmd: cmdAsk2, hook: "ask"},
	})
	w.checkNoPending()
}

// answerKey is the key that picks the answer in Claude Code's permission
// prompt ("❯ 1. Yes", "2. No"; the list varies by command).
func answerKey(t *testing.T, screen, answer string) string {
	t.Helper()
	re := regexp.MustCompile(`(?m)^\s*(?:❯\s*)?([0-9])\. ` + answer + `\b`)
	m := re.FindStringSubmatch(screen)
	if m == nil {
		t.Fatalf("the prompt offers no %q:\n%s", answer, screen)
	}
	return m[1]
}

// pendingSession returns the session of the one pending question the
// hook's ask left (Claude Code is showing its prompt).
func pendingSession(t *testing.T, w *world) string {
	t.Helper()
	dir := filepath.Join(w.home, ".local", "state", "guard-exec", "pending")
	ents, err := os.ReadDir(dir)
	if err != nil || len(ents) != 1 {
		t.Fatalf("want one pending question while Claude Code asks, have %d (%v)", len(ents), err)
	}
	b, err := os.ReadFile(filepath.Join(dir, ents[0].Name()))
	must(t, err)
	var q struct{ Session string }
	must(t, json.Unmarshal(b, &q))
	return q.Session
}

// foreignCwd marks the test's own attempts in the audit log.
func (w *world) foreignCwd() string { return filepath.Join(w.tmp, "foreign-cwd") }

// foreignTake tries to use a pending question from outside Claude Code:
// a guarded shell with Claude Code's scaffolding, its variables and the
// session id, started by the test, not by Claude Code. It must be
// refused and run nothing.
func (w *world) foreignTake(cmd, session, when string) {
	w.t.Helper()
	s := "shopt -u extglob 2>/dev/null || true && eval " + shellQuote(cmd) + " < /dev/null && pwd -P >| " + w.foreignCwd()
	c := exec.Command(w.link, "-c", s)
	c.Dir = w.proj
	c.Env = append(w.baseEnv(), "CLAUDECODE=1", "CLAUDE_CODE_SESSION_ID="+session, "CLAUDE_CODE_CHILD_SESSION=1")
	out, err := c.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 3 {
		w.t.Errorf("%s, a guarded shell outside Claude Code ran %q: %v\n%s", when, cmd, err, out)
	}
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'"'"'`) + "'" }
