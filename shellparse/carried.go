package shellparse

import (
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/guard-exec/guard-exec/argspec"
	"github.com/guard-exec/guard-exec/word"
)

// Code that build tools, package managers and version control carry in
// their arguments. A rule (or preset) that allows such a program allows
// its ordinary use: the project's own makefile, scripts, tests and build
// files. An option or operand that hands it other code or another program
// to run makes that code a part of its own, judged like any command; when
// it cannot be read (a makefile fragment, a config file, a value known
// only at run time) the part is opaque, which asks.
//
// Each ecosystem's knowledge is in one file, carried_NAME.go: a reader of
// each program's argv (listed in carrier) and of the environment variables
// it reads (called from carriedEnv). Issue 10 moves this into the program
// catalogue.

// carrier returns the reader of the code a program's argv carries, or
// nil. (A switch: a map would refer back to the walk it is part of.)
func carrier(prog string) func(w *walker, sc *scope, cmd *Cmd) {
	switch prog {
	case "poetry":
		return poetryCarried
	case "uv":
		return uvCarried
	case "uvx":
		return uvxCarried
	case "tox":
		return toxCarried
	case "nox":
		return noxCarried
	case "coverage":
		return coverageCarried
	case "mvn", "mvnw":
		return mvnCarried
	case "gradle", "gradlew":
		return gradleCarried
	case "bundle":
		return bundleCarried
	case "rake":
		return rakeCarried
	case "rspec":
		return func(w *walker, sc *scope, cmd *Cmd) { w.loadedCode(sc, cmd, rspecLoader) }
	case "rubocop":
		return func(w *walker, sc *scope, cmd *Cmd) { w.loadedCode(sc, cmd, rubocopLoader) }
	case "pytest", "py.test":
		return func(w *walker, sc *scope, cmd *Cmd) { w.loadedCode(sc, cmd, pytestLoader) }
	case "pylint":
		return func(w *walker, sc *scope, cmd *Cmd) { w.loadedCode(sc, cmd, pylintLoader) }
	case "mypy":
		return func(w *walker, sc *scope, cmd *Cmd) { w.loadedCode(sc, cmd, mypyLoader) }
	case "pyright":
		return func(w *walker, sc *scope, cmd *Cmd) { w.loadedCode(sc, cmd, pyrightLoader) }
	case "flake8":
		return func(w *walker, sc *scope, cmd *Cmd) { w.loadedCode(sc, cmd, flake8Loader) }
	case "pip", "pip3":
		return pipCarried
	}
	return nil
}

// opaquePart reports code the program runs that the guard cannot read.
func (w *walker) opaquePart(cmd *Cmd, reason string) {
	w.emit(&Cmd{Argv: cmd.Argv, Assigns: cmd.Assigns, Opaque: reason, CodeArg: -1})
}

// carriedShell judges shell code the program runs with sh -c.
func (w *walker) carriedShell(sc *scope, cmd *Cmd, v word.Word, what string) {
	t, ok := v.Static()
	if !ok {
		w.opaquePart(cmd, what+" is a command not known here")
		return
	}
	if strings.TrimSpace(t) == "" {
		return
	}
	w.codeFor(w.childScope(sc, []string{"sh"}, false), "sh", t, Layer{Kind: what, Argv: word.Strings(cmd.Argv)})
}

// carriedArgv judges a command the program runs directly, as a part of
// its own: npm exec's, go test -exec's. wrapper marks a program that only
// runs it (npm exec), whose own argv then says nothing about paths.
func (w *walker) carriedArgv(sc *scope, cmd *Cmd, argv []word.Word, what string, wrapper bool) {
	if len(argv) == 0 {
		return
	}
	if wrapper {
		cmd.Wrapper = true
	}
	w.via = append(w.via, Layer{Kind: what, Argv: word.Strings(cmd.Argv)})
	w.run(sc, argv, cmd.Assigns, nil, cmd.Stdin, true, false)
	w.via = w.via[:len(w.via)-1]
}

