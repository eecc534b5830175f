package main

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/guard-exec/guard-exec/atomicfile"
	"github.com/guard-exec/guard-exec/audit"
	"github.com/guard-exec/guard-exec/install"
	"github.com/guard-exec/guard-exec/internal/inert"
	"github.com/guard-exec/guard-exec/internal/sha256"
	"github.com/guard-exec/guard-exec/judge"
	"github.com/guard-exec/guard-exec/policy"
	"github.com/guard-exec/guard-exec/prompt"
	"github.com/guard-exec/guard-exec/state"
)

// underGuard reports whether this process runs under a guarded shell: a
// person's own trust and approval commands must not be run by an agent.
// The guard's denylist refuses them in a guarded command line; this
// catches the rest (a program the guard allowed that calls the binary).
func underGuard(e *env) bool { return state.UnderGuard(e.stateDir()) }

func cmdTrust(e *env, args []string) int {
	fs := newFlags(e, "trust", "[DIR]")
	if code, ok := fs.parse(args, 0, 1); !ok {
		return code
	}
	if underGuard(e) {
		fmt.Fprintf(e.stderr, "guard-exec: refused: trusting a project file is a person's decision; run guard-exec trust in your own terminal\n")
		return ExitRefused
	}
	dir := e.cwd
	if fs.NArg() > 0 {
		dir, _ = filepath.Abs(fs.Arg(0))
	}
	file := filepath.Join(policy.ProjectRoot(dir), ProjectFile)
	text, err := policy.ReadConfig(file)
	if err != nil {
		fmt.Fprintf(e.stderr, "guard-exec: error: cannot read %s: %v\n", file, err)
		fmt.Fprintf(e.stderr, "guard-exec: hint: run guard-exec trust in the project (the directory with .git or %s)\n", ProjectFile)
		return ExitUsage
	}
	if _, err := policy.ParseFile(file, text, policy.Project); err != nil {
		configErr(e, err)
		return ExitCheckError
	}
	sd := e.stateDir()
	if sd == "" {
		fmt.Fprintf(e.stderr, "guard-exec: error: no state directory (HOME and XDG_STATE_HOME are unset)\n")
		return ExitCannotRun
	}
	// Trust is a person's decision: it is confirmed on the terminal, so a
	// program cannot give it on anyone's behalf.
	q := prompt.Question{Command: "guard-exec trust " + file, Parts: []prompt.NeedsApproval{{Text: file,
		Reason: "its allow rules and presets will apply to commands run in this project, until the file changes"}}}
	if ans, err := (&prompt.TTY{}).Ask(q); ans != prompt.Once {
		why := "not confirmed"
		if errors.Is(err, prompt.ErrNoTerminal) {
			why = "no terminal to confirm on: run it yourself, in a terminal"
		}
		fmt.Fprintf(e.stderr, "guard-exec: %s is not trusted (%s)\n", file, why)
		return ExitRefused
	}
	if err := state.Trust(sd, file, text); err != nil {
		fmt.Fprintf(e.stderr, "guard-exec: error: %v\n", err)
		return ExitCannotRun
	}
	sum := sha256.Sum256(text)
	fmt.Fprintf(e.stderr, "guard-exec: trusted %s (sha256 %s); any change to it revokes the trust\n", file, hex.EncodeToString(sum[:])[:16])
	return 0
}

func cmdUntrust(e *env, args []string) int {
	fs := newFlags(e, "untrust", "[DIR]")
	if code, ok := fs.parse(args, 0, 1); !ok {
		return code
	}
	if underGuard(e) {
		fmt.Fprintf(e.stderr, "guard-exec: refused: project trust is changed by a person, outside the guard\n")
		return ExitRefused
	}
	dir := e.cwd
	if fs.NArg() > 0 {
		dir, _ = filepath.Abs(fs.Arg(0))
	}
	file := filepath.Join(policy.ProjectRoot(dir), ProjectFile)
	if err := state.Untrust(e.stateDir(), file); err != nil {
		fmt.Fprintf(e.stderr, "guard-exec: error: %v\n", err)
		return ExitCannotRun
	}
	fmt.Fprintf(e.stderr, "guard-exec: %s is no longer trusted\n", file)
	return 0
}

