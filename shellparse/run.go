package shellparse

import (
	"github.com/guard-exec/guard-exec/internal/physpath"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/guard-exec/guard-exec/argspec"
	"github.com/guard-exec/guard-exec/bashargv"
	"github.com/guard-exec/guard-exec/word"
)

// call walks a simple command.
func (w *walker) call(sc *scope, c *syntax.CallExpr, redirs []Redir, in *Input, st *syntax.Stmt) {
	var assigns []Assign
	for _, a := range c.Assigns {
		assigns = append(assigns, w.assign(sc, a, false))
	}
	argv := make([]word.Word, 0, len(c.Args))
	for _, a := range c.Args {
		argv = w.appendFields(argv, sc, a)
	}
	if len(c.Args) == 0 {
		// Assignments to the shell itself.
		w.assigning++
		for i, a := range c.Assigns {
			w.setAssign(sc, a, assigns[i])
		}
		w.assigning--
		w.checkAssigns(sc, assigns, true)
		if len(redirs) > 0 || len(assigns) > 0 {
			w.emit(&Cmd{Assigns: assigns, Redirs: redirs})
		}
		return
	}
	if w.may.keyword && len(argv) > 0 {
		// With set -k anywhere, a NAME=VALUE word after the command's
		// name may be an assignment to its environment (BASH_ENV=…).
		for _, a := range argv[1:] {
			p := a.Prefix()
			if eq := strings.IndexByte(p, '='); eq > 0 && word.IsName(p[:eq]) {
				v, _ := a.TrimPrefix(p[:eq+1])
				assigns = append(assigns, Assign{Name: p[:eq], Value: v})
			}
		}
	}
	w.checkAssigns(sc, assigns, false)
	w.run(sc, argv, assigns, redirs, in, false, st != nil && st.Background)
}

// assign evaluates an assignment's value, walking what it runs. assoc
// says the variable is an associative array, whose subscripts are strings.
func (w *walker) assign(sc *scope, a *syntax.Assign, assoc bool) Assign {
	out := Assign{appended: a.Append}
	if a.Name != nil {
		out.Name = a.Name.Value
		// bash's own BASH_CMDS and BASH_ALIASES are associative.
		assoc = assoc || sc.varState(out.Name).assoc || out.Name == "BASH_CMDS" || out.Name == "BASH_ALIASES"
	}
	keySecret := false
	if a.Index != nil {
		keySecret = w.subscript(sc, a.Index, assoc)
	}
	defer func() {
		if keySecret && !argspec.SecretName(out.Name) {
			w.secretCopy(out.Name, secretKey)
		}
	}()
	switch {
	case a.Array != nil:
		plain := !assoc
		elems := []word.Word{}
		for _, el := range a.Array.Elems {
			if el.Index != nil {
				keySecret = w.subscript(sc, el.Index, assoc) || keySecret
				plain = false
			}
			if el.Value != nil {
				n := len(elems)
				elems = w.appendFields(elems, sc, el.Value) // bounded as a whole (appendExpanded)
				for _, f := range elems[n:] {
					// A glob is expanded when the array is made: a("*")
					// holds the names it matched, as many as they are.
					if f.Multi || f.Split && f.HasHole() || f.HasGlob() {
						plain = false // how many elements is not known
					}
				}
			}
		}
		if plain && len(elems) <= 256 {
			out.elems = elems
		}
		out.Value = word.UnknownData("(…)") // its elements, made by the text
		out.Value.Segs[0].Secret = slices.ContainsFunc(elems, word.Word.HasSecret)
	case a.Value != nil:
		out.Value = w.value(sc, a.Value, wctx{assign: true})
		if len(out.Value.Segs) == 0 {
			out.Value = word.FromLit("")
		}
	default:
		out.Value = word.FromLit("")
	}
	return out
}

// subscript walks an array subscript: arithmetic for an indexed array, a
// string (still expanded) for an associative one.
// It reports whether an associative array's key may hold a secret
// variable's value (word.Seg.Secret): m[$TOKEN]=1 keeps it in m's keys.
func (w *walker) subscript(sc *scope, e syntax.ArithmExpr, assoc bool) (secretKey bool) {
	if !assoc {
		w.arith(sc, e)
		return false
	}
	syntax.Walk(e, func(n syntax.Node) bool {
		if wd, ok := n.(*syntax.Word); ok {
			secretKey = w.value(sc, wd, wctx{}).HasSecret() || secretKey
			return false
		}
		return true
	})
	return secretKey
}

// literalSubscript reports whether a subscript is written without any
// expansion: expanding it again then changes nothing.
func literalSubscript(e syntax.ArithmExpr) bool {
	literal := true
	syntax.Walk(e, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.ParamExp, *syntax.CmdSubst, *syntax.ArithmExp, *syntax.ProcSubst, *syntax.ExtGlob:
			literal = false
		}
		return literal
	})
	return literal
}

// secretKey is what an assignment with a secret key copies (subscript).
var secretKey = word.Word{Segs: []word.Seg{{Kind: word.Hole, Secret: true, Text: "[key]"}}}

// setAssign records an assignment in the shell's state.
func (w *walker) setAssign(sc *scope, a *syntax.Assign, v Assign) {
	if a.Name == nil {
		return
	}
	name := a.Name.Value
	if sc.isInteger(name) && (a.Array != nil || a.Append || a.Index != nil) {
		// Every value given to an integer variable is evaluated as
		// arithmetic: elements, appended text, one element.
		if a.Array != nil {
			for _, e := range a.Array.Elems {
				if e.Value != nil {
					w.arithText(sc, w.value(sc, e.Value, wctx{}), "assigning to integer array "+name)
				}
			}
		} else {
			w.arithText(sc, v.Value, "assigning to integer variable "+name)
		}
		sc.setNumeric(name)
		return
	}
	switch {
	case a.Array != nil && a.Index == nil && v.elems != nil:
		if !a.Append {
			sc.setArray(name, v.elems)
			break
		}
		if st, ok := sc.vars.lookup(name); ok && st.elems != nil && !st.unknown {
			sc.setArray(name, append(append([]word.Word(nil), st.elems...), v.elems...))
			break
		}
		sc.setUnknown(name)
	case a.Index != nil || a.Array != nil || a.Append:
		sc.setUnknown(name)
	case sc.isInteger(name):
		w.arithText(sc, v.Value, "assigning to integer variable "+name)
		sc.setNumeric(name)
	case a.Value != nil && isArithWord(a.Value):
		sc.setNumeric(name)
	default:
		sc.set(name, v.Value)
	}
}

// codeVars are environment variables whose value other programs run as a
// shell command.
func codeVars(name string) string {
	switch name {
	case "GIT_PAGER":
		return "git's pager"
	case "PAGER":
		return "the pager"
	case "MANPAGER":
		return "man's pager"
	case "ACK_PAGER", "ACK_PAGER_COLOR":
		return "ack's pager"
	case "GIT_EDITOR":
		return "git's editor"
	case "EDITOR":
		return "the editor"
	case "VISUAL":
		return "the editor"
	case "GIT_SEQUENCE_EDITOR":
		return "git's rebase editor"
	case "GIT_SSH_COMMAND":
		return "git's ssh command"
	case "GIT_EXTERNAL_DIFF":
		return "git's diff program"
	case "GIT_ASKPASS":
		return "git's password prompt"
	case "SSH_ASKPASS":
		return "ssh's password prompt"
	case "LESSOPEN":
		return "less's input filter"
	case "LESSCLOSE":
		return "less's input filter"
	case "PROMPT_COMMAND":
		return "the prompt command"
	case "RSYNC_RSH":
		return "rsync's remote shell"
	case "GIT_SSH":
		return "git's ssh program"
	}
	return ""
}

// hiddenCodeVars make programs load code the guard cannot see.
func hiddenCodeVars(name string) string {
	switch name {
	case "BASH_ENV":
		return "makes every later bash source that file"
	case "ENV":
		return "makes later shells source that file"
	case "LD_PRELOAD":
		return "loads that library into every program"
	case "LD_AUDIT":
		return "loads that library into every program"
	case "LD_LIBRARY_PATH":
		return "changes which libraries programs load"
	case "NODE_OPTIONS":
		return "passes options (such as --require) to node"
	case "PERL5OPT":
		return "passes options to perl"
	case "PERL5LIB", "PERLLIB", "PERL5DB":
		return "changes where perl loads modules from (ack is perl)"
	case "RUBYOPT":
		return "passes options to ruby"
	case "PYTHONSTARTUP":
		return "runs that file in python"
	case "SHELLOPTS":
		return "changes how later shells parse"
	case "BASHOPTS":
		return "changes how later shells parse"
	case "GIT_CONFIG_PARAMETERS":
		return "sets git configuration (which can name programs to run)"
	case "GIT_CONFIG_COUNT":
		return "sets git configuration (which can name programs to run)"
	case "PROMPT_COMMAND":
		return ""
	case "HISTFILESIZE":
		// Assigning it cuts the file HISTFILE names to that many lines,
		// in any bash (sv_histsize: history_truncate_file).
		return "makes bash cut the file HISTFILE names to that many lines"
	case "GCONV_PATH", "GETCONF_DIR", "GLIBC_TUNABLES", "HOSTALIASES", "LOCALDOMAIN", "LOCPATH", "MALLOC_TRACE",
		"NIS_PATH", "NLSPATH", "RESOLV_HOST_CONF", "RES_OPTIONS", "TZDIR":
		// glibc's unsecure variables (elf/unsecvars.h), which it drops
		// for setuid programs: every program reads them, as modules to
		// load, files to read or write.
		return "changes what every program loads, reads or writes (glibc ignores it for setuid programs for that reason)"
	case "OPENSSL_CONF", "OPENSSL_ENGINES", "OPENSSL_MODULES", "OPENSSL_CONF_INCLUDE":
		return "makes OpenSSL load that configuration, whose engines and providers are code"
	case "SSLKEYLOGFILE":
		return "makes TLS libraries (curl's, Firefox's, Node's) append session keys to that file"
	}
	if strings.HasPrefix(name, "LD_") {
		// glibc's loader reads every LD_* variable of every dynamically
		// linked program: libraries to load, files to write its debug
		// and profile output to (LD_DEBUG_OUTPUT, LD_PROFILE_OUTPUT).
		return "changes how the dynamic loader runs every program (libraries it loads, files it writes)"
	}
	return ""
}

// ReviewedVar reports whether the walker judges a variable itself:
// bash's own (PATH, IFS, the prompts), the variables programs run as
// code, those that load hidden code (wherever the text sets them), and
// Python's and its version managers' (where Python runs).
func ReviewedVar(name string) bool {
	if specialVar(name) || slices.Contains(pythonVars, name) || slices.Contains(versionVars, name) {
		return true
	}
	for _, p := range versionPrefixes {
		if strings.HasPrefix(name, p) {
			return true // judged where Python runs (python.go)
		}
	}
	return false
}

// secretCopy reports an assignment that copies a secret variable's value
// (word.Seg.Secret) into a name that does not say it is one, where no
// command carries it (for x in $TOKEN, ${x:=$TOKEN}): expansions of x
// are not marked, so the policy judges the copy (as it does a plain or
// prefix assignment's, which every command carries in Assigns).
func (w *walker) secretCopy(name string, v word.Word) {
	w.emit(&Cmd{Assigns: []Assign{{Name: name, Value: v}}})
}

// secretShown reports a secret variable's value that bash itself prints
// where no command carries it: the word of ${x:?word}, and under xtrace
// (set -x) every expansion, [[ … ]] and (( … )) included.
func (w *walker) secretShown(what string) {
	w.emit(&Cmd{Special: "secret-shown", Stdin: &Input{Desc: what, Secret: true}})
}

// secretVar reports whether a variable's value may be a secret
// variable's: its name says it is one, or bash sets it from what the text
// does ($_, BASH_REMATCH, REPLY) and the text expands one somewhere.
func (w *walker) secretVar(name string) bool {
	return argspec.SecretName(name) || w.may.secret && bashSetsFromText(name)
}

// sawSecret notes that the text expands a secret variable's value
// (word.Seg.Secret): the variables bash sets from what the text does
// ($_, BASH_REMATCH, REPLY, …) may then hold it, anywhere in the text
// (may.go); under xtrace bash shows it.
func (w *walker) sawSecret() {
	if !w.may.second {
		w.may.secret = true
	}
	if (w.may.xtrace || w.tracedEnv) && !w.tracedShown {
		w.tracedShown = true
		w.secretShown("set -x: bash prints each command with a secret variable's value expanded")
	}
}

// specialVar reports whether bash or the programs it runs take a
// variable's value as code, a place to find programs, or the way words
// split: a name reference under that name hands them another value.
func specialVar(name string) bool {
	switch name {
	case "PS0", "PS1", "PS2", "PS3", "PS4", "SHELL", "PATH", "IFS", "CDPATH", "HOME", "GLOBIGNORE", "BASH_CMDS",
		"BASH_ALIASES", "SHELLOPTS", "BASHOPTS", "TMPDIR", "PWD", "OLDPWD":
		return true
	}
	return codeVars(name) != "" || hiddenCodeVars(name) != "" || strings.HasPrefix(name, "GIT_CONFIG_KEY_") || strings.HasPrefix(name, "GUARD_EXEC_")
}

// checkAssigns judges assignments whose values are code or make later
// programs run code.
func (w *walker) checkAssigns(sc *scope, assigns []Assign, shell bool) {
	for _, a := range assigns {
		sc.may.gave(a.Name)
		switch {
		case strings.HasPrefix(a.Name, "GUARD_EXEC_"):
			w.emit(&Cmd{Assigns: []Assign{a}, Special: "guard-env"})
		case a.Name == "PS4" || a.Name == "PS1" || a.Name == "PS2" || a.Name == "PS0":
			v := a.Value
			if a.appended {
				// PS4+=…: the prompt is all of it (set already for the
				// shell's own assignment, not yet for a command's).
				if v, _ = sc.get(w, a.Name); !shell {
					v = word.Join([]word.Word{v, a.Value}, "")
				}
			}
			if s, ok := v.Static(); ok {
				w.promptString(sc, s, a.Name, true)
			} else {
				w.dataAsCode(a.Name + " is set to a value not known here; bash expands it as a prompt, which can run commands")
			}
		case codeVars(a.Name) != "":
			if s, ok := a.Value.Static(); ok {
				if s != "" {
					w.code(sc.clone(), s, Step{Kind: a.Name + " (" + codeVars(a.Name) + ")"})
				}
			} else {
				w.emit(&Cmd{Assigns: []Assign{a}, Opaque: a.Name + " is set to a command not known here; " + codeVars(a.Name) + " runs it", CodeArg: -1})
			}
		case hiddenCodeVars(a.Name) != "" || strings.HasPrefix(a.Name, "GIT_CONFIG_KEY_"):
			if s, ok := a.Value.Static(); ok && s == "" {
				continue
			}
			reason := hiddenCodeVars(a.Name)
			if reason == "" {
				reason = "sets git configuration (which can name programs to run)"
			}
			w.emit(&Cmd{Assigns: []Assign{a}, Opaque: "setting " + a.Name + " " + reason, CodeArg: -1})
		case a.Name == "SHELL":
			// script, flock -c, su and editors run $SHELL: a value other
			// than a known shell is a program to run.
			if s, ok := a.Value.Static(); ok && (s == "" || isShell(path.Base(s)) && path.IsAbs(s)) {
				continue
			}
			w.emit(&Cmd{Assigns: []Assign{a}, CodeArg: -1,
				Opaque: "SHELL is set to " + a.Value.String() + ", not a known shell; programs such as script and flock -c run it"})
		case a.Name == "GLOBIGNORE":
			// Setting it makes globs match names starting with a dot.
			if !w.may.second {
				w.may.dotglob = true
			}
		case a.Name == "PATH":
			if dir, ok := w.untrustedPath(sc, a.Value); ok {
				w.emit(&Cmd{Assigns: []Assign{a}, CodeArg: -1,
					Opaque: "PATH is set to include " + dir + ", so the command names after it may run programs from there instead of the ones the guard judged"})
			}
		default:
			w.carriedEnv(sc, a) // variables build tools read as programs or flags
		}
	}
}

