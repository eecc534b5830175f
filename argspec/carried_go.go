package argspec

import (
	"strings"
	"sync"

	"github.com/guard-exec/guard-exec/word"
)

// goValued are the go command's flags that take a value (go help
// build, go help testflag): a value is the next word unless attached.
var goValued = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"C": true, "p": true, "covermode": true, "coverpkg": true, "asmflags": true, "buildmode": true,
		"compiler": true, "gccgoflags": true, "gcflags": true, "installsuffix": true, "ldflags": true, "mod": true,
		"modfile": true, "overlay": true, "pgo": true, "pkgdir": true, "tags": true, "toolexec": true, "exec": true,
		"o": true, "vettool": true, "vet": true, "run": true, "skip": true, "bench": true, "benchtime": true, "count": true,
		"cpu": true, "list": true, "parallel": true, "timeout": true, "shuffle": true, "fuzz": true, "fuzztime": true,
		"fuzzminimizetime": true, "coverprofile": true, "blockprofile": true, "blockprofilerate": true, "cpuprofile": true,
		"memprofile": true, "memprofilerate": true, "mutexprofile": true, "mutexprofilefraction": true, "outputdir": true,
		"trace": true, "f": true, "debug-actiongraph": true, "debug-deprioritize": true,
		"debug-runtime-trace": true, "debug-trace": true,
	}
})

// goCarried: go runs the project's code; -exec, -toolexec, -vettool and
// the linker flags name other programs to run, -C and package operands
// outside the project name other code.
func goCarried(r *carry) {
	args := r.argv[1:]
	// go -C DIR SUBCOMMAND … (as well as go SUBCOMMAND -C DIR).
	for len(args) > 0 {
		t, _ := args[0].Static()
		name, val, hasVal := strings.Cut(strings.TrimLeft(t, "-"), "=")
		if !strings.HasPrefix(t, "-") || name != "C" {
			break
		}
		args = args[1:]
		dir := word.FromLit(val)
		if !hasVal && len(args) > 0 {
			dir, args = args[0], args[1:]
		}
		r.goFlag("", "C", dir)
	}
	if len(args) == 0 {
		return
	}
	sub, _ := args[0].Static()
	args = args[1:]
	switch sub {
	case "build", "install", "run", "test", "vet", "list", "generate", "get", "tool":
	case "env":
		for _, a := range args {
			if t, _ := a.Static(); t == "-w" || t == "-u" || !a.IsStatic() {
				r.Opaque("go env -w changes the settings every later go command reads (GOFLAGS, CC, … can name programs)")
				return
			}
		}
		return
	default:
		return
	}
	ops := r.goFlags(args, sub)
	if sub == "run" && len(ops) > 0 {
		for _, op := range ops {
			t, ok := op.Static()
			if !ok || strings.Contains(t, "@") || r.outside(op) {
				r.Opaque("go run runs " + op.String() + ", code from outside the project")
				break
			}
			if !strings.HasSuffix(t, ".go") {
				break // the package; the rest are its arguments
			}
		}
	}
}

// goFlags judges the go command's flags and returns its operands. go
// test reads flags among its packages too, up to -args; the others stop
// at the first operand.
func (r *carry) goFlags(args []word.Word, sub string) []word.Word {
	var ops []word.Word
	for i := 0; i < len(args); i++ {
		a := args[i]
		t, ok := a.Static()
		if !ok {
			if a.CouldStartWith('-') {
				r.Opaque("go " + sub + " with an argument not known here where a flag could be")
				return ops
			}
			ops = append(ops, a)
			if sub != "test" && sub != "vet" {
				return append(ops, args[i+1:]...)
			}
			continue
		}
		if t == "--" || t == "-args" || t == "--args" {
			return append(ops, args[i+1:]...)
		}
		if !strings.HasPrefix(t, "-") || t == "-" {
			ops = append(ops, a)
			if sub != "test" && sub != "vet" {
				return append(ops, args[i+1:]...)
			}
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(t, "-"), "-"), "=")
		name = strings.TrimPrefix(name, "test.")
		v := word.FromLit(val)
		if !hasVal && goValued()[name] && i+1 < len(args) {
			i++
			v = args[i]
		}
		if hasVal || goValued()[name] {
			r.goFlag(sub, name, v)
		}
	}
	return ops
}

