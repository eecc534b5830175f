package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/guard-exec/guard-exec/install"
	"github.com/guard-exec/guard-exec/judge"
	"github.com/guard-exec/guard-exec/policy"
	"github.com/guard-exec/guard-exec/state"
)

// Claude Code's hook answers "ask" and shows the person its own prompt;
// the guarded shell it starts afterwards has no terminal, so it cannot ask
// again. The hook leaves a pending question (state.Question) and the
// first guarded shell that the same Claude Code process starts for exactly
// that command takes it: Claude Code starts the shell only once the person
// said yes. docs/clients-research.md §1.6 has the facts this rests on.

// claudeSessionEnv is the variable Claude Code sets, for its Bash tool's
// shell and its hooks, to the session id its hook input carries.
const claudeSessionEnv = "CLAUDE_CODE_SESSION_ID"

// hookClient is the client process that ran this hook: the parent, or,
// when the parent is only the sh -c that launched this very hook (Claude
// Code runs hook commands with /bin/sh -c, which does not exec the last
// command), its parent.
func hookClient() (state.Process, error) {
	pid := os.Getppid()
	if argv, err := procCmdline(pid); err == nil && len(argv) == 3 && argv[1] == "-c" && isHookText(argv[2]) {
		if pp := state.Parent(pid); pp > 1 {
			pid = pp
		}
	}
	return state.ProcessOf(pid)
}

func procCmdline(pid int) ([]string, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil {
		return nil, err
	}
	return strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00"), nil
}

// isHookText reports whether a -c string is a claude-code hook command as
// install writes it (any guard-exec path).
func isHookText(s string) bool {
	_, client, ok := install.SplitHookCommand(s)
	return ok && client == "claude-code"
}

// interactiveGuard reports whether a guarded shell is the interactive
// kind a person types into: the real bash that interactive() started,
// argv "bash --rcfile /dev/fd/N …". An agent can start a process that
// looks like this only under the guarded -c shell that its client
// started, which is never interactive; if interactive() ever starts bash
// another way, this reports false and the hook refuses (the safe side).
func interactiveGuard(pid int) bool {
	argv, err := procCmdline(pid)
	return err == nil && len(argv) >= 3 && argv[1] == "--rcfile" && strings.HasPrefix(argv[2], "/dev/fd/")
}

// rememberHookAsk records the pending question for a claude-code hook's
// ask. It returns why it could not ("" when recorded): the caller must
// then refuse, since the guarded shell would refuse the approved command.
func rememberHookAsk(e *env, s *setup, in *install.HookInput) string {
	if runtime.GOOS != "linux" {
		return "guard-exec can bind an approval to the client process only on Linux"
	}
	if s.stateDir == "" {
		return "no state directory to record the question in"
	}
	if in.SessionID == "" {
		return "the hook input names no session"
	}
	if v := e.get(claudeSessionEnv); v != "" && v != in.SessionID {
		return "the hook input's session is not the client's"
	}
	// A command run under a guarded shell must not be able to leave a
	// question: it would be an approval nobody gave. Every command an
	// agent runs has the guarded -c shell its client started among its
	// ancestors; a person's own interactive guarded shell, above the
	// client, is no such shell.
	if self, err := state.ProcessOf(os.Getpid()); err != nil || state.GuardedAt(s.stateDir, self) {
		return "the hook runs as a guarded shell, so it is not the client's hook"
	}
	for _, pid := range state.GuardedAncestors(s.stateDir) {
		if !interactiveGuard(pid) {
			return "the hook runs under a guarded shell, so it is not the client's hook (or the client itself was started under a non-interactive guarded shell)"
		}
	}
	client, err := hookClient()
	if err != nil {
		return err.Error()
	}
	if state.GuardedAt(s.stateDir, client) {
		return "the hook's parent is a guarded shell, so it is not the client"
	}
	if err := state.Ask(s.stateDir, state.Question{Client: client, Session: in.SessionID, Command: in.Command}); err != nil {
		return err.Error()
	}
	return ""
}

// forgetHookAsks clears the session's pending questions: the client's
// hook events after the prompt (the batch of tool calls resolved, a new
// prompt, the turn stopped) mean that every question was answered.
func forgetHookAsks(e *env, in *install.HookInput) {
	if in.SessionID == "" {
		return
	}
	if client, err := hookClient(); err == nil {
		state.Forget(e.stateDir(), in.SessionID, client)
	}
}