func cmdLog(e *env, args []string) int {
	fs := newFlags(e, "log", "[--since DURATION|DATE] [--decision allow|ask|deny] [--checks] [--json] [--file PATH]")
	since := fs.String("since", "", "only records newer than a `DURATION` ago (1h, 30m) or a DATE (2026-11-30)")
	decision := fs.String("decision", "", "only this `DECISION`")
	asJSON := fs.Bool("json", false, "print the records as JSON lines")
	file := fs.String("file", "", "read this audit log `PATH` instead of the user's")
	checks := fs.Bool("checks", false, "also list what check and explain judged (nothing of it ran)")
	if code, ok := fs.parse(args, 0, 0); !ok {
		return code
	}
	var f audit.Filter
	if *since != "" {
		if d, err := time.ParseDuration(*since); err == nil {
			f.Since = time.Now().Add(-d)
		} else if t, err := time.ParseInLocation("2006-01-02", *since, time.Local); err == nil {
			f.Since = t
		} else if t, err := time.Parse(time.RFC3339, *since); err == nil {
			f.Since = t
		} else {
			fmt.Fprintf(e.stderr, "guard-exec: error: --since %q is neither a duration (1h) nor a date (2026-11-30)\n", *since)
			return ExitUsage
		}
	}
	if *decision != "" {
		if _, ok := policy.ParseDecision(*decision); !ok {
			fmt.Fprintf(e.stderr, "guard-exec: error: --decision must be allow, ask or deny\n")
			return ExitUsage
		}
		f.Decision = *decision
	}
	path := *file
	if path == "" {
		path = filepath.Join(e.stateDir(), "audit.jsonl")
	}
	n := 0
	err := audit.ReadAll(path, func(r audit.Record) error {
		if !f.Match(r) || r.Via == "check" && !*checks {
			return nil
		}
		n++
		if *asJSON {
			b, _ := jsonMarshal(r)
			e.stdout.Write(append(b, '\n'))
			return nil
		}
		return audit.Format(e.stdout, r)
	})
	var ce *audit.CorruptError
	if errors.As(err, &ce) {
		fmt.Fprintf(e.stderr, "guard-exec: warning: %v\n", err)
	} else if err != nil {
		fmt.Fprintf(e.stderr, "guard-exec: error: %v\n", err)
		return ExitCannotRun
	}
	if n == 0 && !*asJSON {
		fmt.Fprintf(e.stderr, "guard-exec: no matching records in %s\n", path)
	}
	return 0
}