// untrustedPath finds an entry of a PATH value that could hold programs
// the text (or whoever edits the project) put there: empty or relative
// (the working directory), a directory the command may run in or below
// it, a temporary directory, or one not known here. The inherited $PATH
// and other absolute directories are trusted like the inherited PATH.
func (w *walker) untrustedPath(sc *scope, v word.Word) (string, bool) {
	var entries []word.Word
	cur := word.Word{}
	for _, s := range v.Segs {
		if s.Kind != word.Lit {
			cur.Add(s)
			continue
		}
		parts := strings.Split(s.Text, ":")
		for i, p := range parts {
			if i > 0 {
				entries = append(entries, cur)
				cur = word.Word{}
			}
			if p != "" {
				cur.AddLit(p)
			}
		}
	}
	entries = append(entries, cur)
	temp := TempDirs()
	if t := w.getenv("TMPDIR"); filepath.IsAbs(t) {
		temp = append(temp, filepath.Clean(t))
	}
	for _, e := range entries {
		if len(e.Segs) == 1 && e.Segs[0].Kind == word.Hole && (e.Segs[0].Text == "$PATH" || e.Segs[0].Text == "${PATH}") {
			continue // what the guard was started with
		}
		d, static := e.Static()
		switch {
		case !static:
			return e.String(), true
		case !filepath.IsAbs(d):
			if d == "" {
				d = "the working directory (an empty entry)"
			}
			return d, true
		case sc.cwd.Unknown:
			return d, true
		}
		// Where the entry leads, links followed: p/l/../../zz is where l
		// points, two levels up, not p/../zz.
		// Both are looked at: the local roots are written as given
		// (/tmp, where it may be a link to /private/tmp).
		real, known := w.physical(d)
		if !known {
			return d, true
		}
		if c := filepath.Clean(d); c == "/dev/stdin" || strings.HasPrefix(c, "/dev/fd") || strings.HasPrefix(c, "/proc/") ||
			strings.HasPrefix(real, "/dev/fd") || strings.HasPrefix(real, "/proc/") {
			// An open file of the shell's (PATH=/dev/fd/3 with 3<bin, a
			// red team's) or of another process (/proc/1/cwd): any
			// directory.
			return d, true
		}
		for _, p := range []string{filepath.Clean(d), real} {
			if physpath.HasDotDot(d) && p != real {
				continue // cleaned as text, it names another place
			}
			for _, root := range append(append([]string(nil), sc.cwd.Dirs...), temp...) {
				if root != "/" && (p == root || strings.HasPrefix(p, root+"/")) {
					return d, true
				}
			}
		}
	}
	return "", false
}

// run resolves a command and reports it: a function call, a builtin that
// runs code, a wrapper, a shell, an interpreter, or a program.
func (w *walker) run(sc *scope, argv []word.Word, assigns []Assign, redirs []Redir, in *Input, noFuncs, bg bool) {
	plain := w.plainOnce
	w.plainOnce = false
	if !w.step() || len(argv) == 0 {
		return
	}
	// A wrapper's command may run in another directory (env -C, find
	// -execdir): report it in the scope it runs in.
	outer, outerReopened := w.curScope, w.cmdReopened
	w.curScope = sc
	w.cmdReopened = reopens(redirs, outerReopened|sc.reopened)
	defer func() { w.curScope, w.cmdReopened = outer, outerReopened }()
	cmd := &Cmd{Argv: argv, Assigns: assigns, Redirs: redirs, Stdin: in, CodeArg: -1}
	name, static := argv[0].Static()
	if !static {
		w.emit(cmd)
		return
	}
	if words, ok := w.may.aliasNames[name]; (ok || w.may.aliasAny) && !plain && !w.expanding[name] {
		if words == nil || w.may.aliasAny {
			cmd.Opaque = "an alias may stand for " + name + ": bash runs the alias's text with the words after it, which the guard does not read here"
			w.emit(cmd)
			return
		}
		// bash reads the alias's text in place of the name, with the
		// words after it: alias e='bash -c'; e 'CODE' runs bash -c
		// 'CODE'. The command also runs as it is where the alias is not
		// expanded (on the line that defines it); either state may hold.
		exp := make([]word.Word, 0, len(words)+len(argv)-1)
		for _, t := range words {
			exp = append(exp, word.FromLit(t))
		}
		if w.expanding == nil {
			w.expanding = map[string]bool{}
		}
		expanded := sc.clone()
		w.expanding[name] = true // bash expands a name once
		w.run(expanded, append(exp, argv[1:]...), assigns, redirs, in, noFuncs, bg)
		delete(w.expanding, name)
		w.plainOnce = true
		w.run(sc, argv, assigns, redirs, in, noFuncs, bg)
		*sc = *merge(sc, expanded)
		return
	}
	if _, isFunc := sc.funcs[name]; !noFuncs && (isFunc || len(w.may.bodies[name]) > 0) {
		// Assignments before a function call hold inside it (and, for a
		// POSIX special builtin, after): the body sees them.
		for _, a := range assigns {
			if word.IsName(a.Name) {
				w.exportName(sc, a.Name, false) // the body's programs get it
				w.assigning++
				sc.set(a.Name, a.Value)
				w.assigning--
			}
		}
	}
	if len(assigns) > 0 && (w.posixNow && specialBuiltin(name) || declBuiltin(name)) {
		// In POSIX mode an assignment before a special builtin stays
		// after it, and keeps the export the builtin gives it; export,
		// declare and the like export such a name (MAGIC=F export MAGIC).
		for _, a := range assigns {
			if word.IsName(a.Name) {
				w.exportName(sc, a.Name, false)
				w.assigning++
				sc.set(a.Name, a.Value)
				w.assigning--
			}
		}
	}
	if !noFuncs {
		if bodies := w.may.bodies[name]; len(bodies) > 0 && !strings.Contains(name, "/") {
			w.callAny(sc, name, bodies, argv, assigns, in, bg)
			w.emitRedirs(redirs)
			return
		}
		if body, ok := sc.funcs[name]; ok {
			w.emitRedirs(redirs)
			w.callFunc(sc, name, body, argv, bg)
			if !strings.Contains(name, "/") {
				return
			}
			// bash calls a function named ./x.sh too (sh in POSIX mode
			// refuses to define it, and runs the file): judge both.
		}
	}
	if w.stdinCode > 0 && (name == "exec" && len(argv) == 1 && in != nil || in == nil && argspec.ReadsStdin(argv)) {
		// The shell reads its commands from the same input as the
		// commands it runs, as it goes: what they read of it, or where
		// exec <FILE points it, is not run as the text judged here.
		w.emit(&Cmd{Argv: argv, Opaque: "reads the input the shell reads its commands from, so what the shell runs after it is not the text judged here", CodeArg: -1})
	}
	if f, ok := caseVariant(name); ok {
		// A case-insensitive file system (macOS, WSL's /mnt/c) finds
		// the program by this name too: RM -rf / runs rm there. Judged
		// as that program as well, in a copy of the scope (the
		// strictest of the two verdicts holds); functions, aliases and
		// builtins are found by their exact name only. The folded name
		// is the catalogue's, which has no variant: no recursion, and
		// each name inside (SUDO RM, BASH -c 'RM …') is read the same.
		alt := sc.clone()
		w.run(alt, append([]word.Word{word.FromLit(f)}, argv[1:]...), assigns, redirs, in, true, bg)
		*sc = *merge(sc, alt)
	}
	done, tried := w.localProgram(sc, cmd, name, bg)
	if done {
		return
	}
	prog := argspec.ProgName(name)
	builtin := !strings.Contains(name, "/")
	if builtin && w.builtin(sc, cmd, name) {
		return
	}
	if w.is(prog, argspec.Wrapper) {
		if prog == "exec" && builtin && len(argv) == 1 {
			w.emit(cmd) // exec with only redirections
			sc.reopened = reopens(cmd.Redirs, sc.reopened)
			return
		}
		w.wrapped(sc, cmd, prog, bg)
		return
	}
	if w.is(prog, argspec.Shell|argspec.ForeignShell) { // isShell
		w.shell(sc, cmd, prog)
		return
	}
	if w.interpreter(sc, cmd, prog) {
		return
	}
	if !builtin && !tried && w.execScript(sc, cmd, name, bg) {
		return // a shell script, judged by its content
	}
	w.noteWrite(sc, cmd, name, bg)
	w.emit(cmd)
	w.programCode(sc, cmd, prog)
}

// caseVariant returns name with its program's name folded
// (word.FoldCase), when that differs and is a program the catalogue knows
// and name's own is not: RM, /BIN/Rm, GIT.
func caseVariant(name string) (string, bool) {
	prog := argspec.ProgName(name)
	f := word.FoldCase(prog)
	if f == prog || argspec.ClassOf(prog) != 0 || argspec.Lookup(prog) != nil ||
		argspec.ClassOf(f) == 0 && argspec.Lookup(f) == nil {
		return "", false
	}
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		return word.FoldCase(name[:i+1]) + f, true
	}
	return f, true
}

// noteWrite notes the file cat > F <<'EOF' writes, with its content: a
// later command of this shell that runs F before it exists is judged by
// that content (findScript, python). Only a write that is over before the
// next command starts counts, not one in the background or in a pipeline
// (they run alongside what follows, which could read half a file).
func (w *walker) noteWrite(sc *scope, cmd *Cmd, name string, bg bool) {
	if name != "cat" || bg || w.inPipe || w.checking || w.aliases || cmd.Stdin == nil || !cmd.Stdin.Known {
		return
	}
	for _, a := range cmd.Argv[1:] {
		if s, ok := a.Static(); !ok || s != "-" {
			return // an operand or an option: not only its input
		}
	}
	dir, ok := knownDir(sc)
	if !ok {
		return
	}
	target := ""
	for _, r := range cmd.Redirs {
		switch {
		case r.Op == "<<" || r.Op == "<<<":
			// what it reads (cmd.Stdin)
		case (r.Op == ">" || r.Op == ">|") && (r.Fd == "" || r.Fd == "1") && target == "":
			s, ok := r.Target.Static()
			if !ok || s == "" {
				return
			}
			target = s
		case r.Fd == "2" && (r.Op == ">" || r.Op == ">>") && r.Target.String() == "/dev/null" && r.Target.IsStatic():
			// its errors go nowhere
		default:
			// Any other output may be F too: with noclobber, 2>F makes
			// >F fail, and bash's message is then what F holds.
			return
		}
	}
	if target == "" {
		return
	}
	target, known := w.lexical(physpath.Join(dir, target))
	if !known {
		return // where it goes is known only once the text has run
	}
	cmd.Writes = &Written{Path: target, Text: cmd.Stdin.Text}
	sc.wrote(cmd.Writes)
}

func atoi(s string) int {
	n := 0
	for _, r := range s {
		if r >= '0' && r <= '9' {
			n = n*10 + int(r-'0')
		}
	}
	return n
}

// reopens is what redirections make of fds 1 and 2 (Cmd.Reopened), from
// before, in bash's order, left to right: a file opened for writing is
// one the guard judges as such, and so are copies of 1 and 2 made while
// they are the output it was given (2>&1).
func reopens(redirs []Redir, before uint8) uint8 {
	// Only ever more: a redirection's own write to /dev/stdout is judged
	// with what came before it (1<victim >/dev/stdout), and the union of
	// every state is what the command may meet.
	st := before
	for _, r := range redirs {
		fd := r.Fd
		if fd == "" {
			switch r.Op {
			case "<", "<&", "<<", "<<<", "<>":
				fd = "0"
			default:
				fd = "1"
			}
		}
		var bit uint8
		switch normFd(fd) {
		case "1":
			bit = 2
		case "2":
			bit = 4
		default:
			continue
		}
		switch r.Op {
		case ">", ">>", ">|", "<>", "&>", "&>>":
			// A file opened for writing, which the guard judges as such.
		case ">&", "<&":
			t, ok := r.Target.Static()
			switch {
			case ok && (t == "1" || t == "2"):
				// 2>&1: a copy of what 1 is now.
				if t == "1" && st&2 != 0 || t == "2" && st&4 != 0 {
					st |= bit
				}
			case ok && !isFd(r.Target) && r.Op == ">&" && t != "-":
				// >&FILE: a file opened for writing.
			default:
				st |= bit // closed (-), another descriptor, or not known here
			}
		default:
			st |= bit // <, a heredoc or here-string: a file opened for reading
		}
	}
	return st
}

func (w *walker) emitRedirs(redirs []Redir) {
	if len(redirs) > 0 {
		w.emit(&Cmd{Redirs: redirs})
	}
}

// unknownAfterSource forgets the variables a sourced file that was not
// read may have changed. The working directory and positional parameters
// are assumed kept: a sourced file that changes them is rare, and the
// clients source a snapshot of the user's shell before every command (see
// README). A file that is read is walked instead (sourceScript).
func (w *walker) unknownAfterSource(sc *scope) {
	var names []string
	sc.vars.each(func(k string, _ varState) { names = append(names, k) })
	for _, k := range names {
		if sc.varState(k).integer {
			// An integer variable holds a number, whatever the file gave
			// it (and the file's own assignments are its business).
			sc.setNumeric(k)
			continue
		}
		sc.setUnknown(k)
	}
}