// hookApproved reports whether this guarded shell is the one Claude Code
// started after a person approved the command in its prompt: the shell's
// parent is the client process that asked, in the same session, for
// exactly this command (the payload of the scaffolding's eval), and
// nothing else in the scaffolding needs approval. The question is used up.
func hookApproved(e *env, s *setup, src string) bool {
	if runtime.GOOS != "linux" || s.stateDir == "" {
		return false
	}
	session := e.get(claudeSessionEnv)
	if session == "" {
		return false
	}
	cmd, rest, ok := scaffoldPayload(src)
	if !ok {
		return false
	}
	// A fresh child of the client: neither this process (a guarded shell
	// that exec'd its way here keeps its process id, and its mark) nor the
	// client is a guarded shell.
	self, err := state.ProcessOf(os.Getpid())
	if err != nil || state.GuardedAt(s.stateDir, self) {
		return false
	}
	client, err := state.ProcessOf(os.Getppid())
	if err != nil || state.GuardedAt(s.stateDir, client) {
		return false
	}
	if rest != "" {
		res := judge.Judge(s.pol, judge.Request{Source: rest, Cwd: e.cwd, Getenv: e.get})
		if res.Decided != policy.Allow {
			return false
		}
	}
	return state.Take(s.stateDir, state.Question{Client: client, Session: session, Command: cmd})
}

// scaffoldPayload finds the command a client's scaffolding runs
// (Claude Code: `source SNAPSHOT … && eval 'CMD' < /dev/null && pwd -P >| FILE`):
// the literal argument of the one eval in the top-level && / || chain, and
// the scaffolding with that argument replaced by ':'. Text with no eval is
// its own payload.
func scaffoldPayload(src string) (cmd, rest string, ok bool) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return "", "", false
	}
	var evals []*syntax.CallExpr
	var walk func(s *syntax.Stmt)
	walk = func(s *syntax.Stmt) {
		switch c := s.Cmd.(type) {
		case *syntax.BinaryCmd:
			if c.Op == syntax.AndStmt || c.Op == syntax.OrStmt {
				walk(c.X)
				walk(c.Y)
			}
		case *syntax.CallExpr:
			if len(c.Args) > 0 && c.Args[0].Lit() == "eval" {
				evals = append(evals, c)
			}
		}
	}
	for _, s := range f.Stmts {
		walk(s)
	}
	// Every eval counts, not only the chain's: one hidden in a subshell
	// or a function would run code that this approval does not cover.
	all := 0
	syntax.Walk(f, func(n syntax.Node) bool {
		if c, isCall := n.(*syntax.CallExpr); isCall && len(c.Args) > 0 && c.Args[0].Lit() == "eval" {
			all++
		}
		return true
	})
	if all == 0 {
		return src, "", true
	}
	if all != 1 || len(evals) != 1 {
		return "", "", false
	}
	// eval 'CMD', or the older scaffolding's eval 'CMD' \< /dev/null (eval
	// then reads CMD < /dev/null: the same command, its stdin closed).
	switch args := evals[0].Args; {
	case len(args) == 2:
	case len(args) == 4 && args[2].Lit() == `\<` && args[3].Lit() == "/dev/null":
	default:
		return "", "", false
	}
	w := evals[0].Args[1]
	text, literal := literalWord(w)
	if !literal {
		return "", "", false
	}
	a, b := w.Pos().Offset(), w.End().Offset()
	if int(b) > len(src) || a > b {
		return "", "", false
	}
	return text, src[:a] + ":" + src[b:], true
}

// literalWord returns a word's value when it has no expansion at all.
func literalWord(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, p := range w.Parts {
		switch x := p.(type) {
		case *syntax.Lit:
			// Unquoted, only what a quoting function leaves bare: no
			// escapes, globs, tildes or braces.
			for _, c := range []byte(x.Value) {
				if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("_./:=@+,-", c) >= 0) {
					return "", false
				}
			}
			b.WriteString(x.Value)
		case *syntax.SglQuoted:
			if x.Dollar {
				return "", false
			}
			b.WriteString(x.Value)
		case *syntax.DblQuoted:
			for _, q := range x.Parts {
				l, isLit := q.(*syntax.Lit)
				if !isLit || strings.ContainsAny(l.Value, `\`) {
					return "", false
				}
				b.WriteString(l.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// ownHookCommand recognises a -c string that is exactly a hook command
// as install writes it ('<path>' hook <client>) for this binary, or for
// any binary named guard-exec (a hook entry left pointing at an older
// install). Gemini CLI runs hooks with the first bash on PATH and Codex
// with the login shell: in the README set-ups that shell is the guard,
// which then answers the hook itself, before anything (a broken
// configuration, the denylist, a missing real bash) could refuse it and
// leave the client without a verdict (Codex then runs the command).
// Answering gains a model nothing: the codex and gemini-cli hooks only
// answer, and the claude-code hook records nothing under a guard.
func ownHookCommand(src string) (client string, ok bool) {
	path, client, ok := install.SplitHookCommand(src)
	if !ok || !filepath.IsAbs(path) {
		return "", false
	}
	if filepath.Base(path) == "guard-exec" {
		return client, true
	}
	exe, err := os.Executable()
	if err != nil {
		return "", false
	}
	a, err1 := os.Stat(path)
	b, err2 := os.Stat(exe)
	if err1 != nil || err2 != nil || !os.SameFile(a, b) {
		return "", false
	}
	return client, true
}
