package shellparse

import (
	"strings"

	"github.com/guard-exec/guard-exec/word"
)

// builtin walks a call of a bash builtin that changes what the walk knows
// (the working directory, variables, functions, shell options, traps,
// aliases) or runs code (eval, source), and reports whether it did; other
// names, and builtins that are plain commands to judge, are run's.
func (w *walker) builtin(sc *scope, cmd *Cmd, name string) bool {
	argv, assigns := cmd.Argv, cmd.Assigns
	switch name {
	case "eval":
		w.evalCmd(sc, cmd)
		return true
	case "source", ".":
		cmd.Opaque, cmd.CodeArg = "runs the commands in a file", 1
		if len(argv) < 2 {
			cmd.Opaque, cmd.CodeArg = "", -1
		} else if w.sourceScript(sc, cmd) {
			return true
		}
		w.emit(cmd)
		w.unknownAfterSource(sc)
		return true
	case "trap":
		w.emit(cmd)
		w.trapCmd(sc, argv)
		return true
	case "alias":
		w.emit(cmd)
		w.aliasCmd(sc, argv)
		return true
	case "cd", "pushd", "popd":
		w.emit(cmd)
		w.cd(sc, name, argv, w.cdpath(sc, assigns), assigns)
		return true
	case "exit", "return", "logout":
		w.emit(cmd)
		if len(w.calls) == 0 || name == "exit" {
			sc.dead = true
		}
		return true
	case "set":
		w.emit(cmd)
		w.setCmd(sc, argv)
		return true
	case "shopt":
		w.shoptCmd(sc, cmd)
		return true
	case "shift":
		w.shiftCmd(sc, cmd)
		return true
	case "unset":
		w.unsetCmd(sc, cmd)
		return true
	case "read", "mapfile", "readarray", "getopts", "printf", "wait":
		w.emit(cmd)
		w.varSetters(sc, name, argv)
		return true
	case "export", "declare", "local", "readonly", "typeset":
		w.declareCall(sc, cmd, name)
		return true
	case "test", "[":
		w.emit(cmd)
		for i, a := range argv {
			if t, _ := a.Static(); (t == "-v" || t == "-R") && i+1 < len(argv) {
				w.varNameArg(sc, argv[i+1], name+" -v")
			}
		}
		return true
	case "enable":
		for _, a := range argv[1:] {
			t, ok := a.Static()
			switch {
			case !ok:
				cmd.Opaque = "enable with a word not known here may load or turn off builtins"
			case strings.HasPrefix(t, "-") && strings.Contains(t, "f"):
				cmd.Opaque = "loads a builtin from a shared library"
			case strings.HasPrefix(t, "-") && strings.Contains(t, "n"):
				// enable -n printf: the name then runs /usr/bin/printf,
				// whose escapes, and whatever else, are not the
				// builtin's the guard reads it as.
				cmd.Opaque = "enable -n turns a builtin off, so that its name runs a program of that name instead, which the guard would judge as the builtin"
			}
		}
		w.emit(cmd)
		return true
	case "hash":
		for _, a := range argv[1:] {
			if t, _ := a.Static(); strings.HasPrefix(t, "-") && strings.Contains(t, "p") {
				cmd.Opaque = "hash -p makes a command name run another program"
			}
		}
		w.emit(cmd)
		return true
	case "fc":
		cmd.Opaque = "fc runs commands from the shell history"
		w.emit(cmd)
		return true
	case "compgen", "complete":
		var lists []word.Word
		for i, a := range argv[1:] {
			t, _ := a.Static()
			if t == "-C" || t == "-F" {
				cmd.Opaque = name + " -C/-F names a command or function to run"
			}
			// compgen -W LIST expands LIST as bash expands words, when it
			// runs: $(…) in it runs, $TOKEN in it is printed.
			if name == "compgen" && t == "-W" && i+2 < len(argv) {
				lists = append(lists, argv[i+2])
			} else if name == "compgen" && strings.HasPrefix(t, "-W") && len(t) > 2 {
				lists = append(lists, word.FromLit(t[2:]))
			} else if name == "compgen" && !a.IsStatic() && cmd.Opaque == "" {
				cmd.Opaque = "compgen with a word not known here (which may be -W LIST, expanded when it runs)"
			}
		}
		w.emit(cmd)
		for _, l := range lists {
			if s, ok := l.Static(); ok {
				w.code(sc.clone(), "printf '%s\\n' "+s, Step{Kind: "compgen -W word list"})
			} else {
				w.emit(&Cmd{Argv: argv, Opaque: "compgen -W expands a word list not known here, which may run commands", CodeArg: -1})
			}
		}
		return true
	case "let":
		w.emit(cmd)
		for _, a := range argv[1:] {
			w.arithText(sc, a, "let")
		}
		return true
	}
	return false
}

