package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/guard-exec/guard-exec/judge"
	"github.com/guard-exec/guard-exec/policy"
	"github.com/guard-exec/guard-exec/state"
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
// commands reuse the verdict. A command that is not part of the line the
// history shows (history off, a line starting with a space) is judged on
// its own.
func interactiveRC(self string, login bool) string {
	g := shellQuote(self)
	pass := `[[ -n ${BASH_SOURCE-} || -n ${COMP_LINE-} ]] || declare -F -- "${BASH_COMMAND%% *}" >/dev/null`
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
  local __l
  if [ "${__guard_exec_n-}" = "$HISTCMD" ] && [[ "${__guard_exec_text-}" == *"$BASH_COMMAND"* ]]; then
    return $__guard_exec_ok
  fi
  __l=$(HISTTIMEFORMAT= builtin history 1 2>/dev/null)
  __l=${__l#"${__l%%%%[![:space:][:digit:]]*}"}
  if [[ -z "$__l" || "$__l" != *"$BASH_COMMAND"* ]]; then
    %[1]s __judge-interactive "$BASH_COMMAND"
    return $?
  fi
  __guard_exec_n=$HISTCMD __guard_exec_text=$__l
  %[1]s __judge-interactive "$__l"
  __guard_exec_ok=$?
  return $__guard_exec_ok
}
shopt -s extdebug
set -o functrace
trap __guard_exec_debug DEBUG
readonly -f __guard_exec_debug
`, g, strings.Replace(pass, "${BASH_SOURCE-}", "${BASH_SOURCE[1]-}", 1))
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
	req := judge.Request{Source: src, Cwd: e.cwd, Getenv: e.get, ParamsUnknown: true}
	res := judge.Judge(s.pol, req)
	if isTrapManipulation(src) {
		res.D, res.Decision = policy.Deny, "deny"
		res.Reason = "removing the guard's DEBUG trap or extdebug would switch the guard off"
	}
	rec := auditRecord(e, s, src, res, "interactive")
	if res.D == policy.Allow {
		s.log(e, rec)
		return 0
	}
	if s.mode == "audit" {
		s.log(e, rec)
		report(e, s, req, res, "would be refused (audit mode)", true)
		return 0
	}
	if res.D == policy.Ask {
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

func isTrapManipulation(src string) bool {
	f := strings.Fields(src)
	if len(f) == 0 {
		return false
	}
	switch f[0] {
	case "trap":
		return strings.Contains(src, "DEBUG")
	case "shopt":
		return strings.Contains(src, "extdebug") && strings.Contains(src, "-u")
	case "set":
		return strings.Contains(src, "+o functrace") || strings.Contains(src, "+T")
	case "unset", "unfunction":
		return strings.Contains(src, "__guard_exec")
	}
	return false
}