// callAny walks a call of a function that has several possible bodies
// (defined more than once, or unset, anywhere in the text): each body, and
// the program of that name when the function may not be defined then. The
// state after it is what any of them leaves.
func (w *walker) callAny(sc *scope, name string, bodies []*syntax.Stmt, argv []word.Word, assigns []Assign, in *Input, bg bool) {
	var outs []*scope
	for _, b := range bodies {
		c := sc.clone()
		w.callFunc(c, name, b, argv, bg)
		outs = append(outs, c)
	}
	if _, defined := sc.funcs[name]; !defined || w.may.unsetNow[name] {
		c := sc.clone()
		w.run(c, argv, assigns, nil, in, true, bg)
		outs = append(outs, c)
	}
	out := outs[0]
	for _, o := range outs[1:] {
		out = merge(out, o)
	}
	*sc = *out
}

// callFunc walks a function's body where it is called.
func (w *walker) callFunc(sc *scope, name string, body *syntax.Stmt, argv []word.Word, bg bool) {
	for _, c := range w.calls {
		if c == name {
			if w.inPipe || bg {
				w.emit(&Cmd{Argv: argv, Special: "fork-bomb"})
			} else if f := w.floodScan(sc, []*syntax.Stmt{body}, 0, []string{name}, map[string]*syntax.Stmt{}, scanCtx{inFunc: true}); f.bg && !f.held() {
				// f(){ x & f; }; f: each call starts a job and calls
				// again, until the stack gives out thousands of jobs on.
				w.emit(&Cmd{Argv: argv, CodeArg: -1, Opaque: "a function that calls itself starts a job in the background on every call, with nothing that waits for it: it may multiply processes until the machine stops"})
			}
			if !w.may.second {
				// What the body exports before this call reaches its
				// programs on the next round, which the walk does not take.
				w.may.recursed = true
			}
			return // recursion: the body is already being judged
		}
	}
	w.called[body] = true
	w.calls = append(w.calls, name)
	w.via = append(w.via, Step{Kind: "function " + name})
	for i, a := range argv[1:] {
		if a.HasSecret() {
			w.secretCopy(strconv.Itoa(i+1), a) // f "$TOKEN": its $1 is not marked
		}
	}
	oldParams, oldUnknown := sc.params, sc.paramsUnknown
	args, ok := staticArgs(argv[1:])
	zero := "bash"
	if len(sc.params) > 0 {
		zero = sc.params[0]
	}
	sc.params = append([]string{zero}, args...)
	sc.paramsUnknown = !ok || oldUnknown && len(sc.params) == 0
	if !ok {
		sc.paramsUnknown = true
	}
	wasPipe := w.inPipe
	if bg {
		w.inPipe = true
	}
	// A function body's writes may be undone (local) or made again at
	// another call: deferred (may.go).
	w.may.deferred++
	w.locals = append(w.locals, map[string]*varState{})
	w.stmt(sc, body, nil)
	frame := w.locals[len(w.locals)-1]
	w.locals = w.locals[:len(w.locals)-1]
	w.may.deferred--
	// local variables are restored at return (to what they were before
	// the call, which a variable that was not set is only unknown).
	for name, old := range frame {
		if old == nil {
			sc.setUnknown(name)
		} else {
			sc.store(name, *old)
		}
	}
	w.inPipe = wasPipe
	sc.params, sc.paramsUnknown = oldParams, oldUnknown
	sc.dead = false
	w.via = w.via[:len(w.via)-1]
	w.calls = w.calls[:len(w.calls)-1]
}

func (w *walker) evalCmd(sc *scope, cmd *Cmd) {
	argv := cmd.Argv
	code := argspec.JoinWords(argv[1:])
	text, ok := code.Static()
	if len(argv) > 1 && (!ok || anyMulti(argv[1:])) {
		cmd.Opaque, cmd.CodeArg = "eval of text not known here", 1
	}
	w.emit(cmd)
	if cmd.Opaque == "" && len(argv) > 1 {
		w.code(sc, text, Step{Kind: "eval", Argv: word.Strings(argv)})
	}
}

func anyMulti(ws []word.Word) bool {
	for _, w := range ws {
		if w.Multi || (w.Split && w.HasHole()) {
			return true
		}
	}
	return false
}

func (w *walker) trapCmd(sc *scope, argv []word.Word) {
	args := argv[1:]
	if len(args) > 0 {
		t, _ := args[0].Static()
		if t == "-p" || t == "-l" {
			return
		}
		if t == "--" {
			args = args[1:]
		}
	}
	if len(args) < 2 {
		return // trap -p, trap SIG (reset)
	}
	text, ok := args[0].Static()
	if !ok {
		w.emit(&Cmd{Argv: argv, Opaque: "a trap handler not known here", CodeArg: 1})
		return
	}
	if text == "" || text == "-" {
		return
	}
	for _, sig := range args[1:] {
		sname, ok := sig.Static()
		sname = strings.TrimPrefix(strings.ToUpper(sname), "SIG")
		if !ok || sname == "DEBUG" || sname == "CHLD" || sname == "CLD" || sname == "RETURN" || sname == "ERR" || sname == "17" {
			// These run again and again as the script goes (before
			// every command, on every child's end): a handler that
			// starts a job then starts one each time, and a CHLD one
			// answers its own jobs' ends.
			if f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(newDepthReader(text), ""); err != nil ||
				w.mayFlood(sc, nil, f.Stmts) {
				w.emit(&Cmd{Argv: argv, CodeArg: 1, Opaque: "a trap on " + sname + " runs again and again (before every command, or on every child's end), and this one starts a job in the background each time: it may multiply processes until the machine stops"})
			}
			break
		}
	}
	w.anyTimeCode(sc, text, Step{Kind: "trap", Argv: word.Strings(argv)})
}

// anyTimeCode walks code bash runs later, at any time, with whatever
// state holds then (a trap's handler, a prompt PS0–PS4): its reads and
// writes are deferred (may.go), and its programs run after whatever the
// text exports.
func (w *walker) anyTimeCode(sc *scope, text string, layer Step) {
	w.may.deferred++
	w.may.inTrap++
	if !w.may.second {
		w.may.trapped = true
	}
	w.code(sc.clone(), text, layer)
	w.may.inTrap--
	w.may.deferred--
}

func (w *walker) aliasCmd(sc *scope, argv []word.Word) {
	if len(argv) > 1 {
		w.aliases = true
	}
	for _, a := range argv[1:] {
		t, ok := a.Static()
		if !ok {
			w.may.aliasAny = true
			w.emit(&Cmd{Argv: argv, Opaque: "an alias whose value is not known here", CodeArg: -1})
			continue
		}
		if name, val, ok := strings.Cut(t, "="); ok {
			if reservedWord(name) {
				// bash expands an alias before it recognises a reserved
				// word (parse.y: alias_expand_token comes first): alias
				// [[=eval makes [[ "…" ]] run its words.
				w.emit(&Cmd{Argv: argv, Opaque: "an alias named " + name + ", a reserved word: bash expands it before it reads the syntax, so the text's " + name + " is not what it seems", CodeArg: -1})
			}
			if val != "" {
				w.code(sc.clone(), val, Step{Kind: "alias " + name})
			}
			if w.may.aliasNames == nil {
				w.may.aliasNames = map[string][]string{}
			}
			w.may.aliasNames[name] = aliasWords(val)
		}
	}
}

// localProgram judges a program whose file is in the project, the
// working directory or a temporary directory: named by a path there
// (./ls), or found there on PATH. It is what the file holds, not the
// program the catalogue knows by its name: a shell script is judged by
// its content (done), anything else asks besides being
// judged as the program of its name, unless a rule of the person's allows
// it as it is.
func (w *walker) localProgram(sc *scope, cmd *Cmd, name string, bg bool) (done, triedScript bool) {
	if w.checking {
		return false, false
	}
	path := name
	if !strings.Contains(name, "/") {
		if shellBuiltin(name) {
			return false, false
		}
		if w.may.hashAny {
			w.emit(&Cmd{Argv: cmd.Argv, Assigns: cmd.Assigns, CodeArg: 0, Local: true,
				Opaque: "BASH_CMDS is written, so bash may run another program for " + name})
			return false, true
		}
		path = w.onLocalPath(sc, cmd, name)
		if path == "" {
			return false, false
		}
	}
	if w.opts.ScriptRead != nil {
		// A program file named in a local directory (a link there too:
		// ln -sf /bin/bash ./ls first) must not change before it runs.
		abs := path
		if dir, ok := knownDir(sc); ok && !filepath.IsAbs(abs) {
			abs = physpath.Join(dir, abs)
		}
		if abs, known := w.lexical(abs); known && filepath.IsAbs(abs) {
			if _, here := w.underLocal(sc, abs); here {
				fr := FileRead{Path: abs, What: "runs the program file " + abs}
				if wr := sc.written[abs]; wr != nil && absent(abs) {
					fr.Written = wr // the text's own write, judged as what runs
				}
				w.opts.ScriptRead(fr, cmd)
			}
		}
	}
	where, local := w.localFile(sc, path)
	if !local {
		return false, false
	}
	if w.opts.AllowedLocal != nil && w.allowedLocal(sc, cmd) {
		// The person's rule names it: judged as it is, not read.
		return false, true
	}
	w.localScript = true
	script := w.execScript(sc, cmd, path, bg)
	w.localScript = false
	if script {
		// A shell script, judged by its content; one named like a program
		// the catalogue knows is judged as that program too (a deny of
		// rm -rf ~ stays a deny when bin/rm is a script).
		prog := argspec.ProgName(name)
		return argspec.ClassOf(prog) == 0 && argspec.Lookup(prog) == nil, true
	}
	if w.opts.ScriptRead != nil {
		// Through a link, its target is what runs.
		abs := path
		if dir, ok := knownDir(sc); ok && !filepath.IsAbs(abs) {
			abs = physpath.Join(dir, abs)
		}
		if real, known := w.physical(abs); known && filepath.IsAbs(abs) && real != filepath.Clean(abs) {
			w.opts.ScriptRead(FileRead{Path: real, What: "runs the program file " + abs + " (" + real + ")"}, cmd)
		}
	}
	// Judged also as the program of that name (./rm -rf / is denied), and
	// besides that it asks.
	shown := name
	if path != name {
		shown = name + " (" + path + ")"
	}
	w.emit(&Cmd{Argv: cmd.Argv, Assigns: cmd.Assigns, CodeArg: 0, Local: true,
		Opaque: shown + " is a program file in " + where + ": it is what the file holds, not the " + filepath.Base(name) + " the guard knows"})
	return false, true
}

// allowedLocal asks Options.AllowedLocal about c where it runs.
func (w *walker) allowedLocal(sc *scope, c *Cmd) bool {
	cp := *c
	cp.Cwd = Cwd{Dirs: sc.cwd.Dirs, Unknown: sc.cwd.Unknown, Data: sc.cwd.Data}
	cp.Pos = w.pos
	cp.Via = append([]Step(nil), w.via...)
	return w.opts.AllowedLocal(&cp)
}

// localFile reports whether a program's file lies in the working
// directory, the project or a temporary directory, once its links are
// resolved (a venv's python is a link to the system's); where says which.
func (w *walker) localFile(sc *scope, path string) (where string, local bool) {
	if argspec.ProcessFile(path) {
		// /dev/fd/3/ls: a directory the shell has open, not known here.
		return "a directory the shell has open", true
	}
	if !filepath.IsAbs(path) {
		dir, ok := knownDir(sc)
		if !ok {
			return "a directory not known here", true
		}
		path = physpath.Join(dir, path)
	}
	real, ok := w.reals[path]
	if !ok {
		// Once per walk: a script names the same programs many times.
		if r, known := w.physical(path); known {
			real = r
		}
		if w.reals == nil {
			w.reals = map[string]string{}
		}
		w.reals[path] = real
	}
	if real == "" {
		return "a directory that is not there yet, which the command may make a link to anywhere (a .. after it)", true
	}
	return w.underLocal(sc, real)
}

// underLocal reports whether an absolute path is in a local directory.
func (w *walker) underLocal(sc *scope, p string) (where string, local bool) {
	for _, r := range append(append([]string(nil), sc.cwd.Dirs...), w.opts.Local...) {
		if r != "/" && r != "" && (p == r || strings.HasPrefix(p, r+"/")) {
			return r, true
		}
	}
	return "", false
}

// onLocalPath is the file PATH finds for name when that is in a local
// directory (the inherited PATH may hold the project's .venv/bin or
// node_modules/.bin), else "". The places looked at are files the part
// was judged by: a program written there by the same command asks.
func (w *walker) onLocalPath(sc *scope, cmd *Cmd, name string) string {
	textPath := w.pathTouched || w.pathSet(sc)
	if !w.localOnPath && !textPath {
		return "" // the inherited PATH, with no local directory: trusted
	}
	dirs, ok := w.pathDirs(sc)
	if !ok {
		if !textPath {
			return "" // the inherited PATH, empty: bash's own default
		}
		// A PATH the text made not known here (unset PATH; read PATH;
		// local PATH) may be the working directory, which bash then
		// searches: a program there of that name is what may run.
		dirs = sc.cwd.Dirs
		if sc.cwd.Unknown {
			return ""
		}
	}
	key := name + "\x00" + strings.Join(dirs, ":") + "\x00" + strings.Join(sc.cwd.Dirs, ":")
	look, seen := w.pathLooks[key]
	if !seen {
		look = w.lookLocal(sc, name, dirs)
		if w.pathLooks == nil {
			w.pathLooks = map[string]pathLook{}
		}
		w.pathLooks[key] = look
	}
	if w.opts.ScriptRead != nil {
		for _, p := range look.watched {
			w.opts.ScriptRead(FileRead{Path: p, What: "runs " + name + ", which PATH finds in " + filepath.Dir(p) + " when a program is there"}, cmd)
		}
	}
	return look.found
}

// pathSet reports whether the text gave PATH a value (then its entries
// are looked at, as the inherited ones are when one is local).
func (w *walker) pathSet(sc *scope) bool {
	_, ok := sc.vars.lookup("PATH")
	return ok
}

// A pathLook is what looking a name up on PATH found: the local file it
// runs ("" for none), and the local places looked at on the way.
type pathLook struct {
	found   string
	watched []string
}

// lookLocal looks name up on dirs as execvp would (a scan each command of
// a long script would otherwise repeat: onLocalPath keeps it per walk).
func (w *walker) lookLocal(sc *scope, name string, dirs []string) pathLook {
	var look pathLook
	for _, d := range dirs {
		if d == "" {
			d = "."
		}
		if strings.HasPrefix(d, "~") {
			// bash expands a leading ~ of a PATH entry when it looks a
			// name up.
			home := w.getenv("HOME")
			rest, ok := strings.CutPrefix(d, "~")
			if !ok || home == "" || rest != "" && !strings.HasPrefix(rest, "/") {
				look.found = "~" // ~user, or no HOME: a place not known here
				return look
			}
			d = home + rest
		}
		p := physpath.Join(d, name)
		if real, mode, ok := w.pathCandidate(d, name); ok {
			// The common case, a plain absolute entry: one lstat per name.
			if _, local := w.underLocal(sc, real); local {
				look.watched = append(look.watched, p)
				if mode.IsRegular() && mode&0o111 != 0 {
					look.found = p
				}
			}
			if mode.IsRegular() && mode&0o111 != 0 {
				return look
			}
			continue
		}
		if _, known := w.physical(p); !known {
			look.found = p // what runs is where a link the text makes leads
			return look
		}
		_, local := w.localFile(sc, p)
		if local {
			look.watched = append(look.watched, p)
		}
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			if local {
				look.found = p
			}
			return look
		}
	}
	return look
}

