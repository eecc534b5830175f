package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/guard-exec/guard-exec/bashcli"
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
		"presets":   {cmdPresets, "list the presets"},
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
	if !shellNames[base] && len(e.args) > 1 {
		if sc, ok := subcommands[e.args[1]]; ok {
			return sc.run(e, e.args[2:]), nil
		}
		if e.args[1] == "--help" || e.args[1] == "-help" {
			return cmdHelp(e, nil), nil
		}
	}
	return shellMain(e)
}

func cmdHelp(e *env, _ []string) int {
	fmt.Fprintf(e.stdout, `guard-exec: a guarded drop-in for bash.

Use it exactly like bash (guard-exec -c 'cmd', guard-exec script.sh, or
through a link named bash): every command is judged before the real shell
runs it. Subcommands:

`)
	names := []string{"check", "explain", "test", "log", "init", "trust", "untrust", "install", "uninstall", "hook", "run", "presets", "version", "help"}
	for _, n := range names {
		fmt.Fprintf(e.stdout, "  %-10s %s\n", n, subcommands[n].help)
	}
	fmt.Fprintf(e.stdout, "\nRun 'guard-exec SUBCOMMAND -h' for its options. Exit statuses and the\nconfiguration format are in the README.\n")
	return 0
}

func cmdVersion(e *env, _ []string) int {
	fmt.Fprintf(e.stdout, "guard-exec %s\n", version)
	fmt.Fprintf(e.stdout, "signals ignored by the caller: %s\n", bashcli.SignalRecord())
	return 0
}

func cmdPresets(e *env, _ []string) int {
	fmt.Fprint(e.stdout, policy.DescribePresets())
	return 0
}

func newFlags(e *env, name, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet("guard-exec "+name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "usage: guard-exec %s %s\n", name, usage)
		fs.PrintDefaults()
	}
	return fs
}

// commandText reads the command to judge from the arguments, a file or
// stdin.
func commandText(e *env, fs *flag.FlagSet, file string) (text, name string, err error) {
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
	fs := newFlags(e, "check", "[--json] [--cwd DIR] [--file SCRIPT] [--] 'COMMAND' | -")
	asJSON := fs.Bool("json", false, "print one JSON object")
	cwd := fs.String("cwd", "", "judge as if run in `DIR`")
	file := fs.String("file", "", "judge the script in `FILE` (- for stdin)")
	if err := fs.Parse(args); err != nil {
		return ExitUsage
	}
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
		fmt.Fprintf(w, "%s: %s\n", res.Decision, res.Reason)
		for _, p := range res.Commands {
			fmt.Fprintf(w, "  %-5s %s", p.Decision, p.Text())
			if p.Source != "" {
				fmt.Fprintf(w, "   [%s]", p.Source)
			}
			fmt.Fprintln(w)
		}
		w.Flush()
	}
	switch res.D {
	case policy.Allow:
		return 0
	case policy.Ask:
		return ExitCheckAsk
	}
	return ExitRefused
}

// judgeArgs loads the configuration and judges the command given to check
// (every part, with its verdict) or explain (every part, with the rules
// that matched it and the paths it touches).
func judgeArgs(e *env, fs *flag.FlagSet, cwd, file string, explain bool) (*judge.Result, *setup, int) {
	text, name, err := commandText(e, fs, file)
	if err != nil {
		fmt.Fprintf(e.stderr, "guard-exec: error: %v\n", err)
		fs.Usage()
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
		fmt.Fprintf(e.stderr, "guard-exec: notice: %s\n", n)
	}
	req := judge.Request{Source: text, Name: name, Cwd: cwd, Getenv: e.get, ParamsUnknown: name != "", Explain: explain, AllParts: true}
	if name == "" {
		req.Params = []string{"bash"}
	}
	res := judge.Judge(s.pol, req)
	rec := auditRecord(e, s, text, res, "check")
	s.log(e, rec)
	return res, s, 0
}

func cmdExplain(e *env, args []string) int {
	fs := newFlags(e, "explain", "[--cwd DIR] [--file SCRIPT] [--json] [--] 'COMMAND'")
	cwd := fs.String("cwd", "", "explain as if run in `DIR`")
	file := fs.String("file", "", "explain the script in `FILE`")
	asJSON := fs.Bool("json", false, "print the explanation as JSON (check --json with every matching rule)")
	if err := fs.Parse(args); err != nil {
		return ExitUsage
	}
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
		fmt.Fprintf(w, "  the command could not be read reliably: %s\n", res.ParseError)
		return
	}
	fmt.Fprintf(w, "  because: %s\n", res.Reason)
	fmt.Fprintf(w, "  config files: %s\n", strings.Join(append([]string{"built-in defaults"}, s.pol.Files...), ", "))
	for i, p := range res.Commands {
		fmt.Fprintf(w, "\npart %d: %s\n", i+1, p.Text())
		if len(p.Via) > 0 {
			fmt.Fprintf(w, "  reached through: %s\n", strings.Join(p.Via, " > "))
		}
		if p.Normalized != "" && p.Normalized != strings.Join(p.Argv, " ") {
			fmt.Fprintf(w, "  read as: %s\n", p.Normalized)
		}
		if p.Opaque != "" {
			fmt.Fprintf(w, "  hidden code: %s\n", p.Opaque)
		}
		if len(p.Cwd) > 0 {
			fmt.Fprintf(w, "  runs in: %s\n", strings.Join(p.Cwd, " or "))
		}
		for _, ef := range p.Effects {
			fmt.Fprintf(w, "  touches: %s\n", ef)
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
			fmt.Fprintf(w, "  %s%s %s [%s, specificity %d] %s (%s)\n", mark, m.Decision, m.Rule, m.Source, m.Spec, certain, m.Aspect)
			if m.Note != "" {
				fmt.Fprintf(w, "       %s\n", m.Note)
			}
		}
		fmt.Fprintf(w, "  decision: %s: %s\n", p.Decision, p.Reason)
		if p.Instead != "" {
			fmt.Fprintf(w, "  instead: %s\n", p.Instead)
		}
	}
}
