// Package pycode judges Python code by its content, read with the
// interpreter the command would run.
//
// Contract: [Analyser.Analyse] takes Python source (inline -c code, code
// fed on standard input, a script file, or a -m module of the project)
// and the interpreter the command names. It finds that interpreter the
// way execvp would (the guard's PATH), refuses one that lives in the
// working directory or a temporary directory (running it would run
// unjudged code), and starts it isolated (-I -S: no PYTHON* variables,
// no site, no user site, in /, in its own session, killed after a
// timeout) with a small program that only calls ast.parse on the code —
// nothing of the code is compiled or run — and prints facts as JSON:
// imports, names and dotted attribute chains, calls with their literal
// arguments, class keywords, subscript stores. So the guard and Python
// cannot read the code differently.
//
// All security judgement is made here, in Go, from those facts, and it
// is conservative. Code is allowed when it only computes, prints and
// reads: it imports only modules of the reviewed table (modules.go, each
// with what it may not do) that are the interpreter's standard library
// and that no file of the project shadows, or project modules that are
// themselves allowed (followed to a bound); open(), pathlib calls and the
// os and shutil functions that change or copy one file (pathCalls), with
// literal paths, become read and write effects the path rules judge; a
// write to a path known only at run time is asked about. Literal
// commands (subprocess.run([...]), os.system("…"), shell=True) become
// commands the walker judges; urlopen of a literal URL becomes the curl
// request it equals. Everything else is a question with a precise reason
// ("imports shutil", "uses getattr with a name built at run time").
// Code that cannot be read (no interpreter, a syntax error, a timeout, a
// file that cannot be read) is reported Unread: the part stays opaque.
//
// The facts of one text are cached in memory for the life of an
// Analyser and, with CacheDir, on disk under a hash of the interpreter
// (path, resolved file, its time and size), the analysis program and the
// text; the judgement is made again from them each time.
package pycode

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/guard-exec/guard-exec/argspec"
)

// Analyser reads Python code. Its zero value works; set Getenv so that
// interpreters are found on the guard's PATH.
type Analyser struct {
	Getenv func(string) string // the guard's environment (PATH)
	// Environ gives the interpreter's environment (nil: the guard's). It
	// is called only when an interpreter is started, so that what it costs
	// falls on the commands that run Python alone.
	Environ func() []string
	// Untrusted are directories an interpreter must not live in, besides
	// the working directory (the project root, temporary directories).
	Untrusted []string
	Timeout   time.Duration // of one parse (0: 2 s)
	MaxFiles  int           // project modules followed (0: 50)
	MaxDepth  int           // import depth followed (0: 3)
	// CacheDir, when set, keeps the facts of texts read for later
	// processes (keyed by interpreter and text; see diskKey).
	CacheDir string

	mu    sync.Mutex
	cache map[string]*facts
}

// Source is code to judge and where it runs.
type Source struct {
	Interp string // the interpreter as the command names it (python3, .venv/bin/python)
	Code   string // the code, when it is given as text
	// Inline: Code is a -c argument, which python reads as text (a
	// coding line means nothing); otherwise it is bytes, as on stdin.
	Inline bool
	File   string // or: the script's absolute path (with Code: its content, written by the command before it runs)
	Module string // or: -m MODULE
	Dir    string // the working directory (absolute); "" when not known
	// PathDirs are PYTHONPATH's directories (absolute), searched after
	// the script's own directory.
	PathDirs []string
	// Argv is sys.argv as the command gives it, when every word of it is
	// known ("" where one is not: -m's module path); nil otherwise.
	Argv []string
}

// Result is what the code does, as far as the guard judges it.
type Result struct {
	Commands []Command
	Effects  []Effect
	// Asks are the reasons the code is not allowed as it is; none means
	// it only computes, prints and reads (and runs Commands).
	Asks []string
	// Unread says why the code could not be read at all.
	Unread string
	// NotLocal: Module is not a module of the project (pytest, pip…):
	// judge python -m MODULE as the program it names.
	NotLocal bool
	// Files are the files read: the script and the project modules.
	Files []string
	// Names are where module names were looked up: DIR/NAME for each
	// directory searched. A file written at DIR/NAME.py, DIR/NAME.*.so,
	// DIR/NAME/… or DIR/__pycache__/NAME.* would change what the code
	// imports, so a caller must know nothing writes there first.
	Names  []string
	looked map[string]bool
	// Shadows are the directories python looks in before the standard
	// library (the script's, PYTHONPATH's), where a file of a module
	// python may import by name (Shadowing, or with AnyName any) would
	// take that module's place: nothing may write one there first.
	Shadows   []string
	Shadowing map[string]bool
	AnyName   map[string]bool // of Shadows, those where any name counts
}

// Command is a command the code runs.
type Command struct {
	Argv  []string // a program and its arguments (subprocess with a list)
	Shell string   // or: code for /bin/sh -c (os.system, shell=True)
	Args  []string // with Shell: $0, $1, …
	Via   string   // "python subprocess", "python os.system", "python urllib"
	Line  int
}

// Effect is a file the code reads or writes.
type Effect struct {
	Path  string // as written (relative to the working directory); "" when known only at run time
	Write bool
	// To: Path is moved there (Path.rename, Path.replace), the whole tree
	// under it when it is a directory, links and all, as mv moves it.
	To   string
	Via  string
	Line int
}

// Analyse judges src.
func (a *Analyser) Analyse(src Source) *Result {
	res := &Result{}
	if src.Module != "" && src.Dir == "" {
		// Where python looks first is not known: judged as the program
		// the module names, as without the analysis.
		res.NotLocal = true
		return res
	}
	if src.Dir == "" {
		res.Unread = "the working directory is not known here, and Python imports from it"
		return res
	}
	if src.Module != "" {
		probe := &state{shared: &shared{}, dirs: append([]string{src.Dir}, src.PathDirs...)}
		if _, kind := probe.moduleFiles(src.Module, true); kind == notFound {
			res.NotLocal = true
			a.moduleShadows(src, res)
			return res
		}
	}
	interp, err := a.Interpreter(src.Interp, src.Dir)
	if err != nil {
		res.Unread = err.Error()
		return res
	}
	st := &state{a: a, interp: interp, res: res, visited: map[string]bool{}, asked: map[string]bool{},
		exports: map[string]map[string][]binding{}, argv: src.Argv, shared: &shared{}}
	code, file := src.Code, ""
	switch {
	case src.Module != "":
		st.dirs = append([]string{src.Dir}, src.PathDirs...)
		files, kind := st.moduleFiles(src.Module, true)
		if kind == notFound {
			res.NotLocal = true
			return res
		}
		if kind == compiled {
			res.Unread = "the module " + src.Module + " is compiled code in the project"
			return res
		}
		if kind == namespaceTop {
			res.Unread = "the module " + src.Module + " is a directory without __init__.py, which an installed package would take the place of"
			return res
		}
		// python -m pkg runs pkg/__init__.py, then pkg/__main__.py.
		for _, f := range files[:len(files)-1] {
			st.follow(f, 1)
		}
		file = files[len(files)-1]
		// runpy imports the module's code through its loader: from its
		// compiled cache, when that is used.
		if c := uncheckedCache(file); c != "" {
			st.ask("runs the module " + src.Module + ", whose compiled cache " + st.rel(c) + " Python runs without checking it against the source (an unchecked-hash .pyc), so what runs is not what the guard read")
		}
		if !st.read(file, &code) {
			return res
		}
		if c := st.cacheDiffers(file, code); c != "" {
			st.ask("runs the module " + src.Module + ", whose compiled cache " + st.rel(c) + " holds other code than its source, and Python runs the cache (its header matches the source), so what runs is not what the guard read")
		}
	case src.File != "":
		// sys.path[0] is the directory of the script, links resolved.
		// With Code, the file is not there yet: the command writes it
		// with that content first.
		real, err := filepath.EvalSymlinks(src.File)
		if src.Code != "" {
			real, err = filepath.EvalSymlinks(filepath.Dir(src.File))
			real = filepath.Join(real, filepath.Base(src.File))
		}
		if err != nil {
			res.Unread = "cannot read " + src.File + ": " + err.Error()
			return res
		}
		st.dirs = append([]string{filepath.Dir(real)}, src.PathDirs...)
		file = src.File
		if src.Code != "" {
			res.Files = append(res.Files, file)
		} else if !st.read(file, &code) {
			return res
		}
	default:
		st.dirs = append([]string{src.Dir}, src.PathDirs...)
	}
	if file != "" {
		st.visited[file] = true
		st.main = realOrSame(file)
	}
	f, err := a.parse(interp, code, src.Inline && src.Code != "")
	if err != nil {
		res.Unread = err.Error()
		return res
	}
	st.judge(f, file, 0)
	st.shadows(f, file, src.PathDirs)
	if st.envChanged && len(res.Commands) > 0 {
		st.ask("changes the environment (os.environ) of the commands it runs")
	}
	if st.argvUsed && st.argvUnstable {
		st.ask("changes sys.argv or passes it around, so the guard cannot tell which of the command's words the code reads")
	}
	return res
}