// carriedProgram judges a program named by an option's value, split at
// blanks into a program and its arguments (go -exec 'prog args', cargo's
// runner). The words the tool adds after them (the binary to run, the
// object files) are the tool's own products and are left out, so that a
// rule for the program decides.
func (w *walker) carriedProgram(sc *scope, cmd *Cmd, v word.Word, what string) {
	t, ok := v.Static()
	if !ok {
		w.opaquePart(cmd, what+" names a program not known here")
		return
	}
	fields := strings.Fields(t)
	if len(fields) == 0 {
		return
	}
	argv := word.Lits(fields...)
	w.carriedArgv(sc, cmd, argv, what, false)
}

// shellLike reports a program that reads -c code as bash or sh does, so
// that a tool told to run its scripts with it runs them as judged.
func shellLike(v word.Word) bool {
	t, ok := v.Static()
	if !ok || strings.ContainsAny(t, " \t") {
		return false
	}
	return shells(path.Base(t))
}

// outsideDir reports a directory or file operand that may lie outside the
// working directory: not known here, from home, climbing out with "..",
// or absolute and not under the directory the command runs in. The
// project's makefile, package.json or Cargo.toml is its own; another
// directory's is not.
func outsideDir(sc *scope, v word.Word) bool {
	t, ok := pathText(v)
	if !ok || strings.HasPrefix(t, "~") {
		return true
	}
	for _, seg := range strings.Split(t, "/") {
		if seg == ".." {
			return true
		}
	}
	if !strings.HasPrefix(t, "/") {
		return false
	}
	if sc.cwd.Unknown || len(sc.cwd.Dirs) == 0 {
		return true
	}
	for _, d := range sc.cwd.Dirs {
		if d == "/" || !(t == d || strings.HasPrefix(t, d+"/")) {
			return true
		}
	}
	return false
}

// pathText is a word's text when it is literal or a glob with nothing
// known only at run time (tests/*.py, .[dev]): a glob matches names in the
// directory its literal part names, never "..", so the text says where it
// points.
func pathText(v word.Word) (string, bool) {
	if t, ok := v.Static(); ok {
		return t, true
	}
	for _, s := range v.Segs {
		if s.Kind == word.Hole || s.Kind == word.Digits {
			return "", false
		}
	}
	return v.String(), true
}

// isAssignWord reports NAME=value (and make's NAME:=, +=, ?=, !=).
func assignName(t string) (name, op, value string, ok bool) {
	eq := strings.IndexByte(t, '=')
	if eq <= 0 {
		return "", "", "", false
	}
	name, op = t[:eq], "="
	for _, o := range []string{":::", "::", ":", "+", "?", "!"} {
		if strings.HasSuffix(name, o) {
			name, op = strings.TrimSuffix(name, o), o+"="
			break
		}
	}
	name = strings.TrimSpace(name)
	if name == "" || strings.ContainsAny(name, " \t") {
		return "", "", "", false
	}
	return name, op, t[eq+1:], true
}

// carriedEnv judges a variable that build tools and version control read
// as a program, as flags, or as a place to load code or configuration
// from, wherever the text sets it (argspec.CarriedEnv).
func (w *walker) carriedEnv(sc *scope, a Assign) bool {
	t, static := a.Value.Static()
	if static && strings.TrimSpace(t) == "" {
		return false // unset in effect: nothing runs
	}
	cmd := &Cmd{Assigns: []Assign{a}, CodeArg: -1}
	if len(argspec.EnvEffects(a.Name, a.Value)) > 0 {
		// A place a tool writes: reported wherever it is set, as a part
		// whose effects the policy judges (GOCACHE=/etc; go build).
		w.emit(&Cmd{Assigns: []Assign{a}, CodeArg: -1})
	}
	if argspec.CarriedEnv(&carrySink{w: w, sc: sc, cmd: cmd}, a.Name, a.Value) {
		return true
	}
	return w.pythonEnv(sc, cmd, a) || w.jvmEnv(sc, cmd, a) || w.rubyEnv(sc, cmd, a)
}

// buildProgramVar are the variables build systems (make's implicit
// rules, configure, go's cgo, cargo's cc crate, pip builds) run as the
// compiler, linker or archiver.
func buildProgramVar(name string) bool {
	switch name {
	case "CC", "CXX", "CPP", "LD", "AR", "AS", "FC", "F77", "RANLIB", "NM", "STRIP", "OBJCOPY", "GCCGO", "PKG_CONFIG",
		"HOST_CC", "TARGET_CC", "CC_LD", "CXX_LD":
		return true
	}
	return false
}

