package argspec

import (
	"strings"

	"mvdan.cc/sh/v3/pattern"

	"github.com/guard-exec/guard-exec/word"
)

// makeCarried: make runs the recipes of the project's makefile. What the
// command line adds is code: --eval text, a makefile named with -f, a
// directory elsewhere, the shell recipes run with, and variables.
//
// A variable given on the command line (or in make's environment) can
// change what any recipe runs: recipes use variables as programs ($(CC),
// $(GO), $(TEST_CMD)) and as text the shell parses. So its value is
// judged as the shell command a recipe could make of it: `CC=clang` judges
// clang, `X='a; b'` judges a and b, and a value make would expand itself
// ($(shell …)) is opaque. Empty and numeric values, option words (V=1,
// CFLAGS=-O2) and plain words that name no program in PATH (GOOS=linux)
// cannot run anything and carry no shell syntax.
func makeCarried(r *carry) {
	c := Normalize(r.argv, false)
	if c.Open {
		r.Opaque("make with an argument not known here (it could be an option or a variable)")
	}
	r.makeReading(c)
	r.Assigns(func(name string, v word.Word) {
		if r.JudgedWhereSet(name) || buildProgramVar(name) || makeEnvName(name) {
			return // judged where it is set (the walker, CarriedEnv)
		}
		r.makeVar(name, "=", v, true)
	})
}

func (r *carry) makeReading(c *Cmd) {
	for _, o := range c.Opts {
		if o.Value == nil {
			continue
		}
		switch o.Name {
		case "--eval":
			r.Opaque("make --eval evaluates " + o.Value.String() + " as makefile text, which can run commands")
		case "--file":
			t, _ := o.Value.Static()
			switch strings.TrimPrefix(t, "./") {
			case "Makefile", "makefile", "GNUmakefile":
			default:
				r.Opaque("make -f reads the makefile " + o.Value.String() + ", whose recipes the guard does not read")
			}
		case "--directory":
			if r.outside(*o.Value) {
				r.Opaque("make -C runs the makefile in " + o.Value.String() + ", which may not be the project's")
			}
		case "--include-dir":
			if r.outside(*o.Value) {
				r.Opaque("make -I includes makefiles from " + o.Value.String() + ", which may not be the project's")
			}
		}
	}
	for _, a := range c.Args {
		t, ok := a.Static()
		if !ok {
			if !c.Open {
				r.Opaque("make with an argument not known here (it could set a variable)")
			}
			continue
		}
		if name, op, val, ok := assignName(t); ok {
			r.makeVar(name, op, word.FromLit(val), false)
			if v := word.FromLit(val); word.IsName(name) && len(EnvEffects(name, v)) > 0 {
				// make exports a command-line variable to its recipes: a
				// place a tool writes is one for them too (make test
				// PYTEST_ADDOPTS=--basetemp=.git removed .git).
				r.Assigned(name, v)
			}
		}
	}
}

// makeVar judges one variable make sees.
func (r *carry) makeVar(name, op string, v word.Word, env bool) {
	what := "make variable " + name
	if env {
		what = "variable " + name + " in make's environment"
	}
	t, ok := v.Static()
	switch {
	case op == "!=":
		r.shell(v, "make "+name+" != (run by make's shell)")
		return
	case name == "SHELL" || name == "MAKESHELL":
		if env && name == "SHELL" {
			return // make ignores SHELL from the environment
		}
		if !shellLike(v) {
			r.Opaque("make " + name + "=" + v.String() + " runs every recipe with that program")
		}
		return
	case name == ".SHELLFLAGS":
		if !ok || !shellFlagsOnly(t) {
			r.Opaque("make .SHELLFLAGS=" + v.String() + " changes how the shell reads every recipe")
		}
		return
	case name == "MAKEFLAGS" || name == "MFLAGS" || name == "GNUMAKEFLAGS":
		if !ok {
			r.Opaque(name + " is set to options not known here")
			return
		}
		// make reads MAKEFLAGS as options; a first word without a dash
		// is a cluster of one-letter options.
		words := strings.Fields(t)
		if len(words) > 0 && !strings.HasPrefix(words[0], "-") && !strings.Contains(words[0], "=") {
			words[0] = "-" + words[0]
		}
		argv := append([]word.Word{word.FromLit("make")}, word.Lits(words...)...)
		r.makeReading(Normalize(argv, false))
		return
	case name == "MAKEFILES":
		if !ok || strings.TrimSpace(t) != "" {
			r.Opaque("MAKEFILES makes make read " + v.String() + " before the project's makefile")
		}
		return
	}
	if !ok {
		r.Opaque(what + " is set to a value not known here, which a recipe may run")
		return
	}
	if inertValue(t) || r.noSuchProgram(t) {
		return
	}
	if strings.ContainsAny(t, "$") {
		r.Opaque(what + " is set to " + t + ", which make expands (and $(shell …) runs)")
		return
	}
	r.shell(v, what+" (a recipe may run its value)")
}