// A dirReal is a PATH directory with its links resolved; ok is false
// when it cannot be (it is not there; a file is, and then lstat below it
// fails).
type dirReal struct {
	real string
	ok   bool
}

// pathCandidate is where name in the PATH directory d really is, and the
// mode of what is there (zero: nothing), found with one lstat once d is
// resolved (once per walk): a long PATH with a local directory on it (an
// activated .venv) had every name's every candidate resolved component
// by component, twice. ok is false for what it does not handle (a
// relative entry, a "..", the shell's open descriptors): the caller then
// resolves the path itself. A name that is not there is placed where it
// would be made, in d's real directory.
func (w *walker) pathCandidate(d, name string) (real string, mode os.FileMode, ok bool) {
	if !filepath.IsAbs(d) || physpath.HasDotDot(d) || strings.Contains(name, "/") || name == ".." || name == "." || argspec.ProcessFile(d+"/") {
		return "", 0, false
	}
	dr, seen := w.pathDirReal[d]
	if !seen {
		clean := filepath.Clean(d)
		r, err := filepath.EvalSymlinks(clean)
		dr = dirReal{real: r, ok: err == nil}
		if !dr.ok {
			dr.real = clean
		}
		if w.pathDirReal == nil {
			w.pathDirReal = map[string]dirReal{}
		}
		w.pathDirReal[d] = dr
	}
	real = physpath.Join(dr.real, name)
	if !dr.ok {
		return real, 0, true
	}
	fi, err := os.Lstat(real)
	if err != nil {
		return real, 0, true
	}
	if fi.Mode()&os.ModeSymlink == 0 {
		return real, fi.Mode(), true
	}
	st, err := os.Stat(real)
	if err != nil {
		return realPath(real), 0, true
	}
	return realPath(real), st.Mode(), true
}

// reservedWord reports bash's reserved words (and [[ ]], { }), which
// an alias may take the place of.
func reservedWord(name string) bool {
	switch name {
	case "!", "case", "coproc", "do", "done", "elif", "else", "esac", "fi", "for", "function", "if", "in", "select",
		"then", "until", "while", "{", "}", "time", "[[", "]]":
		return true
	}
	return false
}

// aliasWords splits an alias's text into words when it is only plain
// words (alias ll='ls -l'); nil for anything else: quotes, expansions,
// operators, or a trailing blank (the next word is then an alias too).
func aliasWords(text string) []string {
	if text == "" || strings.ContainsAny(text, "'\"\\$`;&|<>(){}[]*?~#=!\n") || strings.HasSuffix(text, " ") || strings.HasSuffix(text, "\t") {
		return nil
	}
	return strings.Fields(text)
}

// cdpathOff: cd searches no CDPATH.
var cdpathOff = cdpathState{}

// cdpathState is what cd's search path may be: not set, set to a value
// known here, or set to one not known.
type cdpathState struct {
	set   bool
	known bool
	value string
}

// cdpath says what CDPATH cd may search: set for this command, in the
// text, or (neither saying otherwise) in the environment.
func (w *walker) cdpath(sc *scope, assigns []Assign) cdpathState {
	of := func(v word.Word) cdpathState {
		s, ok := v.Static()
		return cdpathState{set: !ok || s != "", known: ok, value: s}
	}
	for _, a := range assigns {
		if a.Name == "CDPATH" {
			return of(a.Value)
		}
	}
	if sc.havoc {
		return cdpathState{set: true}
	}
	if st, ok := sc.vars.lookup("CDPATH"); ok {
		if st.unset {
			return cdpathOff
		}
		if st.unknown {
			return cdpathState{set: true}
		}
		return of(st.val)
	}
	if v := w.getenv("CDPATH"); v != "" {
		return cdpathState{set: true, known: true, value: v}
	}
	return cdpathOff
}

// cd follows cd, pushd and popd. With a CDPATH, a relative directory
// that does not start with a . or .. component may be found through it:
// under each of its entries, or here. assigns are those before the
// command: bash's cd reads HOME (cd alone) and OLDPWD (cd -) with them
// in place (OLDPWD=~ cd - goes home; a red team's).
func (w *walker) cd(sc *scope, name string, argv []word.Word, cdpath cdpathState, assigns []Assign) {
	given := func(v string, def word.Word) word.Word {
		for i := len(assigns) - 1; i >= 0; i-- {
			if assigns[i].Name == v {
				return assigns[i].Value
			}
		}
		return def
	}
	args := argv[1:]
	// cd -P resolves links as it goes (so does cd after set -P), and
	// cd -L does not; the last of them wins.
	physical := w.may.physical
	for len(args) > 0 {
		t, ok := args[0].Static()
		if !ok || !strings.HasPrefix(t, "-") || t == "-" || t == "--" {
			if t == "--" {
				args = args[1:]
			}
			break
		}
		if name == "cd" {
			if i := strings.LastIndexAny(t, "LP"); i > 0 {
				physical = t[i] == 'P'
			}
		}
		args = args[1:]
	}
	prev := sc.cwd
	if physical && name == "cd" {
		defer w.physicalCwd(sc, prev, args)
	} else {
		defer w.fallbackCwd(sc, prev, args)
	}
	if name == "popd" {
		sc.cwd = Cwd{Unknown: true, Data: true} // a directory the text pushed
		return
	}
	var target word.Word
	switch {
	case len(args) == 0 && name == "cd":
		target = given("HOME", sc.lookup(w, "HOME", "~"))
	case len(args) == 0:
		sc.cwd = Cwd{Unknown: true, Data: true} // pushd alone swaps directories
		return
	default:
		target = args[0]
	}
	if target.HasGlob() {
		// cd c*: the directory the glob matches, when it matches one;
		// with none or several cd fails or errs, and what it reads of
		// the file system is data.
		if len(target.Matches) != 1 {
			sc.cwd = Cwd{Unknown: true, Data: true}
			sc.cdFallback = &prev
			return
		}
		target = word.FromLit(target.Matches[0])
	}
	t, ok := target.Static()
	data := target.HasData()
	if t == "-" {
		old := given("OLDPWD", sc.lookup(w, "OLDPWD", "$OLDPWD"))
		t, ok = old.Static()
		data = data || old.HasData()
	}
	// bash searches CDPATH unless the name is absolute or starts with a
	// . or .. component (general.c absolute_pathname): .ssh is searched.
	searched := cdpath.set && !strings.HasPrefix(t, "/") && t != "." && t != ".." && !strings.HasPrefix(t, "./") && !strings.HasPrefix(t, "../")
	if searched && (!cdpath.known || prev.Unknown) {
		ok = false
	}
	if !ok || strings.HasPrefix(t, "+") && name == "pushd" {
		sc.cwd = Cwd{Unknown: true, Data: data || prev.Data || strings.HasPrefix(t, "+")}
		if !searched && !strings.HasPrefix(t, "+") && !target.HasData() {
			sc.cwd.Written = cwdWritten(prev, target.String(), target.Prefix() != "")
		}
		sc.cdFallback = &prev
		return
	}
	var dirs []string
	for _, d := range prev.Dirs {
		if filepath.IsAbs(t) {
			dirs = append(dirs, filepath.Clean(t))
		} else {
			dirs = append(dirs, filepath.Join(d, t))
		}
		if searched && ok {
			// Each entry (an empty one is here), then here.
			for _, e := range strings.Split(cdpath.value, ":") {
				if !filepath.IsAbs(e) {
					e = filepath.Join(d, e)
				}
				dirs = append(dirs, filepath.Join(e, t))
			}
		}
	}
	dirs = uniq(dirs)
	if filepath.IsAbs(t) {
		dirs = []string{filepath.Clean(t)}
		prev2 := prev
		sc.cwd = Cwd{Dirs: dirs}
		sc.cdFallback = &prev2
		sc.store("OLDPWD", varState{unknown: len(prev.Dirs) != 1 || prev.Unknown, data: true, val: word.FromLit(first(prev.Dirs))})
		return
	}
	sc.cwd = Cwd{Dirs: dirs, Unknown: prev.Unknown, Data: prev.Data}
	if prev.Unknown && !searched && len(prev.Written) > 0 {
		sc.cwd.Written = cwdWritten(prev, t, true)
	}
	sc.cdFallback = &prev
	// One of the directories the text went through: data when not known.
	sc.store("OLDPWD", varState{unknown: len(prev.Dirs) != 1 || prev.Unknown, data: true, val: word.FromLit(first(prev.Dirs))})
}

// cwdWritten is the directory cd t goes to from prev, as written (lit:
// t starts with literal text; "$D/x" may be absolute, and is written as
// it is: what follows its unknown part is what tells); nil when nothing
// of it was written.
func cwdWritten(prev Cwd, t string, lit bool) []string {
	switch {
	case strings.HasPrefix(t, "/") || !lit:
		return []string{t}
	case prev.Unknown && len(prev.Written) > 0:
		out := make([]string, len(prev.Written))
		for i, d := range prev.Written {
			out[i] = d + "/" + t
		}
		return out
	case !prev.Unknown && len(prev.Dirs) == 1:
		return []string{prev.Dirs[0] + "/" + t}
	}
	return []string{t}
}

// physicalCwd makes the directories cd went to what they physically
// are, once cd has followed them as written (from prev, to the operand
// in args): cd -P src/link/.. is the parent of where the link leads, not
// src. One that cannot be resolved now is not known here.
func (w *walker) physicalCwd(sc *scope, prev Cwd, args []word.Word) {
	if sc.cwd.Unknown || len(args) == 0 {
		return
	}
	t, ok := args[0].Static()
	if !ok {
		// cd -P [w]/..: the glob's match, taken as written, was cleaned
		// as text, but -P takes w's link first (a red team's).
		sc.cwd = Cwd{Unknown: true, Data: sc.cwd.Data}
		return
	}
	if t == "-" {
		return
	}
	var dirs []string
	for _, d := range sc.cwd.Dirs {
		raw := t
		if !filepath.IsAbs(t) {
			// The operand as written below the directory it came from:
			// Join read its .. as written. One found through CDPATH is
			// not followed here.
			raw = ""
			for _, p := range prev.Dirs {
				if filepath.Join(p, t) == d {
					raw = p + "/" + t
					break
				}
			}
		}
		real, err := filepath.EvalSymlinks(raw)
		if raw == "" || err != nil {
			sc.cwd = Cwd{Unknown: true, Data: sc.cwd.Data}
			return
		}
		dirs = append(dirs, real)
	}
	sc.cwd.Dirs = uniq(dirs)
}

// fallbackCwd adds where a logical cd may land instead: when the
// directory it names with .. (o/../in, o a link) does not exist as
// written, bash's cd tries chdir(2) on the operand itself, which the
// kernel resolves through the link (a red team's cd k/../projects, k a
// link into ~/.claude). The logical directory stays too: the text may
// make it first.
func (w *walker) fallbackCwd(sc *scope, prev Cwd, args []word.Word) {
	if sc.cwd.Unknown || len(args) == 0 {
		return
	}
	t, ok := args[0].Static()
	if !ok || t == "-" || !slices.Contains(strings.Split(t, "/"), "..") {
		return
	}
	dirs := sc.cwd.Dirs
	for _, d := range sc.cwd.Dirs {
		raw := t
		if !filepath.IsAbs(t) {
			raw = ""
			for _, p := range prev.Dirs {
				if filepath.Join(p, t) == d {
					raw = p + "/" + t
					break
				}
			}
		}
		if raw == "" {
			sc.cwd = Cwd{Unknown: true, Data: sc.cwd.Data}
			return
		}
		if logicalDirs(raw) {
			continue
		}
		// Not there either: the text makes it, and a link it makes on the
		// way asks where it is made.
		if real, err := filepath.EvalSymlinks(raw); err == nil {
			dirs = append(dirs, real)
		}
	}
	sc.cwd.Dirs = uniq(dirs)
}

// logicalDirs reports whether bash's logical cd finds path: each prefix
// before a .. is a directory as written (cd lnk/../outside/.. falls back
// to chdir(2) when proj/outside is not there, a red team's), and so is
// the whole.
func logicalDirs(path string) bool {
	cur := "/"
	for _, c := range strings.Split(path, "/") {
		switch c {
		case "", ".":
		case "..":
			if fi, err := os.Stat(cur); err != nil || !fi.IsDir() {
				return false
			}
			cur = filepath.Dir(cur)
		default:
			cur = filepath.Join(cur, c)
		}
	}
	fi, err := os.Stat(cur)
	return err == nil && fi.IsDir()
}

func first(ss []string) string {
	if len(ss) == 0 {
		return ""
	}
	return ss[0]
}

