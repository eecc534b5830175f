package install

import (
	"fmt"
	"path/filepath"
	"strings"
)

func (p *planner) claudeSettings() string {
	return filepath.Join(p.configDir("CLAUDE_CONFIG_DIR", ".claude"), "settings.json")
}
func (p *planner) codexHooks() string {
	return filepath.Join(p.configDir("CODEX_HOME", ".codex"), "hooks.json")
}
func (p *planner) geminiSettings() string { return filepath.Join(p.e.Home, ".gemini", "settings.json") }

// hookCommand is the command line a client's hook entry runs.
func (p *planner) hookCommand(client string) string {
	return shellQuote(p.e.GuardPath) + " hook " + client
}

// isOurHook recognises a hook command this installer wrote, for any
// guard-exec path (the binary may have moved since).
func (p *planner) isOurHook(cmd, client string) bool {
	return cmd == p.hookCommand(client) || strings.HasSuffix(cmd, " hook "+client) && strings.Contains(cmd, "guard-exec")
}

type hookCmd struct {
	Type    string `json:"type"`
	Command string `json:"command"`
	Name    string `json:"name,omitempty"`
}

type hookGroup struct {
	Matcher string    `json:"matcher"`
	Hooks   []hookCmd `json:"hooks"`
}

// loadObject parses a JSON settings file that must hold an object. It also
// reports whether the file ends in a newline (a new file will).
func loadObject(path string, b []byte) (*node, bool, error) {
	root, err := parseTree(b)
	if err != nil {
		return nil, false, fmt.Errorf("%s is not valid JSON (%v): fix or move it, then run the command again", path, err)
	}
	if root.kind != '{' {
		return nil, false, fmt.Errorf("%s does not hold a JSON object at the top level: fix or move it, then run the command again", path)
	}
	return root, len(b) == 0 || b[len(b)-1] == '\n', nil
}

// eachHook calls f for every hook handler object under hooks.<event>.
func eachHook(root *node, event string, f func(h *node)) {
	hooks := root.get("hooks")
	if hooks == nil || hooks.kind != '{' {
		return
	}
	arr := hooks.get(event)
	if arr == nil || arr.kind != '[' {
		return
	}
	for _, g := range arr.vals {
		if hs := g.get("hooks"); g.kind == '{' && hs != nil && hs.kind == '[' {
			for _, h := range hs.vals {
				if h.kind == '{' {
					f(h)
				}
			}
		}
	}
}

// addHook makes sure hooks.<event> holds our handler, updating a stale
// guard-exec path in place rather than adding a second entry.
func (p *planner) addHook(path string, root *node, event string, g hookGroup, client string) error {
	hooks, err := root.child("hooks", '{', "")
	if err == nil {
		_, err = hooks.child(event, '[', "hooks.")
	}
	if err != nil {
		return fmt.Errorf("%s: %v: fix it by hand, then run install again", path, err)
	}
	want, found := g.Hooks[0].Command, false
	eachHook(root, event, func(h *node) {
		if c, ok := h.get("command").str(); ok && p.isOurHook(c, client) {
			found = true
			if c != want {
				h.set("command", &node{raw: jsonText(want)})
			}
		}
	})
	if !found {
		arr := hooks.get(event)
		arr.vals = append(arr.vals, toNode(g))
	}
	return nil
}

// removeHook deletes our handlers from hooks.<event>, and the groups, event
// list and hooks object that this leaves empty.
func (p *planner) removeHook(root *node, event, client string) {
	hooks := root.get("hooks")
	if hooks == nil || hooks.kind != '{' {
		return
	}
	arr := hooks.get(event)
	if arr == nil || arr.kind != '[' {
		return
	}
	groups := arr.vals[:0]
	for _, g := range arr.vals {
		if hs := g.get("hooks"); g.kind == '{' && hs != nil && hs.kind == '[' {
			kept := hs.vals[:0]
			for _, h := range hs.vals {
				if c, ok := h.get("command").str(); !ok || h.kind != '{' || !p.isOurHook(c, client) {
					kept = append(kept, h)
				}
			}
			removed := len(kept) < len(hs.vals)
			hs.vals = kept
			if removed && len(kept) == 0 {
				continue
			}
		}
		groups = append(groups, g)
	}
	if len(groups) == len(arr.vals) {
		return
	}
	arr.vals = groups
	if len(groups) == 0 {
		hooks.del(event)
		if len(hooks.vals) == 0 {
			root.del("hooks")
		}
	}
}

// hasOurHook reports whether a settings file holds a guard-exec hook for client.
func hasOurHook(b []byte, event, client string) bool {
	root, err := parseTree(b)
	if err != nil || root.kind != '{' {
		return false
	}
	found := false
	eachHook(root, event, func(h *node) {
		if c, ok := h.get("command").str(); ok && strings.HasSuffix(c, " hook "+client) {
			found = true
		}
	})
	return found
}

