package main

import (
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/guard-exec/guard-exec/audit"
	"github.com/guard-exec/guard-exec/bashargv"
	"github.com/guard-exec/guard-exec/bashcli"
	"github.com/guard-exec/guard-exec/internal/inert"
	"github.com/guard-exec/guard-exec/internal/sha256"
	"github.com/guard-exec/guard-exec/judge"
	"github.com/guard-exec/guard-exec/policy"
	"github.com/guard-exec/guard-exec/prompt"
	"github.com/guard-exec/guard-exec/state"
)

// execSpec is what main should exec.
type execSpec struct {
	path string
	argv []string
	env  []string
}

// shellMain is the bash drop-in: judge the whole program, then exec the
// real shell with the original arguments.
func shellMain(e *env) (int, *execSpec) {
	argv0 := e.args[0]
	base := strings.TrimPrefix(filepath.Base(argv0), "-")
	shellName := "bash"
	if bashargv.IsShellName(base) {
		shellName = base
	}
	stdinTTY := isTerminal(e.stdin) && isTerminal(e.stderr)
	// bash reads its own argv[0] ("-bash" is a login shell, "sh" posix
	// mode) and names itself by it in messages: use what bash will get.
	parseArgv0 := execArgv0(argv0, "/bin/"+shellName)
	inv, err := bashargv.ParseArgv(append([]string{parseArgv0}, e.args[1:]...), stdinTTY)
	var ue *bashargv.UsageError
	if errors.As(err, &ue) {
		// bash would refuse these arguments and run nothing: say what bash
		// says, with bash's status.
		io.WriteString(e.stderr, ue.Message)
		return ue.Status, nil
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "guard-exec: error: %v\n", err)
		return ExitRefused, nil
	}
	if inv.Mode == bashargv.ModeCommand && len(inv.Args) == 0 {
		if client, ok := ownHookCommand(inv.Command); ok {
			return cmdHook(e, []string{client}), nil
		}
	}
	s, cfgErr := load(e, e.cwd)
	configured := ""
	if cfgErr == nil {
		configured = s.pol.Settings.Shell
	}
	if configured == "" && e.get(bashcli.ShellEnv) == "" && shellName == "sh" {
		configured = "/bin/sh"
	}
	real, err := bashcli.RealShell(e.get, configured)
	if err != nil {
		fmt.Fprintf(e.stderr, "guard-exec: error: %v\n", err)
		fmt.Fprintf(e.stderr, "guard-exec: hint: point shell = \"/abs/path\" in the config, or GUARD_EXEC_SHELL, at the real bash (not at guard-exec or a link to it)\n")
		return ExitCannotRun, nil
	}
	ex := &execSpec{path: real, argv: append([]string{execArgv0(argv0, real)}, e.args[1:]...), env: e.list}
	if real != bashcli.DefaultShell && s != nil && state.Execs(s.stateDir, os.Getpid()) >= maxExecs {
		// The same-file check in RealShell cannot see through a script
		// that execs the guard again: this process has been round the
		// loop already.
		fmt.Fprintf(e.stderr, "guard-exec: error: the real shell %s starts guard-exec again (this process has exec'd a shell %d times): an exec loop\n", real, maxExecs)
		fmt.Fprintf(e.stderr, "guard-exec: hint: point shell = \"/abs/path\" in the config, or GUARD_EXEC_SHELL, at the real bash, not at a wrapper that runs guard-exec\n")
		return ExitCannotRun, nil
	}
	if cfgErr != nil {
		configErr(e, cfgErr)
		return ExitRefused, nil
	}
	for _, w := range s.printWarnings() {
		fmt.Fprintf(e.stderr, "guard-exec: warning: %s\n", w)
	}
	for _, n := range s.pol.Notices {
		noticeOnce(e, s, n)
	}
	req := judge.Request{Cwd: e.cwd, Getenv: e.get, Python: pythonAnalyser(e, s.pol), Traced: slices.Contains(inv.SetOn, "xtrace"), SetOn: inv.SetOn}
	if inv.Posix {
		req.SetOn = append(slices.Clip(req.SetOn), "posix")
	}
	switch inv.Mode {
	case bashargv.ModeNoScript:
		return 0, ex
	case bashargv.ModeCommand:
		req.Source = inv.Command
		req.Params = append([]string{inv.Name}, inv.Args...)
	case bashargv.ModeFile:
		text, ok, err := scriptText(e, inv, ex)
		if err != nil {
			fmt.Fprintf(e.stderr, "guard-exec: error: %v\n", err)
			return ExitRefused, nil
		}
		if !ok {
			// bash cannot open it either: it reports the error itself and
			// runs nothing.
			return 0, ex
		}
		req.Source, req.Name = string(text), inv.File
		req.Params = append([]string{inv.File}, inv.Args...)
	case bashargv.ModeStdin:
		text, err := readScript(e.stdin)
		if err != nil {
			fmt.Fprintf(e.stderr, "guard-exec: error: cannot read the script on standard input: %v\n", err)
			return ExitRefused, nil
		}
		if err := replaceStdin(text); err != nil {
			fmt.Fprintf(e.stderr, "guard-exec: error: cannot hand the script to bash: %v\n", err)
			return ExitRefused, nil
		}
		req.Source = string(text)
		req.Params = append([]string{inv.Name}, inv.Args...)
	case bashargv.ModeInteractive:
		return interactive(e, s, ex)
	}
	res := judge.Judge(s.pol, req)
	return decide(e, s, inv, req, res, ex)
}

