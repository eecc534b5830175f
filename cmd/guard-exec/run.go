package main

import (
	"bufio"
	"fmt"
	"io"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/guard-exec/guard-exec/bashargv"
	"github.com/guard-exec/guard-exec/bashcli"
	"github.com/guard-exec/guard-exec/internal/inert"
	"github.com/guard-exec/guard-exec/judge"
	"github.com/guard-exec/guard-exec/policy"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

type subcommand struct {
	run  func(e *env, args []string) int
	help string
}

var subcommands map[string]subcommand

func init() {
	subcommands = map[string]subcommand{
		"check":     {cmdCheck, "judge a command without running it (--json for machines)"},
		"explain":   {cmdExplain, "show every part of a command, the rules that matched and why one won"},
		"test":      {cmdTest, "validate config files, run rule examples, find rules that can never win; --replay an audit log"},
		"log":       {cmdLog, "show the audit log"},
		"init":      {cmdInit, "write a starter config for this project"},
		"trust":     {cmdTrust, "trust this project's .guard-exec.toml (run it yourself, outside the guard)"},
		"untrust":   {cmdUntrust, "stop trusting this project's .guard-exec.toml"},
		"install":   {cmdInstall, "set up the guard for a client (claude-code, codex, gemini-cli, github-actions, …)"},
		"uninstall": {cmdUninstall, "undo install"},
		"hook":      {cmdHook, "answer a client's pre-tool-use hook (JSON on stdin)"},
		"run":       {cmdRun, "start a program with SHELL and PATH pointing at the guard"},
		"presets":   {cmdPresets, "list the presets, or show one's rules"},
		"status":    {cmdShowStatus, "show the integrations, the configuration in force here, and this session's approvals"},
		"forget":    {cmdForget, "revoke this session's approvals"},
		"approvals": {cmdApprovals, "answer the commands waiting for your approval (run it yourself, outside the guard)"},
		"approve":   {cmdApprove, "allow a waiting request (guard-exec approvals --list shows them)"},
		"reject":    {cmdReject, "refuse a waiting request, with a --note for the agent"},
		"allow":     {cmdAllow, "allow a refused command for its session (--last, or the id the refusal named)"},
		"version":   {cmdVersion, "print the version"},
		"help":      {cmdHelp, "show this help"},
		// The interactive shell's DEBUG trap calls this; not for people.
		"__judge-interactive": {cmdJudgeInteractive, ""},
	}
}

// run is the whole program: it returns an exit status, or what to exec.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer, environ []string) (int, *execSpec) {
	e := newEnv(args, stdin, stdout, stderr, environ)
	if len(args) == 0 {
		e.args = []string{"guard-exec"}
	}
	base := strings.TrimPrefix(filepath.Base(e.args[0]), "-")
	if !bashargv.IsShellName(base) && len(e.args) > 1 {
		if sc, ok := subcommands[e.args[1]]; ok {
			return sc.run(e, e.args[2:]), nil
		}
		if e.args[1] == "--help" || e.args[1] == "-help" {
			return cmdHelp(e, nil), nil
		}
		if near := nearSubcommand(e, e.args[1]); near != "" {
			fmt.Fprintf(e.stderr, "guard-exec: error: unknown subcommand %q (and no script of that name here)\n", e.args[1])
			fmt.Fprintf(e.stderr, "guard-exec: hint: did you mean guard-exec %s? guard-exec help lists the subcommands\n", near)
			return ExitUsage, nil
		}
	}
	return shellMain(e)
}