// hookFile returns the forward and backward edits of a hook settings file.
func (p *planner) hookFile(path, event, matcher, client, name string, extra func(*node) error, undo func(*node)) (fwd, back func([]byte) ([]byte, error)) {
	fwd = func(b []byte) ([]byte, error) {
		root, nl, err := loadObject(path, b)
		if err != nil {
			return nil, err
		}
		g := hookGroup{Matcher: matcher, Hooks: []hookCmd{{Type: "command", Command: p.hookCommand(client), Name: name}}}
		if err := p.addHook(path, root, event, g, client); err != nil {
			return nil, err
		}
		if extra != nil {
			if err := extra(root); err != nil {
				return nil, err
			}
		}
		return root.encode(nl), nil
	}
	back = func(b []byte) ([]byte, error) {
		root, nl, err := loadObject(path, b)
		if err != nil {
			return nil, err
		}
		p.removeHook(root, event, client)
		if undo != nil {
			undo(root)
		}
		return root.encode(nl), nil
	}
	return fwd, back
}

// claudeClearEvents are the Claude Code hook events after which no
// question the PreToolUse hook left can still wait for a person: the
// batch of tool calls resolved, the next prompt, the turn's end, an
// auto-mode denial. The hook clears the session's questions there, so a
// No leaves nothing behind (Claude Code has no event for the person's
// No itself; docs/clients-research.md §1.6).
var claudeClearEvents = []struct{ event, matcher string }{
	{"PostToolBatch", ""}, {"UserPromptSubmit", ""}, {"Stop", ""}, {"PermissionDenied", "Bash"},
}

// ClearsQuestions reports whether a claude-code hook event is one of
// those after which the hook clears the session's pending questions.
func ClearsQuestions(event string) bool {
	for _, ev := range claudeClearEvents {
		if ev.event == event {
			return true
		}
	}
	return false
}

// claudeFile edits ~/.claude/settings.json: the Bash PreToolUse hook, the
// hooks that clear its questions, and env.CLAUDE_CODE_SHELL.
func (p *planner) claudeFile() (string, func([]byte) ([]byte, error), func([]byte) ([]byte, error)) {
	path, link := p.claudeSettings(), BashLink(p.e)
	setEnv := func(root *node) error {
		env, err := root.child("env", '{', "")
		if err != nil {
			return fmt.Errorf("%s: %v: fix it by hand, then run install again", path, err)
		}
		env.set("CLAUDE_CODE_SHELL", &node{raw: jsonText(link)})
		for _, ev := range claudeClearEvents {
			g := hookGroup{Matcher: ev.matcher, Hooks: []hookCmd{{Type: "command", Command: p.hookCommand("claude-code")}}}
			if err := p.addHook(path, root, ev.event, g, "claude-code"); err != nil {
				return err
			}
		}
		return nil
	}
	unsetEnv := func(root *node) {
		for _, ev := range claudeClearEvents {
			p.removeHook(root, ev.event, "claude-code")
		}
		env := root.get("env")
		if env == nil || env.kind != '{' {
			return
		}
		if s, _ := env.get("CLAUDE_CODE_SHELL").str(); s == link || strings.Contains(s, "guard-exec") {
			env.del("CLAUDE_CODE_SHELL")
			if len(env.vals) == 0 {
				root.del("env")
			}
		}
	}
	fwd, back := p.hookFile(path, "PreToolUse", "Bash", "claude-code", "", setEnv, unsetEnv)
	return path, fwd, back
}

func claudeInstall(p *planner) error {
	link := BashLink(p.e)
	if err := p.link(link); err != nil {
		return err
	}
	path, fwd, _ := p.claudeFile()
	if b, err := readFile(path); err == nil && b != nil {
		if root, _, err := loadObject(path, b); err == nil {
			if env := root.get("env"); env != nil && env.kind == '{' {
				if s, ok := env.get("CLAUDE_CODE_SHELL").str(); ok && s != link {
					p.note("env.CLAUDE_CODE_SHELL was %s; it now names the guard-exec link (uninstall restores the file from its backup if nothing else changed)", s)
				}
			}
			if v := root.get("disableAllHooks"); v != nil && string(v.raw) == "true" {
				p.note("%s sets \"disableAllHooks\": true, so the hook will not run until you remove it", path)
			}
		}
	}
	if err := p.edit(path, fwd); err != nil {
		return err
	}
	p.note("restart Claude Code: it reads %s only at startup", path)
	p.note("the Bash hook runs `%s`: `deny` tells the model why, `ask` shows Claude Code's own prompt", p.hookCommand("claude-code"))
	p.note("CLAUDE_CODE_SHELL=%s is the backstop for commands the hook does not see (ignored on Windows)", link)
	return nil
}