func cmdInit(e *env, args []string) int {
	fs := newFlags(e, "init", "[--user] [--force] [--print]")
	user := fs.Bool("user", false, "write the user config instead of the project's .guard-exec.toml")
	fs.Bool("project", true, "write the project's .guard-exec.toml (the default)")
	force := fs.Bool("force", false, "overwrite an existing file")
	print := fs.Bool("print", false, "print the config instead of writing it")
	if code, ok := fs.parse(args, 0, 0); !ok {
		return code
	}
	if underGuard(e) && !*print {
		fmt.Fprintf(e.stderr, "guard-exec: refused: the guard's configuration is written by a person, outside the guard\n")
		return ExitRefused
	}
	root := policy.ProjectRoot(e.cwd)
	text := policy.StarterConfigFor(root, policy.ProjectFiles{
		Exists: func(name string) bool { return fileExists(filepath.Join(root, name)) },
		Read: func(name string) ([]byte, bool) {
			b, err := readProjectFile(filepath.Join(root, name))
			return b, err == nil
		},
		Executables: func(dir string) []string { return executables(filepath.Join(root, dir)) },
		Allowed:     initJudge(e, root),
	})
	if *print {
		fmt.Fprint(e.stdout, text)
		return 0
	}
	path := filepath.Join(root, ProjectFile)
	if *user {
		path = e.userConfigPath()
	}
	if _, err := os.Stat(path); err == nil && !*force {
		fmt.Fprintf(e.stderr, "guard-exec: error: %s already exists\n", path)
		fmt.Fprintf(e.stderr, "guard-exec: hint: use --print to see the starter config, or --force to replace the file\n")
		return ExitUsage
	}
	if _, err := policy.ParseFile(path, []byte(text), policy.User); err != nil {
		fmt.Fprintf(e.stderr, "guard-exec: error: internal: the starter config does not load: %v\n", err)
		return ExitCannotRun
	}
	if err := atomicfile.Write(path, []byte(text), 0o600); err != nil {
		fmt.Fprintf(e.stderr, "guard-exec: error: cannot write %s: %v\n", path, err)
		return ExitCannotRun
	}
	fmt.Fprintf(e.stderr, "guard-exec: wrote %s\n", path)
	if !*user {
		fmt.Fprintf(e.stderr, "guard-exec: hint: its allow rules and presets apply once you have read it and run: guard-exec trust\n")
	}
	return 0
}

// readProjectFile reads a small regular file of the project for init
// (a FIFO or a huge file there is skipped, never waited on).
func readProjectFile(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() || fi.Size() > 1<<20 {
		return nil, fmt.Errorf("%s is not a small regular file", path)
	}
	return io.ReadAll(io.LimitReader(f, 1<<20))
}

// initJudge judges a command init would propose to allow inside a task
// (poe test runs pytest -x): with the built-in defaults and only the
// presets init writes, as the guard would judge it typed at the project
// root, so that a task never hides what the guard would ask about. Where
// the guard's configuration does not load, no task is proposed.
func initJudge(e *env, root string) func(presets []string, command string) bool {
	pols := map[string]*policy.Policy{}
	var penv *policy.Env
	if s, _ := load(e, root); s != nil {
		penv = s.env // the home, project and protected files load found
	}
	return func(presets []string, command string) bool {
		if penv == nil {
			return false
		}
		key := strings.Join(presets, ",")
		pol, ok := pols[key]
		if !ok {
			quoted := make([]string, len(presets))
			for i, p := range presets {
				quoted[i] = strconv.Quote(p)
			}
			f, err := policy.ParseFile("init", []byte("presets = ["+strings.Join(quoted, ", ")+"]\n"), policy.User)
			if err == nil {
				pol, err = policy.Build(policy.Sources{Env: penv, User: f})
			}
			if err != nil {
				pol = nil // proposes nothing
			}
			pols[key] = pol
		}
		if pol == nil {
			return false
		}
		res := judge.Judge(pol, judge.Request{Source: command, Cwd: root, Getenv: e.get, Params: []string{"bash"}})
		return res.Decided == policy.Allow
	}
}

// executables lists the executable regular files directly in dir (not
// the files links point to: a link may lead out of the project), at most
// 200 of them.
func executables(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		if fi, err := e.Info(); err == nil && fi.Mode()&0o111 != 0 {
			out = append(out, e.Name())
			if len(out) == 200 {
				break
			}
		}
	}
	return out
}

func installEnv(e *env, target string) (install.Env, error) {
	self, err := os.Executable()
	if err != nil {
		return install.Env{}, err
	}
	self, _ = filepath.EvalSymlinks(self)
	ie := install.Env{Home: e.home(), GuardPath: self, Getenv: e.get, PathDirs: filepath.SplitList(e.get("PATH")), Target: target,
		Version: installVersion()}
	if text, err := os.ReadFile(filepath.Join(policy.ProjectRoot(e.cwd), ProjectFile)); err == nil {
		ie.PolicyPin = projectHash(text)
	}
	return ie, nil
}

func cmdInstall(e *env, args []string) int   { return installCmd(e, args, false) }
func cmdUninstall(e *env, args []string) int { return installCmd(e, args, true) }

