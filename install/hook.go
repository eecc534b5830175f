package install

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/guard-exec/guard-exec/internal/jsontext"
)

// HookInput is what guard-exec needs from a PreToolUse (Claude Code, Codex)
// or BeforeTool (Gemini CLI) payload. Unknown fields are ignored.
type HookInput struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"` // null from Codex: ""
	Cwd            string `json:"cwd"`
	HookEventName  string `json:"hook_event_name"`
	PermissionMode string `json:"permission_mode"`
	ToolName       string `json:"tool_name"`
	ToolUseID      string `json:"tool_use_id"`

	// From tool_input, for shell tools.
	Command     string `json:"-"`
	Description string `json:"-"`
	Dir         string `json:"-"` // Gemini's dir_path: where the command runs, relative to Cwd

	// Shell reports that the call runs a shell command to judge. When false
	// the call is not guard-exec's business and the caller allows it.
	Shell bool `json:"-"`
}

// shellTools are the tool names whose tool_input.command is a shell command.
// Codex's apply_patch also has a "command" (a patch), so it is not here.
func shellTools(name string) bool {
	switch name {
	case "Bash", "run_shell_command", "ShellTool", "shell":
		return true
	}
	return false
}

// maxHookInput bounds what a hook reads: commands can be long, not endless.
const maxHookInput = 64 << 20

// ParseHookInput reads one hook payload. Input that is not a JSON object, or
// a shell call without a string tool_input.command, is an error: the caller
// must then refuse (a hook that fails otherwise lets the call run).
func ParseHookInput(r io.Reader) (*HookInput, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxHookInput+1))
	if err != nil {
		return nil, fmt.Errorf("reading hook input: %w", err)
	}
	if len(b) > maxHookInput {
		return nil, fmt.Errorf("hook input is over %d MiB: refusing to judge it", maxHookInput>>20)
	}
	// Not encoding/json: it also fills a field from a key in another case,
	// so {"command":"rm -rf ~","COMMAND":"ls"} would be judged as ls while
	// the client runs rm. jsontext.Parse matches keys as the clients do and
	// refuses a repeated key.
	doc, err := jsontext.Parse(b)
	if err != nil || doc.Kind != '{' {
		if err == nil {
			err = errors.New("not an object")
		}
		return nil, fmt.Errorf("hook input is not a JSON object as Claude Code, Codex and Gemini CLI send: %v", err)
	}
	var in HookInput
	for _, f := range []struct {
		key string
		to  *string
	}{
		{"session_id", &in.SessionID}, {"transcript_path", &in.TranscriptPath}, {"cwd", &in.Cwd},
		{"hook_event_name", &in.HookEventName}, {"permission_mode", &in.PermissionMode},
		{"tool_name", &in.ToolName}, {"tool_use_id", &in.ToolUseID},
	} {
		if !stringField(doc, f.key, f.to) {
			return nil, fmt.Errorf("hook input's %s is not a string", f.key)
		}
	}
	switch in.HookEventName {
	case "", "PreToolUse", "BeforeTool":
	default:
		return &in, nil // not a pre-call event: nothing to judge
	}
	if in.ToolName == "" {
		return nil, errors.New("hook input has no tool_name: cannot tell what the client is about to run")
	}
	if !shellTools(in.ToolName) {
		return &in, nil
	}
	ti, ok := doc.Get("tool_input")
	if !ok || ti.Kind == 'n' {
		return nil, errors.New("hook input for a shell tool has no tool_input: cannot judge the command")
	}
	cmd, ok := ti.Get("command")
	if ti.Kind != '{' || !ok || cmd.Kind != '"' ||
		!stringField(ti, "description", &in.Description) || !stringField(ti, "dir_path", &in.Dir) {
		return nil, errors.New("hook input for a shell tool has no string tool_input.command: cannot judge the command")
	}
	in.Command, in.Shell = cmd.Str, true
	return &in, nil
}

// stringField sets *to from obj's key when it is a string, and reports
// whether the key is absent, null or a string.
func stringField(obj jsontext.Value, key string, to *string) bool {
	v, ok := obj.Get(key)
	switch {
	case !ok || v.Kind == 'n':
		return true
	case v.Kind == '"':
		*to = v.Str
		return true
	}
	return false
}

// HookOutput is the Claude Code PreToolUse answer for decision "allow",
// "deny" or "ask"; any other decision is answered as "deny".
func HookOutput(decision, reason string) []byte {
	switch decision {
	case "allow", "deny", "ask":
	default:
		decision = "deny"
	}
	// Written by hand: encoding/json's reflection was a tenth of the hook's
	// own time. TestHookOutput compares with encoding/json.
	b := append(make([]byte, 0, 128+len(reason)), `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"`...)
	b = append(b, decision...)
	if reason != "" {
		b = append(b, `","permissionDecisionReason":`...)
		b = jsontext.AppendString(b, reason, false)
		b = append(b, "}}\n"...)
		return b
	}
	return append(b, "\"}}\n"...)
}

// HookReply is what `guard-exec hook CLIENT` writes and its exit status, for
// decision "allow", "deny", "ask", or "" (no opinion: the client's own
// rules apply). Claude Code gets HookOutput. Codex and Gemini CLI get
// silence (Codex) or {} (Gemini) on allow, and exit 2 with the reason on
// stderr otherwise: neither can safely take `ask` from a hook (Codex runs
// the call), so an ask is refused with a reason saying how to go ahead.
func HookReply(client, decision, reason string) (stdout, stderr []byte, code int) {
	if decision == "" {
		return nil, nil, 0
	}
	switch client {
	case "codex", "gemini-cli":
		if decision == "allow" {
			if client == "gemini-cli" {
				return []byte("{}\n"), nil, 0
			}
			return nil, nil, 0
		}
		if reason = strings.TrimSpace(reason); reason == "" {
			reason = "guard-exec refused this command"
		}
		if decision == "ask" {
			reason += fmt.Sprintf(" (guard-exec would ask a person first, and %s cannot ask from a hook: ask the person to approve it)", client)
		}
		return nil, []byte(reason + "\n"), 2
	default:
		return HookOutput(decision, reason), nil, 0
	}
}
