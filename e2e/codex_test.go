package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// codexConfig is the model-server part of ~/.codex/config.toml: a
// provider on the fake server, Responses API.
func codexConfig(t *testing.T, w *world, m *fakeModel) {
	t.Helper()
	cfg := fmt.Sprintf(`model = "gpt-5.1-codex"
model_provider = "e2e"
check_for_update_on_startup = false

[model_providers.e2e]
name = "e2e"
base_url = "%s/v1"
env_key = "E2E_FAKE_API_KEY"
wire_api = "responses"
request_max_retries = 0
stream_max_retries = 0

[analytics]
enabled = false
`, m.url)
	p := filepath.Join(w.home, ".codex", "config.toml")
	must(t, os.MkdirAll(filepath.Dir(p), 0o755))
	f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	must(t, err)
	_, err = f.WriteString(cfg)
	must(t, err)
	must(t, f.Close())
}

// asLoginShell runs argv with shell as the user's login shell: the README
// set-up makes the guard's link the login shell (chsh), and Codex takes
// the shell from the passwd database, not $SHELL. The test cannot chsh on
// a shared machine, so it mounts a copy of /etc/passwd, with shell as this
// user's, over the real one in a private mount namespace. It returns nil
// and the reason when that is not possible here.
func asLoginShell(t *testing.T, w *world, shell string, argv []string) ([]string, string) {
	t.Helper()
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		return nil, "unshare(1) is not installed"
	}
	b, err := os.ReadFile("/etc/passwd")
	if err != nil {
		return nil, err.Error()
	}
	uid := fmt.Sprint(os.Getuid())
	var out []string
	found := false
	for _, line := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		f := strings.Split(line, ":")
		if len(f) == 7 && f[2] == uid && !found {
			f[6] = shell
			found = true
		}
		out = append(out, strings.Join(f, ":"))
	}
	if !found {
		return nil, "uid " + uid + " has no entry in /etc/passwd"
	}
	pw := filepath.Join(w.root, "passwd")
	must(t, os.WriteFile(pw, []byte(strings.Join(out, "\n")+"\n"), 0o644))
	wrap := []string{unshare, "--mount", "--propagation", "private", "sh", "-c", `mount --bind "$1" /etc/passwd && shift && exec "$@"`, "sh", pw}
	probe := exec.Command(wrap[0], append(wrap[1:], "true")...)
	if msg, err := probe.CombinedOutput(); err != nil {
		return nil, fmt.Sprintf("cannot mount a passwd with the guard as login shell (needs root or CAP_SYS_ADMIN): %v: %s", err, msg)
	}
	return append(wrap, argv...), ""
}

// codexFrame is Codex's exec_command result (0.171.0): a header, then
// "Output:\n" and the output.
var codexFrame = regexp.MustCompile(`(?s)\AChunk ID: [^\n]*\nWall time: [^\n]*\nProcess exited with code 0\nOriginal token count: [0-9]+\nOutput:\n(.*)\z`)

func codexUnwrap(s string) (string, bool) {
	m := codexFrame.FindStringSubmatch(s)
	if m == nil {
		return s, false
	}
	return m[1], true
}

// cmdAllowed2 is a second allowed command, for what a session's later
// commands read.
const cmdAllowed2 = "echo again; ls bin"

// codexUnwrapNotice is codexUnwrap for a session whose state directory
// is read-only: a result may start with the guard's notice naming the
// fallback log under TMPDIR, which *notices counts; the README promises
// one per session.
func codexUnwrapNotice(w *world, notices *int) func(string) (string, bool) {
	notice := regexp.MustCompile(`\Aguard-exec: notice: the guard's state directory cannot be written here; its decisions are recorded in ` +
		regexp.QuoteMeta(filepath.Join(w.tmp, fmt.Sprintf("guard-exec-%d", os.Getuid()), "audit.jsonl")) + "\n")
	return func(s string) (string, bool) {
		out, ok := codexUnwrap(s)
		if loc := notice.FindStringIndex(out); loc != nil {
			*notices++
			return out[loc[1]:], ok
		}
		return out, ok
	}
}