func installCmd(e *env, args []string, undo bool) int {
	name := "install"
	if undo {
		name = "uninstall"
	}
	fs := newFlags(e, name, "[--dry-run] [--write FILE] CLIENT ["+strings.Join(install.Clients(), "|")+"] [DIR]")
	dry := fs.Bool("dry-run", false, "print the changes without making them")
	write := fs.String("write", "", "github-actions: add the shell default to this workflow `FILE`")
	if code, ok := fs.parse(args, 1, 2); !ok {
		return code
	}
	if underGuard(e) {
		fmt.Fprintf(e.stderr, "guard-exec: refused: installing or removing the guard is done by a person, outside the guard\n")
		return ExitRefused
	}
	target := *write
	if fs.NArg() > 1 {
		target, _ = filepath.Abs(fs.Arg(1))
	}
	ienv, err := installEnv(e, target)
	if err != nil {
		fmt.Fprintf(e.stderr, "guard-exec: error: cannot find the guard-exec binary: %v\n", err)
		return ExitCannotRun
	}
	var plan *install.Plan
	if undo {
		plan, err = install.Uninstall(fs.Arg(0), ienv)
	} else {
		plan, err = install.Install(fs.Arg(0), ienv)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "guard-exec: error: %v\n", err)
		return ExitUsage
	}
	if d := plan.Diff(); d != "" {
		fmt.Fprint(e.stdout, d)
	}
	if !*dry {
		if err := install.Apply(plan); err != nil {
			fmt.Fprintf(e.stderr, "guard-exec: error: %v\n", err)
			return ExitCannotRun
		}
	}
	for _, n := range plan.Notes {
		fmt.Fprintf(e.stdout, "%s\n", n)
	}
	if *dry {
		fmt.Fprintf(e.stderr, "guard-exec: dry run: nothing was changed\n")
	}
	return 0
}

// cmdHook answers a client's pre-tool-use hook: the JSON payload on stdin,
// a permission decision out. It fails closed: malformed input is a deny.
func cmdHook(e *env, args []string) int {
	fs := newFlags(e, "hook", "claude-code|codex|gemini-cli   (the hook's JSON on stdin)")
	if code, ok := fs.parse(args, 1, 1); !ok {
		return code
	}
	client := fs.Arg(0)
	reply := func(decision, reason string) int {
		out, errText, code := install.HookReply(client, decision, reason)
		if len(out) > 0 {
			e.stdout.Write(out)
		}
		if len(errText) > 0 {
			e.stderr.Write(errText)
		}
		return code
	}
	in, err := install.ParseHookInput(e.stdin)
	if err != nil {
		return reply("deny", "guard-exec could not read the hook input ("+err.Error()+"), so the command is refused")
	}
	// Answering has no side effect that a command run under the guard
	// could use (the claude-code question below refuses to be recorded
	// there), so the hook answers wherever it runs: Gemini CLI and Codex
	// run their hooks through the guarded shell itself.
	if client == "claude-code" && install.ClearsQuestions(in.HookEventName) {
		forgetHookAsks(e, in)
		return 0
	}
	if !in.Shell {
		return reply("", "")
	}
	cwd := in.Cwd
	if cwd == "" {
		cwd = e.cwd
	}
	if in.Dir != "" {
		if filepath.IsAbs(in.Dir) {
			cwd = in.Dir
		} else {
			cwd = filepath.Join(cwd, in.Dir)
		}
	}
	s, err := load(e, cwd)
	if err != nil {
		return reply("deny", "guard-exec's configuration is broken, so every command is refused: "+err.Error())
	}
	req := judge.Request{Source: in.Command, Cwd: cwd, Getenv: e.get, Params: []string{"bash"}}
	res := judge.Judge(s.pol, req)
	rec := auditRecord(e, s, in.Command, res, "hook")
	rec.Client = client
	reason := hookReason(res)
	if s.mode == "audit" && res.Decided != policy.Allow && !res.AbsoluteDeny() {
		rec.Answer = "audit-mode"
		s.log(e, rec)
		return reply("allow", "audit mode: would be "+res.Decision+": "+reason)
	}
	if res.Decided == policy.Ask && client == "claude-code" {
		// The client shows its own prompt; if the person approves, the
		// client's next guarded shell for this command takes the
		// question. Without one it would refuse what the person approved:
		// better to refuse now and say why.
		if why := rememberHookAsk(e, s, in); why != "" {
			rec.Answer = "cannot-ask"
			s.log(e, rec)
			return reply("deny", reason+" (guard-exec cannot take an approval for it here: "+why+")")
		}
	}
	s.log(e, rec)
	return reply(res.Decision, reason)
}