// codeLoader describes a tool that loads code named in its arguments:
// test runners and linters load test files, plugins, config files that
// are code (jest.config.js, .rubocop.yml's require) and setup scripts.
// The project's own are ordinary; those outside the working directory are
// code the command line brought in.
type codeLoader struct {
	valued   string // options that take a value (attached or the next word)
	code     string // of those, the ones whose value names code or config to load
	operands bool   // the operands are test files or directories, loaded as code
	// always: of the valued options, those whose value is code or names
	// a program wherever it is (pylint --init-hook, mypy
	// --python-executable, jest --transform's JSON of modules).
	always string
	// exact: the program takes no abbreviation of a long option (pytest;
	// argparse, optparse and Ruby's OptionParser take any unique prefix).
	exact bool
	sets  func() [2]map[string]bool
}

// exactNames marks a loader whose program takes long options only whole.
func (l *codeLoader) exactNames() *codeLoader {
	l.exact = true
	return l
}

// unabbreviate is the valued option a prefix of three letters or more
// names (--python-exec, --init-h, --req): the code option among them if
// any, as the program would take it if it is unique, and refuse it if not.
func (l *codeLoader) unabbreviate(name string, valued map[string]bool) string {
	if l.exact || valued[name] || !strings.HasPrefix(name, "--") || len(name) < 5 {
		return name
	}
	found := ""
	for _, o := range strings.Fields(l.valued + " " + l.code + " " + l.always) {
		if strings.HasPrefix(o, name) && strings.HasPrefix(o, "--") {
			if found == "" || strings.Contains(" "+l.code+" "+l.always+" ", " "+o+" ") {
				found = o
			}
		}
	}
	if found == "" {
		return name
	}
	return found
}

// alwaysCode sets a loader's always options.
func (l *codeLoader) alwaysCode(opts string) *codeLoader {
	l.always = opts
	return l
}

func newLoader(valued, code string, operands bool) *codeLoader {
	l := &codeLoader{valued: valued, code: code, operands: operands}
	l.sets = sync.OnceValue(func() [2]map[string]bool {
		var m [2]map[string]bool
		for i, s := range []string{valued + " " + code, code} {
			m[i] = map[string]bool{}
			for _, f := range strings.Fields(s) {
				m[i][f] = true
			}
		}
		return m
	})
	return l
}

// loadedCode judges what a code loader is told to load.
func (w *walker) loadedCode(sc *scope, cmd *Cmd, l *codeLoader) {
	sets := l.sets()
	valued, code := sets[0], sets[1]
	prog := argspec.ProgName(cmd.Name())
	args := cmd.Argv[1:]
	operandsOnly := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		t, ok := a.Static()
		if !ok {
			if g, isGlob := pathText(a); isGlob {
				t, ok = g, true
			}
		}
		if !ok && !operandsOnly && a.CouldStartWith('-') {
			w.opaquePart(cmd, prog+" with an argument not known here where an option could be")
			return
		}
		if ok && t == "--" && !operandsOnly {
			operandsOnly = true
			continue
		}
		if !operandsOnly && strings.HasPrefix(t, "@") && len(t) > 1 {
			// tsc @FILE, mypy @FILE: more options, read from a file.
			w.opaquePart(cmd, prog+" "+t+" reads more options from that file")
			continue
		}
		if operandsOnly || !strings.HasPrefix(t, "-") || t == "-" {
			if l.operands && outsideDir(sc, a) {
				w.opaquePart(cmd, prog+" loads "+a.String()+", code from outside the working directory")
			}
			continue
		}
		name, val, hasVal := strings.Cut(t, "=")
		if !strings.HasPrefix(t, "--") && len(t) > 2 && valued[t[:2]] {
			name, val, hasVal = t[:2], t[2:], true
		}
		name = l.unabbreviate(name, valued)
		if !valued[name] {
			continue
		}
		v := word.FromLit(val)
		if !hasVal {
			if i+1 >= len(args) {
				continue
			}
			i++
			v = args[i]
		}
		if code[name] && strings.HasPrefix(strings.TrimSpace(v.Prefix()), "{") {
			// Inline configuration (jest --config='{"reporters":[…]}'):
			// it names code wherever it is.
			w.opaquePart(cmd, prog+" "+name+" is inline configuration, which can name code to load")
			continue
		}
		if slices.Contains(strings.Fields(l.always), name) {
			w.opaquePart(cmd, prog+" "+name+" runs "+v.String()+" as code or a program")
			continue
		}
		if code[name] && outsideDir(sc, v) {
			w.opaquePart(cmd, prog+" "+name+" loads "+v.String()+", code or configuration from outside the working directory")
		}
	}
}

