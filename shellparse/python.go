package shellparse

import (
	"errors"
	"github.com/guard-exec/guard-exec/internal/physpath"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/guard-exec/guard-exec/argspec"
	"github.com/guard-exec/guard-exec/pycode"
	"github.com/guard-exec/guard-exec/word"
)

// pySource is the Python code a python command runs, as found on its
// command line.
type pySource struct {
	code   *string // -c CODE, or code on standard input
	inline bool    // code is a -c argument
	file   string  // a script, as written
	module string
}

// pythonVars are the variables python reads at startup that could change
// what it runs; those pycode calls harmless are left alone.
var pythonVars = []string{"PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "PYTHONINSPECT", "PYTHONBREAKPOINT",
	"PYTHONUSERBASE", "PYTHONEXECUTABLE", "PYTHONWARNINGS", "PYTHONPYCACHEPREFIX", "PYTHONPLATLIBDIR", "PYTHONCASEOK"}

// versionVars choose the Python a version manager's shim runs.
// (An assignment before the command of any PYENV_, ASDF_, MISE_ or RTX_
// variable counts too: PYENV_HOOK_PATH makes pyenv run the hooks there.)
var versionVars = []string{"PYENV_VERSION", "PYENV_ROOT", "PYENV_DIR", "PYENV_HOOK_PATH", "ASDF_PYTHON_VERSION", "ASDF_DATA_DIR",
	"ASDF_DIR", "ASDF_CONFIG_FILE", "ASDF_DEFAULT_TOOL_VERSIONS_FILENAME", "MISE_PYTHON_VERSION", "RTX_PYTHON_VERSION", "MISE_DATA_DIR",
	"MISE_CONFIG_DIR", "MISE_CONFIG_FILE", "MISE_ENV", "MISE_DEFAULT_CONFIG_FILENAME"}

var versionPrefixes = []string{"PYENV_", "ASDF_", "MISE_", "RTX_"}

// textSets reports whether the text, not the environment the guard was
// started with, may give a variable a value for cmd.
func (w *walker) textSets(sc *scope, cmd *Cmd, name string) bool {
	for _, a := range cmd.Assigns {
		if a.Name == name {
			return true
		}
	}
	if v, ok := sc.vars.lookup(name); ok {
		return !v.unset
	}
	return sc.havoc
}