// unsetCmd walks unset: the variables and functions it removes, and the
// names it takes, which may carry subscripts bash evaluates.
func (w *walker) unsetCmd(sc *scope, cmd *Cmd) {
	argv := cmd.Argv
	w.emit(cmd)
	funcs, refsOnly := false, false
	for _, a := range argv[1:] {
		t, ok := a.Static()
		switch {
		case !ok:
			w.varNameArg(sc, a, "unset")
		case t == "-f":
			funcs = true
		case t == "-n":
			refsOnly = true
		case strings.HasPrefix(t, "-"):
		case strings.HasPrefix(t, "GUARD_EXEC_"):
			w.emit(&Cmd{Argv: argv, Special: "guard-env"})
		case !refsOnly && !funcs && sc.varState(t).ref && strings.HasPrefix(sc.varState(t).refTarget, "GUARD_EXEC_"):
			// unset r unsets what the name reference r names.
			w.emit(&Cmd{Argv: argv, Special: "guard-env"})
		case funcs:
			sc.deleteFunc(t)
			if !w.may.second {
				w.may.unsetF[t] = true
			}
		case strings.Contains(t, "["):
			// One element: the array is no longer known.
			w.varNameArg(sc, a, "unset")
			if base, _, _ := strings.Cut(t, "["); word.IsName(base) {
				sc.setUnknown(base)
			}
		case refsOnly:
			w.varNameArg(sc, a, "unset")
			sc.store(t, varState{unset: true})
		default:
			// Through a name reference: unset r unsets what r names.
			w.varNameArg(sc, a, "unset")
			sc.put(t, varState{unset: true})
			// Without -v, a name no variable has is a function's:
			// whether one is set is not known here (the environment).
			if !w.may.second {
				w.may.unsetF[t] = true
			}
		}
	}
}

// declareCall walks a declaration builtin called as a plain command
// (quoted or escaped: \\export), whose NAME=VALUE words set variables.
func (w *walker) declareCall(sc *scope, cmd *Cmd, name string) {
	argv := cmd.Argv
	// Reached when quoted or escaped (\export): a plain call.
	w.emit(cmd)
	exporting := name == "export"
	for _, a := range argv[1:] {
		if t, ok := a.Static(); ok && strings.HasPrefix(t, "-") {
			exporting = exporting || strings.Contains(t, "x")
			if strings.ContainsAny(t, "inlu") {
				// builtin declare -i n, command declare -n r: attributes
				// that make later values arithmetic, names or other
				// text, which only the declaration syntax follows.
				w.dataAsCode(name + " called as a plain command (builtin, command, quoted) with " + t + ": the attributes it gives are not followed here")
			}
			continue
		}
		w.varNameArg(sc, a, name)
		t, static := a.Static()
		if !static {
			sc.havocVars() // NAME=VALUE known only at run time: any name
			continue
		}
		n, v, hasVal := strings.Cut(t, "=")
		n = strings.TrimSuffix(n, "+")
		if exporting {
			w.exportName(sc, n, !hasVal)
		}
		if strings.HasPrefix(n, "GUARD_EXEC_") {
			w.emit(&Cmd{Argv: argv, Special: "guard-env"})
		}
		if hasVal && word.IsName(n) && strings.HasPrefix(v, "(") {
			w.compoundText(sc, name, n, v)
			continue
		}
		if hasVal && word.IsName(n) {
			sc.set(n, word.FromLit(v))
			w.checkAssigns(sc, []Assign{{Name: n, Value: word.FromLit(v)}}, true)
		}
	}
}