// nearSubcommand returns the subcommand a mistyped word was probably
// meant to be, or "": a word that is one or two edits from a subcommand's
// name, has no slash, and names no file here (bash would otherwise run it
// as a script).
func nearSubcommand(e *env, word string) string {
	if word == "" || strings.ContainsAny(word, "/") || strings.HasPrefix(word, "-") || fileExists(filepath.Join(e.cwd, word)) {
		return ""
	}
	best, bestD := "", 3
	for name, sc := range subcommands {
		if sc.help == "" {
			continue
		}
		if d := editDistance(word, name); d < bestD && d <= len(name)/2 {
			best, bestD = name, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

func cmdHelp(e *env, args []string) int {
	if len(args) > 0 {
		if sc, ok := subcommands[args[0]]; ok && sc.help != "" && args[0] != "help" {
			return sc.run(e, []string{"--help"})
		}
		fmt.Fprintf(e.stderr, "guard-exec help: error: no subcommand %q\n", args[0])
		if near := nearSubcommand(e, args[0]); near != "" {
			fmt.Fprintf(e.stderr, "guard-exec: hint: did you mean %s?\n", near)
		}
		return ExitUsage
	}
	fmt.Fprintf(e.stdout, `guard-exec: a guarded drop-in for bash.

Use it exactly like bash (guard-exec -c 'cmd', guard-exec script.sh, or
through a link named bash): every command is judged before the real shell
runs it. Subcommands:

`)
	names := []string{"check", "explain", "test", "log", "status", "forget", "init", "trust", "untrust", "install", "uninstall", "hook", "approvals", "approve", "reject", "allow", "run", "presets", "version", "help"}
	for _, n := range names {
		fmt.Fprintf(e.stdout, "  %-10s %s\n", n, subcommands[n].help)
	}
	fmt.Fprintf(e.stdout, "\nRun 'guard-exec SUBCOMMAND -h' for its options. Exit statuses and the\nconfiguration format are in the README.\n")
	return 0
}

func cmdVersion(e *env, args []string) int {
	fs := newFlags(e, "version", "")
	if code, ok := fs.parse(args, 0, 0); !ok {
		return code
	}
	fmt.Fprintf(e.stdout, "guard-exec %s\n", versionString())
	fmt.Fprintf(e.stdout, "signals ignored by the caller: %s\n", bashcli.SignalRecord())
	return 0
}

// versionString is the module version and the commit the binary was
// built from, as the Go tool recorded them (go install …@v1.2.3 gives the
// version; a build in a checkout gives the commit, its time, and whether
// the tree had changes). -ldflags -X main.version=… still wins.
func versionString() string {
	if version != "dev" {
		return version
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return version
	}
	v := bi.Main.Version
	if v == "" || v == "(devel)" {
		v = "(development build)"
	}
	var rev, when string
	modified := false
	for _, st := range bi.Settings {
		switch st.Key {
		case "vcs.revision":
			rev = st.Value
		case "vcs.time":
			when = st.Value
		case "vcs.modified":
			modified = st.Value == "true"
		}
	}
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		if strings.Contains(v, rev) { // a pseudo-version names the commit already
			v = "(development build)"
		}
		v += " commit " + rev
		if when != "" {
			v += " (" + when + ")"
		}
		if modified {
			v += " with uncommitted changes"
		}
	}
	return v + " " + bi.GoVersion
}

// installVersion is what go install should fetch to get this guard: its
// tagged module version, else the commit it was built from, else "".
func installVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" && !strings.Contains(v, "+dirty") {
		return v
	}
	for _, st := range bi.Settings {
		if st.Key == "vcs.revision" {
			return st.Value
		}
	}
	return ""
}

func cmdPresets(e *env, args []string) int {
	fs := newFlags(e, "presets", "[show NAME]")
	if code, ok := fs.parse(args, 0, 2); !ok {
		return code
	}
	switch {
	case fs.NArg() == 0:
		fmt.Fprint(e.stdout, policy.DescribePresets())
		return 0
	case fs.Arg(0) != "show" || fs.NArg() != 2:
		fmt.Fprintf(e.stderr, "guard-exec presets: error: expected 'show NAME', not %q\n", strings.Join(fs.Args(), " "))
		fs.help(e.stderr)
		return ExitUsage
	}
	text, ok := policy.PresetRules(fs.Arg(1))
	if !ok {
		fmt.Fprintf(e.stderr, "guard-exec presets: error: no preset %q\n", fs.Arg(1))
		fmt.Fprintf(e.stderr, "guard-exec: hint: the presets are: %s\n", strings.Join(policy.PresetNames(), ", "))
		return ExitUsage
	}
	fmt.Fprint(e.stdout, text)
	return 0
}