func claudeUninstall(p *planner) error {
	path, fwd, back := p.claudeFile()
	if err := p.revert(path, fwd, back); err != nil {
		return err
	}
	return p.unlinkShared("claude-code")
}

func codexInstall(p *planner) error {
	link := BashLink(p.e)
	if err := p.link(link); err != nil {
		return err
	}
	path := p.codexHooks()
	fwd, _ := p.hookFile(path, "PreToolUse", "Bash", "codex", "", nil, nil)
	if err := p.edit(path, fwd); err != nil {
		return err
	}
	p.note("Codex runs only hooks you trust: start Codex, open /hooks and trust `%s` (again whenever that command changes)", p.hookCommand("codex"))
	p.note("Codex releases before 0.124 run hooks only with `codex_hooks = true` under `[features]` in %s", filepath.Join(filepath.Dir(path), "config.toml"))
	p.note("Codex starts the login shell from the passwd database, not $SHELL: run `echo %s | sudo tee -a /etc/shells && chsh -s %s`", link, link)
	p.note("PATH matters to Codex only when the login shell is not bash, zsh or sh: then put %s first on PATH", filepath.Dir(link))
	p.note("Codex cannot ask from a hook: an `ask` reaches it as a refusal that says how to run the command yourself")
	return nil
}

func codexUninstall(p *planner) error {
	path := p.codexHooks()
	fwd, back := p.hookFile(path, "PreToolUse", "Bash", "codex", "", nil, nil)
	if err := p.revert(path, fwd, back); err != nil {
		return err
	}
	p.note("if you ran chsh for guard-exec, set your login shell back first: `chsh -s /bin/bash`")
	return p.unlinkShared("codex")
}

func geminiInstall(p *planner) error {
	link := BashLink(p.e)
	if err := p.link(link); err != nil {
		return err
	}
	path := p.geminiSettings()
	fwd, _ := p.hookFile(path, "BeforeTool", "run_shell_command", "gemini-cli", "guard-exec", nil, nil)
	if err := p.edit(path, fwd); err != nil {
		return err
	}
	dir := filepath.Dir(link)
	if p.firstOnPath(dir) {
		p.note("%s is already first on PATH: Gemini CLI's `bash -c` runs guard-exec", dir)
	} else {
		p.note("Gemini CLI runs the first `bash` on PATH: add `export PATH=\"%s:$PATH\"` to your shell profile and start gemini from a new shell", dir)
	}
	p.note("older Gemini CLI releases run hooks only with `\"hooksConfig\": {\"enabled\": true}` in %s", path)
	p.note("an `ask` reaches Gemini CLI as a refusal that says how to run the command yourself")
	return nil
}

func geminiUninstall(p *planner) error {
	path := p.geminiSettings()
	fwd, back := p.hookFile(path, "BeforeTool", "run_shell_command", "gemini-cli", "guard-exec", nil, nil)
	if err := p.revert(path, fwd, back); err != nil {
		return err
	}
	p.note("remove %s from PATH in your shell profile if you added it", filepath.Dir(BashLink(p.e)))
	return p.unlinkShared("gemini-cli")
}

// shellVarHow says how a client that takes $SHELL runs commands.
func shellVarHow(name string) string {
	switch name {
	case "aider":
		return "Aider runs `$SHELL -c CMD` (through your terminal when it has one, so an `ask` prompt reaches you)"
	case "cline":
		return "the Cline CLI runs `$SHELL -l -c CMD` with no terminal, so an `ask` becomes a refusal; inside VS Code point the integrated terminal's profile at the link instead"
	case "continue":
		return "Continue runs `$SHELL -l -c CMD` with no terminal, so an `ask` becomes a refusal"
	case "shell":
		return "any program that starts `$SHELL` runs guard-exec"
	}
	return ""
}

func shellVarInstall(p *planner) error {
	link := BashLink(p.e)
	if err := p.link(link); err != nil {
		return err
	}
	c, prog := p.plan.Client, p.plan.Client
	if c == "shell" {
		prog = "PROGRAM"
	}
	p.note("add `export SHELL=%s` to your shell profile, or start the program as `guard-exec run -- %s`", link, prog)
	p.note("%s", shellVarHow(c))
	return nil
}

func shellVarUninstall(p *planner) error {
	p.note("remove `export SHELL=%s` from your shell profile if you added it", BashLink(p.e))
	return p.unlinkShared(p.plan.Client)
}