// moduleShadows checks, for python -m of a module the project does not
// have (json.tool, venv), the directories python searches first: what
// the module imports is found there before the standard library.
func (a *Analyser) moduleShadows(src Source, res *Result) {
	interp, err := a.Interpreter(src.Interp, src.Dir)
	if err != nil {
		return // judged as the program the module names, which asks or not on its own
	}
	f, err := a.parse(interp, "", false)
	if err != nil {
		return
	}
	st := &state{a: a, interp: interp, res: res, visited: map[string]bool{}, asked: map[string]bool{},
		exports: map[string]map[string][]binding{}, dirs: append([]string{src.Dir}, src.PathDirs...),
		stdlib: map[string]bool{}, shared: &shared{}}
	for _, m := range f.Stdlib {
		st.stdlib[m] = true
	}
	st.shadows(f, "", src.PathDirs)
}

type state struct {
	rebound []string // of the file being judged: names bound other than by imports
	a       *Analyser
	interp  string
	dirs    []string
	res     *Result
	visited map[string]bool
	asked   map[string]bool
	*shared
	stdlib map[string]bool // the interpreter's standard library's top-level names
	// exports are the names each project module binds to modules.
	exports map[string]map[string][]binding
	inPkg   bool     // dirs is a package's directory (relative imports)
	argv    []string // Source.Argv
}

// shared is what the analysis of every file of one run learns about the
// whole program.
type shared struct {
	envChanged bool
	// main is the file of the code the command runs ("" for -c and
	// stdin); mainImported: a module of the project imports it, so its
	// names can be set and its functions called from there.
	main         string
	mainImported bool
	// argvUsed: a sys.argv[N] was taken as the command's word; a file
	// where sys.argv may change or be passed around makes that unsound
	// (argvUnstable).
	argvUsed, argvUnstable bool
}

// localBinding is what a name bound to a project module stands for.
func (st *state) localBinding(mod string) binding {
	b := binding{local: true}
	base := ""
	for _, d := range st.dirs {
		if st.isLocalTop(d, strings.Split(mod, ".")[0]) {
			base = d
			break
		}
	}
	if base == "" {
		return b
	}
	p := st.lookUp(filepath.Join(append([]string{base}, strings.Split(mod, ".")...)...))
	switch kind, file := locate(p); kind {
	case locPackage:
		b.file, b.pkg = file, p
	case locModule:
		b.file = file
	case locNamespace:
		b.pkg = p
	}
	return b
}

func (st *state) isLocalTop(dir, top string) bool {
	kind, _ := locate(st.lookUp(filepath.Join(dir, top)))
	return kind != locNone
}

// bindFrom binds the name of "from mod import name as as" of a project
// module: a submodule, a module the module itself imported, or a name
// it defines (whose code is judged with it).
func (st *state) bindFrom(binds map[string][]binding, m binding, in *state, mod, name, as string, line string) {
	if name == "*" {
		ex, ok := st.exports[m.file]
		if !ok && m.file != "" {
			st.ask("imports every name of the project module " + mod + ", which the guard did not follow" + line)
		}
		for k, bs := range ex {
			binds[k] = append(binds[k], bs...)
		}
		return
	}
	target := firstNonEmpty(as, name)
	if sub := in.localBinding(mod + "." + name); sub.file != "" || sub.pkg != "" {
		binds[target] = append(binds[target], sub)
		return
	}
	if ex, ok := st.exports[m.file]; ok {
		if bs := ex[name]; len(bs) > 0 {
			binds[target] = append(binds[target], bs...)
			return
		}
	} else if m.file != "" {
		st.ask("imports " + name + " from the project module " + mod + ", which the guard did not follow" + line)
	}
	binds[target] = append(binds[target], binding{local: true})
}

// localChain judges a dotted name that starts at a project module: a
// module it imported is judged as that module (never followed as a
// command: the call is not where the guard reads calls).
func (st *state) localChain(b binding, rest []string, ctx string, line, depth int) {
	at := fmt.Sprintf(" (line %d)", line)
	if b.file == "" && b.pkg == "" {
		return // a function, class or value the project defines
	}
	if len(rest) == 0 {
		st.ask("passes a project module around, so the guard cannot follow what is used of it" + at)
		return
	}
	if depth > 8 {
		st.ask("reaches too deep through project modules" + at)
		return
	}
	name := rest[0]
	if b.file != "" {
		ex, ok := st.exports[b.file]
		if !ok {
			st.ask("reaches into the project module " + st.rel(b.file) + ", which the guard did not follow" + at)
			return
		}
		if bs := ex[name]; len(bs) > 0 {
			for _, x := range bs {
				if x.local {
					st.localChain(x, rest[1:], ctx, line, depth+1)
				} else {
					st.chain(append(strings.Split(x.dotted, "."), rest[1:]...), false, ctx, line)
				}
			}
			return
		}
	}
	if b.pkg != "" {
		p := st.lookUp(filepath.Join(b.pkg, name))
		sub := binding{local: true}
		switch kind, file := locate(p); kind {
		case locPackage:
			sub.file, sub.pkg = file, p
		case locModule:
			sub.file = file
		case locNamespace:
			sub.pkg = p
		case locCompiled:
			st.ask("reaches the project module " + st.rel(file) + ", which is compiled code the guard cannot read" + at)
			return
		}
		if sub.file != "" || sub.pkg != "" {
			if sub.file != "" && !st.visited[sub.file] {
				st.follow(sub.file, 1)
			}
			st.localChain(sub, rest[1:], ctx, line, depth+1)
		}
	}
}

// neverImported are standard-library names that nothing imports when code
// runs (test suites, demos, tools): a project's test.py shadows nothing.
var neverImported = map[string]bool{"test": true, "idlelib": true, "turtledemo": true, "this": true,
	"antigravity": true, "__phello__": true, "__hello__": true, "lib2to3": true, "ensurepip": true,
	"venv": true, "pydoc_data": true, "__main__": true}

// stdlibImportsOutside are the modules outside the standard library that
// standard modules import when they are found (an optional dependency, or
// another platform's module): zoneinfo takes its zones from tzdata,
// copy, pickle and xml.sax look for Jython's org.python.core, platform
// for java and vms_lib, logging.handlers for win32evtlog. Found in the
// directories python searches first, each runs (a red team's tzdata/ beside
// a script that only called zoneinfo). From scanning CPython 3.11's Lib
// for imports of names not in sys.stdlib_module_names, and its
// importlib.resources look-ups by name.
var stdlibImportsOutside = map[string]bool{"tzdata": true, "org": true, "java": true, "vms_lib": true, "_winreg": true,
	"win32api": true, "win32con": true, "win32evtlog": true, "win32evtlogutil": true, "docutils": true}

// startupStdlibOnly are modules the site directories' .pth files import at
// start-up whose own imports are the standard library's (reviewed).
var startupStdlibOnly = map[string]bool{"_distutils_hack": true, "certifi": true, "sitecustomize": true, "usercustomize": true}

// shadows asks about files in the directories python searches before the
// standard library that take the place of a module python may import
// without the code naming it: any standard-library module (which other
// standard modules import: argparse imports gettext), and, in PYTHONPATH's
// directories, what python imports at start-up (sitecustomize, what .pth
// files import; any name, when those import modules not reviewed).
func (st *state) shadows(f *facts, script string, pathDirs []string) {
	names := map[string]bool{}
	for m := range st.stdlib {
		if !neverImported[m] {
			names[m] = true
		}
	}
	for m := range stdlibImportsOutside {
		names[m] = true
	}
	startup, anyStartup := map[string]bool{}, f.Startup == nil
	for _, n := range f.Startup {
		startup[n] = true
		if !st.stdlib[n] && !startupStdlibOnly[n] {
			anyStartup = true
		}
	}
	st.res.Shadowing = names
	for _, d := range st.dirs {
		inPath := slices.Contains(pathDirs, d)
		st.res.Shadows = append(st.res.Shadows, d)
		if inPath {
			for n := range startup {
				names[n] = true
			}
			if anyStartup {
				if st.res.AnyName == nil {
					st.res.AnyName = map[string]bool{}
				}
				st.res.AnyName[d] = true
			}
		}
		entries, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		for _, e := range entries {
			p := filepath.Join(d, e.Name())
			mod, ok := moduleOf(p, e)
			if !ok || p == script || st.visited[p] || st.visited[filepath.Join(p, "__init__.py")] {
				continue
			}
			switch {
			case st.stdlib[mod] && !neverImported[mod]:
				st.ask("runs with " + st.rel(p) + " in the place of the standard library's " + mod + ", which python may import without the code naming it")
			case stdlibImportsOutside[mod]:
				st.ask("runs with " + st.rel(p) + ", which the standard library imports as " + mod + " when it is there (an optional dependency), without the code naming it")
			case inPath && (startup[mod] || anyStartup):
				st.ask("runs with PYTHONPATH's " + p + ", which python may import when it starts, before the code")
			}
		}
	}
}