// commandText reads the command to judge from the arguments, a file or
// stdin.
func commandText(e *env, fs *flags, file string) (text, name string, err error) {
	switch {
	case file == "-" || file == "" && len(fs.Args()) == 1 && fs.Arg(0) == "-":
		b, err := readScript(e.stdin)
		return string(b), "", err
	case file != "":
		b, err := readScriptFile(file)
		return string(b), file, err
	case len(fs.Args()) == 0:
		return "", "", fmt.Errorf("no command given")
	}
	return strings.Join(fs.Args(), " "), "", nil
}

func cmdCheck(e *env, args []string) int {
	fs := newFlags(e, "check", "[--json] [--cwd DIR] [--file SCRIPT] [--config FILE] [--] 'COMMAND' | -")
	asJSON := fs.Bool("json", false, "print one JSON object")
	cwd := fs.String("cwd", "", "judge as if run in `DIR`")
	file := fs.String("file", "", "judge the script in `FILE` (- for stdin)")
	cfg := fs.String("config", "", "judge with this config `FILE` instead of the user config")
	if code, ok := fs.parse(args, 0, -1); !ok {
		return code
	}
	e = withConfig(e, *cfg)
	// --json carries what explain shows (each part's effects and every
	// rule that matched it); the text lists verdicts only.
	res, _, code := judgeArgs(e, fs, *cwd, *file, *asJSON)
	if res == nil {
		return code
	}
	if *asJSON {
		res.WriteJSON(e.stdout)
	} else {
		// A script has thousands of parts: one write, not one per line.
		w := bufio.NewWriter(e.stdout)
		fmt.Fprintf(w, "%s: %s\n", res.Decision, inert.Line(res.Reason))
		for _, p := range res.Commands {
			fmt.Fprintf(w, "  %-5s %s", p.Decision, inert.Line(p.Text()))
			if p.Source != "" {
				fmt.Fprintf(w, "   [%s]", inert.Line(p.Source))
			}
			fmt.Fprintln(w)
		}
		w.Flush()
	}
	switch res.Decided {
	case policy.Allow:
		return 0
	case policy.Ask:
		return ExitCheckAsk
	}
	return ExitRefused
}

// withConfig returns e with the user config replaced by file ("": e).
func withConfig(e *env, file string) *env {
	if file == "" {
		return e
	}
	ne := *e
	ne.vars = make(map[string]string, len(e.vars)+1)
	for k, v := range e.vars {
		ne.vars[k] = v
	}
	ne.vars["GUARD_EXEC_CONFIG"] = file
	return &ne
}

// judgeArgs loads the configuration and judges the command given to check
// (every part, with its verdict) or explain (every part, with the rules
// that matched it and the paths it touches).
func judgeArgs(e *env, fs *flags, cwd, file string, explain bool) (*judge.Result, *setup, int) {
	text, name, err := commandText(e, fs, file)
	if err != nil {
		fmt.Fprintf(e.stderr, "guard-exec: error: %v\n", err)
		fs.help(e.stderr)
		return nil, nil, ExitUsage
	}
	if cwd == "" {
		cwd = e.cwd
	} else if !filepath.IsAbs(cwd) {
		cwd = filepath.Join(e.cwd, cwd)
	}
	s, err := load(e, cwd)
	if err != nil {
		configErr(e, err)
		return nil, nil, ExitCheckError
	}
	for _, n := range s.pol.Notices {
		fmt.Fprintf(e.stderr, "guard-exec: notice: %s\n", inert.Line(n))
	}
	req := judge.Request{Source: text, Name: name, Cwd: cwd, Getenv: e.get, ParamsUnknown: name != "", Explain: explain, AllParts: true,
		Python: pythonAnalyser(e, s.pol)}
	if name == "" {
		req.Params = []string{"bash"}
	}
	res := judge.Judge(s.pol, req)
	rec := auditRecord(e, s, text, res, "check")
	s.log(e, rec)
	return res, s, 0
}