// inertValue reports a variable value that a recipe cannot turn into a
// program or extra shell syntax: empty, a number, or option words.
func inertValue(t string) bool {
	if strings.ContainsAny(t, ";&|<>()`\"'\\*?[]{}~!#$\n") {
		return false
	}
	fields := strings.Fields(t)
	for _, f := range fields {
		if strings.HasPrefix(f, "-") || strings.Trim(f, "0123456789.") == "" {
			continue
		}
		return false
	}
	return true
}

// noSuchProgram reports a plain word (GOOS=linux, TAG=v1.2) that names
// no program in the inherited PATH, so a recipe that ran it as a command
// would fail: it carries nothing. Without a file system to look in, or
// with a relative PATH entry, or for a shell builtin that runs its
// arguments, every word may be a program.
func (r *carry) noSuchProgram(t string) bool {
	if t == "" || strings.Trim(t, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-") != "" {
		return false
	}
	switch t {
	case "eval", "exec", "source", ".", "command", "builtin", "trap", "alias", "time", "coproc", "fc", "enable", "hash":
		return false
	}
	path := r.Getenv("PATH")
	if path == "" {
		return false
	}
	for _, dir := range strings.Split(path, ":") {
		if !strings.HasPrefix(dir, "/") {
			return false
		}
		if found, ok := r.Glob(pattern.QuoteMeta(strings.TrimSuffix(dir, "/"), 0) + "/" + t); !ok || len(found) > 0 {
			return false
		}
	}
	return true
}

// shellFlagsOnly reports .SHELLFLAGS that only set shell options and end
// in -c (-c, -ec, -eu -o pipefail -c).
func shellFlagsOnly(t string) bool {
	fields := strings.Fields(t)
	if len(fields) == 0 || !strings.HasSuffix(fields[len(fields)-1], "c") {
		return false
	}
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		if f == "-o" && i+1 < len(fields)-1 && word.IsName(fields[i+1]) {
			i++
			continue
		}
		if len(f) < 2 || f[0] != '-' || strings.Trim(f[1:], "abcdefhkmnptuvxBCEHPT") != "" {
			return false
		}
	}
	return true
}

// makeEnv: make reads its options from MAKEFLAGS (and MFLAGS,
// GNUMAKEFLAGS), extra makefiles from MAKEFILES, its shell from MAKESHELL.
func (r *carry) makeEnv(a envVar) bool {
	if !makeEnvName(a.Name) {
		return false
	}
	r.makeVar(a.Name, "=", a.Value, true)
	return true
}

// makeEnvName reports the variables make reads as its own settings
// wherever they are set. (Others, MAKE among them, are judged as any
// variable make sees: a recursive recipe runs $(MAKE).)
func makeEnvName(name string) bool {
	switch name {
	case "MAKEFLAGS", "MFLAGS", "GNUMAKEFLAGS", "MAKEFILES", "MAKESHELL":
		return true
	}
	return false
}