// noticeOnce prints a notice (an untrusted project file's, say) the first
// time this session meets it, not before every command: an agent's
// session runs hundreds. Without a state directory to remember it in, it
// is printed each time.
func noticeOnce(e *env, s *setup, n string) {
	if s.stateDir != "" && s.session != "" {
		sum := sha256.Sum256([]byte(noticeKey(s.session) + "\x00" + n))
		p := filepath.Join(s.stateDir, "notices", hex.EncodeToString(sum[:12]))
		if _, err := os.Lstat(p); err == nil {
			return
		}
		if os.MkdirAll(filepath.Dir(p), 0o700) == nil {
			if f, err := os.OpenFile(p, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600); err == nil {
				f.Close()
				if sum[0] == 0 { // now and then, forget old sessions' notices
					sweepNotices(filepath.Dir(p), time.Now().Add(-7*24*time.Hour))
				}
			} else if os.IsExist(err) {
				return // another guard of this session just said it
			}
		}
	}
	fmt.Fprintf(e.stderr, "guard-exec: notice: %s\n", inert.Line(n))
}

func sweepNotices(dir string, before time.Time) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if fi, err := e.Info(); err == nil && fi.ModTime().Before(before) {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// maxExecs is how many shells one process may have exec'd through the
// guard before the next is taken for an exec loop (see state.Execs).
const maxExecs = 8

// execArgv0 keeps argv[0] as the caller gave it, with the real shell's
// path in place of the guard's.
func execArgv0(argv0, real string) string {
	base := filepath.Base(argv0)
	login := strings.HasPrefix(base, "-")
	name := strings.TrimPrefix(base, "-")
	if !bashargv.IsShellName(name) {
		name = filepath.Base(real)
		if !login && strings.Contains(argv0, "/") {
			return real
		}
	}
	if login {
		return "-" + name
	}
	if strings.Contains(argv0, "/") {
		return filepath.Join(filepath.Dir(real), name)
	}
	return name
}

func isTerminal(v any) bool {
	f, ok := v.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// decide acts on a verdict: exec, ask, or refuse.
func decide(e *env, s *setup, inv *bashargv.Invocation, req judge.Request, res *judge.Result, ex *execSpec) (int, *execSpec) {
	code, next := decideExec(e, s, req, res, ex)
	if next != nil && s.stateDir != "" {
		// Programs this shell starts can tell they run under a guard.
		state.MarkGuarded(s.stateDir, os.Getpid())
	}
	return code, next
}

func decideExec(e *env, s *setup, req judge.Request, res *judge.Result, ex *execSpec) (int, *execSpec) {
	rec := auditRecord(e, s, req.Source, res, "shell")
	if res.Decided == policy.Allow {
		s.log(e, rec)
		return 0, ex
	}
	if s.mode == "audit" && !res.AbsoluteDeny() {
		rec.Answer = "audit-mode"
		s.log(e, rec)
		report(e, s, req, res, "would be refused (audit mode: running it anyway)", true)
		return 0, ex
	}
	if s.mode == "audit" {
		rec.Answer = "audit-mode-absolute"
		s.log(e, rec)
		report(e, s, req, res, "the absolute denylist names it, which audit mode does not run", false)
		return ExitRefused, nil
	}
	if res.Decided == policy.Ask {
		if hookApproved(e, s, req.Source) {
			rec.Answer = "approved-by-client"
			s.log(e, rec)
			return 0, ex
		}
		ans, why := askPerson(e, s, req, res)
		rec.Answer = ans
		if ans == "once" || ans == "session" || ans == "always" {
			s.log(e, rec)
			return 0, ex
		}
		s.log(e, rec)
		report(e, s, req, res, why, false)
		return ExitRefused, nil
	}
	s.log(e, rec)
	report(e, s, req, res, "denied", false)
	return ExitRefused, nil
}

func (s *setup) log(e *env, r audit.Record) {
	if s.audit == nil {
		return
	}
	if err := s.audit.Append(r); err != nil {
		logElsewhere(e, s, r, err)
	}
}

// auditRecord describes a decision for the audit log.
func auditRecord(e *env, s *setup, src string, res *judge.Result, via string) audit.Record {
	cmd := src
	if len(cmd) > 8192 {
		cmd = cmd[:8192] + "…"
	}
	r := audit.Record{Time: time.Now().UTC(), Session: s.session, Cwd: e.cwd, Client: client(e), Mode: s.mode, Via: via,
		Command: cmd, Decision: res.Decision, Reason: res.Reason}
	if res.ParseError != "" {
		r.Reason = res.Reason
	}
	for i, p := range res.Commands {
		if i >= 64 {
			break
		}
		r.Parts = append(r.Parts, audit.PartRecord{Argv: p.Argv, Decision: p.Decision, Rule: p.Rule, Source: p.Source, Reason: p.Reason})
	}
	return r
}

// client names the program that started the guard, when it says so.
func client(e *env) string {
	c, _ := detectClient(e)
	return c
}

// clients are the programs the guard recognises by the environment they
// give their shell, most specific first. agent: an agent client whose
// interface owns the terminal the guard runs under.
var clients = []struct {
	name   string
	agent  bool
	detect func(e *env) bool
}{
	{"claude-code", true, func(e *env) bool { return e.get("CLAUDECODE") != "" }},
	{"gemini-cli", true, func(e *env) bool { return e.get("GEMINI_CLI") != "" }},
	{"codex", true, func(e *env) bool {
		return e.get("CODEX_SANDBOX") != "" || e.get("CODEX_HOME") != "" && e.get("CODEX_SANDBOX_NETWORK_DISABLED") != ""
	}},
	{"cursor", true, func(e *env) bool { return e.get("CURSOR_AGENT") != "" }},
	{"github-actions", false, func(e *env) bool { return e.get("GITHUB_ACTIONS") == "true" }},
	{"gitlab-ci", false, func(e *env) bool { return e.get("GITLAB_CI") != "" }},
	{"ci", false, func(e *env) bool { return e.get("CI") != "" }},
}

func detectClient(e *env) (name string, agent bool) {
	for _, c := range clients {
		if c.detect(e) {
			return c.name, c.agent
		}
	}
	return "", false
}

// terminalOwner names the agent client whose interface owns the terminal
// the guard runs under ("" when none does): the guard never asks on a
// terminal such a client reads.
func terminalOwner(e *env) string {
	if c, agent := detectClient(e); agent {
		return c
	}
	return ""
}

// askPerson asks on the controlling terminal. It returns the answer for
// the audit log ("once", "session", "always", "no", "no-terminal",
// "timeout") and, for a refusal, why.
func askPerson(e *env, s *setup, req judge.Request, res *judge.Result) (answer, why string) {
	q := prompt.Question{Command: req.Source, ConfigPath: s.configPath, Timeout: s.timeout}
	var rules []policy.Remembered
	rememberable := res.ParseError == ""
	for _, p := range res.Refused() {
		q.Parts = append(q.Parts, prompt.NeedsApproval{Text: p.Text(), Reason: p.Reason})
		rs, ok := policy.Remember(p.Input, p.Verdict)
		if !ok {
			rememberable = false
			continue
		}
		for _, r := range rs {
			if !containsRule(rules, r) {
				rules = append(rules, r)
			}
		}
	}
	if res.ParseError != "" {
		q.Parts = append(q.Parts, prompt.NeedsApproval{Text: firstLine(req.Source), Reason: res.Reason})
	}
	var session, persist []string
	if rememberable && len(rules) > 0 {
		// Remembered for good, an approval holds in the project it was
		// given in (as the clients' own "don't ask again" does); the
		// home is never a project.
		project := ""
		if root := s.pol.Env.Project; root != "" && root != e.home() && filepath.Dir(root) != root {
			project = root
		}
		comment := policy.ApprovalComment(req.Source, time.Now())
		for _, r := range rules {
			session = append(session, r.TOML(""))
			persist = append(persist, r.InProject(project).TOML(comment))
			comment = "" // one comment for the lot
		}
		q.SessionRule = strings.Join(session, "\n")
		q.PersistRule = strings.Join(persist, "\n")
	}
	var ans prompt.Answer
	var err error
	note := ""
	via := askVia(s)
	owned := terminalOwner(e)
	switch {
	case via == "queue":
	case owned != "":
		// The client's own interface reads the terminal in raw mode; a
		// question of ours there would race it for every keystroke (a
		// "y" meant for the client answering the guard, or the reverse).
		// Its commands reach the person through its own prompt (the hook).
		err = fmt.Errorf("%w: %s owns it", prompt.ErrNoTerminal, owned)
	default:
		ans, err = (&prompt.TTY{}).Ask(q)
	}
	if via == "queue" || via == "tty,queue" && errors.Is(err, prompt.ErrNoTerminal) {
		ans, note, err = queueAsk(e, s, req, q)
	}
	// A refusal is kept, under an id the refusal names, so that the
	// person can allow it for the session (guard-exec allow ID).
	refuse := func(answer, why string) (string, string) {
		recordRefusal(e, s, req, session, why)
		return answer, why
	}
	switch {
	case errors.Is(err, prompt.ErrNoTerminal) && owned != "" && via == "tty":
		return refuse("no-terminal", "needs a person's approval, and under "+owned+" the guard does not ask on the terminal, which the client's own interface reads")
	case errors.Is(err, prompt.ErrNoTerminal):
		if via != "tty" {
			return refuse("no-terminal", "needs a person's approval, and there is no terminal to ask on nor an approval queue")
		}
		return refuse("no-terminal", "needs a person's approval, and there is no terminal to ask on")
	case errors.Is(err, prompt.ErrTimeout):
		return refuse("timeout", "needs a person's approval, and nobody answered in time")
	case errors.Is(err, prompt.ErrInterrupted):
		return refuse("no", "the question was interrupted, which counts as no")
	}
	switch ans {
	case prompt.Once:
		return "once", ""
	case prompt.Session:
		if s.stateDir == "" || s.session == "" {
			fmt.Fprintf(e.stderr, "guard-exec: warning: no state directory or session id: this approval is for this run only\n")
			return "once", ""
		}
		if err := rememberForSession(s.stateDir, s.session, session, req.Source); err != nil {
			fmt.Fprintf(e.stderr, "guard-exec: warning: cannot remember the approval for this session: %v\n", err)
		}
		return "session", ""
	case prompt.Always:
		text := strings.Join(persist, "\n")
		err := policy.AppendRule(s.configPath, text, func(b []byte) error {
			f, err := policy.ParseFile(s.configPath, b, policy.User)
			if err != nil {
				return err
			}
			_, err = policy.Build(policy.Sources{Env: s.pol.Env, User: f, CheckExamples: true})
			return err
		})
		if err != nil {
			fmt.Fprintf(e.stderr, "guard-exec: warning: %v; allowing this run only\n", err)
			return "once", ""
		}
		fmt.Fprintf(e.stderr, "guard-exec: remembered in %s\n", s.configPath)
		return "always", ""
	}
	// A person who said no is not asked again through the agent.
	s.askID = 0
	if note != "" {
		return "no", "a person answered no: " + inert.Line(note)
	}
	return "no", "a person answered no"
}

// rememberForSession records a person's 'a': the rules, for the session
// (guard-exec allow gives it afterwards, for a refusal).
func rememberForSession(dir, session string, rules []string, src string) error {
	var first error
	for _, r := range rules {
		if err := state.AppendApproval(dir, session, state.Approval{Rule: r, Time: time.Now(), Command: firstLine(src)}); err != nil && first == nil {
			first = err
		}
	}
	return first
}

func containsRule(rs []policy.Remembered, r policy.Remembered) bool {
	for _, x := range rs {
		if x == r {
			return true
		}
	}
	return false
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	if len(l) > 200 {
		l = l[:200] + "…"
	}
	return l
}
