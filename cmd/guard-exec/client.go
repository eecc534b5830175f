package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/guard-exec/guard-exec/internal/inert"
	"github.com/guard-exec/guard-exec/judge"
	"github.com/guard-exec/guard-exec/policy"
	"github.com/guard-exec/guard-exec/state"
	"github.com/guard-exec/guard-exec/word"
)

func jsonEncoder(w io.Writer) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc
}

// interactive runs the real bash as an interactive shell whose every
// simple command is judged first, through a DEBUG trap with extdebug (a
// command whose trap fails is skipped). It is a backstop for people at a
// terminal; README says what it cannot stop.
func interactive(e *env, s *setup, ex *execSpec) (int, *execSpec) {
	self, err := selfPath(e)
	if err != nil {
		fmt.Fprintf(e.stderr, "guard-exec: error: cannot find the guard's own path: %v\n", err)
		return ExitCannotRun, nil
	}
	login := strings.HasPrefix(filepath.Base(e.args[0]), "-")
	for _, a := range e.args[1:] {
		if a == "-l" || a == "--login" {
			login = true
		}
	}
	rc := interactiveRC(self, login)
	fd, err := memFile("guard-exec-rc", rc)
	if err != nil {
		fmt.Fprintf(e.stderr, "guard-exec: error: cannot prepare the interactive shell: %v\n", err)
		return ExitCannotRun, nil
	}
	var args []string
	for _, a := range e.args[1:] {
		if a != "-l" && a != "--login" {
			args = append(args, a)
		}
	}
	ex.argv = append([]string{filepath.Base(ex.path), "--rcfile", fmt.Sprintf("/dev/fd/%d", fd)}, args...)
	if s.stateDir != "" {
		state.MarkGuarded(s.stateDir, os.Getpid())
	}
	ex.env = withVar(ex.env, "GUARD_EXEC_INTERACTIVE", "1")
	return 0, ex
}

// selfPath is how to run this guard again: the path it was started by
// (which keeps the name it was started under), else the executable.
func selfPath(e *env) (string, error) {
	exe, err := os.Executable()
	if a := e.args[0]; strings.Contains(a, "/") {
		if !filepath.IsAbs(a) {
			a = filepath.Join(e.cwd, a)
		}
		if fa, err1 := os.Stat(a); err1 == nil {
			if fe, err2 := os.Stat(exe); err2 == nil && os.SameFile(fa, fe) {
				return a, nil
			}
		}
	}
	return exe, err
}