// hookReason is what the client shows for the verdict (to the model, and
// in its own prompt): command text inert, so it cannot act on a terminal.
func hookReason(res *judge.Result) string { return inert.Line(hookText(res)) }

func hookText(res *judge.Result) string {
	if res.Decided == policy.Allow {
		return "guard-exec: " + res.Reason
	}
	var b strings.Builder
	b.WriteString("guard-exec " + map[policy.Decision]string{policy.Ask: "needs approval", policy.Deny: "refused this"}[res.Decided] + ": ")
	if res.ParseError != "" {
		b.WriteString(res.Reason)
	}
	for i, p := range res.Refused() {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s (%s)", p.Text(), p.Reason)
		if p.Instead != "" {
			b.WriteString(". Instead: " + p.Instead)
		}
	}
	return b.String()
}

// cmdRun starts a program with SHELL and PATH pointing at the guard, for
// clients that honour $SHELL (aider, cline, continue).
func cmdRun(e *env, args []string) int {
	fs := newFlags(e, "run", "[--] PROGRAM [ARG…]")
	if code, ok := fs.parseLeading(args, 1); !ok {
		return code
	}
	args = fs.Args()
	ienv, err := installEnv(e, "")
	if err != nil {
		fmt.Fprintf(e.stderr, "guard-exec: error: %v\n", err)
		return ExitCannotRun
	}
	link := install.BashLink(ienv)
	if _, err := os.Lstat(link); err != nil {
		if err := os.MkdirAll(filepath.Dir(link), 0o755); err == nil {
			os.Symlink(ienv.GuardPath, link)
		}
	}
	environ := withVar(e.list, "SHELL", link)
	environ = withVar(environ, "PATH", filepath.Dir(link)+string(os.PathListSeparator)+e.get("PATH"))
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env, cmd.Stdin, cmd.Stdout, cmd.Stderr = environ, e.stdin, e.stdout, e.stderr
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		fmt.Fprintf(e.stderr, "guard-exec: error: %v\n", err)
		return 127
	}
	return 0
}

func withVar(environ []string, k, v string) []string {
	out := make([]string, 0, len(environ)+1)
	for _, kv := range environ {
		if !strings.HasPrefix(kv, k+"=") {
			out = append(out, kv)
		}
	}
	return append(out, k+"="+v)
}

