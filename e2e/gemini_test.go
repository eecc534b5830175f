package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// geminiEnv points Gemini CLI at the fake model server, with the guard's
// link first on PATH as the README set-up says.
func geminiEnv(w *world, m *fakeModel) []string {
	return []string{
		"PATH=" + filepath.Dir(w.link) + ":" + os.Getenv("PATH"),
		"GEMINI_API_KEY=e2e-fake-key",
		"GOOGLE_GEMINI_BASE_URL=" + m.url,
		"GEMINI_CLI_NO_RELAUNCH=true",
	}
}

// geminiAuth adds the one setting Gemini CLI needs to use the API key
// with the server above (without it the variable makes it pick another
// auth method and fail). The rest of settings.json is install's.
func geminiAuth(t *testing.T, w *world) {
	t.Helper()
	p := filepath.Join(w.home, ".gemini", "settings.json")
	b, err := os.ReadFile(p)
	must(t, err)
	var s map[string]any
	must(t, json.Unmarshal(b, &s))
	s["security"] = map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}}
	s["privacy"] = map[string]any{"usageStatisticsEnabled": false}
	s["general"] = map[string]any{"disableAutoUpdate": true, "disableUpdateNag": true}
	b, err = json.MarshalIndent(s, "", "  ")
	must(t, err)
	must(t, os.WriteFile(p, b, 0o644))
}

// geminiUnwrap takes the framing off Gemini CLI's run_shell_command
// result: "<untrusted_context>\nOutput: OUT\nProcess Group PGID:
// N\n</untrusted_context>" (0.61.0; OUT without its last newline).
var geminiFrame = regexp.MustCompile(`(?s)\A<untrusted_context>\nOutput: (.*)\nProcess Group PGID: [0-9]+\n</untrusted_context>\z`)

func geminiUnwrap(s string) (string, bool) {
	m := geminiFrame.FindStringSubmatch(s)
	if m == nil {
		return s, false
	}
	return m[1] + "\n", true
}

// TestGeminiCLI drives `gemini -p` with the README set-up (`guard-exec
// install gemini-cli`, the link first on PATH) in its permissive mode.
func TestGeminiCLI(t *testing.T) {
	bin := clientBin(t, "gemini")
	w := newWorld(t)
	w.install("gemini-cli")
	geminiAuth(t, w)
	m := newFakeModel(t, script, filepath.Join(w.root, "model.log"))
	// Without --skip-trust an untrusted folder silently drops --yolo, and
	// without --yolo non-interactive mode offers the model no shell tool.
	out := w.run("gemini", 3*time.Minute, geminiEnv(w, m), bin, "-p", "run the scripted commands", "--yolo", "-o", "stream-json", "--skip-trust")
	if !strings.Contains(out, `"type":"result"`) {
		t.Errorf("gemini -p gave no result:\n%s", tail([]byte(out)))
	}
	outcomes := []outcome{
		{cmd: cmdAllowed, runs: true, hook: "allow", shell: "allow"},
		{cmd: cmdDenyRule, reason: denyRuleWhy, hook: "deny"},
		{cmd: cmdDenyAbsolute, reason: "formatting a file system destroys everything on it", hook: "deny"},
		{cmd: cmdAsk, reason: "no rule matched; this needs confirmation", hook: "ask"},
	}
	w.checkResults(m, outcomes, geminiUnwrap)
	w.checkWitnesses()
	w.checkAudit(outcomes)
	w.checkNoPending()
}

// TestGeminiCLIInteractive drives Gemini CLI's own UI in tmux, in its
// default approval mode (the person confirms each shell command), with
// the README set-up: an allowed command shows Gemini's confirmation and
// runs after Yes, a refused one is blocked by the hook before any
// confirmation, and its witness never runs.
func TestGeminiCLIInteractive(t *testing.T) {
	bin := clientBin(t, "gemini")
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed: Gemini CLI's interactive UI is driven through it")
	}
	w := newWorld(t)
	w.install("gemini-cli")
	geminiAuth(t, w)
	m := newFakeModel(t, []string{cmdAllowed, cmdDenyAbsolute, cmdAsk}, filepath.Join(w.root, "model.log"))
	x := &tmux{t: t, sock: filepath.Join(w.root, "tmux.sock")}
	argv := []string{"new-session", "-d", "-s", "e2e", "-x", "160", "-y", "50", "-c", w.proj, "env", "-i"}
	argv = append(append(append(argv, w.baseEnv()...), geminiEnv(w, m)...), bin, "--skip-trust")
	x.start(argv)
	x.waitFor(time.Minute, "Type your message")
	x.cmd("send-keys", "-t", "e2e", "-l", "run the scripted commands")
	// Typed at once, the text is taken as a paste, where Enter is a new
	// line: wait before submitting.
	time.Sleep(time.Second)
	x.cmd("send-keys", "-t", "e2e", "Enter")
	// Answer Allow once to every confirmation Gemini CLI shows, until
	// the model has read a result for each scripted command.
	deadline := time.Now().Add(2 * time.Minute)
	var confirmed []string
	for len(m.Results()) < 3 {
		if time.Now().After(deadline) {
			t.Fatalf("the model read %d results within 2m: %q", len(m.Results()), m.Results())
		}
		s := x.screen()
		if strings.Contains(s, "Allow execution") {
			confirmed = append(confirmed, s)
			x.cmd("send-keys", "-t", "e2e", "1")
			// One answer per confirmation: wait until it is gone.
			for strings.Contains(x.screen(), "Allow execution") && time.Now().Before(deadline) {
				time.Sleep(200 * time.Millisecond)
			}
			continue
		}
		time.Sleep(200 * time.Millisecond)
	}
	// The hook refuses before Gemini CLI asks: the person is asked only
	// about the command the guard allows.
	if len(confirmed) != 1 || !strings.Contains(confirmed[0], cmdAllowed) {
		t.Errorf("want one confirmation, for %q; got %d:\n%s", cmdAllowed, len(confirmed), strings.Join(confirmed, "\n----\n"))
	}
	outcomes := []outcome{
		{cmd: cmdAllowed, runs: true, hook: "allow", shell: "allow"},
		{cmd: cmdDenyAbsolute, reason: "formatting a file system destroys everything on it", hook: "deny"},
		{cmd: cmdAsk, reason: "no rule matched; this needs confirmation", hook: "ask"},
	}
	// Interactive, Gemini CLI runs commands on a terminal, where ls prints
	// columns: the reference is bash on a terminal too.
	w.checkResultsWith(m, outcomes, geminiUnwrap, w.plainBashTerminal)
	w.checkWitnesses()
	w.checkAudit(outcomes)
	w.checkNoPending()
}
