package argspec

import (
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/guard-exec/guard-exec/word"
)

// Code that build tools, package managers and version control carry in
// their arguments and environment. A rule (or preset) that allows such a
// program allows its ordinary use: the project's own makefile, scripts,
// tests and build files. An option or operand that hands it other code or
// another program to run makes that code a part of its own, judged like
// any command; when it cannot be read (a makefile fragment, a config file,
// a value known only at run time) the part is opaque, which asks.
//
// Each program's knowledge is one record of buildTools (carried_NAME.go
// holds an ecosystem's readers): the reader of its argv and, for one
// program of each ecosystem, of the environment variables the ecosystem
// reads. The records are the class BuildTool; the walker looks a program
// up (ReadCarried, CarriedEnv), and the readers report what they find to
// the CarrySink it implements.

// A CarrySink receives what a reader finds in one command (or one
// assignment, for CarriedEnv): the walker implements it, in the scope the
// command runs in.
type CarrySink interface {
	// Opaque reports code the program runs that the guard cannot read.
	Opaque(reason string)
	// Shell judges shell code the program runs (src, with sh -c unless
	// how says otherwise), as a layer named what.
	Shell(src, what string, how ShellRun)
	// Argv judges a command the program runs directly, as a part of its
	// own: npm exec's, go test -exec's. wrapper marks a program that only
	// runs it (npm exec), whose own argv then says nothing about paths.
	Argv(argv []word.Word, what string, wrapper bool)
	// Wrapper marks the program as one that only runs what it was told.
	Wrapper()
	// Setenv judges a variable the program sets for what it runs (rake
	// NAME=value) as an assignment in the text.
	Setenv(name string, v word.Word)
	// Assigned reports a part that sets the variable, whose path effects
	// (EnvEffects) the policy judges.
	Assigned(name string, v word.Word)
	// Assigns calls f with each assignment the command line makes for the
	// program (X=1 make).
	Assigns(f func(name string, v word.Word))
	// JudgedWhereSet reports a variable the walker judges wherever the
	// text sets it, whichever program reads it (PATH, the variables that
	// programs run as shell code or that load hidden code).
	JudgedWhereSet(name string) bool
	// Cwd is where the command runs: the directories it may be, or
	// unknown.
	Cwd() (dirs []string, unknown bool)
	// UntrustedDir finds an entry of a PATH-like value that the text or
	// the project could have filled (see shellparse's untrustedPath).
	UntrustedDir(v word.Word) (string, bool)
	// Getenv is the inherited environment.
	Getenv(name string) string
	// Glob lists the paths an absolute bash pattern (\ quotes) matches
	// now; ok is false when there is no file system to look in, or the
	// list could not be read in full.
	Glob(pattern string) (matches []string, ok bool)
}

// ShellRun says how a program runs shell code it carries.
type ShellRun struct {
	// Params are $0 and the positional parameters ("sh" when nil);
	// ParamsUnknown says more may follow that are not known here.
	Params        []string
	ParamsUnknown bool
	// Elsewhere: the code runs in a directory not known here (each
	// submodule, the package npm explore enters).
	Elsewhere bool
	// Caller: the code is read the way the calling shell reads code, not
	// in each dialect sh may be (git grep -O's and difftool -x's
	// commands, as the walker has always read them).
	Caller bool
}

// A buildTool is one record: the programs it names, the reader of their
// argv, and (for one program of an ecosystem) the reader of the variables
// the ecosystem reads, which reports whether the variable is one of them.
type buildTool struct {
	names []string
	argv  func(r *carry)
	// loader: the program loads code its options and operands name (a
	// test runner, a linter), and argv is nil. A field, not a closure,
	// so the table is made by the compiler, not at start-up.
	loader *codeLoader
	env    func(r *carry, a envVar) bool
}

// carry is one reading: the sink, and the argv read.
type carry struct {
	CarrySink
	argv []word.Word
}