// TestCodexExec drives `codex exec` with the README set-up (`guard-exec
// install codex`, the link as login shell, the hook trusted), in its
// default sandboxed mode and in its permissive one.
func TestCodexExec(t *testing.T) {
	bin := clientBin(t, "codex")
	for _, mode := range []struct {
		name  string
		flags []string
		path  bool   // the login shell is not bash, zsh or sh: the link first on PATH instead
		base  string // where the world is ("": under /tmp)
	}{
		{"default", nil, false, ""},
		{"bypass", []string{"--dangerously-bypass-approvals-and-sandbox"}, false, ""},
		{"path-bypass", []string{"--dangerously-bypass-approvals-and-sandbox"}, true, ""},
		// HOME outside /tmp: the workspace-write sandbox makes the state
		// directory read-only; TMPDIR stays writable.
		{"workspace-write", []string{"--sandbox", "workspace-write"}, false, "/var/tmp"},
	} {
		t.Run(mode.name, func(t *testing.T) {
			w := newWorldIn(t, mode.base)
			w.install("codex")
			outcomes := []outcome{
				// Codex's default sandbox (read-only) leaves the guarded shell
				// nowhere to write its record; the hook's is there.
				{cmd: cmdAllowed, runs: true, hook: "allow", shell: "allow", shellMayNotRecord: mode.name == "default"},
				{cmd: cmdDenyRule, reason: denyRuleWhy, hook: "deny"},
				{cmd: cmdDenyAbsolute, reason: "formatting a file system destroys everything on it", hook: "deny"},
				{cmd: cmdAsk, reason: "no rule matched; this needs confirmation", hook: "ask"},
			}
			unwrap := codexUnwrap
			notices := 0
			if mode.base != "" {
				// The state directory is read-only: the first guarded shell
				// says once where the records went, later ones say nothing.
				outcomes = slices.Insert(outcomes, 1, outcome{cmd: cmdAllowed2, runs: true, hook: "allow", shell: "allow"})
				unwrap = codexUnwrapNotice(w, &notices)
			}
			var cmds []string
			for _, o := range outcomes {
				cmds = append(cmds, o.cmd)
			}
			m := newFakeModel(t, cmds, filepath.Join(w.root, "model.log"))
			codexConfig(t, w, m)
			// codex exec skips hooks nobody trusted; a person trusts this
			// one once in the TUI's /hooks dialog.
			argv := append([]string{bin, "exec", "--dangerously-bypass-hook-trust", "--json"}, mode.flags...)
			argv = append(argv, "run the scripted commands")
			env := []string{"E2E_FAKE_API_KEY=e2e-fake-key", "CODEX_HOME=" + filepath.Join(w.home, ".codex")}
			shell := w.link
			if mode.path {
				// A login shell Codex does not know (fish, say): it looks
				// for bash on PATH, where the README puts the link.
				shell = "/usr/bin/fish"
				env = append(env, "PATH="+filepath.Dir(w.link)+":"+os.Getenv("PATH"))
			}
			argv, why := asLoginShell(t, w, shell, argv)
			if why != "" {
				t.Skip("codex: the README set-up needs the guard as login shell: " + why)
			}
			out := w.run("codex", 3*time.Minute, env, argv...)
			if !strings.Contains(out, `"turn.completed"`) {
				t.Errorf("codex exec did not complete its turn:\n%s", tail([]byte(out)))
			}
			w.checkResults(m, outcomes, unwrap)
			w.checkWitnesses()
			w.checkAudit(outcomes)
			w.checkNoPending()
			if mode.base != "" && notices != 1 {
				// In Codex's sandbox each command's guarded shell is a child
				// of a new pid namespace's init, so the guard's session is
				// new for every command; the notice is still said once.
				t.Errorf("the notice that the state directory is read-only reached the model in %d of %d results, want exactly 1", notices, len(outcomes))
			}
		})
	}
}