func uniq(ss []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// exportName gives name the export attribute, in walk order: the
// programs run after it get the variable (exportWrite). naked: export
// NAME of a variable the text may have set before.
func (w *walker) exportName(sc *scope, name string, naked bool) {
	name, _, _ = strings.Cut(name, "[")
	for range 8 {
		// export r with declare -n r=MAGIC exports MAGIC.
		st, ok := sc.vars.lookup(name)
		if !ok || !st.ref {
			break
		}
		target, _, _ := strings.Cut(st.refTarget, "[")
		if !st.refBound || !word.IsName(target) {
			w.allexportOn() // a name not known here: any
			return
		}
		name = target
	}
	if w.exportAttr == nil {
		w.exportAttr = map[string]bool{}
	}
	w.exportAttr[name] = true
	w.may.exports(name)
	if st, ok := sc.vars.lookup(name); naked && ok {
		w.exportWrite(name, st)
	}
}

// allexportOn notes set -a: every variable assigned after it is
// exported.
func (w *walker) allexportOn() {
	w.allexportNow = true
	if !w.may.second {
		w.may.allexport, w.may.exportF = true, true
		if w.loopDepth > 0 || w.may.inTrap > 0 {
			w.may.exportAnywhere = true // what came before it in the body is exported next time round
		}
	}
}

// exportWrite notes a write of st to name, which reaches the environment
// of the programs run after it when the variable is exported (export,
// declare -x, set -a, a name the environment holds already): those the
// catalogue does not judge where they are set (argspec.EnvNeedsReview)
// are given to every program emitted after it (Cmd.Exported), which
// asks when the built-in rules allowed the program for its arguments
// only. One the walk cannot place in order (in a loop's body, a trap's
// handler) is given to every program, in a second walk (may.go).
func (w *walker) exportWrite(name string, st varState) {
	if name == "POSIXLY_CORRECT" {
		w.posixOn() // bash turns POSIX mode on when it is set
	}
	if !word.IsName(name) || st.unset || st.ref {
		return
	}
	if !w.allexportNow && !w.exportAttr[name] && w.getenv(name) == "" {
		return
	}
	val := st.val
	if st.unknown || len(st.elems) > 1 {
		val = word.Unknown("$" + name)
	}
	if !argspec.EnvNeedsReview(name, val, ReviewedVar) {
		return
	}
	if !w.may.second {
		w.may.exportedAny = true
		if w.loopDepth > 0 || w.may.inTrap > 0 {
			w.may.exportAnywhere = true
		}
	}
	for _, a := range w.exportedNow {
		if a.Name == name || a.Name == "" {
			return // it asks already, whatever its value
		}
	}
	if len(w.exportedNow) == maxExported {
		// Every command after it carries the list, and each is judged
		// for it: past a few, one entry stands for the rest.
		name, val = "", word.Unknown("more variables")
	}
	w.exportedNow = append(w.exportedNow, Assign{Name: name, Value: val})
}

// maxExported bounds the variables listed in Cmd.Exported; an entry with
// no name stands for those past it.
const maxExported = 16

func (w *walker) getenv(name string) string {
	if w.opts.Getenv == nil {
		return ""
	}
	return w.opts.Getenv(name)
}

func (w *walker) setCmd(sc *scope, argv []word.Word) {
	optName := false // the word after -o or +o is an option's name
	for i, a := range argv[1:] {
		if optName {
			optName = false
			continue
		}
		t, ok := a.Static()
		if !ok {
			sc.paramsUnknown = true
			w.setNoglob(sc, noglobMaybe) // it could be -f or +f
			if !w.may.second {
				w.may.keyword, w.may.exportF, w.may.xtrace = true, true, true // it could be -k, -a or -x
			}
			w.allexportOn()
			w.posixOn()
			w.histOption(true, true)
			return
		}
		// A cluster's letters (-ef, +euf), and -o NAME (-eo NAME: a cluster
		// with o takes the next word as an option's name, unless that
		// starts with - or +: set -o -a lists the options, then sets -a;
		// every other letter of -oa is a flag too).
		cluster := len(t) > 1 && (t[0] == '-' || t[0] == '+') && t[1] != '-'
		oName := cluster && strings.ContainsRune(t[1:], 'o') && i+2 < len(argv)
		if n, ok := argv[min(i+2, len(argv)-1)].Static(); oName && ok && (strings.HasPrefix(n, "-") || strings.HasPrefix(n, "+")) {
			oName = false
		}
		dashO := oName && t[0] == '-'
		on := func(letters string) bool { return cluster && t[0] == '-' && strings.ContainsAny(t[1:], letters) }
		if !w.may.second && (on("x") || dashO && (!argv[i+2].IsStatic() || argv[i+2].String() == "xtrace")) {
			w.may.xtrace = true // set -x: every command is printed, expanded
		}
		if !w.may.second && (on("P") || dashO && (!argv[i+2].IsStatic() || argv[i+2].String() == "physical")) {
			w.may.physical = true // set -P, set -o physical: cd resolves links
		}
		if !w.may.second && (on("ka") || oName && keywordOrAllexport(argv[i+2])) {
			// Assignment words after a command's name (set -k), or every
			// function exported (set -a): anywhere in the text (may.go).
			w.may.keyword = w.may.keyword || on("k") || dashO
			w.may.exportF = w.may.exportF || on("a") || dashO
		}
		if on("a") || dashO && allexportOpt(argv[i+2]) {
			w.allexportOn()
		}
		if dashO && posixOpt(argv[i+2]) {
			w.posixOn()
		}
		if dashO {
			w.histOption(histOpt(argv[i+2]))
		}
		if on("H") {
			w.histOption(false, true)
		}
		if t == "--" || !strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "+") {
			rest := argv[1+i:]
			if t == "--" {
				rest = rest[1:]
			}
			args, ok := staticArgs(rest)
			zero := "bash"
			if len(sc.params) > 0 {
				zero = sc.params[0]
			}
			sc.params, sc.paramsUnknown = append([]string{zero}, args...), !ok
			if w.may.inTrap > 0 && !w.may.second {
				w.may.paramsDeferred = true // a handler may set them at any time
			}
			if w.may.paramsDeferred {
				sc.paramsUnknown = true
			}
			return
		}
		if strings.HasPrefix(t, "-") && strings.Contains(t, "e") && !strings.HasPrefix(t, "-o") {
			sc.errexit = true
		}
		if strings.HasPrefix(t, "+") && strings.Contains(t, "e") {
			sc.errexit = false
		}
		if cluster && strings.ContainsRune(t[1:], 'f') {
			if t[0] == '-' {
				w.setNoglob(sc, noglobOn)
			} else {
				w.setNoglob(sc, noglobOff)
			}
		}
		if oName {
			if n, ok := argv[i+2].Static(); !ok {
				w.setNoglob(sc, noglobMaybe)
			} else if n == "noglob" && t[0] == '-' {
				w.setNoglob(sc, noglobOn)
			} else if n == "noglob" {
				w.setNoglob(sc, noglobOff)
			}
		}
		if dashO {
			if n, _ := argv[i+2].Static(); n == "errexit" {
				sc.errexit = true
			}
		}
		optName = oName
	}
}

// setNoglob notes set -f (noglobOn), set +f (noglobOff) or a set that may
// be either. In code that may run at any time (a trap's), every glob of
// the text may be expanded or not (may.noglob).
func (w *walker) setNoglob(sc *scope, s noglobState) {
	sc.noglob = s
	if w.may.deferred > 0 && !w.may.second {
		w.may.noglob = true
	}
}

// builtinOpts reads the options of a builtin the way bash's
// internal_getopt does: clusters (-ra NAME), values attached (-vx, -Cprog)
// or in the next word, up to "--" or the first operand. withArg lists the
// letters that take a value. It returns each option's letter and value and
// the operands; ok is false when a word not known here stands where an
// option could be.
func builtinOpts(args []word.Word, withArg string) (opts []builtinOpt, operands []word.Word, ok bool) {
	for i := 0; i < len(args); i++ {
		t, static := args[i].Static()
		if !static {
			if args[i].CouldStartWith('-') {
				return opts, args[i:], false
			}
			return opts, args[i:], true
		}
		if t == "--" {
			return opts, args[i+1:], true
		}
		if len(t) < 2 || t[0] != '-' {
			return opts, args[i:], true
		}
		for j := 1; j < len(t); j++ {
			c := t[j]
			if strings.IndexByte(withArg, c) < 0 {
				opts = append(opts, builtinOpt{letter: c})
				continue
			}
			o := builtinOpt{letter: c, hasValue: true}
			if j+1 < len(t) {
				o.value, o.index = word.FromLit(t[j+1:]), i
			} else if i+1 < len(args) {
				i++
				o.value, o.index = args[i], i
			} else {
				o.hasValue = false
			}
			opts = append(opts, o)
			break
		}
	}
	return opts, nil, true
}

type builtinOpt struct {
	letter   byte
	value    word.Word
	hasValue bool
	index    int // of the word holding the value, in args
}

func keywordOrAllexport(w word.Word) bool {
	t, ok := w.Static()
	return !ok || t == "keyword" || t == "allexport"
}

// histOption notes that history (set -o history) or history expansion
// (set -H) may be on from here. With both, bash rewrites every line it
// reads after that (!!, !#, ^old^new, in double quotes too) before it
// parses it: a line the guard reads as echo "!!:1:gs/'//" may be echo
// "$(cmd)". The walk does not follow the history, so the text asks.
func (w *walker) histOption(history, expand bool) {
	w.histList = w.histList || history
	w.histExpand = w.histExpand || expand
	if w.histList && w.histExpand && !w.histAsked {
		w.histAsked = true
		w.dataAsCode("history expansion may be on (set -o history and set -H): bash then rewrites each line it reads (!!, !#, ^old^new) before it runs it, which the guard does not follow")
	}
}

func histOpt(w word.Word) (history, expand bool) {
	t, ok := w.Static()
	return !ok || t == "history", !ok || t == "histexpand"
}

func posixOpt(w word.Word) bool {
	t, ok := w.Static()
	return !ok || t == "posix"
}

// posixOn notes POSIX mode (set -o posix, POSIXLY_CORRECT, bash
// --posix): an assignment before a special builtin stays, exported
// (posixAssigns). Set in a loop's body or a trap's handler, it may be on
// anywhere: the second walk starts with it on.
func (w *walker) posixOn() {
	w.posixNow = true
	if !w.may.second {
		w.may.posixSeen = true
		if w.loopDepth > 0 || w.may.inTrap > 0 {
			w.may.posix = true
		}
	}
}

// declBuiltin reports the builtins that declare variables.
func declBuiltin(name string) bool {
	switch name {
	case "export", "declare", "local", "readonly", "typeset":
		return true
	}
	return false
}

// specialBuiltin reports POSIX's special builtins (and bash's source).
func specialBuiltin(name string) bool {
	switch name {
	case "break", ":", ".", "source", "continue", "eval", "exec", "exit", "export", "readonly", "return", "set",
		"shift", "times", "trap", "unset":
		return true
	}
	return false
}

func allexportOpt(w word.Word) bool {
	t, ok := w.Static()
	return !ok || t == "allexport"
}

// varSetters handles builtins that assign variables named by words (or by
// default: REPLY, MAPFILE, OPTARG and OPTIND), however their options are
// spelled.
func (w *walker) varSetters(sc *scope, name string, argv []word.Word) {
	args := argv[1:]
	withArg := map[string]string{"read": "adinNptu", "mapfile": "dnOsuCc", "readarray": "dnOsuCc", "printf": "v", "getopts": "", "wait": "p"}[name]
	opts, operands, ok := builtinOpts(args, withArg)
	var names []word.Word
	if !ok {
		// An option not known here could be -v NAME, -a NAME, -C CODE.
		w.dataAsCode(name + " with an option not known here, which could name a variable to assign or code to run")
		sc.havocVars()
		return
	}
	for _, o := range opts {
		switch {
		case o.letter == 'v' && name == "printf", o.letter == 'a' && name == "read", o.letter == 'p' && name == "wait":
			// wait -p NAME: the job's process number.
			if o.hasValue {
				names = append(names, o.value)
			}
		case o.letter == 'C' && (name == "mapfile" || name == "readarray"):
			w.emit(&Cmd{Argv: argv, Opaque: name + " -C runs a callback", CodeArg: o.index + 1})
		}
	}
	switch name {
	case "printf":
		// The format and its arguments follow.
	case "getopts":
		if len(operands) > 1 {
			names = append(names, operands[1])
		}
		sc.setUnknown("OPTARG")
		sc.setNumeric("OPTIND")
	case "mapfile", "readarray":
		if len(operands) > 0 {
			names = append(names, operands[0])
		} else {
			names = append(names, word.FromLit("MAPFILE"))
		}
	case "read":
		names = append(names, operands...)
		if len(names) == 0 {
			sc.setUnknown("REPLY")
		}
	}
	for _, n := range names {
		w.varNameArg(sc, n, name)
		if t, ok := n.Static(); ok {
			if strings.HasPrefix(t, "GUARD_EXEC_") {
				w.emit(&Cmd{Argv: argv, Special: "guard-env"})
			}
			base, _, _ := strings.Cut(t, "[")
			if bashInteger(base) && name != "getopts" {
				// read -r RANDOM < F: bash evaluates F's line as
				// arithmetic, as it does any value RANDOM is given.
				w.dataAsCode(name + " into " + base + ": bash evaluates the value as arithmetic, and a value not known here could name an array subscript that runs a command")
			}
			sc.setUnknown(base)
		} else {
			sc.havocVars() // a name known only at run time: any variable
		}
	}
}

// compoundText walks a quoted compound assignment given to a declaration
// builtin (declare -a 'arr=(a $(cmd))'): bash reads the text as the
// assignment NAME=(…) it spells, expansions and substitutions included.
func (w *walker) compoundText(sc *scope, builtin, name, value string) {
	w.code(sc, name+"="+value, Step{Kind: builtin + " with a quoted compound assignment"})
	sc.setUnknown(name)
}