// shoptCmd notes the shell options that change what globs and pipelines
// may do (may.go).
func (w *walker) shoptCmd(sc *scope, cmd *Cmd) {
	argv := cmd.Argv
	w.emit(cmd)
	// shopt -o -s noglob is set -f, shopt -o -u noglob set +f.
	setO, on, off, unknown, noglob := false, false, false, false, false
	for _, a := range argv[1:] {
		t, ok := a.Static()
		w.shoptMay(t, ok)
		switch {
		case !ok:
			unknown = true
		case strings.HasPrefix(t, "-"):
			setO = setO || strings.Contains(t, "o")
			on = on || strings.Contains(t, "s")
			off = off || strings.Contains(t, "u")
		case t == "noglob":
			noglob = true
		}
	}
	if off && !setO || unknown {
		for _, a := range argv[1:] {
			if t, ok := a.Static(); !ok || t == "interactive_comments" {
				// Off, # is a word in an interactive shell: a comment as
				// the guard read it runs (echo x # ;cmd).
				what := "shopt -u interactive_comments"
				if !ok {
					what = "shopt of an option not known here (it may be interactive_comments)"
				}
				w.emit(&Cmd{Argv: argv, Opaque: what + " makes # an ordinary word in an interactive shell, so what the guard read as a comment may run", CodeArg: -1})
				break
			}
		}
	}
	switch {
	case unknown || noglob && setO && on && off:
		w.setNoglob(sc, noglobMaybe)
	case noglob && setO && on:
		w.setNoglob(sc, noglobOn)
	case noglob && setO && off:
		w.setNoglob(sc, noglobOff)
	}
}

// shoptMay notes a shell option that shopt -s (or bash -O) may turn on
// anywhere in the text; one not known here may be any of them.
func (w *walker) shoptMay(t string, known bool) {
	if !known || t == "allexport" {
		w.allexportOn() // shopt -so allexport is set -a
	}
	if !known || t == "posix" {
		w.posixOn()
	}
	w.histOption(!known || t == "history", !known || t == "histexpand")
	if w.may.second {
		return
	}
	if !known || t == "physical" {
		w.may.physical = true // shopt -so physical is set -P: cd resolves links
	}
	if !known || t == "nullglob" || t == "failglob" {
		w.may.nullglob = true // a glob that matches nothing may vanish (may.go)
	}
	if !known || t == "dotglob" {
		w.may.dotglob = true // globs may match names starting with a dot
	}
	if !known || t == "nocaseglob" {
		w.may.nocase = true // globs may match letters of either case
	}
	if !known || t == "globstar" {
		w.may.globstar = true // ** may match any depth of directories
	}
	if !known || t == "nocasematch" {
		w.may.nocaseMatch = true // ${x%pat} may match either case
	}
	if !known || t == "globasciiranges" {
		w.may.localeRanges = true // shopt -u: [a-c] may match B
	}
	if !known || t == "lastpipe" {
		w.may.lastpipe = true // a pipeline's last command may run in this shell
	}
	if !known || t == "xtrace" {
		w.may.xtrace = true // shopt -so xtrace is set -x
	}
	if !known || t == "keyword" {
		w.may.keyword = true // shopt -so keyword is set -k
	}
}

// shiftCmd shifts the positional parameters when they are known.
func (w *walker) shiftCmd(sc *scope, cmd *Cmd) {
	argv := cmd.Argv
	w.emit(cmd)
	if w.may.inTrap > 0 && !w.may.second {
		w.may.paramsDeferred = true
	}
	if !sc.paramsUnknown && len(sc.params) > 1 {
		n := 1
		if len(argv) > 1 {
			if t, ok := argv[1].Static(); ok && word.IsInteger(t) {
				n = atoi(t)
			} else {
				sc.paramsUnknown = true
			}
		}
		if n < len(sc.params) {
			sc.params = append([]string{sc.params[0]}, sc.params[1+n:]...)
		}
	}
}

// shellBuiltin reports whether name is one of bash's builtins (enable
// -a), which are never looked up on PATH.
func shellBuiltin(name string) bool {
	switch name {
	case ".", ":", "[", "alias", "bg", "bind", "break", "builtin", "caller", "cd", "command", "compgen",
		"complete", "compopt", "continue", "declare", "dirs", "disown", "echo", "enable", "eval", "exec",
		"exit", "export", "false", "fc", "fg", "getopts", "hash", "help", "history", "jobs", "kill", "let",
		"local", "logout", "mapfile", "popd", "printf", "pushd", "pwd", "read", "readarray", "readonly",
		"return", "set", "shift", "shopt", "source", "suspend", "test", "times", "trap", "true", "type",
		"typeset", "ulimit", "umask", "unalias", "unset", "wait":
		return true
	}
	return false
}