// python judges the code a python command runs by its content. It
// reports false when the code could not be read (the caller keeps it
// opaque, as without an analyser); otherwise it has emitted cmd, the
// commands and file effects the code has, and an opaque part saying
// what is not allowed, if anything.
func (w *walker) python(sc *scope, cmd *Cmd, interp string, optArgs []word.Word, ps pySource, codeArg int) (bool, string) {
	if w.opts.Python == nil || w.checking {
		return false, ""
	}
	src := pycode.Source{Interp: interp, Module: ps.module}
	if len(sc.cwd.Dirs) == 1 && !sc.cwd.Unknown {
		src.Dir = sc.cwd.Dirs[0]
	}
	// What the command line itself asks about, besides the code.
	var asks []string
	warning := func(v string) {
		if strings.Contains(v, ".") {
			asks = append(asks, "python -W names a warning category in a module, which python imports")
		}
	}
	for k := 0; k < len(optArgs); k++ {
		t, _ := optArgs[k].Static()
		if strings.HasPrefix(t, "--") || !strings.HasPrefix(t, "-") {
			continue
		}
		letters := t[1:]
		for j := 0; j < len(letters); j++ {
			switch letters[j] {
			case 'i':
				asks = append(asks, "python -i reads commands after the code runs")
			case 'x':
				// Python skips the script's first line: the rest is other
				// code than the file the guard reads (a quote opened there).
				asks = append(asks, "python -x skips the script's first line, so the code it runs is not the file as read")
			case 'W', 'X', 'Q':
				// A value follows, in this word or the next.
				v := letters[j+1:]
				if v == "" && k+1 < len(optArgs) {
					k++
					v, _ = optArgs[k].Static()
				}
				if letters[j] == 'W' {
					warning(v)
				}
				if letters[j] == 'X' && strings.HasPrefix(v, "pycache_prefix") {
					asks = append(asks, "python -X pycache_prefix reads compiled modules from another directory")
				}
				j = len(letters)
			case 'c', 'm':
				j = len(letters) // -cCODE, -mMODULE
			}
		}
	}
	for _, name := range versionVars {
		// The interpreter the guard analyses with is the one PATH finds
		// with the guard's own environment; a version manager's shim
		// (pyenv, asdf, mise) picks another when the text says so.
		if w.textSets(sc, cmd, name) {
			asks = append(asks, name+" is set here, which makes a version manager run another Python than the one the code was judged with")
		}
	}
	for _, a := range cmd.Assigns {
		for _, p := range versionPrefixes {
			if strings.HasPrefix(a.Name, p) && !slices.Contains(versionVars, a.Name) {
				asks = append(asks, a.Name+" is set here, which changes what a version manager's shim runs")
			}
		}
	}
	for _, name := range pythonVars {
		v, set := w.pyVar(sc, cmd, name)
		if !set || pycode.HarmlessEnv(name) {
			continue
		}
		t, ok := v.Static()
		if !ok {
			return false, name + " is set to a value not known here"
		}
		if t == "" {
			continue
		}
		if name != "PYTHONPATH" {
			asks = append(asks, name+" is set, which changes what python runs")
			continue
		}
		for _, d := range filepath.SplitList(t) {
			if d == "" {
				d = "."
			}
			if !filepath.IsAbs(d) {
				if src.Dir == "" {
					return false, "PYTHONPATH names a directory relative to one not known here"
				}
				d = physpath.Join(src.Dir, d)
			}
			d, known := w.lexical(d)
			if !known {
				return false, "PYTHONPATH names a directory through a .. after one that is not there yet, which the command may make a link"
			}
			src.PathDirs = append(src.PathDirs, d)
		}
	}
	var written *Written
	switch {
	case ps.code != nil:
		src.Code, src.Inline = *ps.code, ps.inline
	case ps.file != "":
		f := ps.file
		if !filepath.IsAbs(f) {
			if src.Dir == "" {
				return false, "the script's directory is not known here"
			}
			f = physpath.Join(src.Dir, f)
		}
		f, known := w.lexical(f)
		if !known {
			return false, "the script's path goes through a .. after a directory that is not there yet, which the command may make a link"
		}
		src.File = f
		if wr := sc.written[f]; wr != nil && absent(f) {
			src.Code, written = wr.Text, wr // the text writes it first
		}
	}
	src.Argv = pyArgv(cmd, ps, codeArg)
	r := w.opts.Python.Analyse(src)
	if r.NotLocal {
		// A module of the standard library or an installed one: judged as
		// the program it names, and what it would import from the
		// project first asks besides.
		w.pyShadows(r, cmd)
		if len(r.Asks) > 0 {
			w.emit(&Cmd{Argv: cmd.Argv, Assigns: cmd.Assigns, Opaque: "python " + strings.Join(r.Asks[:min(len(r.Asks), 3)], "; "), CodeArg: codeArg})
		}
		return false, ""
	}
	if r.Unread != "" {
		return false, r.Unread
	}
	w.emit(cmd)
	if w.opts.ScriptRead != nil {
		// What the judgement relied on must not change before it runs.
		for _, f := range r.Files {
			fr := FileRead{Path: f, What: "runs the Python file " + f}
			if f == src.File {
				fr.Written = written
			}
			w.opts.ScriptRead(fr, cmd)
			if real := realPath(f); real != f {
				w.opts.ScriptRead(FileRead{Path: real, What: "runs the Python file " + f + " (" + real + ")"}, cmd)
			}
			if f != src.File && strings.HasSuffix(f, ".py") {
				// An import runs the compiled cache beside the module when
				// its header matches (an unchecked-hash .pyc always does),
				// not the source the guard read: a cache the command
				// writes first is what runs (a red team's xxd -r into
				// __pycache__/helper.cpython-311.pyc).
				stem := filepath.Join(filepath.Dir(f), "__pycache__", strings.TrimSuffix(filepath.Base(f), ".py"))
				w.opts.ScriptRead(FileRead{Path: stem, Stem: true, What: "runs the compiled cache of " + f + " (" + stem + ".*.pyc)"}, cmd)
			}
		}
		for _, n := range r.Names {
			w.opts.ScriptRead(FileRead{Path: n, Stem: true, What: "runs Python code that imports " + filepath.Base(n) + ", looked up in " + filepath.Dir(n)}, cmd)
		}
		// pyenv, asdf and mise take the version from a file in the
		// working directory or above it: one the command writes first
		// makes the shim run another Python than the one that judged.
		if dir, ok := knownDir(sc); ok && filepath.IsAbs(dir) {
			for d := dir; ; d = filepath.Dir(d) {
				for _, n := range []string{".python-version", ".tool-versions", "mise.toml", ".mise.toml"} {
					f := filepath.Join(d, n)
					w.opts.ScriptRead(FileRead{Path: f, What: "runs the Python that " + f + " chooses (pyenv, asdf, mise)"}, cmd)
				}
				if d == "/" || d == "." {
					break
				}
			}
		}
		w.pyShadows(r, cmd)
	}
	// A script run by its path (codeArg 0) stays a program of its own:
	// rules about it decide whether it may run (no rule: a question), and
	// what its code is found to run is judged besides.
	direct := codeArg == 0
	if !direct {
		cmd.Wrapper = true
	}
	carrier := word.Strings(cmd.Argv)
	for _, c := range r.Commands {
		layer := Step{Kind: c.Via, Argv: carrier}
		if c.Shell != "" {
			params := c.Args
			if len(params) == 0 {
				params = []string{"/bin/sh"}
			}
			w.codeFor(w.childScope(sc, params, false), "sh", c.Shell, layer)
			continue
		}
		argv := make([]word.Word, len(c.Argv))
		for i, a := range c.Argv {
			argv[i] = word.FromLit(a)
		}
		w.via = append(w.via, layer)
		w.run(w.childScope(sc, nil, false), argv, nil, nil, nil, true, false)
		w.via = w.via[:len(w.via)-1]
	}
	for _, e := range r.Effects {
		if e.To != "" && e.Path != "" {
			// A move, judged as mv's: the tree moves, links and all.
			w.via = append(w.via, Step{Kind: e.Via, Argv: carrier})
			w.emit(&Cmd{Argv: []word.Word{word.FromLit("mv"), word.FromLit("--"), word.FromLit(e.Path), word.FromLit(e.To)}, CodeArg: -1})
			w.via = w.via[:len(w.via)-1]
			continue
		}
		t := word.FromLit(e.Path)
		if e.Path == "" {
			t = word.UnknownData("(a path known only when the Python code runs)")
		}
		op := "<"
		if e.Write {
			op = ">"
		}
		w.via = append(w.via, Step{Kind: e.Via, Argv: carrier})
		w.emit(&Cmd{Redirs: []Redir{{Op: op, Target: t}}, CodeArg: -1})
		w.via = w.via[:len(w.via)-1]
	}
	if len(r.Asks) > 0 {
		why := strings.Join(r.Asks[:min(len(r.Asks), 3)], "; ")
		if len(r.Asks) > 3 {
			why += "; …"
		}
		asks = append(asks, "the Python code "+why)
	}
	if len(asks) > 0 && !direct {
		w.emit(&Cmd{Argv: cmd.Argv, Assigns: cmd.Assigns, Opaque: strings.Join(asks, "; "), CodeArg: codeArg})
	}
	return true, ""
}