// goFlag judges one flag of a go build command (from its argv or GOFLAGS).
func (r *carry) goFlag(sub, name string, v word.Word) {
	what := strings.TrimSpace("go "+sub) + " -" + name
	switch name {
	case "exec":
		r.program(v, what)
	case "toolexec":
		r.program(v, what)
	case "vettool":
		r.program(v, what)
	case "overlay":
		r.Opaque(what + " replaces source files with the ones " + v.String() + " lists")
	case "modfile":
		if r.outside(v) {
			r.Opaque(what + " reads the module file " + v.String() + ", whose replace directives name other code")
		}
	case "C":
		if r.outside(v) {
			r.Opaque(what + " builds the code in " + v.String() + ", which may not be the project's")
		}
	case "ldflags":
		r.goLinkerFlags(v, what)
		r.goToolFiles(v, what)
	case "gcflags", "asmflags":
		r.goToolFiles(v, what)
	case "compiler":
		if t, _ := v.Static(); t != "gc" {
			r.Opaque(what + "=" + v.String() + " builds with another compiler")
		}
	}
}

// goToolFileFlags are the compiler's, assembler's and linker's flags that
// name a file or directory they write or load (cmd/compile, cmd/asm,
// cmd/link of go 1.26; checked: -gcflags=-o=F and -ldflags=-cpuprofile=F
// write F).
var goToolFileFlags = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"-o": true, "-cpuprofile": true, "-memprofile": true, "-blockprofile": true,
		"-mutexprofile": true, "-trace": true, "-bench": true, "-importcfg": true, "-embedcfg": true, "-pgoprofile": true,
		"-linkobj": true, "-asmhdr": true, "-symabis": true, "-json": true, "-tmpdir": true, "-capturehostobjs": true,
		"-dumpdep": true, "-r": true, "-L": true, "-I": true, "-installsuffix": true, "-coveragecfg": true}
})

// goToolFiles asks about tool flags (-gcflags, -asmflags, -ldflags)
// that make the tool write or load a file the guard does not place.
func (r *carry) goToolFiles(v word.Word, what string) {
	t, ok := v.Static()
	if !ok {
		r.Opaque(what + " with flags not known here (the tools' flags can name files they write)")
		return
	}
	if pat, flags, ok := strings.Cut(t, "="); ok && !strings.HasPrefix(t, "-") && !strings.ContainsAny(pat, " ") {
		t = flags // -gcflags=PATTERN=FLAGS
	}
	for _, f := range strings.Fields(strings.NewReplacer(`"`, " ", `'`, " ").Replace(t)) {
		name, _, _ := strings.Cut("-"+strings.TrimLeft(f, "-"), "=")
		if goToolFileFlags()[name] {
			r.Opaque(what + " " + name + " makes the tool write or load a file the guard does not place")
			return
		}
	}
}

// goLinkerFlags finds -extld (the external linker program) and
// -extldflags (flags for it, which can name programs) in -ldflags.
func (r *carry) goLinkerFlags(v word.Word, what string) {
	t, ok := v.Static()
	if !ok {
		r.Opaque(what + " with flags not known here (the linker flags can name programs)")
		return
	}
	if _, flags, ok := strings.Cut(t, "="); ok && !strings.HasPrefix(t, "-") {
		t = flags // -ldflags=PATTERN=FLAGS
	}
	fields := strings.Fields(strings.NewReplacer(`"`, " ", `'`, " ").Replace(t))
	for i, f := range fields {
		f = "-" + strings.TrimLeft(f, "-")
		name, val, has := strings.Cut(f, "=")
		if !has && i+1 < len(fields) {
			val = fields[i+1]
		}
		switch name {
		case "-extld":
			r.program(word.FromLit(val), what+" -extld")
		case "-extldflags":
			r.Opaque(what + " -extldflags passes flags to the C linker, which can name programs")
		}
	}
}