// cmdTest validates config files, runs rule examples and finds rules that
// can never win; with --replay it re-judges an audit log.
func cmdTest(e *env, args []string) int {
	fs := newFlags(e, "test", "[--replay AUDIT.jsonl [--config NEW.toml]] [FILE…]")
	replay := fs.String("replay", "", "re-judge the commands of this audit `LOG`")
	newCfg := fs.String("config", "", "with --replay: judge with this config `FILE` instead of the current one")
	if code, ok := fs.parse(args, 0, -1); !ok {
		return code
	}
	if *replay != "" {
		return replayLog(e, *replay, *newCfg)
	}
	files := fs.Args()
	if len(files) == 0 {
		files = []string{e.userConfigPath()}
		if p := filepath.Join(policy.ProjectRoot(e.cwd), ProjectFile); fileExists(p) {
			files = append(files, p)
		}
	}
	bad := 0
	for _, path := range files {
		text, err := policy.ReadConfig(path)
		if err != nil {
			if os.IsNotExist(err) && len(fs.Args()) == 0 {
				fmt.Fprintf(e.stdout, "%s: not present (built-in defaults only)\n", path)
				continue
			}
			fmt.Fprintf(e.stdout, "%s: cannot read: %v\n", path, err)
			bad++
			continue
		}
		layer := policy.User
		if filepath.Base(path) == ProjectFile {
			layer = policy.Project
		}
		f, err := policy.ParseFile(path, text, layer)
		if err != nil {
			failed(e, err)
			bad++
			continue
		}
		root, _ := policy.ProjectRootIn(e.cwd, e.home()) // as a command run here is judged
		penv := &policy.Env{Home: e.home(), Project: root}
		pol, err := policy.Build(policy.Sources{Env: penv, User: f, ProjectTrusted: true, CheckExamples: true})
		if err != nil {
			failed(e, err)
			bad++
			continue
		}
		examples := 0
		rules := f.Rules()
		for _, r := range rules {
			examples += len(r.Match) + len(r.NotMatch)
		}
		fmt.Fprintf(e.stdout, "ok   %s: %d rule(s), %d example(s) pass\n", path, len(rules), examples)
		for _, w := range pol.Shadowed(rules) {
			fmt.Fprintf(e.stdout, "warn %s\n", w)
		}
	}
	if bad > 0 {
		return ExitRefused
	}
	return 0
}

// failed prints every problem of a config file, each with its hint.
func failed(e *env, err error) {
	for _, ce := range configErrors(err) {
		fmt.Fprintf(e.stdout, "FAIL %s\n", inert.Line(ce.Error()))
		if ce.Hint != "" {
			fmt.Fprintf(e.stdout, "     hint: %s\n", inert.Line(ce.Hint))
		}
	}
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// replayLog re-judges past commands and lists what would change.
func replayLog(e *env, path, cfg string) int {
	cur, err := load(e, e.cwd)
	if err != nil {
		configErr(e, err)
		return ExitCheckError
	}
	next := cur
	if cfg != "" {
		next, err = load(withConfig(e, cfg), e.cwd)
		if err != nil {
			configErr(e, err)
			return ExitCheckError
		}
	}
	type change struct{ from, to, cmd, cwd string }
	var changes []change
	total := 0
	err = audit.ReadAll(path, func(r audit.Record) error {
		if r.Redacted || r.Command == "" || r.Via == "check" {
			return nil // check and explain judged; nothing ran
		}
		total++
		cwd := r.Cwd
		if cwd == "" {
			cwd = e.cwd
		}
		old := r.Decision
		if cfg != "" {
			old = judge.Judge(cur.pol, judge.Request{Source: r.Command, Cwd: cwd, Getenv: e.get, Params: []string{"bash"}}).Decision
		}
		nw := judge.Judge(next.pol, judge.Request{Source: r.Command, Cwd: cwd, Getenv: e.get, Params: []string{"bash"}}).Decision
		if nw != old {
			changes = append(changes, change{old, nw, firstLine(r.Command), cwd})
		}
		return nil
	})
	var ce *audit.CorruptError
	if err != nil && !errors.As(err, &ce) {
		fmt.Fprintf(e.stderr, "guard-exec: error: %v\n", err)
		return ExitCannotRun
	}
	sort.SliceStable(changes, func(i, j int) bool { return changes[i].to < changes[j].to })
	for _, c := range changes {
		fmt.Fprintf(e.stdout, "newly %-5s (was %s): %s\n", c.to, c.from, c.cmd)
	}
	fmt.Fprintf(e.stdout, "%d command(s) re-judged, %d would be decided differently\n", total, len(changes))
	return 0
}

func jsonMarshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := jsonEncoder(&b)
	err := enc.Encode(v)
	return bytes.TrimRight(b.Bytes(), "\n"), err
}
