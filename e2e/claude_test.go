package e2e

import (
	"path/filepath"
	"strings"
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
