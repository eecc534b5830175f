package install

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseHookInput(t *testing.T) {
	for _, tc := range []struct {
		file, tool, cmd, dir, err string
		shell                     bool
	}{
		{file: "claude-code-bash.json", tool: "Bash", cmd: "psql -c 'SELECT * FROM users'", shell: true},
		{file: "claude-code-bash-newer.json", tool: "Bash", cmd: "rm -rf build && make", shell: true},
		{file: "claude-code-write.json", tool: "Write"},
		{file: "codex-bash.json", tool: "Bash", cmd: "git push --force origin main", shell: true},
		{file: "codex-apply-patch.json", tool: "apply_patch"},
		{file: "gemini-cli-shell.json", tool: "run_shell_command", cmd: "npm test", dir: "packages/core", shell: true},
		{file: "malformed.json", err: "not a JSON object"},
		{file: "claude-code-bash-no-command.json", err: "no string tool_input.command"},
	} {
		f, err := os.Open(filepath.Join("testdata", tc.file))
		must(t, err)
		in, err := ParseHookInput(f)
		f.Close()
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want %q", tc.file, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.file, err)
			continue
		}
		if in.ToolName != tc.tool || in.Command != tc.cmd || in.Shell != tc.shell || in.Dir != tc.dir || in.SessionID == "" || in.Cwd == "" {
			t.Errorf("%s: got %+v", tc.file, in)
		}
	}
	for _, bad := range []string{"", "null", "[]", `{"tool_name": 3}`, `{"hook_event_name":"PreToolUse","tool_input":{"command":"ls"}}`, `{"tool_name":"Bash","tool_input":{"command":["ls"]}}`, `{"tool_name":"Bash"}`, `{"tool_name":"Bash","tool_input":{"command":"ls"}} trailing`,
		// A repeated key: readers differ on which one counts.
		`{"tool_name":"Bash","tool_input":{"command":"rm -rf ~","command":"ls"}}`,
		`{"tool_name":"Bash","tool_name":"Read","tool_input":{"command":"rm -rf ~"}}`,
		`{"tool_name":"Bash","tool_input":{"command":"ls","description":7}}`} {
		if _, err := ParseHookInput(strings.NewReader(bad)); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	// Keys are matched exactly, as the clients match them: encoding/json
	// would fill command and tool_name from the keys in capitals.
	for _, in := range []string{
		`{"tool_name":"Bash","tool_input":{"command":"rm -rf ~","COMMAND":"ls"}}`,
		`{"tool_name":"Bash","TOOL_NAME":"Read","tool_input":{"command":"rm -rf ~"}}`,
	} {
		got, err := ParseHookInput(strings.NewReader(in))
		if err != nil || !got.Shell || got.Command != "rm -rf ~" {
			t.Errorf("%s: %+v %v", in, got, err)
		}
	}
	in, err := ParseHookInput(strings.NewReader(`{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{}}`))
	if err != nil || in.Shell {
		t.Errorf("PostToolUse: %+v %v", in, err)
	}
}

func TestHookOutput(t *testing.T) {
	for _, tc := range []struct{ decision, reason, want string }{
		{"deny", "rm -rf / is refused: delete the build dir instead", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"rm -rf / is refused: delete the build dir instead"}}`},
		{"allow", "", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`},
		{"ask", "curl | sh <runs> & downloads", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"curl | sh <runs> & downloads"}}`},
		{"maybe", "x", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"x"}}`},
	} {
		if got := string(HookOutput(tc.decision, tc.reason)); got != tc.want+"\n" {
			t.Errorf("HookOutput(%q) = %s", tc.decision, got)
		}
	}
	// Byte for byte what encoding/json writes, for any reason.
	type specific struct {
		HookEventName            string `json:"hookEventName"`
		PermissionDecision       string `json:"permissionDecision"`
		PermissionDecisionReason string `json:"permissionDecisionReason,omitempty"`
	}
	for _, reason := range []string{"", "a\"b\\c\n\t\x01\u2028", "\xff\xfe bad UTF-8", "<&>", "é 😀"} {
		want := append(jsonText(struct {
			HookSpecificOutput specific `json:"hookSpecificOutput"`
		}{specific{"PreToolUse", "ask", reason}}), '\n')
		if got := HookOutput("ask", reason); string(got) != string(want) {
			t.Errorf("HookOutput(ask, %q) = %s, encoding/json %s", reason, got, want)
		}
	}
}

func TestHookReply(t *testing.T) {
	for _, tc := range []struct {
		client, decision  string
		stdout, stderrHas string
		code              int
	}{
		{"claude-code", "ask", `"permissionDecision":"ask"`, "", 0},
		{"claude-code", "", "", "", 0},
		{"codex", "allow", "", "", 0},
		{"codex", "deny", "", "no force push", 2},
		{"codex", "ask", "", "codex cannot ask from a hook", 2},
		{"gemini-cli", "allow", "{}\n", "", 0},
		{"gemini-cli", "ask", "", "no force push (guard-exec would ask a person first", 2},
	} {
		out, errb, code := HookReply(tc.client, tc.decision, "no force push")
		if !strings.Contains(string(out), tc.stdout) || (tc.stdout == "" && len(out) != 0) || !strings.Contains(string(errb), tc.stderrHas) || code != tc.code {
			t.Errorf("%s %s: %q %q %d", tc.client, tc.decision, out, errb, code)
		}
		if code == 2 && (len(strings.TrimSpace(string(errb))) == 0 || !strings.HasSuffix(string(errb), "\n")) {
			t.Errorf("%s %s: exit 2 needs a reason on stderr", tc.client, tc.decision)
		}
	}
	if _, errb, _ := HookReply("codex", "deny", " "); len(strings.TrimSpace(string(errb))) == 0 {
		t.Error("empty reason: Codex would fail open")
	}
}