// moduleOf is the module name a directory entry gives python: NAME.py,
// NAME.pyc, an extension module (NAME.so, NAME.TAG.so, NAME.pyd), or a
// package directory NAME/ with an __init__ of any of those suffixes
// (json/__init__.pyc is the package json as much as json/__init__.py).
func moduleOf(p string, e os.DirEntry) (string, bool) {
	name := e.Name()
	if e.IsDir() {
		kind, _ := locate(p)
		return name, kind == locPackage || kind == locCompiled
	}
	mod, ext, ok := strings.Cut(name, ".")
	if !ok || mod == "" {
		return "", false
	}
	return mod, ext == "py" || ext == "pyc" || ext == "pyd" || ext == "so" || strings.HasSuffix(ext, ".so")
}

// locKind is what one directory holds under a module name.
type locKind int

const (
	locNone      locKind = iota
	locPackage           // DIR/NAME/__init__.py
	locModule            // DIR/NAME.py
	locCompiled          // compiled code python takes first: the guard cannot read it
	locNamespace         // a directory with no __init__ (a namespace package portion)
)

// locate finds the module NAME at stem (DIR/NAME) as importlib's
// FileFinder does within one sys.path entry: a directory NAME/ with
// __init__ and a suffix, in the loaders' order (extension modules, .py,
// .pyc), then NAME with a suffix in the same order, then a namespace
// directory. What wins decides: helper/__init__.pyc beside helper.py is
// the package, and compiled, whatever helper.py holds; json/__init__.py
// beside json.so is the package. The file found is returned (for
// compiled code, the first compiled file that wins).
func locate(stem string) (locKind, string) {
	dir := isDir(stem)
	if dir {
		init := filepath.Join(stem, "__init__")
		if f := extensionOf(init); f != "" {
			return locCompiled, f
		}
		if fileExists(init + ".py") {
			return locPackage, init + ".py"
		}
		if fileExists(init + ".pyc") {
			return locCompiled, init + ".pyc"
		}
	}
	if f := extensionOf(stem); f != "" {
		return locCompiled, f
	}
	if fileExists(stem + ".py") {
		return locModule, stem + ".py"
	}
	if fileExists(stem + ".pyc") {
		return locCompiled, stem + ".pyc"
	}
	if dir {
		return locNamespace, stem
	}
	return locNone, ""
}

// extensionOf returns an extension module's file at stem: stem.so,
// stem.TAG.so (any tag, which takes in every one python accepts:
// .cpython-311-x86_64-linux-gnu.so, .abi3.so) or stem.pyd. The directory
// is listed rather than globbed: a stem may hold glob's metacharacters.
func extensionOf(stem string) string {
	d, base := filepath.Dir(stem), filepath.Base(stem)
	entries, err := os.ReadDir(d)
	if err != nil {
		return ""
	}
	for _, e := range entries {
		n := e.Name()
		rest, ok := strings.CutPrefix(n, base+".")
		if !ok || !(rest == "so" || rest == "pyd" || strings.HasSuffix(rest, ".so")) {
			continue
		}
		if p := filepath.Join(d, n); fileExists(p) {
			return p
		}
	}
	return ""
}

// lookUp notes that a module name is looked up at p (Result.Names) and
// returns p.
func (st *state) lookUp(p string) string {
	if st.res == nil {
		return p // a probe
	}
	if st.res.looked == nil {
		st.res.looked = map[string]bool{}
	}
	if !st.res.looked[p] {
		st.res.looked[p] = true
		st.res.Names = append(st.res.Names, p)
	}
	return p
}

// pycacheOf notes where python keeps a module file's compiled code, which
// it imports instead of the source when the code's header matches it.
func (st *state) pycacheOf(file string) {
	name := strings.TrimSuffix(filepath.Base(file), ".py")
	st.lookUp(filepath.Join(filepath.Dir(file), "__pycache__", name))
}

func (st *state) ask(why string) {
	if !st.asked[why] {
		st.asked[why] = true
		st.res.Asks = append(st.res.Asks, why)
	}
}

// read reads a script; a failure leaves the code unread.
func (st *state) read(file string, into *string) bool {
	b, err := readLimited(file)
	if err != nil {
		st.res.Unread = "cannot read " + file + ": " + err.Error()
		return false
	}
	*into = b
	st.res.Files = append(st.res.Files, file)
	return true
}

func readLimited(file string) (string, error) {
	// /dev/stdin, /dev/fd/N, /proc/self/fd/N: what python has open there
	// is not what the guard has.
	for _, p := range []string{file, realOrSame(file)} {
		if argspec.ProcessFile(p) {
			return "", fmt.Errorf("it is a device or an open file of the process, which python reads as its own")
		}
	}
	fh, err := os.Open(file)
	if err != nil {
		return "", err
	}
	defer fh.Close()
	fi, err := fh.Stat()
	if err != nil {
		return "", err
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("not a regular file")
	}
	if fi.Size() > maxSource {
		return "", fmt.Errorf("larger than %d bytes, the most the guard reads", maxSource)
	}
	b, err := os.ReadFile(file)
	return string(b), err
}

func realOrSame(file string) string {
	if real, err := filepath.EvalSymlinks(file); err == nil {
		return real
	}
	return filepath.Clean(file)
}

// follow judges a project module the code imports.
func (st *state) follow(file string, depth int) {
	if st.main != "" && realOrSame(file) == st.main {
		st.mainImported = true
	}
	if st.visited[file] {
		return
	}
	maxFiles, maxDepth := st.a.MaxFiles, st.a.MaxDepth
	if maxFiles <= 0 {
		maxFiles = 50
	}
	if maxDepth <= 0 {
		maxDepth = 3
	}
	rel := st.rel(file)
	if depth > maxDepth {
		st.ask("imports the project module " + rel + ", deeper than the " + fmt.Sprint(maxDepth) + " levels of imports the guard follows")
		return
	}
	if len(st.visited) >= maxFiles {
		st.ask("imports more project modules than the " + fmt.Sprint(maxFiles) + " the guard follows")
		return
	}
	st.visited[file] = true
	st.pycacheOf(file)
	if c := uncheckedCache(file); c != "" {
		st.ask("imports the project module " + rel + ", whose compiled cache " + st.rel(c) + " Python runs without checking it against the source (an unchecked-hash .pyc), so what runs is not what the guard read")
	}
	src, err := readLimited(file)
	if err != nil {
		st.ask("imports the project module " + rel + ", which cannot be read: " + err.Error())
		return
	}
	st.res.Files = append(st.res.Files, file)
	if c := st.cacheDiffers(file, src); c != "" {
		st.ask("imports the project module " + rel + ", whose compiled cache " + st.rel(c) + " holds other code than its source, and Python imports the cache (its header matches the source), so what runs is not what the guard read")
	}
	f, err := st.a.parse(st.interp, src, false)
	if err != nil {
		st.ask("imports the project module " + rel + ": " + err.Error())
		return
	}
	st.judge(f, file, depth)
}

func (st *state) rel(file string) string {
	for _, d := range st.dirs {
		if r, err := filepath.Rel(d, file); err == nil && !strings.HasPrefix(r, "..") {
			return r
		}
	}
	return file
}

type moduleKind int

const (
	notFound moduleKind = iota
	source
	compiled
	// namespaceTop: the top-level name is a directory of the project
	// without __init__.py, which an installed package of that name
	// (invisible to the analysis) would take the place of.
	namespaceTop
)

// moduleFiles finds a module in the search directories (the script's
// directory and PYTHONPATH, which come before the standard library): the
// files importing it runs, package __init__ files first. With main, a
// package's __main__.py comes last (python -m pkg).
func (st *state) moduleFiles(mod string, main bool) ([]string, moduleKind) {
	parts := strings.Split(mod, ".")
	top := parts[0]
	// __main__ of a package, found as any module is (pkg/__main__.so,
	// pkg/__main__/__init__.pyc win over pkg/__main__.py): false when what
	// runs is not a source file the guard reads.
	mainOf := func(pkg string, files *[]string) bool {
		switch kind, f := locate(st.lookUp(filepath.Join(pkg, "__main__"))); kind {
		case locModule:
			*files = append(*files, f)
		case locNone:
		default:
			return false
		}
		return true
	}
	for _, d := range st.dirs {
		var files []string
		base := d
		found := false
	parts:
		for i, p := range parts {
			last := i == len(parts)-1
			stem := st.lookUp(filepath.Join(base, p))
			kind, f := locate(stem)
			switch kind {
			case locCompiled:
				return nil, compiled
			case locPackage:
				files = append(files, f)
				base, found = stem, true
				if last && main && !mainOf(stem, &files) {
					return nil, compiled
				}
				continue
			case locModule:
				files = append(files, f)
				found = true
				break parts // what follows is an attribute, or fails
			case locNamespace:
				if i > 0 || !st.stdlibHas(top) {
					// A namespace package: found only when nothing else is.
					if i == 0 && !st.inPkg {
						return nil, namespaceTop
					}
					base, found = stem, true
					if last && main && !mainOf(stem, &files) {
						return nil, compiled
					}
					continue
				}
			}
			break
		}
		if found {
			if main && (len(files) == 0 || !strings.HasSuffix(files[len(files)-1], ".py")) {
				return nil, compiled
			}
			return files, source
		}
	}
	return nil, notFound
}

// stdlibHas reports whether a top-level name is a module of the
// standard library (or the table, before the interpreter's facts are at
// hand): a directory without __init__.py never shadows one.
func (st *state) stdlibHas(top string) bool {
	return st.isModuleName(top)
}