// decl walks declare, local, export, readonly and typeset.
func (w *walker) decl(sc *scope, c *syntax.DeclClause) {
	// Its assignments are judged by checkAssigns below, not again as
	// they are stored.
	w.assigning++
	defer func() { w.assigning-- }()
	variant := c.Variant.Value
	argv := []word.Word{word.FromLit(variant)}
	var assigns []Assign
	integer, funcs, assoc, nameref, array, global, cased, printing := false, false, false, false, false, false, false, false
	exporting := variant == "export" // or -x: the programs run after it get the names
	// local, and declare or typeset in a function without -g, make the
	// names local: restored when the function returns.
	local := func(name string) {
		if len(w.locals) == 0 || global || variant != "local" && variant != "declare" && variant != "typeset" {
			return
		}
		frame := w.locals[len(w.locals)-1]
		if _, seen := frame[name]; seen {
			return
		}
		if old, ok := sc.vars.lookup(name); ok {
			frame[name] = &old
		} else {
			frame[name] = nil
		}
	}
	// word is one word bash gives the builtin, after every expansion:
	// -OPTIONS, NAME or NAME=VALUE.
	word1 := func(v word.Word) {
		argv = append(argv, v)
		t, ok := v.Static()
		if ok && (strings.HasPrefix(t, "-") || strings.HasPrefix(t, "+")) {
			if strings.HasPrefix(t, "-") && strings.Contains(t, "i") {
				integer = true
			}
			if strings.HasPrefix(t, "-") && strings.Contains(t, "x") {
				exporting = true
			}
			if strings.HasPrefix(t, "-") && strings.Contains(t, "A") {
				assoc = true
			}
			if strings.HasPrefix(t, "-") && strings.Contains(t, "n") {
				nameref = true
			}
			if strings.HasPrefix(t, "-") && strings.Contains(t, "a") {
				array = true
			}
			if strings.HasPrefix(t, "-") && strings.Contains(t, "g") {
				global = true
			}
			if strings.HasPrefix(t, "-") && strings.ContainsAny(t, "lu") {
				cased = true
			}
			if strings.ContainsAny(t, "fF") {
				funcs = true
			}
			if strings.HasPrefix(t, "-") && strings.Contains(t, "p") {
				printing = true
			}
			if (variant == "export" || strings.Contains(t, "x")) && strings.ContainsAny(t, "fF") && strings.HasPrefix(t, "-") && !w.may.second {
				w.may.exportF = true // functions reach child shells (may.go)
			}
			return
		}
		if funcs {
			return
		}
		// bash reads this word as NAME[=VALUE] when the command runs.
		w.varNameArg(sc, v, variant)
		if ok {
			n, val, hasVal := strings.Cut(t, "=")
			n = strings.TrimSuffix(n, "+") // NAME+=VALUE
			local(n)
			if exporting {
				w.exportName(sc, n, false)
			}
			if nameref && integer {
				w.dataAsCode(refInteger(variant))
			}
			if nameref && word.IsName(n) {
				if hasVal {
					w.varNameArg(sc, word.FromLit(val), variant+" -n")
				}
				sc.declareRef(n, val, hasVal)
				return
			}
			base, _, _ := strings.Cut(n, "[")
			if strings.HasPrefix(base, "GUARD_EXEC_") {
				w.emit(&Cmd{Argv: argv, Special: "guard-env"})
			}
			if hasVal && word.IsName(n) && strings.HasPrefix(val, "(") && variant != "export" {
				w.compoundText(sc, variant, n, val)
				return
			}
			if cased && word.IsName(n) {
				sc.markCased(n)
			}
			if integer && word.IsName(n) {
				// declare -i "n", 'n=a[$(cmd)]', "$v": the attribute as for
				// a bare name, and a value evaluated as arithmetic (a red
				// team's).
				st := sc.varState(n)
				st.integer = true
				sc.store(n, st)
				if w.may.deferred > 0 && !w.may.second {
					w.may.intDef[n] = true
				}
				if hasVal {
					w.arithText(sc, word.FromLit(val), variant+" -i "+n)
					sc.setNumeric(n)
					return
				}
			}
			if hasVal && word.IsName(n) {
				sc.set(n, word.FromLit(val))
				assigns = append(assigns, Assign{Name: n, Value: word.FromLit(val)})
			} else if word.IsName(base) {
				sc.setUnknown(base)
			}
		} else {
			sc.havocVars() // NAME=VALUE known only at run time: any name
		}
	}
	for _, a := range c.Args {
		switch {
		case a.Naked && a.Name == nil && a.Value != nil:
			// Not an assignment as written (quoted, MAGIC{,}=F, $v, "$@"):
			// bash expands it as any command's word, braces, splitting and
			// globs included, and the builtin reads each field it makes.
			for _, v := range w.appendFields(nil, sc, a.Value) {
				if v.HasGlob() {
					// The files a glob matches when it runs (some made by
					// the text itself: touch MAGIC=F; export *) name them.
					argv = append(argv, v)
					w.dataAsCode(variant + " takes the names a glob matches when it runs (files named NAME=VALUE), which the guard does not know")
					sc.havocVars()
					continue
				}
				word1(v)
			}
		case a.Name != nil:
			name := a.Name.Value
			if funcs {
				argv = append(argv, word.FromLit(name))
				continue
			}
			local(name)
			if exporting {
				w.exportName(sc, name, a.Naked)
			}
			if a.Naked && len(w.locals) > 0 && !global && (variant == "local" || variant == "declare" || variant == "typeset") && !integer && !assoc && !nameref && !array {
				// local NAME in a function: a new variable, unset.
				sc.store(name, varState{unset: true})
			}
			if cased {
				sc.markCased(name)
			}
			if a.Naked {
				argv = append(argv, word.FromLit(name))
				if printing && w.secretVar(name) && !argspec.SecretName(name) {
					// declare -p BASH_REMATCH: bash set it from a secret's value
					w.secretShown(variant + " -p " + name + ": bash prints its value, which the text may have set from a secret variable's")
				}
				if strings.HasPrefix(name, "GUARD_EXEC_") && variant != "local" {
					w.emit(&Cmd{Argv: argv, Special: "guard-env"})
				}
				if nameref && integer {
					w.dataAsCode(refInteger(variant))
				}
				if nameref {
					sc.declareRef(name, "", false)
					continue
				}
				if st, ok := sc.vars.lookup(name); integer && ok && st.ref {
					// declare -i r of a name reference: the attribute is its
					// target's, whose later values are then arithmetic.
					w.dataAsCode(refInteger(variant))
				}
				if integer || assoc {
					st := sc.varState(name)
					st.integer = st.integer || integer
					st.assoc = st.assoc || assoc
					sc.store(name, st)
				}
				if integer && w.may.deferred > 0 && !w.may.second {
					w.may.intDef[name] = true
				}
				continue
			}
			if assoc {
				st := sc.varState(name)
				st.assoc = true
				sc.store(name, st)
			}
			if a.Index != nil && !literalSubscript(a.Index) {
				// declare A[$y]=1: the builtin gets the subscript expanded,
				// and expands an associative array's subscript again
				// (without shopt -s assoc_expand_once): y's value runs as
				// code (a red team's, with y='$(touch …)').
				w.dataAsCode(variant + " " + name + "[…]=: bash expands an associative array's subscript again in a declaration, so a value in it runs as code")
			}
			v := w.assign(sc, a, assoc)
			if s, ok := v.Value.Static(); ok && (array || assoc) && a.Array == nil && strings.HasPrefix(s, "(") {
				// declare -a arr='(…)' or arr=$v with such a value: bash
				// reads it as the compound assignment it spells.
				w.compoundText(sc, variant, name, s)
				argv = append(argv, word.FromLit(name+"="+s))
				continue
			}
			if nameref && integer {
				w.dataAsCode(refInteger(variant))
			}
			if nameref {
				// A name reference's value is a variable name, whose
				// subscript bash evaluates; expanding it yields that
				// variable's value, which is not followed here.
				w.varNameArg(sc, v.Value, variant+" -n "+name)
				if specialVar(name) {
					// declare -n PS4=y: bash's use of PS4 is y's value,
					// whatever the text gives y (a red team's).
					w.dataAsCode(variant + " -n " + name + ": bash then uses another variable's value as " + name + ", which the guard does not follow")
				}
				target, _ := v.Value.Static()
				sc.declareRef(name, target, true)
				argv = append(argv, word.FromLit(name+"="+v.Value.String()))
				continue
			}
			assigns = append(assigns, v)
			argv = append(argv, word.FromLit(name+"="+v.Value.String()))
			if integer || sc.isInteger(name) {
				w.arithText(sc, v.Value, variant+" -i "+name)
				sc.setNumeric(name)
				st := sc.varState(name)
				st.integer = true
				sc.store(name, st)
				if w.may.deferred > 0 && !w.may.second {
					w.may.intDef[name] = true
				}
				continue
			}
			w.setAssign(sc, a, v)
		}
	}
	if variant == "nameref" {
		// bash has no nameref builtin: this runs a program of that name.
		w.emit(&Cmd{Argv: argv, CodeArg: -1})
		return
	}
	w.checkAssigns(sc, assigns, true)
	w.emit(&Cmd{Argv: argv, Assigns: assigns, CodeArg: -1})
}

// refInteger is why a name reference with the integer attribute asks:
// bash evaluates what is assigned to it, or to its target, as arithmetic
// (declare -in y=x evaluates x's value), which the walk does not follow.
func refInteger(variant string) string {
	return variant + " gives a name reference the integer attribute: bash then evaluates the names and values given to it or its target as arithmetic, where an array subscript runs commands"
}

// envUnsetsGuard reports env -u GUARD_EXEC_… among env's options (GNU
// env: -u NAME, -uNAME, a cluster ending in u (-iu NAME), --unset and its
// abbreviations, = or not; inside -S's string too), or a name there not
// known here.
func envUnsetsGuard(argv []word.Word) bool {
	for i := 1; i < len(argv); i++ {
		s, ok := argv[i].Static()
		if !ok {
			// -u"$X", --unset="$X", -S"$X": a name or a string not
			// known here, which may be GUARD_EXEC_*. -C"$D" is a
			// directory. Anything else is the command, or an option
			// not known here, which env's reading refuses.
			p := argv[i].Prefix()
			if long, _, has := strings.Cut(p, "="); has && strings.HasPrefix(long, "--") && len(long) > 2 {
				if strings.HasPrefix("--unset", long) || strings.HasPrefix("--split-string", long) {
					return true
				}
				if strings.HasPrefix("--chdir", long) {
					continue
				}
				return false
			}
			if len(p) > 1 && p[0] == '-' && p[1] != '-' {
				// After options without values, the first with one
				// takes the rest of the word.
				if t := strings.TrimLeft(p[1:], "i0v"); t != "" {
					switch t[0] {
					case 'u', 'S':
						return true
					case 'C':
						continue
					}
				}
			}
			return false
		}
		next := func() (string, bool) {
			if i+1 >= len(argv) {
				return "", false
			}
			i++
			n, ok := argv[i].Static()
			return n, !ok
		}
		var name string
		unknown := false
		long, val, hasVal := strings.Cut(s, "=")
		switch {
		case s == "--" || !strings.HasPrefix(s, "-") && !strings.Contains(s, "="):
			return false // the command starts
		case strings.HasPrefix(s, "--") && len(long) > 2 && strings.HasPrefix("--unset", long):
			if name = val; !hasVal {
				name, unknown = next()
			}
		case strings.HasPrefix(s, "--") && len(long) > 2 && (strings.HasPrefix("--chdir", long) || strings.HasPrefix("--split-string", long)) && !hasVal:
			if strings.HasPrefix("--split-string", long) {
				if v, unk := next(); unk || envUnsetsGuard(splitWords(v)) {
					return true
				}
				continue
			}
			next()
		case strings.HasPrefix(s, "-") && !strings.HasPrefix(s, "--"):
			// A cluster: -i, -0, -v take nothing; u, C, S take the rest of
			// the word or the next one.
			for k := 1; k < len(s); k++ {
				switch s[k] {
				case 'u', 'C', 'S':
					v := s[k+1:]
					if v == "" {
						v, unknown = next()
					}
					if s[k] == 'S' && (unknown || envUnsetsGuard(splitWords(v))) {
						return true
					}
					if s[k] == 'u' {
						name = v
					}
					k = len(s)
				}
			}
		}
		if unknown || strings.HasPrefix(name, "GUARD_EXEC_") {
			return true
		}
	}
	return false
}

// splitWords is env -S's string as words (blanks between; what it quotes
// or expands is read as text here), after a program name.
func splitWords(s string) []word.Word {
	out := []word.Word{word.FromLit("env")}
	for _, f := range strings.Fields(s) {
		out = append(out, word.FromLit(strings.Trim(f, `'"`)))
	}
	return out
}

// wrapped reports a wrapper and the command it runs.
func (w *walker) wrapped(sc *scope, cmd *Cmd, prog string, bg bool) {
	cmd.Wrapper = true
	if prog == "env" && envUnsetsGuard(cmd.Argv) {
		w.emit(&Cmd{Argv: cmd.Argv, Special: "guard-env"}) // as unset GUARD_EXEC_… is
	}
	in, reason, _ := argspec.Wrapped(prog, cmd.Argv)
	if reason != "" {
		cmd.Opaque = reason + "; the guard cannot tell which command it runs"
		w.emit(cmd)
		return
	}
	w.emit(cmd)
	if in == nil || (len(in.Argv) == 0 && in.Code == nil) {
		cmd.Wrapper = false
		return
	}
	layer := Step{Kind: "wrapper " + prog, Argv: word.Strings(cmd.Argv)}
	isc := sc
	if in.Cwd != nil || in.CwdUnknown {
		isc = sc.clone()
		if t, ok := staticPtr(in.Cwd); ok {
			// chdir(2): no CDPATH, and the kernel resolves links (env -C
			// o/.. with o a link goes to o's target's parent: cd -P).
			w.cd(isc, "cd", []word.Word{word.FromLit("cd"), word.FromLit("-P"), word.FromLit("--"), word.FromLit(t)}, cdpathOff, nil)
			isc.cdFallback = nil
		} else {
			isc.cwd = Cwd{Unknown: true, Data: in.Cwd != nil && in.Cwd.HasData() || sc.cwd.Data}
		}
	}
	if in.Code != nil {
		text, ok := in.Code.Static()
		if !ok {
			w.emit(&Cmd{Argv: cmd.Argv, Opaque: prog + " runs a command string not known here", CodeArg: -1})
			return
		}
		child := w.childScope(isc, []string{"sh"}, false)
		w.code(child, text, layer)
		return
	}
	if w.tooDeep(cmd.Argv) { // env env env …: each level reports the rest
		return
	}
	w.via = append(w.via, layer)
	defer func() { w.via = w.via[:len(w.via)-1] }()
	set := make([]Assign, len(in.Assigns))
	for i, a := range in.Assigns {
		set[i] = Assign{Name: a.Name, Value: a.Value}
	}
	w.checkAssigns(isc, set, false)
	// Commands run by a wrapper are programs: shell functions and
	// builtins are not visible to them (except command/builtin/exec).
	noFuncs := prog != "time"
	assigns := append(append([]Assign(nil), cmd.Assigns...), set...)
	if prog == "xargs" {
		// xargs's commands read /dev/null; what it reads is their
		// arguments. Literal input gives the exact commands.
		if runs, ok := xargsRuns(cmd, in.Argv); ok {
			for _, argv := range runs {
				w.run(isc, argv, assigns, nil, nil, noFuncs, bg)
			}
			return
		}
		if cmd.Stdin != nil && len(cmd.Stdin.Found) > 0 {
			// find … | xargs CMD: its arguments lie below find's
			// starting points (what policy reads of a find step).
			if fromStdin, split := xargsInput(cmd.Argv); fromStdin {
				w.via = append(w.via, Step{Kind: "find output", Argv: cmd.Stdin.Found, Static: true, Split: split})
				defer func() { w.via = w.via[:len(w.via)-1] }()
			}
		}
		w.run(isc, in.Argv, assigns, nil, nil, noFuncs, bg)
		return
	}
	w.run(isc, in.Argv, assigns, nil, cmd.Stdin, noFuncs, bg)
}

// xargsRuns spells out the commands xargs builds from literal input: the
// items appended (in one command: splitting them by -n or -L changes
// nothing a rule looks at), or with -I one command per line. Input read
// from elsewhere (-a), split otherwise (-0, -d), or too long stays
// unknown.
// xargsInput reads xargs's own options: whether its arguments come from
// its standard input (not with -a FILE, nor with options not read here),
// and whether it splits them at blanks and quotes (not with -0 or -d).
func xargsInput(argv []word.Word) (fromStdin, split bool) {
	n := argspec.Normalize(argv, false)
	fromStdin = !n.Open && !n.HasAny("-a", "--arg-file")
	split = !n.HasAny("-0", "--null", "-d", "--delimiter")
	for _, o := range n.Opts {
		fromStdin = fromStdin && o.Known
	}
	return fromStdin, split
}