// envVar is an assignment read by the environment readers.
type envVar struct {
	Name  string
	Value word.Word
}

// buildToolOf returns prog's record, or nil. The records are searched, not
// indexed, as the class lists are.
func buildToolOf(prog string) *buildTool {
	for i := range buildTools {
		if slices.Contains(buildTools[i].names, prog) {
			return &buildTools[i]
		}
	}
	return nil
}

// ReadCarried reads the code prog's argv carries, reporting it to s. It
// reports whether prog has a record (is a BuildTool); the walker asks
// Is(prog, BuildTool) first, so that other programs cost no sink.
func ReadCarried(s CarrySink, prog string, argv []word.Word) bool {
	c := buildToolOf(prog)
	if c == nil {
		return false
	}
	r := &carry{CarrySink: s, argv: argv}
	if c.loader != nil {
		r.loadedCode(c.loader)
	} else {
		c.argv(r)
	}
	return true
}

// CarriedEnv judges a variable that build tools and version control read
// as a program, as flags, or as a place to load code or configuration
// from, wherever the text sets it (VAR=x cmd, export, env VAR=x). It
// reports whether the variable is one of theirs; a blank value is unset
// in effect, and runs nothing. Each ecosystem's variables are read by its
// record, next to the rest of what it runs. (The walker reports the places
// a tool writes, EnvEffects, itself.)
func CarriedEnv(s CarrySink, name string, v word.Word) bool {
	if t, static := v.Static(); static && strings.TrimSpace(t) == "" {
		return false // unset in effect: nothing runs
	}
	r := &carry{CarrySink: s}
	a := envVar{Name: name, Value: v}
	switch a.Name {
	case "HOME", "XDG_CONFIG_HOME", "BUNDLE_APP_CONFIG", "DOCKER_CONFIG":
		// Where programs read their configuration: git's hooks and
		// helpers, go's env file, npm's script shell, bundler's Gemfile,
		// docker's CLI plugins (the red team ran a witness through each).
		r.untrustedLocation(a, "programs read their configuration, which can name programs to run")
		return true
	case "BROWSER":
		r.program(a.Value, "BROWSER (the program cargo doc --open, python's webbrowser and xdg-open run)")
		return true
	}
	if buildProgramVar(a.Name) {
		r.program(a.Value, a.Name+" (the program build tools run as "+a.Name+")")
		return true
	}
	for i := range buildTools {
		if env := buildTools[i].env; env != nil && env(r, a) {
			return true
		}
	}
	return false
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

// name is the program's name, as the loaders' reasons give it.
func (r *carry) name() string {
	if len(r.argv) == 0 {
		return ""
	}
	s, _ := r.argv[0].Static()
	return ProgName(s)
}

// shell judges shell code the program runs with sh -c.
func (r *carry) shell(v word.Word, what string) { r.shellRun(v, what, ShellRun{}) }

// shellRun judges shell code the program runs as how says.
func (r *carry) shellRun(v word.Word, what string, how ShellRun) {
	t, ok := v.Static()
	if !ok {
		r.Opaque(what + " is a command not known here")
		return
	}
	if strings.TrimSpace(t) == "" {
		return
	}
	r.Shell(t, what, how)
}

// program judges a program named by an option's value, split at blanks
// into a program and its arguments (go -exec 'prog args', cargo's
// runner). The words the tool adds after them (the binary to run, the
// object files) are the tool's own products and are left out, so that a
// rule for the program decides.
func (r *carry) program(v word.Word, what string) {
	t, ok := v.Static()
	if !ok {
		r.Opaque(what + " names a program not known here")
		return
	}
	fields := strings.Fields(t)
	if len(fields) == 0 {
		return
	}
	r.Argv(word.Lits(fields...), what, false)
}

// shellLike reports a program that reads -c code as bash or sh does, so
// that a tool told to run its scripts with it runs them as judged.
func shellLike(v word.Word) bool {
	t, ok := v.Static()
	if !ok || strings.ContainsAny(t, " \t") {
		return false
	}
	return ShellGrammars(path.Base(t)) != nil
}

// outside reports a directory or file operand that may lie outside the
// working directory: not known here, from home, climbing out with "..",
// or absolute and not under the directory the command runs in. The
// project's makefile, package.json or Cargo.toml is its own; another
// directory's is not.
func (r *carry) outside(v word.Word) bool {
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
	dirs, unknown := r.Cwd()
	if unknown || len(dirs) == 0 {
		return true
	}
	for _, d := range dirs {
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

// assignName reads NAME=value (and make's NAME:=, +=, ?=, !=).
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

// optionValue is an option's value: the one attached to it (val, when
// hasVal), or else the next word of args, which it takes (advancing *i);
// ok is false when args end before it.
func optionValue(args []word.Word, i *int, val string, hasVal bool) (v word.Word, ok bool) {
	if hasVal {
		return word.FromLit(val), true
	}
	if *i+1 >= len(args) {
		return word.Word{}, false
	}
	*i++
	return args[*i], true
}

// untrustedLocation judges a variable naming where a tool loads its
// programs, toolchain or configuration from (GOROOT, JAVA_HOME,
// GIT_EXEC_PATH, CARGO_HOME): like a PATH entry, a directory the text or
// the project could have filled (the working directory, a temporary
// directory, a relative or unknown one) asks; other absolute places are
// trusted as the inherited PATH is.
func (r *carry) untrustedLocation(a envVar, what string) {
	if dir, bad := r.UntrustedDir(a.Value); bad {
		r.Opaque(a.Name + " is set to " + dir + ", from where " + what)
	}
}

// searchPath judges a search path (PYTHONPATH, RUBYLIB): entries in the
// working directory are the project's code, others are code from elsewhere.
func (r *carry) searchPath(a envVar, what string) {
	t, ok := a.Value.Static()
	if !ok {
		r.Opaque(a.Name + " is set to a path not known here; " + what + " from it")
		return
	}
	for _, d := range strings.Split(t, ":") {
		if d != "" && r.outside(word.FromLit(d)) {
			r.Opaque(a.Name + " includes " + d + "; " + what + " from there")
			return
		}
	}
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
	// kebab: valued and code also take the kebab-case spelling of each
	// camelCase option (kebabToo), made on first use.
	kebab bool
	once  sync.Once
	maps  [2]map[string]bool
}

// sets are the loader's valued (and code) options and its code options,
// made on first use: a guard process reads one or two programs' options.
func (l *codeLoader) sets() [2]map[string]bool {
	l.once.Do(func() {
		if l.kebab {
			l.valued, l.code = kebabToo(l.valued), kebabToo(l.code)
		}
		for i, s := range []string{l.valued + " " + l.code, l.code} {
			l.maps[i] = map[string]bool{}
			for _, f := range strings.Fields(s) {
				l.maps[i][f] = true
			}
		}
	})
	return l.maps
}

// unabbreviate is the valued option a prefix of three letters or more
// names (--python-exec, --init-h, --req): the code option among them if
// any, as the program would take it if it is unique, and refuse it if not.
func (l *codeLoader) unabbreviate(name string, valued map[string]bool) string {
	if l.exact || valued[name] || !strings.HasPrefix(name, "--") || len(name) < 5 {
		return name
	}
	l.sets() // the spellings are complete
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

// loadedCode judges what a code loader is told to load.
func (r *carry) loadedCode(l *codeLoader) {
	sets := l.sets()
	valued, code := sets[0], sets[1]
	prog := r.name()
	args := r.argv[1:]
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
			r.Opaque(prog + " with an argument not known here where an option could be")
			return
		}
		if ok && t == "--" && !operandsOnly {
			operandsOnly = true
			continue
		}
		if !operandsOnly && strings.HasPrefix(t, "@") && len(t) > 1 {
			// tsc @FILE, mypy @FILE: more options, read from a file.
			r.Opaque(prog + " " + t + " reads more options from that file")
			continue
		}
		if operandsOnly || !strings.HasPrefix(t, "-") || t == "-" {
			if l.operands && r.outside(a) {
				r.Opaque(prog + " loads " + a.String() + ", code from outside the working directory")
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
		v, ok := optionValue(args, &i, val, hasVal)
		if !ok {
			continue
		}
		if code[name] && strings.HasPrefix(strings.TrimSpace(v.Prefix()), "{") {
			// Inline configuration (jest --config='{"reporters":[…]}'):
			// it names code wherever it is.
			r.Opaque(prog + " " + name + " is inline configuration, which can name code to load")
			continue
		}
		if slices.Contains(strings.Fields(l.always), name) {
			r.Opaque(prog + " " + name + " runs " + v.String() + " as code or a program")
			continue
		}
		if code[name] && r.outside(v) {
			r.Opaque(prog + " " + name + " loads " + v.String() + ", code or configuration from outside the working directory")
		}
	}
}

// buildTools are the programs whose argv carries code, one record each:
// the class BuildTool is this table, and adding a program is adding its
// record here (with its readers and tests). The environment readers are
// asked in its order.
var buildTools = [...]buildTool{
	{names: []string{"git"}, argv: gitCarried, env: (*carry).gitEnv},
	{names: []string{"go"}, argv: goCarried, env: (*carry).goEnv},
	{names: []string{"cargo"}, argv: cargoCarried, env: (*carry).cargoEnv},
	{names: []string{"make", "gmake"}, argv: makeCarried, env: (*carry).makeEnv},
	{names: []string{"npm"}, argv: npmCarried, env: (*carry).npmEnv},
	{names: []string{"npx"}, argv: npxCarried},
	{names: []string{"yarn"}, argv: yarnCarried},
	{names: []string{"pnpm"}, argv: pnpmCarried},
	{names: []string{"jest"}, loader: jestLoader},
	{names: []string{"vitest"}, loader: vitestLoader},
	{names: []string{"mocha"}, loader: mochaLoader},
	{names: []string{"eslint"}, loader: eslintLoader},
	{names: []string{"prettier"}, loader: prettierLoader},
	{names: []string{"tsc"}, loader: tscLoader},
	{names: []string{"playwright"}, loader: playwrightLoader},
	{names: []string{"pip", "pip3"}, argv: pipCarried, env: (*carry).pythonEnv},
	{names: []string{"poetry"}, argv: poetryCarried},
	{names: []string{"uv"}, argv: uvCarried},
	{names: []string{"uvx"}, argv: uvxCarried},
	{names: []string{"tox"}, argv: toxCarried},
	{names: []string{"nox"}, argv: noxCarried},
	{names: []string{"coverage"}, argv: coverageCarried},
	{names: []string{"pytest", "py.test"}, loader: pytestLoader},
	{names: []string{"pylint"}, loader: pylintLoader},
	{names: []string{"mypy"}, loader: mypyLoader},
	{names: []string{"pyright"}, loader: pyrightLoader},
	{names: []string{"flake8"}, loader: flake8Loader},
	{names: []string{"mvn", "mvnw"}, argv: mvnCarried, env: (*carry).jvmEnv},
	{names: []string{"gradle", "gradlew"}, argv: gradleCarried},
	{names: []string{"bundle"}, argv: bundleCarried, env: (*carry).rubyEnv},
	{names: []string{"rake"}, argv: rakeCarried},
	{names: []string{"rspec"}, loader: rspecLoader},
	{names: []string{"rubocop"}, loader: rubocopLoader},
	{names: []string{"docker"}, argv: dockerCarried, env: (*carry).dockerEnv},
}