// uncheckedCache returns a compiled cache of a module file that Python
// imports without comparing it with the source: a hash-based .pyc whose
// check_source flag is off (PEP 552) is used as it is, whatever the .py
// holds (a red team's committed __pycache__/m.cpython-311.pyc). A
// timestamp-based one is used when its header matches the source's time
// and size, and a checked hash-based one when its hash does: those are
// how Python keeps its own caches, and are not compared here (README).
func uncheckedCache(file string) string {
	stem := filepath.Join(filepath.Dir(file), "__pycache__", strings.TrimSuffix(filepath.Base(file), ".py"))
	caches, _ := filepath.Glob(stem + ".*.pyc")
	for _, c := range caches {
		f, err := os.Open(c)
		if err != nil {
			continue
		}
		var h [8]byte
		_, err = io.ReadFull(f, h[:])
		f.Close()
		if err != nil {
			continue
		}
		if flags := binary.LittleEndian.Uint32(h[4:8]); flags&1 != 0 && flags&2 == 0 {
			return c
		}
	}
	return ""
}

// cacheDiffers returns a compiled cache of a module file (src is the
// file's content) that Python would run instead of the source and that
// holds other code than the source compiles to, or "" when there is
// none. A cache is run when its magic number is the interpreter's and
// its header matches the source: the source's time and size, or (a
// hash-based .pyc, which python --check-hash-based-pycs never runs
// unchecked) any source. A cache that cannot be read counts as one that
// differs. The interpreter compares the code (Analyser.sameCode); caches
// Python wrote itself compile alike, and the answer is kept on disk.
func (st *state) cacheDiffers(file, src string) string {
	stem := filepath.Join(filepath.Dir(file), "__pycache__", strings.TrimSuffix(filepath.Base(file), ".py"))
	caches, _ := filepath.Glob(stem + ".*.pyc")
	if len(caches) == 0 {
		return ""
	}
	fi, err := os.Stat(file)
	if err != nil {
		return caches[0]
	}
	for _, c := range caches {
		pyc, err := readLimited(c)
		if err != nil {
			return c
		}
		opt := 0
		switch {
		case strings.HasSuffix(c, ".opt-1.pyc"):
			opt = 1
		case strings.HasSuffix(c, ".opt-2.pyc"):
			opt = 2
		}
		if same, err := st.a.sameCode(st.interp, fi.ModTime().Unix(), fi.Size(), src, pyc, opt); err != nil || !same {
			return c
		}
	}
	return ""
}

func fileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// A binding is what a name imported stands for: a dotted module path (or
// module attribute), or a project module.
type binding struct {
	dotted string
	local  bool
	// For a project module: its file ("" for a namespace package) and,
	// for a package, its directory.
	file, pkg string
}

func (st *state) judge(f *facts, file string, depth int) {
	stdlib := map[string]bool{}
	for _, m := range f.Stdlib {
		stdlib[m] = true
	}
	st.stdlib = stdlib
	binds := map[string][]binding{}
	bind := func(name string, b binding) { binds[name] = append(binds[name], b) }
	for _, im := range f.Imports {
		line := fmt.Sprintf(" (line %d)", im.Line)
		if im.Class {
			// class C: import os binds C.os, which the names the
			// analysis follows do not reach (C.os.system(…)).
			st.ask("imports " + firstNonEmpty(im.Module, ".") + " in a class body, as an attribute of the class the guard does not follow" + line)
			continue
		}
		if bound := importedName(im.Module, im.Name, im.As); strings.HasPrefix(bound, "__") && !isDunder(bound) {
			// Inside a class, python binds __o as _C__o (global __o in a
			// method): not the name the analysis follows.
			st.ask("imports " + firstNonEmpty(im.Module, ".") + " as " + bound + ", a name python may bind as another" + line)
			continue
		}
		name, as := "", ""
		if im.Name != nil {
			name = *im.Name
		}
		if im.As != nil {
			as = *im.As
		}
		mod := im.Module
		if im.Level > 0 {
			if file == "" {
				st.ask("uses a relative import outside a package" + line)
				continue
			}
			base := filepath.Dir(file)
			for i := 1; i < im.Level; i++ {
				base = filepath.Dir(base)
			}
			sub := &state{a: st.a, interp: st.interp, dirs: []string{base}, res: st.res, visited: st.visited, asked: st.asked, shared: st.shared,
				exports: st.exports, stdlib: st.stdlib, inPkg: true}
			targets := []string{mod}
			if mod == "" {
				targets = []string{name}
			} else if name != "*" {
				targets = append(targets, mod+"."+name)
			}
			for _, t := range targets {
				files, kind := sub.moduleFiles(t, false)
				if kind == compiled {
					st.ask("imports compiled code of the project (" + t + ")" + line)
				}
				for _, fl := range files {
					st.follow(fl, depth+1)
				}
			}
			if mod == "" {
				bind(firstNonEmpty(as, name), sub.localBinding(name))
			} else {
				st.bindFrom(binds, sub.localBinding(mod), sub, mod, name, as, line)
			}
			continue
		}
		top, _, _ := strings.Cut(mod, ".")
		targets := []string{mod}
		if name != "" && name != "*" {
			targets = append(targets, mod+"."+name)
		}
		files, kind := st.moduleFiles(mod, false)
		if kind == namespaceTop {
			st.ask("imports " + mod + ", a directory of the project without __init__.py, which an installed package of that name would take the place of" + line)
			continue
		}
		if kind != notFound {
			if kind == compiled {
				st.ask("imports " + mod + ", which is compiled code in the project" + line)
				continue
			}
			for _, t := range targets[1:] {
				more, k := st.moduleFiles(t, false)
				if k == compiled {
					st.ask("imports " + t + ", which is compiled code in the project" + line)
				}
				files = append(files, more...)
			}
			for _, fl := range files {
				st.follow(fl, depth+1)
			}
			switch {
			case name != "":
				st.bindFrom(binds, st.localBinding(mod), st, mod, name, as, line)
			case as != "":
				bind(as, st.localBinding(mod))
			default:
				bind(top, st.localBinding(top))
			}
			continue
		}
		m, ok := modules()[mod]
		if !ok || !stdlib[top] {
			st.ask("imports " + mod + line)
			continue
		}
		switch {
		case name == "*":
			if !m.all || len(m.deny) > 0 || mod == "pathlib" {
				st.ask("imports every name of " + mod + " (from " + mod + " import *)" + line)
			}
		case name != "":
			d := mod + "." + name
			bind(firstNonEmpty(as, name), binding{dotted: d})
			if _, sub := modules()[d]; !sub {
				// Its uses are judged where they are (called or not).
				st.chain(strings.Split(d, "."), true, "Load", im.Line)
			}
		case as != "":
			bind(as, binding{dotted: mod})
		default:
			bind(top, binding{dotted: top})
		}
	}
	if file != "" {
		st.exports[file] = binds
	}
	// Names and attribute chains.
	for _, r := range f.Refs {
		root := r.Chain[0]
		if bs, ok := binds[root]; ok {
			for _, b := range bs {
				if b.local {
					st.localChain(b, r.Chain[1:], r.Ctx, r.Line, 0)
					continue
				}
				full := append(strings.Split(b.dotted, "."), r.Chain[1:]...)
				st.chain(full, r.Called, r.Ctx, r.Line)
				if d := strings.Join(full, "."); (d == "sys.path" || d == "os.environ" || d == "os.environb") && r.Ctx == "Load" && !r.Called &&
					!(r.ArgOf != nil && safeArgOf[*r.ArgOf] && !slices.Contains(f.Rebound, *r.ArgOf)) {
					// p = sys.path; p.insert(0, d): the list (or mapping)
					// changed through another name. print(sys.path) is not.
					if d == "sys.path" {
						st.ask(fmt.Sprintf("passes sys.path around, where modules are imported from (line %d)", r.Line))
					} else {
						st.envChanged = true
					}
				}
			}
		} else if why, ok := riskyBuiltins()[root]; ok {
			st.ask(why + fmt.Sprintf(" (line %d)", r.Line))
			continue
		} else if (root == "getattr" || root == "open") && !r.Called {
			st.ask(fmt.Sprintf("passes %s around, so the guard cannot see what it is called with (line %d)", root, r.Line))
		}
		if isDunder(root) && !okDunders()[root] {
			st.ask(fmt.Sprintf("uses %s, which reaches past the names the guard follows (line %d)", root, r.Line))
		}
	}
	for _, at := range f.Attrs {
		switch {
		case !at.Called && (at.Name == "format" || at.Name == "format_map"):
			// f = str.format; f(t, x), map(t.format, …): the string
			// formatted is not seen, and its fields reach attributes.
			st.ask(fmt.Sprintf("uses .%s other than by calling it, so the guard cannot see the string it formats (line %d)", at.Name, at.Line))
		case !at.Called && (pathWrites()[at.Name] != 0 || extractMethods[at.Name]):
			// f = p.write_text; f(…), map(Path.unlink, ps): the method
			// changes files, and what it is called with is not seen.
			st.ask(fmt.Sprintf("uses .%s other than by calling it, so the guard cannot see what it changes (line %d)", at.Name, at.Line))
		case !at.Called && pathReads()[at.Name]:
			// f = Path(p).read_text; f(), map(Path.read_text, ps): the
			// method reads a file, and which one is not seen.
			st.ask(fmt.Sprintf("uses .%s other than by calling it, so the guard cannot see what it reads (line %d)", at.Name, at.Line))
		case strings.HasPrefix(at.Name, "_") && !isDunder(at.Name) && !at.Own:
			// A library object's internals (ZipFile._extract_member
			// writes files, a ForwardRef's _evaluate runs its text):
			// only a method's own self._x is the code's.
			st.ask(fmt.Sprintf("uses ._%s of an object the code did not make, a library's internals (line %d)", strings.TrimPrefix(at.Name, "_"), at.Line))
		}
		if frameAttrs()[at.Name] {
			st.ask(fmt.Sprintf("uses .%s, which reaches the names of other code (line %d)", at.Name, at.Line))
		}
		if why, ok := fileMethods[at.Name]; ok {
			st.ask(fmt.Sprintf("uses .%s, which %s (line %d)", at.Name, why, at.Line))
		}
		if isDunder(at.Name) && !okDunders()[at.Name] {
			st.ask(fmt.Sprintf("uses .%s, which reaches past the names the guard follows (line %d)", at.Name, at.Line))
		}
	}
	for _, d := range f.Defs {
		if why, ok := optionAttrs[d.Name]; ok && d.Kind == "attr" && !d.Own {
			// p = argparse.ArgumentParser(); p.fromfile_prefix_chars = '@':
			// what the constructor's keyword is judged for, set afterwards.
			st.ask(fmt.Sprintf("sets .%s on an object, which %s (line %d)", d.Name, why, d.Line))
		}
		if d.Kind == "class" {
			for _, k := range d.Keywords {
				if k == "metaclass" || k == "**" {
					st.ask(fmt.Sprintf("defines the class %s with a metaclass (line %d)", d.Name, d.Line))
				}
			}
		}
	}
	for _, s := range f.Stores {
		for _, b := range binds[s.Chain[0]] {
			if b.local {
				continue
			}
			full := strings.Join(append(strings.Split(b.dotted, "."), s.Chain[1:]...), ".")
			switch full {
			case "os.environ":
				st.envChanged = true
			case "sys.path":
				st.ask(fmt.Sprintf("changes sys.path, where modules are imported from (line %d)", s.Line))
			default:
				st.ask(fmt.Sprintf("changes %s[…] (line %d)", full, s.Line))
			}
		}
	}
	for _, sb := range f.Subs {
		for _, b := range binds[sb.Chain[0]] {
			if b.local {
				continue
			}
			if full := strings.Join(append(strings.Split(b.dotted, "."), sb.Chain[1:]...), "."); full == "os.environ" || full == "os.environb" {
				st.envRead(sb.Key, sb.Line)
			} else {
				st.chain(append(strings.Split(b.dotted, "."), sb.Chain[1:]...), false, "Load", sb.Line)
			}
		}
	}
	if !f.ArgvStable {
		st.argvUnstable = true
	}
	st.rebound = f.Rebound
	for _, f := range f.Formats {
		if f.Strs == nil {
			st.ask(fmt.Sprintf("formats a string known only at run time, whose fields can reach attributes of what it formats (line %d)", f.Line))
		}
		for _, t := range f.Strs {
			if formatReaches(t) {
				st.ask(fmt.Sprintf("formats with a field that reaches attributes or items ({0.attr}, {0[key]}) (line %d)", f.Line))
				break
			}
		}
	}
	for _, c := range f.Calls {
		if depth > 0 || st.mainImported {
			// The values the analysis found for names hold only for the
			// code the command runs, where every binding and call is seen.
			c = unresolved(c)
		}
		st.call(c, binds)
	}
}