func xargsRuns(cmd *Cmd, tmpl []word.Word) ([][]word.Word, bool) {
	if cmd.Stdin == nil || !cmd.Stdin.Known || len(tmpl) == 0 {
		return nil, false
	}
	c := argspec.Normalize(cmd.Argv, false)
	if c.Open || c.HasAny("--arg-file") {
		return nil, false
	}
	text := cmd.Stdin.Text
	// -0 and -d D split at that byte only; -E STR ends the input at an
	// item that is STR (blank splitting only).
	delim, delimited := byte(0), c.Has("--null")
	for _, v := range c.Values("--delimiter") {
		s, ok := v.Static()
		d, dok := xargsDelimiter(s)
		if !ok || !dok {
			return nil, false
		}
		delim, delimited = d, true
	}
	eof, hasEOF := "", false
	for _, v := range append(c.Values("-E"), c.Values("--eof")...) {
		s, ok := v.Static()
		if !ok {
			return nil, false
		}
		eof, hasEOF = s, s != ""
	}
	repl := ""
	for _, v := range append(c.Values("-I"), c.Values("--replace")...) {
		repl, _ = v.Static()
		if repl == "" {
			repl = "{}"
		}
	}
	if c.Has("--replace") && repl == "" {
		repl = "{}"
	}
	if repl == "" {
		last := tmpl[len(tmpl)-1]
		if len(last.Segs) != 1 || last.Segs[0].Kind != word.Hole || last.Segs[0].Text != "{input}" {
			return nil, false
		}
		var items []string
		ok := true
		if delimited {
			items = strings.Split(text, string(delim))
			if n := len(items); n > 0 && items[n-1] == "" {
				items = items[:n-1] // the input ends with the delimiter
			}
		} else if items, ok = xargsSplit(text); ok && hasEOF {
			if i := slices.Index(items, eof); i >= 0 {
				items = items[:i]
			}
		}
		if !ok || len(items) > 64 {
			return nil, false
		}
		argv := append([]word.Word(nil), tmpl[:len(tmpl)-1]...)
		for _, it := range items {
			argv = append(argv, word.FromLit(it))
		}
		return [][]word.Word{argv}, true
	}
	if delimited || hasEOF {
		return nil, false // -I with -0, -d or -E: not spelled out here
	}
	// -I: each line, leading blanks removed, replaces the placeholder.
	var runs [][]word.Word
	for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		line = strings.TrimLeft(line, " \t")
		if line == "" {
			continue
		}
		if len(runs) >= 16 {
			return nil, false
		}
		argv := make([]word.Word, len(tmpl))
		for i, a := range tmpl {
			var nw word.Word
			for _, sg := range a.Segs {
				if sg.Kind == word.Hole && sg.Text == repl {
					nw.AddLit(line)
					continue
				}
				nw.Add(sg)
			}
			argv[i] = nw
		}
		runs = append(runs, argv)
	}
	return runs, len(runs) > 0
}

// xargsDelimiter reads xargs -d's character: one byte, or an escape (\n,
// \t, \0, \\, \NNN in octal, \xHH).
func xargsDelimiter(s string) (byte, bool) {
	if len(s) == 1 {
		return s[0], true
	}
	if len(s) < 2 || s[0] != '\\' {
		return 0, false
	}
	switch s[1:] {
	case "n":
		return '\n', true
	case "t":
		return '\t', true
	case "0":
		return 0, true
	case "\\":
		return '\\', true
	}
	base, digits := 8, s[1:]
	if digits[0] == 'x' {
		base, digits = 16, digits[1:]
	}
	n, err := strconv.ParseUint(digits, base, 8)
	return byte(n), err == nil
}

// xargsSplit splits input the way xargs does without -0 or -d: on blanks
// and newlines, with '…', "…" and backslash quoting.
func xargsSplit(text string) ([]string, bool) {
	var out []string
	var cur strings.Builder
	in := false
	for i := 0; i < len(text); i++ {
		ch := text[i]
		switch {
		case ch == '\\' && i+1 < len(text):
			i++
			cur.WriteByte(text[i])
			in = true
		case ch == '\'' || ch == '"':
			j := strings.IndexByte(text[i+1:], ch)
			if j < 0 {
				return nil, false // xargs: unmatched quote, runs nothing
			}
			cur.WriteString(text[i+1 : i+1+j])
			i += j + 1
			in = true
		case ch == ' ' || ch == '\t' || ch == '\n':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteByte(ch)
			in = true
		}
	}
	if in {
		out = append(out, cur.String())
	}
	return out, true
}

func staticPtr(w *word.Word) (string, bool) {
	if w == nil {
		return "", false
	}
	return w.Static()
}

// childScope is the state a new shell process starts with: the same
// directory, none of this shell's functions or unexported variables.
func (w *walker) childScope(sc *scope, params []string, paramsUnknown bool) *scope {
	funcs := map[string]*syntax.Stmt{}
	if w.may.exportF {
		// Some function is exported somewhere in the text (export -f,
		// declare -fx, set -a): any of them may be one the child shell
		// runs under that name.
		for k, v := range sc.funcs {
			funcs[k] = v
		}
	}
	return &scope{
		funcs:         funcs,
		cwd:           Cwd{Dirs: append([]string(nil), sc.cwd.Dirs...), Unknown: sc.cwd.Unknown, Data: sc.cwd.Data, Written: sc.cwd.Written},
		params:        params,
		paramsUnknown: paramsUnknown,
		havoc:         sc.havoc, // exported variables may have changed too
		may:           sc.may,
	}
}

// shells read bash's grammar; the walker reads their code.
func shells(prog string) bool { return argspec.Is(prog, argspec.Shell) }

// is is argspec.Is for the programs of every command, with each program's
// classes looked up once per walk: argspec looks through its lists each
// time, and a script names the same few programs thousands of times.
// (Is(prog, c) is ClassOf(prog) with only c's classes kept.)
func (w *walker) is(prog string, c argspec.Class) bool {
	cl, ok := w.classes[prog]
	if !ok {
		if w.classes == nil {
			w.classes = map[string]argspec.Class{}
		}
		cl = argspec.ClassOf(prog)
		w.classes[prog] = cl
	}
	return cl&c != 0
}

func isShell(prog string) bool { return argspec.Is(prog, argspec.Shell|argspec.ForeignShell) }

// shell handles a nested shell: its -c string, its script, or its input.
func (w *walker) shell(sc *scope, cmd *Cmd, prog string) {
	cmd.Wrapper = true
	// Words not known here may still be only the positional parameters
	// after a literal -c string (xargs sh -c 'code', find -exec sh -c
	// 'code' {} +): stand-ins tell where they land.
	const stand = "\x00guard-exec-unknown\x00"
	args := make([]string, 0, len(cmd.Argv))
	dynamic := false
	for _, a := range cmd.Argv[1:] {
		if a.Multi || a.Split && a.HasHole() {
			// May be several words: everything after it shifts.
			args = append(args, stand, stand)
			dynamic = true
			continue
		}
		s, ok := a.Static()
		if !ok {
			s, dynamic = stand, true
		}
		args = append(args, s)
	}
	if argspec.Is(prog, argspec.ForeignShell) {
		cmd.Opaque = "code for " + prog + ", which the guard does not read"
		if len(args) == 0 {
			cmd.Opaque = prog + " reading commands from its input"
		}
		w.emit(cmd)
		return
	}
	for _, a := range cmd.Assigns {
		if a.Name == "BASH_ENV" || a.Name == "ENV" {
			w.checkAssigns(sc, []Assign{a}, false)
		}
	}
	inv, err := bashargv.ParseArgv(append([]string{prog}, args...), false)
	if err == nil {
		// bash -O globstar -c '…': the code runs with them on.
		for _, o := range inv.ShoptOn {
			w.shoptMay(o, !strings.Contains(o, stand))
		}
		if slices.Contains(inv.SetOn, "physical") && !w.may.second {
			w.may.physical = true
		}
		if slices.Contains(inv.SetOn, "xtrace") && !w.may.second {
			w.may.xtrace = true // bash -x -c '…'
		}
		// bash -a, -k, --posix: the child's assignments are exported, or
		// words after a name are assignments for it (kept on for the rest
		// of the walk: more than the child, never less).
		if slices.Contains(inv.SetOn, "allexport") {
			w.allexportOn()
		}
		if slices.Contains(inv.SetOn, "keyword") && !w.may.second {
			w.may.keyword = true
		}
		if inv.Posix {
			w.posixOn()
		}
	}
	// A script named by a known word may get arguments not known here:
	// they are its positional parameters, unknown.
	knownFile := err == nil && inv.Mode == bashargv.ModeFile && !strings.Contains(inv.File, stand)
	if dynamic && (err != nil || inv.Mode != bashargv.ModeCommand && !knownFile || strings.Contains(inv.Command, stand) || optionsHave(inv, stand)) {
		cmd.Opaque = prog + " with arguments not known here"
		w.emit(cmd)
		return
	}
	if err != nil {
		cmd.Wrapper = false
		w.emit(cmd) // bash refuses its arguments and runs nothing
		return
	}
	layer := Step{Kind: "shell " + prog, Argv: word.Strings(cmd.Argv)}
	params := append([]string{inv.Name}, inv.Args...)
	paramsUnknown := dynamic
	// bash -i --rcfile F (--init-file F) runs F first, in the shell that
	// then runs its commands.
	rc := inv.Interactive && !inv.NoRC && inv.RCFile != ""
	if rc && inv.Mode != bashargv.ModeCommand {
		cmd.Opaque = prog + " runs the start-up file " + inv.RCFile + " (--rcfile) before what it reads, which the guard does not follow here"
		w.emit(cmd)
		return
	}
	switch inv.Mode {
	case bashargv.ModeCommand:
		w.emit(cmd)
		child := w.childScope(sc, params, paramsUnknown)
		child.errexit = slices.Contains(inv.SetOn, "errexit")
		if slices.Contains(inv.SetOn, "noglob") {
			child.noglob = noglobOn // bash -f -c '…'
		}
		if rc && !w.rcFile(child, cmd, prog, inv.RCFile) {
			return
		}
		w.codeFor(child, prog, inv.Command, layer)
	case bashargv.ModeFile:
		cmd.Opaque = "runs the script " + inv.File
		for i, a := range args {
			if a == inv.File {
				cmd.CodeArg = i + 1
				break
			}
		}
		if !dynamic || cmd.CodeArg >= 0 {
			if w.shellScript(sc, cmd, prog, inv.File, params, paramsUnknown, slices.Contains(inv.SetOn, "errexit")) {
				return
			}
		}
		w.emit(cmd)
	case bashargv.ModeStdin, bashargv.ModeInteractive:
		if inv.Interactive {
			// An interactive shell reading its input rewrites each line
			// before it parses it (history expansion, readline's macros
			// from INPUTRC or ~/.inputrc), parses # as set by shopt
			// interactive_comments, and writes HISTFILE at exit.
			cmd.Opaque = prog + " -i reads its commands as an interactive shell does: it rewrites them (history expansion, readline's key bindings) before it runs them, and writes its history file at exit"
			w.emit(cmd)
			return
		}
		if cmd.Stdin != nil && cmd.Stdin.Known {
			w.emit(cmd)
			child := w.childScope(sc, params, false)
			layer.Kind = "input of " + prog + " (" + cmd.Stdin.Desc + ")"
			w.stdinCode++
			w.codeFor(child, prog, cmd.Stdin.Text, layer)
			w.stdinCode--
			return
		}
		desc := "its standard input"
		if cmd.Stdin != nil {
			desc = cmd.Stdin.Desc
		} else if !w.inPipe {
			desc = "the standard input of the whole command"
		}
		cmd.Opaque = prog + " runs commands read from " + desc
		w.emit(cmd)
	default:
		cmd.Wrapper = false
		w.emit(cmd)
	}
}

// optionsHave reports whether a stand-in landed among a shell's options.
func optionsHave(inv *bashargv.Invocation, stand string) bool {
	for _, l := range [][]string{inv.SetOn, inv.SetOff, inv.ShoptOn, inv.ShoptOff, {inv.RCFile}} {
		for _, s := range l {
			if strings.Contains(s, stand) {
				return true
			}
		}
	}
	return false
}

// name0 is a command's static program word, as written.
func name0(cmd *Cmd) string {
	s, _ := cmd.Argv[0].Static()
	return s
}

// isPythonName matches python, python3, python3.12, pypy3 …: checked for
// every command, so no regexp (compiling one cost more than judging).
// interpreter reports an interpreter and the code it runs, which is
// opaque: judged only by a rule that names the script or the inline form.
func (w *walker) interpreter(sc *scope, cmd *Cmd, prog string) bool {
	spec, key, ok := argspec.InterpreterOf(prog)
	if !ok {
		// A script run by its path whose #! line names a python.
		if interp, ok := w.pythonShebang(sc, cmd); ok {
			name, _ := cmd.Argv[0].Static()
			handled, _ := w.python(sc, cmd, interp, nil, pySource{file: name}, 0)
			return handled
		}
		return false
	}
	if strings.HasSuffix(key, "awk") {
		return w.awk(sc, cmd)
	}
	args := cmd.Argv[1:]
	opaque := &Cmd{Argv: cmd.Argv, Assigns: cmd.Assigns, CodeArg: -1}
	// What a python runs, for the Python analyser: its code and the
	// options before it.
	var ps pySource
	pyKnown, optEnd := false, len(args)
	for i := 0; i < len(args); i++ {
		t, ok := args[i].Static()
		if !ok {
			if args[i].CouldStartWith('-') {
				opaque.Opaque = prog + " with an argument not known here"
			} else {
				opaque.Opaque, opaque.CodeArg = prog+" runs a script named by a word not known here", i+1
			}
			break
		}
		long := false
		for _, l := range spec.Long {
			if t == l || strings.HasPrefix(t, l+"=") {
				long = true
			}
		}
		if long {
			opaque.Opaque, opaque.CodeArg = prog+" runs inline code", i+1
			if !strings.Contains(t, "=") {
				opaque.CodeArg = i + 2
			}
			break
		}
		if t == "--" || t == "-" {
			optEnd = i
			if t == "-" {
				opaque.Opaque = prog + " runs code read from its input"
				if cmd.Stdin != nil && cmd.Stdin.Known {
					ps.code, pyKnown = &cmd.Stdin.Text, true
				}
				break
			}
			if i+1 < len(args) {
				opaque.Opaque, opaque.CodeArg = prog+" runs the script "+args[i+1].String(), i+2
				ps.file, pyKnown = args[i+1].Static()
			}
			break
		}
		if !strings.HasPrefix(t, "-") {
			if key == "deno" && (t == "run" || t == "test") && i+1 < len(args) {
				continue
			}
			opaque.Opaque, opaque.CodeArg = prog+" runs the script "+t, i+1
			ps.file, pyKnown, optEnd = t, true, i
			break
		}
		if strings.HasPrefix(t, "--") {
			continue
		}
		letters := t[1:]
		done := false
		for j := 0; j < len(letters); j++ {
			l := letters[j]
			if spec.Module && l == 'm' {
				modArg := i + 1
				mod := letters[j+1:]
				if mod == "" && i+1 < len(args) {
					mod, _ = args[i+1].Static()
					modArg = i + 2
				}
				if key == "python" && mod != "" && modArg <= len(args) {
					// A module of the project is judged by its content.
					if handled, why := w.python(sc, cmd, name0(cmd), args[:i+1], pySource{module: mod}, modArg); handled {
						return true
					} else if why != "" {
						w.emit(cmd)
						cmd.Wrapper = true
						w.emit(&Cmd{Argv: cmd.Argv, Assigns: cmd.Assigns, Opaque: prog + " runs the module " + mod + " (" + why + ")", CodeArg: modArg})
						return true
					}
				}
				w.emit(cmd)
				if mod == "" {
					return true
				}
				cmd.Wrapper = true
				inner := append([]word.Word{word.FromLit(mod)}, args[modArg:]...)
				w.via = append(w.via, Step{Kind: prog + " -m", Argv: word.Strings(cmd.Argv)})
				w.run(sc, inner, nil, nil, cmd.Stdin, true, false)
				w.via = w.via[:len(w.via)-1]
				return true
			}
			if strings.IndexByte(spec.Code, l) >= 0 {
				opaque.Opaque, opaque.CodeArg = prog+" runs inline code (-"+string(l)+")", i+1
				optEnd = i + 1
				code := letters[j+1:]
				pyKnown = true
				if j == len(letters)-1 {
					opaque.CodeArg = i + 2
					if i+1 < len(args) {
						code, pyKnown = args[i+1].Static()
					} else {
						pyKnown = false
					}
				}
				ps.code, ps.inline = &code, true
				done = true
				break
			}
			if strings.IndexByte(spec.Valued, l) >= 0 {
				if j == len(letters)-1 {
					i++
				}
				break
			}
		}
		if done {
			break
		}
	}
	if opaque.Opaque == "" && len(args) == 0 || opaque.Opaque == "" && allOptions(args) {
		opaque.Opaque = prog + " runs code read from its input"
		if cmd.Stdin != nil {
			opaque.Opaque += " (" + cmd.Stdin.Desc + ")"
		}
		if isVersionQuery(args) {
			opaque.Opaque = ""
		} else if cmd.Stdin != nil && cmd.Stdin.Known {
			ps.code, pyKnown = &cmd.Stdin.Text, true
		}
	}
	if key == "python" && opaque.Opaque != "" && pyKnown {
		handled, why := w.python(sc, cmd, name0(cmd), args[:optEnd], ps, opaque.CodeArg)
		if handled {
			return true
		}
		if why != "" {
			opaque.Opaque += " (" + why + ")"
		}
	}
	w.emit(cmd)
	if opaque.Opaque != "" {
		cmd.Wrapper = true
		w.emit(opaque)
	}
	return true
}