// goEnv: GOFLAGS is read as go's flags; GOROOT, GOTOOLDIR and GOENV
// change the compiler and tools (or the settings) go uses.
func (r *carry) goEnv(a envVar) bool {
	switch a.Name {
	case "GOFLAGS":
		t, ok := a.Value.Static()
		if !ok {
			r.Opaque("GOFLAGS is set to flags not known here (they can name programs go runs)")
			return true
		}
		for _, f := range strings.Fields(t) {
			n, val, _ := strings.Cut(strings.TrimLeft(f, "-"), "=")
			switch n {
			case "o", "coverprofile", "cpuprofile", "memprofile", "blockprofile", "mutexprofile", "trace", "outputdir":
				// Written files the argv's own flags would show as path
				// effects; set here, they are hidden from them.
				r.Opaque("GOFLAGS -" + n + " names a file go writes, which the guard does not place")
				continue
			}
			r.goFlag("(GOFLAGS)", n, word.FromLit(val))
		}
	case "CGO_CFLAGS", "CGO_CPPFLAGS", "CGO_CXXFLAGS", "CGO_FFLAGS", "CGO_LDFLAGS":
		// go checks the flags of #cgo lines, never these: gcc -wrapper
		// PROG, -B DIR, -fplugin=SO, -specs=FILE, @FILE, -Wl,--plugin
		// run programs (checked with go 1.26: CGO_CFLAGS='-wrapper W'
		// runs W for every compile).
		t, ok := a.Value.Static()
		if !ok {
			r.Opaque(a.Name + " is set to flags not known here (C compiler flags can name programs)")
			return true
		}
		for _, f := range strings.Fields(t) {
			if !plainCFlag(f) {
				r.Opaque(a.Name + " passes " + f + " to the C compiler or linker, which may run a program")
				return true
			}
		}
	case "GOCACHEPROG", "GOAUTH":
		// A program go runs: the cache helper, the authentication command.
		r.Opaque(a.Name + " names a command go runs")
	case "GOROOT", "GOTOOLDIR", "GOENV", "GOMODCACHE":
		r.untrustedLocation(a, "go runs its compiler and tools, or reads its settings or modules")
	case "GOWORK":
		if t, ok := a.Value.Static(); !ok || t != "off" && r.outside(a.Value) {
			r.Opaque("GOWORK=" + a.Value.String() + " names a workspace file, which can use modules from elsewhere")
		}
	default:
		return false
	}
	return true
}

// plainCFlag reports a C compiler flag that only tunes the compilation:
// optimisation, debug information, warnings, macros, include and library
// directories and libraries, the standard, position independence.
// Everything else may name a program or a file to run or load.
func plainCFlag(f string) bool {
	switch {
	case f == "-g" || f == "-pthread" || f == "-fPIC" || f == "-fpic" || f == "-fPIE" || f == "-pie" || f == "-static" || f == "-w":
		return true
	case len(f) == 3 && strings.HasPrefix(f, "-O"), len(f) == 3 && strings.HasPrefix(f, "-g") && f[2] >= '0' && f[2] <= '3':
		return true
	case strings.HasPrefix(f, "-W") && !strings.Contains(f, ","):
		return true // -Wall, -Wno-error; not -Wl,… -Wa,… -Wp,…
	case strings.HasPrefix(f, "-std="), strings.HasPrefix(f, "-D"), strings.HasPrefix(f, "-U"),
		strings.HasPrefix(f, "-I"), strings.HasPrefix(f, "-L"), strings.HasPrefix(f, "-l"), strings.HasPrefix(f, "-fno-"),
		strings.HasPrefix(f, "-march="), strings.HasPrefix(f, "-mtune="):
		return !strings.ContainsAny(f, "$`")
	}
	return false
}