// interactiveRC is the startup file of a guarded interactive shell.
//
// Its first line installs the guard in its plainest form, so that whatever
// fails later (the user's own startup files, the finer trap below), no
// typed command runs unjudged. Commands read from files (this one, the
// user's startup files, a script a person approved to source) carry a
// BASH_SOURCE and pass; so do calls of shell functions, whose own commands
// are judged one by one (functrace), and completion.
//
// The finer trap judges each command line once, whole, before its first
// command runs (bash has put it in the history by then); its later
// commands reuse the verdict. The verdict lives only until the next
// prompt: the prompt hook forgets it and notes the newest history entry,
// so a line bash did not save (history off, HISTCONTROL=ignorespace, a
// duplicate) is told from the line before it and judged command by
// command.
//
// The prompt hook (PROMPT_COMMAND, made readonly) also checks that the
// trap, extdebug and functrace are still in place before every prompt:
// a typed command that changes them is refused (guardHookChange), and if
// something else did (a sourced file), the shell says so and exits rather
// than go on unguarded. Its functions are readonly; the names it relies on
// cannot be redefined at the prompt (guardHookChange).
func interactiveRC(self string, login bool) string {
	g := shellQuote(self)
	// A function defined at the prompt has "main" as its source: its
	// commands are typed commands too.
	pass := `[[ -n ${BASH_SOURCE-} && ${BASH_SOURCE-} != main || -n ${COMP_LINE-} ]] || builtin declare -F -- "${BASH_COMMAND%% *}" >/dev/null`
	var rc strings.Builder
	fmt.Fprintf(&rc, "trap '%s || %s __judge-interactive \"$BASH_COMMAND\"' DEBUG\nshopt -s extdebug\nset -o functrace\n",
		strings.ReplaceAll(pass, "'", `'\''`), strings.ReplaceAll(g, "'", `'\''`))
	if login {
		rc.WriteString("[ -r /etc/profile ] && . /etc/profile\nfor __g in ~/.bash_profile ~/.bash_login ~/.profile; do [ -r \"$__g\" ] && { . \"$__g\"; break; }; done; unset __g\n")
	} else {
		rc.WriteString("[ -r /etc/bash.bashrc ] && . /etc/bash.bashrc\n[ -r ~/.bashrc ] && . ~/.bashrc\n")
	}
	// Inside the function, BASH_SOURCE[0] is this file: the command's own
	// source is one frame up.
	fmt.Fprintf(&rc, `__guard_exec_debug() {
  %[2]s && return 0
  case "$BASH_COMMAND" in __guard_exec_*) return 0;; esac
  builtin local __l
  if [[ -n "${__guard_exec_text-}" && "${__guard_exec_n-}" == "$HISTCMD" && "$__guard_exec_text" == *"$BASH_COMMAND"* ]]; then
    builtin return $__guard_exec_ok
  fi
  __l=$(HISTTIMEFORMAT= builtin history 1 2>/dev/null)
  if [[ -z "$__l" || "$__l" == "${__guard_exec_last-}" || "$__l" != *"$BASH_COMMAND"* ]]; then
    %[1]s __judge-interactive "$BASH_COMMAND"
    builtin return $?
  fi
  __guard_exec_last=$__l
  __l=${__l#"${__l%%%%[![:space:][:digit:]]*}"}
  __guard_exec_n=$HISTCMD __guard_exec_text=$__l
  %[1]s __judge-interactive "$__l"
  __guard_exec_ok=$?
  builtin return $__guard_exec_ok
}
__guard_exec_prompt() {
  if [[ "$(builtin trap -p DEBUG)" != "trap -- '__guard_exec_debug' DEBUG" ]] || ! builtin shopt -q extdebug || [[ $- != *T* ]]; then
    builtin printf 'guard-exec: the guard'"'"'s DEBUG trap, extdebug or functrace was changed; this shell does not go on unguarded\n' >&2
    builtin exit %[3]d
  fi
  __guard_exec_n= __guard_exec_text= __guard_exec_ok=1
  __guard_exec_last=$(HISTTIMEFORMAT= builtin history 1 2>/dev/null)
}
shopt -s extdebug
set -o functrace
trap __guard_exec_debug DEBUG
readonly -f __guard_exec_debug __guard_exec_prompt
if [[ "$(declare -p PROMPT_COMMAND 2>/dev/null)" == "declare -a"* ]]; then
  PROMPT_COMMAND=(__guard_exec_prompt "${PROMPT_COMMAND[@]}")
else
  PROMPT_COMMAND="__guard_exec_prompt${PROMPT_COMMAND:+; $PROMPT_COMMAND}"
fi
readonly PROMPT_COMMAND
`, g, strings.ReplaceAll(pass, "${BASH_SOURCE-}", "${BASH_SOURCE[1]-}"), ExitRefused)
	return rc.String()
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// cmdJudgeInteractive is the DEBUG trap's helper: exit 0 runs the
// command, anything else skips it.
func cmdJudgeInteractive(e *env, args []string) int {
	if len(args) != 1 {
		return 0
	}
	src := args[0]
	s, err := load(e, e.cwd)
	if err != nil {
		configErr(e, err)
		return ExitRefused
	}
	req := judge.Request{Source: src, Cwd: e.cwd, Getenv: e.get, ParamsUnknown: true, AllParts: true, Python: pythonAnalyser(e, s.pol)}
	res := judge.Judge(s.pol, req)
	if why, ok := guardHookChange(src, res); ok {
		res.Decided, res.Decision, res.Reason = policy.Deny, "deny", why
		rec := auditRecord(e, s, src, res, "interactive")
		s.log(e, rec)
		fmt.Fprintf(e.stderr, "guard-exec: refused (denied): %s\n", inert.Line(firstLine(src)))
		fmt.Fprintf(e.stderr, "guard-exec:   why: %s\n", why)
		fmt.Fprintf(e.stderr, "guard-exec:   instead: leave the guard's hooks alone; a person who wants an unguarded shell starts one outside the guard\n")
		return 1
	}
	rec := auditRecord(e, s, src, res, "interactive")
	if res.Decided == policy.Allow {
		s.log(e, rec)
		return 0
	}
	if s.mode == "audit" && !res.AbsoluteDeny() {
		s.log(e, rec)
		report(e, s, req, res, "would be refused (audit mode)", true)
		return 0
	}
	if s.mode == "audit" {
		rec.Answer = "audit-mode-absolute"
		s.log(e, rec)
		report(e, s, req, res, "the absolute denylist names it, which audit mode does not run", false)
		return 1
	}
	if res.Decided == policy.Ask {
		ans, why := askPerson(e, s, req, res)
		rec.Answer = ans
		s.log(e, rec)
		if ans == "once" || ans == "session" || ans == "always" {
			return 0
		}
		report(e, s, req, res, why, false)
		return 1
	}
	s.log(e, rec)
	report(e, s, req, res, "denied", false)
	return 1
}

// guardShadowed are the names the interactive guard's functions rely on:
// a function of that name, defined at the prompt, would run instead of the
// builtin (declare -F answering yes for every command, say).
func guardShadowed(name string) bool {
	switch name {
	case "builtin", "declare", "typeset", "local", "return", "history", "printf", "exit", "trap", "shopt",
		"set", "command", "enable", "unset", "readonly", "eval", "source", ".", "kill", "caller", "exec":
		return true
	}
	return strings.HasPrefix(name, "__guard_exec")
}

// guardHookChange reports whether a typed command line could switch the
// interactive guard off: change or remove the DEBUG trap, extdebug or
// functrace, touch the guard's own functions and variables, or shadow the
// builtins they rely on. It reads every part the judgement found, so the
// change is refused wherever it sits: later in a list, in eval text, in a
// function called on the line, behind command or builtin. A word not known
// here where such a change could be spelled counts as one.
func guardHookChange(src string, res *judge.Result) (string, bool) {
	const why = "it would switch off the guard of this interactive shell: "
	if strings.Contains(src, "__guard_exec") {
		return why + "it names the guard's own functions or variables", true
	}
	for _, f := range res.Funcs {
		if guardShadowed(f) {
			return why + "it defines a function " + f + ", which the guard's hooks rely on being the builtin", true
		}
	}
	for _, p := range res.Commands {
		if p.Input == nil {
			continue
		}
		for _, a := range p.Input.Assigns {
			if a.Name == "PROMPT_COMMAND" || strings.HasPrefix(a.Name, "__guard_exec") {
				return why + "it assigns " + a.Name, true
			}
		}
		if len(p.Input.Argv) == 0 {
			continue
		}
		name, ok := p.Input.Argv[0].Static()
		if !ok {
			continue // a program named at run time is never allowed anyway
		}
		args := p.Input.Argv[1:]
		if r, ok := hookChangeBy(name, args); ok {
			return why + r, true
		}
	}
	return "", false
}

// hookChangeBy says whether a builtin with these arguments changes the
// guard's hooks.
func hookChangeBy(name string, args []word.Word) (string, bool) {
	static := make([]string, len(args))
	dynamic := false
	for i, a := range args {
		t, ok := a.Static()
		static[i], dynamic = t, dynamic || !ok
	}
	switch name {
	case "trap":
		if len(args) > 0 && !dynamic && (static[0] == "-p" || static[0] == "-l" || static[0] == "-lp" || static[0] == "-pl") {
			return "", false // prints
		}
		if dynamic {
			return "trap with a word not known here, which could name DEBUG", true
		}
		for _, t := range static {
			if u := strings.TrimPrefix(strings.ToUpper(t), "SIG"); u == "DEBUG" {
				return "it changes the DEBUG trap", true
			}
		}
	case "shopt":
		off := false
		for _, t := range static {
			if strings.HasPrefix(t, "-") && strings.Contains(t, "u") {
				off = true
			}
		}
		for _, t := range static {
			if off && (t == "extdebug" || t == "functrace") {
				return "it turns " + t + " off", true
			}
		}
		if off && dynamic {
			return "shopt -u with a word not known here, which could name extdebug", true
		}
	case "set":
		for i, t := range static {
			if !args[i].IsStatic() {
				return "set with a word not known here, which could turn functrace off", true
			}
			if t == "--" || t == "-" || !strings.HasPrefix(t, "+") && !strings.HasPrefix(t, "-") {
				break
			}
			if strings.HasPrefix(t, "+") && strings.Contains(t, "T") {
				return "it turns functrace off", true
			}
			if t == "+o" && i+1 < len(static) && (static[i+1] == "functrace" || !args[i+1].IsStatic()) {
				return "it turns functrace off", true
			}
		}
	case "enable":
		for _, t := range static {
			if strings.HasPrefix(t, "-") && strings.ContainsAny(t, "nd") {
				return "it disables builtins the guard's hooks rely on", true
			}
		}
		if dynamic {
			return "enable with a word not known here", true
		}
	case "unset", "declare", "typeset", "local", "readonly", "export", "read", "mapfile", "readarray", "printf", "getopts":
		for _, t := range static {
			if n, _, _ := strings.Cut(t, "="); n == "PROMPT_COMMAND" {
				return "it changes PROMPT_COMMAND", true
			}
		}
	}
	return "", false
}