// unresolved is c with the arguments whose values came from names (lit.Res)
// known only at run time again.
func unresolved(c *call) *call {
	cp := *c
	cp.Args = make([]lit, len(c.Args))
	for i, a := range c.Args {
		cp.Args[i] = a.unresolved()
	}
	cp.Kw = make(map[string]lit, len(c.Kw))
	for k, a := range c.Kw {
		cp.Kw[k] = a.unresolved()
	}
	if c.Recv != nil {
		cp.Recv = unresolved(c.Recv)
	}
	return &cp
}

// envRead reports a read of the environment as the command that prints
// the same (printenv NAME, or printenv for all of it when name is ""), so
// that the rules about secret variables judge it: a read is a send, and
// the guard cannot tell printing a value from using it.
func (st *state) envRead(name string, line int) {
	argv := []string{"printenv"}
	if name != "" {
		argv = append(argv, name)
	}
	st.res.Commands = append(st.res.Commands, Command{Argv: argv, Via: "python os.environ", Line: line})
}

// envRefs are the variables os.path.expandvars replaces: $NAME, ${NAME}.
// Compiled on first use: every command, Python or not, would pay for it
// at start-up.
var envRefs = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$(?:([A-Za-z0-9_]+)|\{([^}]*)\})`) })

// judgedWhenCalled are functions judged by their arguments where they
// are called (call): passed around (functools.partial(f, filename=…)),
// what they are called with is not seen.
var judgedWhenCalled = map[string]bool{"logging.basicConfig": true, "logging.Formatter": true, "os.getenv": true,
	"os.getenvb": true, "argparse.ArgumentParser": true, "os.path.expandvars": true, "posixpath.expandvars": true}

// formatReaches reports whether a str.format string has a field that
// reaches an attribute or an item of an argument ({0.__globals__},
// {x[k]}), in its own fields or those nested in a format spec.
func formatReaches(s string) bool {
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '{' && i+1 < len(s) && s[i+1] == '{':
			i++
		case s[i] == '{':
			depth, j := 1, i+1
			for ; j < len(s) && depth > 0; j++ {
				switch s[j] {
				case '{':
					depth++
				case '}':
					depth--
				}
			}
			field := s[i+1 : j-1]
			if depth > 0 {
				field = s[i+1:]
			}
			name, spec := field, ""
			if k := strings.IndexAny(field, "!:"); k >= 0 {
				name = field[:k]
				if c := strings.IndexByte(field, ':'); c >= 0 {
					spec = field[c+1:]
				}
			}
			if strings.ContainsAny(name, ".[") || formatReaches(spec) {
				return true
			}
			i = j - 1
		}
	}
	return false
}

// safeArgOf are builtins that only read the list or mapping they are
// given (print(sys.path), len(os.environ)).
var safeArgOf = map[string]bool{"print": true, "len": true, "list": true, "sorted": true, "str": true, "repr": true,
	"tuple": true, "set": true, "dict": true, "enumerate": true, "any": true, "all": true, "[]": true}

// importedName is the name an import binds.
func importedName(mod string, name, as *string) string {
	switch {
	case as != nil:
		return *as
	case name != nil:
		return *name
	}
	top, _, _ := strings.Cut(mod, ".")
	return top
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

func isDunder(s string) bool {
	return len(s) > 4 && strings.HasPrefix(s, "__") && strings.HasSuffix(s, "__")
}

// chain judges a use of a dotted name that starts at an imported module.
func (st *state) chain(full []string, called bool, ctx string, line int) {
	at := fmt.Sprintf(" (line %d)", line)
	// The longest prefix that is a reviewed module.
	n := 0
	for i := len(full); i > 0; i-- {
		if _, ok := modules()[strings.Join(full[:i], ".")]; ok {
			n = i
			break
		}
	}
	if n == 0 {
		st.ask("uses " + strings.Join(full, ".") + at)
		return
	}
	modName := strings.Join(full[:n], ".")
	m := modules()[modName]
	rest := full[n:]
	if len(rest) == 0 {
		// A module as a value: what is used of it later is not a dotted
		// name the guard can follow (x = pathlib; x.os.system(…)).
		st.ask("passes the module " + modName + " around, so the guard cannot follow what is used of it" + at)
		return
	}
	attr := rest[0]
	dotted := modName + "." + attr
	if ctx != "Load" && len(rest) == 1 {
		if dotted == "sys.stdout" || dotted == "sys.stderr" || dotted == "sys.stdin" {
			return
		}
		st.ask("changes " + dotted + at)
		return
	}
	if strings.HasPrefix(attr, "_") && !okDunders()[attr] {
		st.ask("uses the private name " + dotted + at)
		return
	}
	if cliEntryPoints[attr] {
		// base64.main(), tokenize.main(): a module's command line, which
		// reads (or writes) the files sys.argv names.
		st.ask("uses " + dotted + ", the module's command line, which reads the files sys.argv names" + at)
		return
	}
	if pathReaders()[dotted] && (!called || len(rest) > 1) {
		st.ask("uses " + dotted + " other than by calling it, so the guard cannot see what it reads" + at)
		return
	}
	if _, ok := commandCalls()[dotted]; ok {
		// Called, it is judged as the command it runs (call).
		if !called || len(rest) > 1 {
			st.ask("uses " + dotted + " other than by calling it with a command the guard can read" + at)
		}
		return
	}
	if _, ok := pathCalls()[dotted]; (ok || dotted == "zipfile.ZipFile") && called && len(rest) == 1 {
		return // judged as the files it names (call)
	}
	if judgedWhenCalled[dotted] && (!called || len(rest) > 1) {
		st.ask("uses " + dotted + " other than by calling it where the guard sees its arguments" + at)
		return
	}
	if dotted == "urllib.request.urlopen" || dotted == "urllib.request.urlretrieve" {
		if !called || len(rest) > 1 {
			st.ask("uses " + dotted + " other than by calling it with a URL the guard can read" + at)
		}
		return
	}
	if m.all {
		if why, ok := m.deny[attr]; ok {
			st.ask("uses " + dotted + ", which " + why + at)
			return
		}
		if st.isModuleName(attr) && attr != full[n-1] {
			// pathlib.os.system: a module another one imported (a
			// module is never an attribute of its own name: time.time,
			// datetime.datetime are not). Judged as that module, and
			// never followed as a command even when called.
			st.chain(rest, false, ctx, line)
		}
		return
	}
	if !slices.Contains(m.allow, attr) {
		st.ask("uses " + dotted + at)
		return
	}
	if len(rest) == 1 && ctx == "Load" && (dotted == "os.environ" || dotted == "os.environb") {
		st.envRead("", line) // print(os.environ), dict(os.environ), e = os.environ
	}
	if len(rest) > 1 {
		switch dotted {
		case "sys.path":
			if rest[1] != "copy" && rest[1] != "index" && rest[1] != "count" {
				st.ask("changes sys.path, where modules are imported from" + at)
			}
		case "os.environ", "os.environb":
			switch rest[1] {
			case "get", "keys":
				// get: a call, judged with its argument (call).
				if rest[1] == "get" && (!called || len(rest) > 2) {
					st.ask("uses " + dotted + ".get other than by calling it, so the guard cannot see which variable it reads" + at)
				}
			case "copy", "items", "values":
				st.envRead("", line)
			default:
				st.envChanged = true
				st.envRead("", line) // pop, setdefault, … return values
			}
		case "os.path":
		}
	}
}

// isModuleName reports whether a name could be a module another module
// imported: a top-level module of the interpreter's standard library, or
// one of the table.
func (st *state) isModuleName(name string) bool {
	if st.stdlib[name] {
		return true
	}
	_, ok := modules()[name]
	return ok
}

// resolve returns the dotted name a call's chain starts with, when its
// first name is an imported module (or a module attribute).
func resolve(c *call, binds map[string][]binding) []string {
	if c.On != "" || len(c.Chain) == 0 {
		return nil
	}
	var out []string
	for _, b := range binds[c.Chain[0]] {
		if b.local {
			continue
		}
		out = append(out, strings.Join(append(strings.Split(b.dotted, "."), c.Chain[1:]...), "."))
	}
	return out
}

func (st *state) call(c *call, binds map[string][]binding) {
	at := fmt.Sprintf(" (line %d)", c.Line)
	for _, d := range resolve(c, binds) {
		switch kind := commandCalls()[d]; {
		case kind == "argv":
			st.subprocess(c, d)
		case kind == "shell":
			st.shellCall(c, d)
		case d == "urllib.request.urlopen" || d == "urllib.request.urlretrieve":
			st.urlopen(st.withArgv(c, binds), d)
		case d == "os.getenv" || d == "os.getenvb" || d == "os.environ.get" || d == "os.environb.get" || d == "os.environ.pop" || d == "os.environ.setdefault":
			name := ""
			if len(c.Args) > 0 && !c.Star {
				name, _ = c.Args[0].str()
			}
			if n, ok := c.Kw["key"]; ok {
				name, _ = n.str()
			}
			st.envRead(name, c.Line)
		case d == "os.path.expandvars" || d == "posixpath.expandvars":
			// $NAME and ${NAME} in the text are the environment's values:
			// a read of each, as printenv NAME (of all, for a text not
			// known here).
			t, ok := "", false
			if len(c.Args) > 0 && !c.Star {
				t, ok = c.Args[0].str()
			}
			if !ok {
				st.envRead("", c.Line)
				break
			}
			for _, m := range envRefs().FindAllStringSubmatch(t, -1) {
				st.envRead(firstNonEmpty(m[1], m[2]), c.Line)
			}
		case d == "logging.basicConfig":
			if _, ok := c.Kw["filename"]; ok || c.Star {
				st.ask("logging.basicConfig may write a log file" + at)
			}
			st.braceFormat(c, d, 0, "format", -1)
		case d == "logging.Formatter":
			st.braceFormat(c, d, 0, "fmt", 2)
		case d == "argparse.ArgumentParser":
			if l, ok := c.arg(7, "fromfile_prefix_chars"); c.Star || ok && (l.Dyn || l.V != nil) {
				st.ask("makes a parser that reads the files its command line names (fromfile_prefix_chars)" + at)
			}
		case strings.HasPrefix(d, "pathlib.") && pathWrites()[d[strings.LastIndexByte(d, '.')+1:]] != 0:
			// Path.write_text(p, …): the method called through its class.
			st.ask("calls " + d + " on a path the guard does not follow" + at)
		case strings.HasPrefix(d, "pathlib.") && strings.Count(d, ".") >= 2 && pathReads()[d[strings.LastIndexByte(d, '.')+1:]]:
			// Path.read_text(Path("/x/.ssh/id_rsa")): the method called
			// through its class reads the path it is given.
			st.ask("calls " + d + " on a path the guard does not follow" + at)
		case d == "zipfile.ZipFile":
			st.zipFile(st.withArgv(c, binds), d)
		case pathCalls()[d] != nil:
			st.pathCall(st.withArgv(c, binds), d, pathCalls()[d])
		case pathReaders()[d]:
			var p lit
			switch {
			case len(c.Args) > 0:
				p = c.Args[0]
			case c.Star:
				p = lit{Dyn: true}
			default:
				p = lit{V: "."} // os.listdir() lists the working directory
				if d == "glob.glob" || d == "glob.iglob" || d == "tokenize.open" {
					continue
				}
			}
			path, _ := p.str()
			st.res.Effects = append(st.res.Effects, Effect{Path: path, Via: "python " + d, Line: c.Line})
		}
	}
	if len(c.Chain) > 0 && c.Chain[len(c.Chain)-1] == "__init__" && (c.Star || len(c.Args) > 7) {
		// argparse.ArgumentParser.__init__(p, …), p.__init__(…),
		// super().__init__(…): the eighth word after self is
		// fromfile_prefix_chars, judged only in the constructor's call.
		n := "arguments"
		if !c.Star {
			n = fmt.Sprint(len(c.Args)) + " arguments"
		}
		st.ask("calls __init__ with " + n + " by position, which for an argparse parser include fromfile_prefix_chars (it " + optionAttrs["fromfile_prefix_chars"] + ")" + at)
	}
	for k, why := range optionAttrs {
		if _, ok := c.Kw[k]; ok && optionOwner[k] != "" && !slices.Contains(resolve(c, binds), optionOwner[k]) {
			// p.__init__(fromfile_prefix_chars='@'), super().__init__(…):
			// the option given to a call other than the one judged for it.
			st.ask("passes " + k + "= to a call the guard does not judge it for, which " + why + at)
		}
	}
	if c.On == "" && len(c.Chain) == 1 && len(binds[c.Chain[0]]) == 0 {
		switch c.Chain[0] {
		case "open":
			st.open(st.withArgv(c, binds), 0, "")
		case "getattr":
			if c.Star || len(c.Args) < 2 {
				st.ask("uses getattr with a name not known here" + at)
				return
			}
			name, ok := c.Args[1].str()
			if !ok {
				st.ask("uses getattr with a name built at run time" + at)
				return
			}
			if isDunder(name) && !okDunders()[name] || frameAttrs()[name] {
				st.ask("uses getattr(…, " + name + "), which reaches past the names the guard follows" + at)
			}
			if pathWrites()[name] != 0 || extractMethods[name] {
				st.ask("uses getattr(…, " + name + "), a method that changes files" + at)
			}
			if _, ok := fileMethods[name]; ok || pathReads()[name] {
				st.ask("uses getattr(…, " + name + "), a method that reads files" + at)
			}
			if strings.HasPrefix(name, "_") && !isDunder(name) {
				st.ask("uses getattr(…, " + name + "), a library's internals" + at)
			}
			// getattr(os, "system"): the same as os.system, not called
			// where the guard can see its arguments.
			if obj := c.Args[0].Name; obj != "" {
				for _, b := range binds[obj] {
					if !b.local {
						st.chain(append(strings.Split(b.dotted, "."), name), false, "Load", c.Line)
					}
				}
			}
		}
		return
	}
	if len(c.Chain) == 0 {
		return
	}
	if c.On == "" && len(binds[c.Chain[0]]) > 0 {
		return // a function of a module: judged above, or project code
	}
	// Path objects can come from any module the code imports (its own
	// too): the methods that change files are checked on every object.
	method := c.Chain[len(c.Chain)-1]
	recvPath, known := c.pathReceiver(binds, st.rebound)
	if extractMethods[method] {
		st.ask("calls ." + method + "(), which writes the files an archive names" + at)
		return
	}
	if pathReads()[method] {
		st.res.Effects = append(st.res.Effects, Effect{Path: recvPath, Via: "python Path." + method, Line: c.Line})
		return
	}
	nargs, ok := pathWrites()[method]
	if !ok {
		return
	}
	if nargs > 0 && c.Star {
		st.ask("calls ." + method + "() with arguments not known here" + at)
		return
	}
	if t, ok := c.Kw["target"]; ok && nargs == 1 && len(c.Args) == 0 && len(c.Kw) == 1 {
		c = &call{Chain: c.Chain, Line: c.Line, Args: []lit{t}, On: c.On, Recv: c.Recv} // Path.rename(target=…)
	}
	if nargs > 0 && (len(c.Args) != nargs || len(c.Kw) > 0) {
		return // cannot be Path's (str.replace(a, b), datetime.replace(year=…))
	}
	if method == "open" {
		st.open(c, -1, recvPath)
		return
	}
	if method == "symlink_to" || method == "hardlink_to" || method == "link_to" {
		// A link to a place the path rules do not follow to: a later
		// write through it (os.mkdir("l/x")) is not seen as there.
		st.ask("calls ." + method + "(), which makes a link that later writes through it go where the guard does not follow" + at)
		return
	}
	if !known {
		st.ask("calls ." + method + "() on a path known only at run time" + at)
		return
	}
	if nargs == 1 && (method == "rename" || method == "replace") {
		if t, ok := c.Args[0].str(); ok {
			st.res.Effects = append(st.res.Effects, Effect{Path: recvPath, Write: true, To: t, Via: "python Path." + method, Line: c.Line})
		} else {
			st.ask("calls ." + method + "() with a target known only at run time" + at)
		}
		return
	}
	st.res.Effects = append(st.res.Effects, Effect{Path: recvPath, Write: true, Via: "python Path." + method, Line: c.Line})
	if nargs == 1 {
		if t, ok := c.Args[0].str(); ok {
			st.res.Effects = append(st.res.Effects, Effect{Path: t, Write: true, Via: "python Path." + method, Line: c.Line})
		} else {
			st.ask("calls ." + method + "() with a target known only at run time" + at)
		}
	}
}

// pathCall judges a call of a pathCalls function by the files it names.
func (st *state) pathCall(c *call, fn string, args []pathArg) {
	at := fmt.Sprintf(" (line %d)", c.Line)
	if c.Star {
		st.ask("calls " + fn + " with arguments not known here" + at)
		return
	}
	if l, ok := c.Kw["follow_symlinks"]; ok && (l.Dyn || l.V != true) {
		// follow_symlinks=False copies a link as a link, or changes it.
		st.ask("calls " + fn + " with follow_symlinks= other than True, which makes or changes a link" + at)
		return
	}
	for k := range c.Kw {
		if !pathCallKw[k] && !slices.ContainsFunc(args, func(a pathArg) bool { return a.kw == k }) {
			st.ask("calls " + fn + " with " + k + "=, which the guard does not follow" + at)
			return
		}
	}
	named := make([]string, len(args)) // "" where not known or not given
	for i, a := range args {
		l, ok := c.arg(a.pos, a.kw)
		if !ok {
			continue // a TypeError when it runs
		}
		path, known := l.str()
		if !known {
			if a.write {
				st.ask("calls " + fn + " on a path known only at run time" + at)
				return
			}
			path = ""
		}
		named[i] = path
		st.res.Effects = append(st.res.Effects, Effect{Path: path, Write: a.write, Via: "python " + fn, Line: c.Line})
	}
	if (fn == "shutil.copy" || fn == "shutil.copy2") && named[1] != "" {
		// Into a directory dst (one there now, or one the code makes
		// first), the copy is dst/basename(src).
		if named[0] == "" {
			st.ask("calls " + fn + " with a file known only at run time, which it copies under its own name into a directory" + at)
			return
		}
		st.res.Effects = append(st.res.Effects, Effect{Path: filepath.Join(named[1], filepath.Base(named[0])), Write: true, Via: "python " + fn, Line: c.Line})
	}
}

// braceFormat judges a logging format with style "{": its fields reach
// the attributes of the record's values as str.format's do. fmtAt and
// styleAt are the positions of the format and the style (-1: keyword
// only; basicConfig takes only keywords).
func (st *state) braceFormat(c *call, fn string, fmtAt int, fmtKw string, styleAt int) {
	at := fmt.Sprintf(" (line %d)", c.Line)
	var style lit
	ok := false
	if styleAt >= 0 {
		style, ok = c.arg(styleAt, "style")
	} else {
		style, ok = c.Kw["style"]
	}
	if c.Star {
		st.ask("calls " + fn + " with arguments not known here" + at)
		return
	}
	if s, known := style.str(); !ok || known && s != "{" {
		return
	}
	var f lit
	if styleAt >= 0 {
		f, ok = c.arg(fmtAt, fmtKw)
	} else {
		f, ok = c.Kw[fmtKw]
	}
	if t, known := f.str(); ok && (!known || formatReaches(t)) {
		st.ask("formats log records with a {-style format whose fields may reach attributes" + at)
	}
}

// arg is the argument at position pos, or given as keyword kw.
func (c *call) arg(pos int, kw string) (lit, bool) {
	if len(c.Args) > pos {
		return c.Args[pos], true
	}
	l, ok := c.Kw[kw]
	return l, ok
}

// zipFile judges zipfile.ZipFile(file, mode): a read of the archive. In
// mode w, a or x it asks: the archive's .write(NAME) reads NAME into it
// (a secret, stored as it is), and the guard cannot tell that method from
// a file's .write(text).
func (st *state) zipFile(c *call, fn string) {
	at := fmt.Sprintf(" (line %d)", c.Line)
	if c.Star {
		st.ask("calls " + fn + " with arguments not known here" + at)
		return
	}
	if m, ok := c.arg(1, "mode"); ok {
		mode, known := m.str()
		if !known {
			st.ask("opens a zip archive with a mode known only at run time" + at)
			return
		}
		if mode != "r" {
			st.ask("opens a zip archive for writing, whose .write() adds the files it names, which the guard does not follow" + at)
			return
		}
	}
	f, ok := c.arg(0, "file")
	if !ok {
		return // a TypeError when it runs
	}
	path, known := f.str()
	if !known {
		path = "" // a name, or a file object: a read the guard cannot place
	}
	st.res.Effects = append(st.res.Effects, Effect{Path: path, Via: "python " + fn, Line: c.Line})
}

// pathReceiver returns the literal path of Path("lit").method(…).
func (c *call) pathReceiver(binds map[string][]binding, rebound []string) (string, bool) {
	r := c.Recv
	if r == nil || len(r.Chain) == 0 || len(r.Args) != 1 || r.Star || len(r.Kw) > 0 {
		return "", false
	}
	last := r.Chain[len(r.Chain)-1]
	if last != "Path" && last != "PosixPath" && last != "PurePath" {
		return "", false
	}
	// The name must be pathlib's, and bound by imports alone: Path =
	// lambda s: pathlib.Path("/opt/" + s) is not.
	if slices.Contains(rebound, r.Chain[0]) || len(binds[r.Chain[0]]) == 0 {
		return "", false
	}
	for _, b := range binds[r.Chain[0]] {
		d := strings.Join(append(strings.Split(b.dotted, "."), r.Chain[1:]...), ".")
		if b.local || d != "pathlib."+last {
			return "", false
		}
	}
	p, ok := r.Args[0].str()
	return p, ok
}

// open judges open(file, mode): a read or write effect. modeArg is the
// position of the mode argument (-1: Path.open(mode)).
// withArgv is c with each sys.argv[N] argument the command's word, when
// sys is the module and the word is known (Source.Argv).
func (st *state) withArgv(c *call, binds map[string][]binding) *call {
	isSys := len(binds["sys"]) > 0
	for _, b := range binds["sys"] {
		isSys = isSys && !b.local && b.dotted == "sys"
	}
	if !isSys {
		return c
	}
	var out *call
	for i, a := range c.Args {
		if a.Argv == nil || *a.Argv >= len(st.argv) || st.argv[*a.Argv] == "" {
			continue
		}
		if out == nil {
			cp := *c
			cp.Args = append([]lit(nil), c.Args...)
			out = &cp
		}
		out.Args[i] = lit{V: st.argv[*a.Argv]}
		st.argvUsed = true
	}
	if out == nil {
		return c
	}
	return out
}

func (st *state) open(c *call, pathArg int, recvPath string) {
	at := fmt.Sprintf(" (line %d)", c.Line)
	if c.Star {
		st.ask("calls open() with arguments not known here" + at)
		return
	}
	if _, ok := c.Kw["opener"]; ok {
		st.ask("calls open() with an opener" + at)
		return
	}
	path, known := recvPath, recvPath != ""
	modeAt := 0
	if pathArg >= 0 {
		modeAt = 1
		var pl *lit
		if len(c.Args) > 0 {
			pl = &c.Args[0]
		} else if l, ok := c.Kw["file"]; ok {
			pl = &l
		}
		if pl == nil {
			return // TypeError
		}
		if fd, ok := pl.V.(float64); ok && !pl.Dyn {
			if fd > 2 {
				st.ask("opens a file descriptor" + at)
			}
			return
		}
		path, known = pl.str()
		if !known {
			path = ""
		}
	}
	mode := "r"
	if len(c.Args) > modeAt {
		m, ok := c.Args[modeAt].str()
		if !ok {
			st.ask("opens a file with a mode known only at run time" + at)
			return
		}
		mode = m
	} else if l, ok := c.Kw["mode"]; ok {
		m, ok := l.str()
		if !ok {
			st.ask("opens a file with a mode known only at run time" + at)
			return
		}
		mode = m
	}
	write := strings.ContainsAny(mode, "wax+")
	if write && !known {
		st.ask("opens a file for writing at a path known only at run time" + at)
		return
	}
	st.res.Effects = append(st.res.Effects, Effect{Path: path, Write: write, Via: "python open()", Line: c.Line})
}

// subprocessKw are the keyword arguments of subprocess calls that change
// nothing about what runs or where.
var subprocessKw = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"check": true, "capture_output": true, "text": true, "universal_newlines": true,
		"encoding": true, "errors": true, "stdout": true, "stderr": true, "stdin": true, "input": true, "timeout": true,
		"bufsize": true, "close_fds": true, "shell": true, "args": true}
})

func (st *state) subprocess(c *call, fn string) {
	at := fmt.Sprintf(" (line %d)", c.Line)
	if c.Star {
		st.ask("calls " + fn + " with arguments not known here" + at)
		return
	}
	if len(c.Args) > 1 {
		// Popen(args, bufsize, executable, stdin, stdout, stderr,
		// preexec_fn, close_fds, shell, cwd, env, …), which run, call,
		// check_call and check_output pass their positional arguments
		// to: only args is read here.
		st.ask("passes subprocess options by position, which change what runs or where (" + fn + ")" + at)
		return
	}
	var keys []string
	for k := range c.Kw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !subprocessKw()[k] {
			st.ask("calls " + fn + " with " + k + "=, which changes what runs or where" + at)
			return
		}
	}
	shell := false
	if l, ok := c.Kw["shell"]; ok {
		b, isBool := l.V.(bool)
		if l.Dyn || !isBool && l.V != nil {
			if f, isNum := l.V.(float64); !(isNum && !l.Dyn) {
				st.ask("calls " + fn + " with shell= known only at run time" + at)
				return
			} else {
				b = f != 0
			}
		}
		shell = b
	}
	var arg *lit
	if len(c.Args) > 0 {
		arg = &c.Args[0]
	} else if l, ok := c.Kw["args"]; ok {
		arg = &l
	}
	if arg == nil {
		return
	}
	if argv, ok := arg.strs(); ok {
		if len(argv) == 0 {
			return
		}
		if shell {
			st.res.Commands = append(st.res.Commands, Command{Shell: argv[0], Args: append([]string{"/bin/sh"}, argv[1:]...)[1:], Via: "python " + fn, Line: c.Line})
			if len(argv) == 1 {
				st.res.Commands[len(st.res.Commands)-1].Args = nil
			}
			return
		}
		st.res.Commands = append(st.res.Commands, Command{Argv: argv, Via: "python " + fn, Line: c.Line})
		return
	}
	if s, ok := arg.str(); ok {
		if shell {
			st.res.Commands = append(st.res.Commands, Command{Shell: s, Via: "python " + fn, Line: c.Line})
		} else {
			st.res.Commands = append(st.res.Commands, Command{Argv: []string{s}, Via: "python " + fn, Line: c.Line})
		}
		return
	}
	st.ask("runs a command built at run time (" + fn + ")" + at)
}

// shellOptions are, for each shell commandCalls function, the options
// after the command that change nothing of what runs (os.popen(cmd, mode,
// buffering); getoutput(cmd, *, encoding, errors)), and how many of
// them may be given by position.
var shellOptions = map[string]struct {
	pos int
	kw  map[string]bool
}{
	"os.popen":                   {2, map[string]bool{"mode": true, "buffering": true}},
	"subprocess.getoutput":       {0, map[string]bool{"encoding": true, "errors": true}},
	"subprocess.getstatusoutput": {0, map[string]bool{"encoding": true, "errors": true}},
}

func (st *state) shellCall(c *call, fn string) {
	at := fmt.Sprintf(" (line %d)", c.Line)
	if c.Star || len(c.Args) == 0 {
		st.ask("calls " + fn + " with arguments not known here" + at)
		return
	}
	opts := shellOptions[fn]
	if len(c.Args) > 1+opts.pos {
		st.ask("passes options by position that the guard does not read (" + fn + ")" + at)
		return
	}
	for k := range c.Kw {
		if !opts.kw[k] {
			st.ask("calls " + fn + " with " + k + "=, which the guard does not read" + at)
			return
		}
	}
	s, ok := c.Args[0].str()
	if !ok {
		st.ask("runs a shell command built at run time (" + fn + ")" + at)
		return
	}
	st.res.Commands = append(st.res.Commands, Command{Shell: s, Via: "python " + fn, Line: c.Line})
}

// urlopen judges a request as the curl command that makes it: a GET of
// a literal URL, or a request that sends data.
func (st *state) urlopen(c *call, fn string) {
	at := fmt.Sprintf(" (line %d)", c.Line)
	if c.Star || len(c.Args) == 0 {
		st.ask("calls " + fn + " with arguments not known here" + at)
		return
	}
	url, ok := c.Args[0].str()
	if !ok {
		st.ask("opens a URL known only at run time (" + fn + ")" + at)
		return
	}
	url = unwrapURL(url)
	// urlopen(url, data, timeout); urlretrieve(url, filename, reporthook,
	// data), which saves the response in filename (or, without one, in a
	// temporary file it names).
	retrieve := fn == "urllib.request.urlretrieve"
	dataAt, kws := 1, map[string]bool{"data": true, "timeout": true}
	if retrieve {
		dataAt, kws = 3, map[string]bool{"data": true, "filename": true, "reporthook": true}
	}
	if !retrieve && len(c.Args) > 3 || len(c.Args) > 4 {
		st.ask("passes arguments by position that the guard does not read (" + fn + ")" + at)
		return
	}
	data := len(c.Args) > dataAt && (c.Args[dataAt].Dyn || c.Args[dataAt].V != nil)
	if l, ok := c.Kw["data"]; ok && (l.Dyn || l.V != nil) {
		data = true
	}
	for k := range c.Kw {
		if !kws[k] {
			st.ask("calls " + fn + " with " + k + "=" + at)
			return
		}
	}
	argv := []string{"curl", "-s"}
	if retrieve {
		var name lit
		if len(c.Args) > 1 {
			name = c.Args[1]
		} else if l, ok := c.Kw["filename"]; ok {
			name = l
		}
		file, ok := name.str()
		if !ok || file == "" {
			if name.V != nil || name.Dyn {
				st.ask("saves a URL's content at a path known only at run time (" + fn + ")" + at)
			} else {
				st.ask("saves a URL's content in a temporary file it names (" + fn + " without a file name)" + at)
			}
			return
		}
		argv = append(argv, "-o", file)
	}
	if data {
		argv = append(argv, "--data-binary", "@-")
	}
	argv = append(argv, url)
	st.res.Commands = append(st.res.Commands, Command{Argv: argv, Via: "python " + fn, Line: c.Line})
}

// unwrapURL is urllib.parse.unwrap, which urllib.request applies to every
// URL it opens: " <URL:file:///x> " is file:///x.
func unwrapURL(u string) string {
	// str.strip: what str.isspace holds, which takes in \x1c-\x1f.
	strip := func(s string) string {
		return strings.TrimFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f })
	}
	u = strip(u)
	if strings.HasPrefix(u, "<") && strings.HasSuffix(u, ">") {
		u = strip(u[1 : len(u)-1])
	}
	if strings.HasPrefix(u, "URL:") {
		u = strip(u[4:])
	}
	return u
}

// Shebang returns the interpreter a script's #! line names, when the
// line is a plain "#!/path/prog" or "#!/usr/bin/env prog" with at most
// options that change nothing of what runs.
func (a *Analyser) Shebang(path string) (string, bool) {
	// Only a regular executable file runs by its path (opening a FIFO
	// would wait).
	if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() || fi.Mode()&0o111 == 0 {
		return "", false
	}
	fh, err := os.Open(path)
	if err != nil {
		return "", false
	}
	defer fh.Close()
	buf := make([]byte, 256)
	n, _ := fh.Read(buf)
	return ShebangOf(string(buf[:n]))
}

// ShebangOf returns the interpreter the "#!" line at the start of a
// script's text names, when it is a python's (see Analyser.Shebang).
func ShebangOf(text string) (string, bool) {
	line, _, ok := strings.Cut(text, "\n")
	if !ok || !strings.HasPrefix(line, "#!") {
		return "", false
	}
	f := strings.Fields(strings.TrimSpace(line[2:]))
	if len(f) == 0 {
		return "", false
	}
	prog, args := f[0], f[1:]
	if filepath.Base(prog) == "env" {
		if len(args) == 0 || strings.HasPrefix(args[0], "-") || strings.Contains(args[0], "=") {
			return "", false
		}
		prog, args = args[0], args[1:]
	}
	for _, x := range args {
		switch x {
		case "-u", "-B", "-E", "-s", "-I", "-O", "-OO", "-P":
		default:
			return "", false
		}
	}
	return prog, true
}