// pyArgv is sys.argv as cmd gives it: the script (-c for code, "" for a
// module, whose path python puts there), then the words after the one at
// codeArg; nil when a word is not known here, or where they start.
func pyArgv(cmd *Cmd, ps pySource, codeArg int) []string {
	if codeArg < 0 || codeArg >= len(cmd.Argv) {
		return nil
	}
	argv := []string{""}
	switch {
	case ps.code != nil && ps.inline:
		argv[0] = "-c"
	case ps.code != nil:
		return nil // code on standard input: "-", or nothing
	case ps.file != "":
		argv[0] = ps.file
	}
	for _, a := range cmd.Argv[codeArg+1:] {
		s, ok := a.Static()
		if !ok {
			return nil
		}
		argv = append(argv, s)
	}
	return argv
}

// pyShadows reports the directories python searches before the standard
// library as files the part was judged by (Result.Shadows).
func (w *walker) pyShadows(r *pycode.Result, cmd *Cmd) {
	if w.opts.ScriptRead == nil {
		return
	}
	for _, d := range r.Shadows {
		w.opts.ScriptRead(FileRead{Path: d, Modules: r.Shadowing, AnyModule: r.AnyName[d],
			What: "runs Python, which imports modules by name from " + d + " before the standard library"}, cmd)
	}
}

// absent reports whether nothing is at path (not even a dangling link).
func absent(path string) bool {
	_, err := os.Lstat(path)
	return errors.Is(err, fs.ErrNotExist)
}

// pyVar is a variable's value for a python command: its own assignment,
// one made earlier in the text, or the real environment's.
func (w *walker) pyVar(sc *scope, cmd *Cmd, name string) (word.Word, bool) {
	for i := len(cmd.Assigns) - 1; i >= 0; i-- {
		if cmd.Assigns[i].Name == name {
			return cmd.Assigns[i].Value, true
		}
	}
	if v, ok := sc.vars.lookup(name); ok {
		if v.unset {
			return word.Word{}, false
		}
		if v.unknown {
			return word.Unknown("$" + name), true
		}
		return v.val, true
	}
	if sc.havoc {
		return word.Unknown("$" + name), true
	}
	if v := w.getenv(name); v != "" {
		return word.FromLit(v), true
	}
	return word.Word{}, false
}

// pythonShebang reports the interpreter of a script run by its path
// (./x.py) when its #! line names a python.
func (w *walker) pythonShebang(sc *scope, cmd *Cmd) (string, bool) {
	if w.opts.Python == nil || w.checking {
		return "", false
	}
	name, _ := cmd.Argv[0].Static()
	if !strings.Contains(name, "/") {
		return "", false
	}
	p := name
	if !filepath.IsAbs(p) {
		if len(sc.cwd.Dirs) != 1 || sc.cwd.Unknown {
			return "", false
		}
		p = physpath.Join(sc.cwd.Dirs[0], p)
	}
	p, known := w.lexical(p)
	if !known {
		return "", false
	}
	interp, ok := w.opts.Python.Shebang(p)
	if wr := sc.written[p]; wr != nil && !ok && absent(p) {
		interp, ok = pycode.ShebangOf(wr.Text) // written by the text first
	}
	if !ok || !argspec.IsPython(filepath.Base(interp)) {
		return "", false
	}
	return interp, true
}