// actionsSetup is the whole set-up of a job: the pinned install step (with
// the build flags ./build uses, under plain bash: it must not need the
// guard), the shell default, and the pin of the project policy.
func actionsSetup(e Env) string {
	version := e.Version
	if version == "" {
		version = "latest"
	}
	var b strings.Builder
	if e.PolicyPin != "" {
		fmt.Fprintf(&b, "env:\n  GUARD_EXEC_TRUST: %s  # the project policy (.guard-exec.toml) this workflow trusts; update it when the policy changes\n", e.PolicyPin)
	}
	fmt.Fprintf(&b, "defaults:\n  run:\n    shell: %s\n", ActionsShell)
	fmt.Fprintf(&b, `jobs:
  JOB:
    steps:
      - uses: actions/setup-go@v5
        with:
          go-version: "1.26"
      - name: Install guard-exec
        shell: bash  # the install step itself must not need guard-exec
        run: |
          CGO_ENABLED=0 go install -ldflags=-E=github.com/guard-exec/guard-exec/bashcli.rt0 github.com/guard-exec/guard-exec/cmd/guard-exec@%s
          echo "$(go env GOPATH)/bin" >> "$GITHUB_PATH"
      # … the job's own steps: each run: step is judged before it runs`, version)
	return b.String()
}

func actionsInstall(p *planner) error {
	if p.e.Target != "" {
		if err := p.edit(p.e.Target, AddToWorkflow); err != nil {
			return err
		}
		p.note("the rest of the set-up (the install step first in every job, and the policy pin):\n%s", actionsSetup(p.e))
	} else {
		p.note("add to the workflow (or run `guard-exec install github-actions --write FILE` for the shell default):\n%s", actionsSetup(p.e))
	}
	if p.e.PolicyPin == "" {
		p.note("the project has no .guard-exec.toml: the job runs under the built-in defaults and the runner's user config (none, on a fresh runner); write one with guard-exec init, then run this again for its pin")
	}
	p.note("`defaults` does not reach composite actions or `uses:` steps; a refused step fails the job and names each offending line as file:line; writes to $GITHUB_OUTPUT and $GITHUB_STEP_SUMMARY are allowed, to $GITHUB_ENV and $GITHUB_PATH asked (refused in CI) unless the policy allows them")
	return nil
}

func actionsUninstall(p *planner) error {
	if p.e.Target == "" {
		p.note("remove `shell: %s` from the workflow's `defaults: run:` and the install step", ActionsShell)
		return nil
	}
	return p.revert(p.e.Target, AddToWorkflow, RemoveFromWorkflow)
}

func gitlabInstall(p *planner) error {
	p.note("Docker executor: put guard-exec at /usr/local/bin/bash in the job image (the runner prefers it over /bin/bash), e.g. `COPY guard-exec /usr/local/bin/bash`; the real bash stays at /bin/bash")
	p.note("shell executor: run `guard-exec install path-shim DIR` as the runner's user and put DIR first on the PATH the runner starts `bash -l` with (e.g. `environment = [\"PATH=DIR:/usr/local/bin:/usr/bin:/bin\"]` in the runner's config.toml)")
	p.note("the stage script reaches guard-exec on stdin and is judged part by part; a refusal fails the job")
	return nil
}

func gitlabUninstall(p *planner) error {
	p.note("remove guard-exec from the job image (/usr/local/bin/bash) or the runner's PATH; for a path-shim run `guard-exec uninstall path-shim DIR`")
	return nil
}

func shimDir(p *planner) (string, error) {
	dir := p.e.Target
	if dir == "" {
		return "", fmt.Errorf("path-shim needs a directory: guard-exec install path-shim DIR")
	}
	if !filepath.IsAbs(dir) {
		return "", fmt.Errorf("path-shim directory %q is not absolute: pass an absolute path", dir)
	}
	return filepath.Clean(dir), nil
}

// ShimNames are the names the path shim links to the guard (each a name
// bash answers to: bashargv.IsShellName).
var ShimNames = []string{"bash", "sh"}

func shimInstall(p *planner) error {
	dir, err := shimDir(p)
	if err != nil {
		return err
	}
	for _, n := range ShimNames {
		if err := p.link(filepath.Join(dir, n)); err != nil {
			return err
		}
	}
	if p.firstOnPath(dir) {
		p.note("%s is already first on PATH", dir)
	} else {
		p.note("put %s first on PATH for the programs to guard: `export PATH=\"%s:$PATH\"`", dir, dir)
	}
	return nil
}

func shimUninstall(p *planner) error {
	dir, err := shimDir(p)
	if err != nil {
		return err
	}
	for _, n := range ShimNames {
		if err := p.unlink(filepath.Join(dir, n)); err != nil {
			return err
		}
	}
	return nil
}