func cmdExplain(e *env, args []string) int {
	fs := newFlags(e, "explain", "[--cwd DIR] [--file SCRIPT] [--config FILE] [--json] [--] 'COMMAND'")
	cwd := fs.String("cwd", "", "explain as if run in `DIR`")
	file := fs.String("file", "", "explain the script in `FILE`")
	asJSON := fs.Bool("json", false, "print the explanation as JSON (check --json with every matching rule)")
	cfg := fs.String("config", "", "explain with this config `FILE` instead of the user config")
	if code, ok := fs.parse(args, 0, -1); !ok {
		return code
	}
	e = withConfig(e, *cfg)
	res, s, code := judgeArgs(e, fs, *cwd, *file, true)
	if res == nil {
		return code
	}
	if *asJSON {
		res.WriteJSON(e.stdout)
		return 0
	}
	explain(e.stdout, res, s)
	return 0
}

// explain renders the decision as a tree people can read.
func explain(w io.Writer, res *judge.Result, s *setup) {
	fmt.Fprintf(w, "verdict: %s\n", strings.ToUpper(res.Decision))
	if res.ParseError != "" {
		fmt.Fprintf(w, "  the command could not be read reliably: %s\n", inert.Line(res.ParseError))
		return
	}
	fmt.Fprintf(w, "  because: %s\n", inert.Line(res.Reason))
	fmt.Fprintf(w, "  config files: %s\n", inert.Line(strings.Join(append([]string{"built-in defaults"}, s.pol.Files...), ", ")))
	for i, p := range res.Commands {
		fmt.Fprintf(w, "\npart %d: %s\n", i+1, inert.Line(p.Text()))
		if len(p.Via) > 0 {
			fmt.Fprintf(w, "  reached through: %s\n", inert.Line(strings.Join(p.Via, " > ")))
		}
		if p.Normalized != "" && p.Normalized != strings.Join(p.Argv, " ") {
			fmt.Fprintf(w, "  read as: %s\n", inert.Line(p.Normalized))
		}
		if p.Opaque != "" {
			fmt.Fprintf(w, "  hidden code: %s\n", inert.Line(p.Opaque))
		}
		if len(p.Cwd) > 0 {
			fmt.Fprintf(w, "  runs in: %s\n", inert.Line(strings.Join(p.Cwd, " or ")))
		}
		for _, ef := range p.Effects {
			fmt.Fprintf(w, "  touches: %s\n", inert.Line(ef))
		}
		if len(p.Matches) == 0 {
			fmt.Fprintf(w, "  rules: none matched\n")
		}
		for _, m := range p.Matches {
			mark := "  "
			if m.Won {
				mark = "→ "
			}
			certain := "matches"
			if !m.Certain {
				certain = "might match"
			}
			fmt.Fprintf(w, "  %s%s %s [%s, specificity %d] %s (%s)\n", mark, m.Decision, inert.Line(m.Rule), inert.Line(m.Source), m.Spec, certain, inert.Line(m.Aspect))
			if m.Note != "" {
				fmt.Fprintf(w, "       %s\n", inert.Line(m.Note))
			}
		}
		fmt.Fprintf(w, "  decision: %s: %s\n", p.Decision, inert.Line(p.Reason))
		if p.Instead != "" {
			fmt.Fprintf(w, "  instead: %s\n", inert.Line(p.Instead))
		}
		if p.Verdict != nil && p.Verdict.Decision == policy.Ask && p.Input != nil {
			// The person's view: what approving it for good would add
			// (never printed in a refusal, which the model reads).
			if rs, ok := policy.Remember(p.Input, p.Verdict); ok && len(rs) > 0 {
				fmt.Fprintf(w, "  a person can allow it by adding to %s:\n", inert.Line(s.configPath))
				for _, r := range rs {
					for _, l := range strings.Split(strings.TrimSpace(r.TOML("")), "\n") {
						fmt.Fprintf(w, "    %s\n", inert.Line(l))
					}
				}
			}
		}
	}
}