func allOptions(args []word.Word) bool {
	for _, a := range args {
		t, ok := a.Static()
		if !ok || !strings.HasPrefix(t, "-") {
			return false
		}
	}
	return true
}

func isVersionQuery(args []word.Word) bool {
	for _, a := range args {
		t, _ := a.Static()
		switch t {
		case "--version", "-V", "--help", "-h", "-v", "-version":
			return true
		}
	}
	return false
}

// awk reads an awk program as the awks read it (argspec.ReadAwk): the
// commands system(), pipes and coprocesses hand to /bin/sh -c are judged
// as shell code; one built at run time, or a program not read with
// certainty, is a part of its own that is asked.
func (w *walker) awk(sc *scope, cmd *Cmd) bool {
	call := argspec.ReadAwk(cmd.Argv[1:])
	codeArg := -1
	if call.Program >= 0 {
		codeArg = call.Program + 1
	}
	w.emit(cmd)
	if call.Unsure != "" {
		// A rule can name the code by the word that holds or names it.
		unsureArg := -1
		if call.Code >= 0 {
			unsureArg = call.Code + 1
		}
		w.emit(&Cmd{Argv: cmd.Argv, Opaque: call.Unsure, CodeArg: unsureArg})
	}
	dynamic := false
	for _, c := range call.Exec {
		if c == "" {
			if !dynamic {
				w.emit(&Cmd{Argv: cmd.Argv, Opaque: "the awk program runs shell commands built at run time (system() or a pipe)", CodeArg: codeArg})
			}
			dynamic = true
			continue
		}
		w.codeFor(w.childScope(sc, []string{"sh"}, false), "sh", c, Step{Kind: "awk system()", Argv: word.Strings(cmd.Argv)})
	}
	return true
}

// anyData reports whether a word of ws holds data (word.Seg.Data).
func anyData(ws []word.Word) bool {
	for _, w := range ws {
		if w.HasData() {
			return true
		}
	}
	return false
}

// substituteWith replaces {} with what find passes: the found path, or
// "./name" for -execdir.
func substituteWith(t, ph string, found word.Word, action string) word.Word {
	if action == "-execdir" || action == "-okdir" {
		data := found.HasData()
		found = word.FromLit("./")
		found.Add(word.Seg{Kind: word.Hole, Data: data, Text: "{}"})
	}
	var w word.Word
	for i, p := range strings.Split(t, ph) {
		if i > 0 {
			w.AddWord(found)
		}
		if p != "" {
			w.AddLit(p)
		}
	}
	return w
}

// programCode judges commands that ordinary programs run from their
// arguments (GTFOBins-style): git -c core.pager=…, tar
// --checkpoint-action=exec=…, rsync -e, ssh -o ProxyCommand=, rg --pre,
// GNU sed's e command, find -exec.
func (w *walker) programCode(sc *scope, cmd *Cmd, prog string) {
	if w.is(prog, argspec.BuildTool) {
		argspec.ReadCarried(&carrySink{w: w, sc: sc, cmd: cmd}, prog, cmd.Argv)
		return
	}
	// The argv's text is only needed for code found: most programs have none.
	argvText := func() []string { return word.Strings(cmd.Argv) }
	judge := func(v word.Word, what string) {
		t, ok := v.Static()
		if !ok {
			w.emit(&Cmd{Argv: cmd.Argv, Opaque: what + " is a command not known here", CodeArg: -1})
			return
		}
		w.code(w.childScope(sc, []string{"sh"}, false), t, Step{Kind: what, Argv: argvText()})
	}
	// judgeWithFile judges a command the program runs with a file name
	// appended (rg --pre CMD FILE, zip -TT CMD ZIPFILE).
	judgeWithFile := func(v word.Word, what string) {
		t, ok := v.Static()
		if !ok {
			judge(v, what)
			return
		}
		w.code(w.childScope(sc, []string{"sh"}, true), t+` "$1"`, Step{Kind: what, Argv: argvText()})
	}
	switch prog {
	case "find":
		execs, _ := argspec.FindExecs(cmd.Argv[1:])
		// What find puts in place of {} starts with the starting point
		// ("./" for -execdir), so it is never an option when the starting
		// points are not.
		// Data (word.Seg.Data) when where find looks is (policy judges
		// the paths below starting points known here by where they are).
		norm := argspec.Normalize(cmd.Argv, false)
		roots := norm.Args
		// -files0-from: the starting points are what the list holds.
		fromList := norm.Has("-files0-from")
		found := word.Word{Segs: []word.Seg{{Kind: word.Hole, Data: anyData(roots) || fromList, Text: "{}"}}}
		if fromList {
			// Where find looks is data: no starting point of its own.
		} else if len(roots) == 1 {
			if r, ok := roots[0].Static(); ok && !strings.HasPrefix(r, "-") {
				found = word.FromLit(strings.TrimSuffix(r, "/") + "/")
				found.Add(word.Seg{Kind: word.Hole, Text: "{}"})
			}
		} else if len(roots) == 0 {
			found = word.FromLit("./")
			found.Add(word.Seg{Kind: word.Hole, Data: sc.cwd.Data, Text: "{}"})
		}
		for _, fe := range execs {
			argv := make([]word.Word, 0, len(fe.Argv))
			for _, a := range fe.Argv {
				if t, ok := a.Static(); ok && strings.Contains(t, "{}") {
					argv = append(argv, substituteWith(t, "{}", found, fe.Action))
					continue
				}
				argv = append(argv, a)
			}
			if len(argv) == 0 {
				continue
			}
			isc := sc
			dir := fe.Action == "-execdir" || fe.Action == "-okdir"
			if dir {
				isc = sc.clone()
				// Where find finds files: below its starting points
				// (policy's pathFromFind), which may be data.
				isc.cwd = Cwd{Unknown: true, Data: found.HasData() || sc.cwd.Data && !strings.HasPrefix(found.Prefix(), "/")}
			}
			cmd.Wrapper = true
			_, static := staticArgs(cmd.Argv)
			findCwd := sc.cwd
			w.via = append(w.via, Step{Kind: "find " + fe.Action, Argv: argvText(), Static: static, Cwd: &findCwd})
			w.run(isc, argv, nil, nil, nil, true, false)
			// The action's argv with a file find gives in place of {}.
			with := func(file string) []word.Word {
				out := make([]word.Word, 0, len(fe.Argv))
				for _, a := range fe.Argv {
					if t, ok := a.Static(); ok && strings.Contains(t, "{}") {
						a = word.FromLit(strings.ReplaceAll(t, "{}", file))
					}
					out = append(out, a)
				}
				return out
			}
			if fe.Unfiltered && !dir {
				// The first file the action gets is each starting point.
				for _, r := range roots {
					if rt, ok := r.Static(); ok {
						w.run(isc, with(rt), nil, nil, nil, true, false)
					}
				}
			}
			if fe.Unfiltered && dir {
				// -execdir's first file is each starting point too, as GNU
				// find gives it: ./NAME, run in the directory the path
				// names it in (/ as /; . as ./. here): find ~ -execdir rm
				// -rf {} + runs rm -rf ./u in /home.
				for _, r := range roots {
					rt, ok := r.Static()
					if !ok || rt == "" {
						continue
					}
					name, dirOf := "./"+path.Base(rt), path.Dir(strings.TrimRight(rt, "/"))
					if strings.Trim(rt, "/") == "" {
						name, dirOf = "/", "/"
					}
					if !filepath.IsAbs(dirOf) {
						d, ok := knownDir(sc)
						if !ok {
							continue
						}
						dirOf = d + "/" + dirOf
					}
					at, ok := w.physical(dirOf)
					if !ok {
						continue
					}
					fsc := sc.clone()
					fsc.cwd = Cwd{Dirs: []string{at}}
					w.run(fsc, with(name), nil, nil, nil, true, false)
				}
			}
			w.via = w.via[:len(w.via)-1]
		}
	case "tar":
		c := argspec.Normalize(cmd.Argv, false)
		for _, o := range c.Opts {
			if o.Value == nil {
				continue
			}
			switch o.Name {
			case "--checkpoint-action":
				if rest, ok := o.Value.TrimPrefix("exec="); ok {
					judge(rest, "tar --checkpoint-action=exec")
				} else if !o.Value.IsStatic() {
					judge(*o.Value, "tar --checkpoint-action")
				}
			case "--to-command", "--use-compress-program", "--info-script", "--rsh-command":
				judge(*o.Value, "tar "+o.Name)
			}
		}
	case "rsync":
		c := argspec.Normalize(cmd.Argv, false)
		for _, v := range c.Values("--rsh") {
			judge(v, "rsync -e")
		}
		for _, v := range c.Values("--rsync-path") {
			judge(v, "rsync --rsync-path")
		}
	case "ssh", "scp", "sftp":
		for i, a := range cmd.Argv {
			t, _ := a.Static()
			opt := ""
			switch {
			case t == "-o" && i+1 < len(cmd.Argv):
				opt, _ = cmd.Argv[i+1].Static()
				if !cmd.Argv[i+1].IsStatic() {
					w.emit(&Cmd{Argv: cmd.Argv, Opaque: prog + " -o with an option not known here", CodeArg: -1})
				}
			case strings.HasPrefix(t, "-o") && len(t) > 2:
				opt = t[2:]
			case t == "-S" && prog == "scp" && i+1 < len(cmd.Argv):
				judge(cmd.Argv[i+1], "scp -S")
			}
			k, v, ok := strings.Cut(opt, "=")
			if !ok {
				k, v, ok = strings.Cut(opt, " ")
			}
			switch strings.ToLower(k) {
			case "proxycommand", "localcommand", "knownhostscommand", "remotecommand":
				if ok && v != "none" {
					judge(word.FromLit(v), prog+" -o "+k)
				}
			}
		}
	case "rg", "zip":
		// rg * and zip a.zip *: a file the command makes first, named
		// --pre=sh or -TT…, is an option when the glob expands, and runs
		// a program (a red team's zip … * with --unzip-command=sh x.sh).
		if slices.ContainsFunc(cmd.Argv[1:], argspec.MayBeOption) {
			w.emit(&Cmd{Argv: cmd.Argv, Opaque: prog + " is given a word that may expand to an option (a glob, or a value not known here), and " + prog + "'s options can name a program it runs (" + map[string]string{"rg": "--pre", "zip": "-TT, --unzip-command"}[prog] + ")", CodeArg: -1})
		}
		if prog == "zip" {
			break
		}
		c := argspec.Normalize(cmd.Argv, false)
		for _, v := range c.Values("--pre") {
			judgeWithFile(v, "rg --pre")
		}
	}
	switch prog {
	case "zip":
		for i, a := range cmd.Argv {
			t, _ := a.Static()
			switch {
			case (t == "-TT" || t == "--unzip-command") && i+1 < len(cmd.Argv):
				judgeWithFile(cmd.Argv[i+1], "zip "+t)
			case strings.HasPrefix(t, "--unzip-command="):
				judgeWithFile(word.FromLit(t[len("--unzip-command="):]), "zip --unzip-command")
			case strings.HasPrefix(t, "-TT") && len(t) > 3:
				judgeWithFile(word.FromLit(t[3:]), "zip -TT")
			}
		}
	case "man":
		for i, a := range cmd.Argv {
			t, _ := a.Static()
			if (t == "-P" || t == "--pager") && i+1 < len(cmd.Argv) {
				judge(cmd.Argv[i+1], "man "+t)
			}
			if strings.HasPrefix(t, "--pager=") {
				judge(word.FromLit(t[len("--pager="):]), "man --pager")
			}
		}
	case "sed":
		w.sedScript(sc, cmd)
	}
}

// sedScript reads a sed script as GNU sed does (argspec.ReadSed): each e
// COMMAND is shell code popen runs with /bin/sh; a bare e or s///e runs the
// pattern space, built at run time; a script not read with certainty is
// judged as code not known here.
func (w *walker) sedScript(sc *scope, cmd *Cmd) {
	call := argspec.ReadSed(argspec.Normalize(cmd.Argv, false))
	if call.Unsure != "" {
		w.emit(&Cmd{Argv: cmd.Argv, Opaque: call.Unsure, CodeArg: -1})
	}
	for _, sub := range call.Exec {
		if sub == "" {
			w.emit(&Cmd{Argv: cmd.Argv, Opaque: "sed's e command runs text built at run time as a shell command", CodeArg: -1})
			continue
		}
		w.codeFor(w.childScope(sc, []string{"sh"}, false), "sh", sub, Step{Kind: "sed e command", Argv: word.Strings(cmd.Argv)})
	}
}