// untrustedLocation judges a variable naming where a tool loads its
// programs, toolchain or configuration from (GOROOT, JAVA_HOME,
// GIT_EXEC_PATH, CARGO_HOME): like a PATH entry, a directory the text or
// the project could have filled (the working directory, a temporary
// directory, a relative or unknown one) asks; other absolute places are
// trusted as the inherited PATH is.
func (w *walker) untrustedLocation(sc *scope, cmd *Cmd, a Assign, what string) {
	if dir, bad := w.untrustedPath(sc, a.Value); bad {
		w.opaquePart(cmd, a.Name+" is set to "+dir+", from where "+what)
	}
}

// searchPath judges a search path (PYTHONPATH, RUBYLIB): entries in the
// working directory are the project's code, others are code from elsewhere.
func (w *walker) searchPath(sc *scope, cmd *Cmd, a Assign, what string) {
	t, ok := a.Value.Static()
	if !ok {
		w.opaquePart(cmd, a.Name+" is set to a path not known here; "+what+" from it")
		return
	}
	for _, d := range strings.Split(t, ":") {
		if d != "" && outsideDir(sc, word.FromLit(d)) {
			w.opaquePart(cmd, a.Name+" includes "+d+"; "+what+" from there")
			return
		}
	}
}

// carrySink is what argspec's readers of carried code report to, for one
// command (or one assignment) in scope sc.
type carrySink struct {
	w   *walker
	sc  *scope
	cmd *Cmd
}

func (k *carrySink) Opaque(reason string) { k.w.opaquePart(k.cmd, reason) }

func (k *carrySink) Shell(src, what string, how argspec.ShellRun) {
	sc := k.sc
	if how.Elsewhere {
		sc = sc.clone()
		sc.cwd = Cwd{Unknown: true}
	}
	params := how.Params
	if params == nil {
		params = []string{"sh"}
	}
	child := k.w.childScope(sc, params, how.ParamsUnknown)
	layer := Layer{Kind: what, Argv: word.Strings(k.cmd.Argv)}
	if how.Caller {
		k.w.code(child, src, layer)
		return
	}
	k.w.codeFor(child, "sh", src, layer)
}

func (k *carrySink) Argv(argv []word.Word, what string, wrapper bool) {
	k.w.carriedArgv(k.sc, k.cmd, argv, what, wrapper)
}

func (k *carrySink) Wrapper() { k.cmd.Wrapper = true }

func (k *carrySink) Setenv(name string, v word.Word) {
	k.w.checkAssigns(k.sc, []Assign{{Name: name, Value: v}}, false)
}

func (k *carrySink) Assigned(name string, v word.Word) {
	k.w.emit(&Cmd{Assigns: []Assign{{Name: name, Value: v}}, CodeArg: -1})
}

func (k *carrySink) Assigns(f func(name string, v word.Word)) {
	for _, a := range k.cmd.Assigns {
		f(a.Name, a.Value)
	}
}

func (k *carrySink) JudgedWhereSet(name string) bool {
	return name == "PATH" || codeVars(name) != "" || hiddenCodeVars(name) != ""
}

func (k *carrySink) Cwd() ([]string, bool) { return k.sc.cwd.Dirs, k.sc.cwd.Unknown }

func (k *carrySink) UntrustedDir(v word.Word) (string, bool) { return k.w.untrustedPath(k.sc, v) }

func (k *carrySink) Getenv(name string) string { return k.w.getenv(name) }

func (k *carrySink) Glob(pattern string) ([]string, bool) {
	if k.w.opts.Glob == nil {
		return nil, false
	}
	return k.w.opts.Glob(pattern), true
}
