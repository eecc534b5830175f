package shellparse

import (
	"path/filepath"
	"slices"
	"strconv"

	"mvdan.cc/sh/v3/syntax"

	"github.com/guard-exec/guard-exec/word"
)

// varState is what is known of a variable assigned in the text.
type varState struct {
	val     word.Word
	unset   bool // unset by the text: expands to nothing
	unknown bool // assigned a value not known here
	numeric bool // unknown, but certainly an integer (arithmetic results)
	integer bool // declare -i: assignments to it are evaluated as arithmetic
}

// scope is the shell state the walk follows: variables and functions the
// text defines, the working directory, the positional parameters.
type scope struct {
	vars          map[string]varState
	funcs         map[string]*syntax.Stmt
	cwd           Cwd
	cdFallback    *Cwd // the directory if the last cd failed
	params        []string
	paramsUnknown bool
	errexit       bool
	noglob        bool
	dead          bool // the path ended (exit, exec, return)
}

func (sc *scope) clone() *scope {
	c := *sc
	c.vars = make(map[string]varState, len(sc.vars))
	for k, v := range sc.vars {
		c.vars[k] = v
	}
	c.funcs = make(map[string]*syntax.Stmt, len(sc.funcs))
	for k, v := range sc.funcs {
		c.funcs[k] = v
	}
	c.cwd.Dirs = slices.Clone(sc.cwd.Dirs)
	c.params = slices.Clone(sc.params)
	if sc.cdFallback != nil {
		fb := *sc.cdFallback
		c.cdFallback = &fb
	}
	return &c
}

// merge returns the state after one of two paths: what both agree on is
// kept, the rest becomes unknown.
func merge(a, b *scope) *scope {
	if a.dead {
		return b
	}
	if b.dead {
		return a
	}
	out := a.clone()
	for k, va := range a.vars {
		vb, ok := b.vars[k]
		if !ok || !sameVar(va, vb) {
			out.vars[k] = varState{unknown: true, numeric: va.numeric && (vb.numeric || numericVal(vb)) || numericVal(va) && (vb.numeric || numericVal(vb))}
		}
	}
	for k, vb := range b.vars {
		if _, ok := a.vars[k]; !ok {
			out.vars[k] = varState{unknown: true, numeric: vb.numeric || numericVal(vb)}
		}
	}
	for k, f := range b.funcs {
		if out.funcs[k] != f {
			out.funcs[k] = f // either definition may be the one in force
		}
	}
	out.cwd = unionCwd(a.cwd, b.cwd)
	if !slices.Equal(a.params, b.params) || a.paramsUnknown || b.paramsUnknown {
		out.paramsUnknown = true
	}
	out.errexit = a.errexit && b.errexit
	return out
}

func sameVar(a, b varState) bool {
	if a.unknown || b.unknown || a.unset != b.unset {
		return false
	}
	as, aok := a.val.Static()
	bs, bok := b.val.Static()
	return aok && bok && as == bs
}

func numericVal(v varState) bool {
	if v.unknown || v.unset {
		return false
	}
	s, ok := v.val.Static()
	_, err := strconv.ParseInt(s, 10, 64)
	return ok && err == nil
}

func unionCwd(a, b Cwd) Cwd {
	out := Cwd{Unknown: a.Unknown || b.Unknown, Dirs: slices.Clone(a.Dirs)}
	for _, d := range b.Dirs {
		if !slices.Contains(out.Dirs, d) {
			out.Dirs = append(out.Dirs, d)
		}
	}
	if len(out.Dirs) > 8 {
		out = Cwd{Unknown: true}
	}
	return out
}

// bashNumeric are variables bash itself keeps as integers.
var bashNumeric = map[string]bool{"?": true, "$": true, "!": true, "#": true, "RANDOM": true,
	"LINENO": true, "SECONDS": true, "BASHPID": true, "PPID": true, "UID": true, "EUID": true,
	"SHLVL": true, "OPTIND": true, "COLUMNS": true, "LINES": true, "EPOCHSECONDS": true}

// get returns a variable's value and whether it is known.
func (sc *scope) get(w *walker, name string) (word.Word, bool) {
	if v, ok := sc.vars[name]; ok {
		if v.unset {
			return word.FromLit(""), true
		}
		if v.unknown {
			return word.Unknown("$" + name), false
		}
		return v.val, true
	}
	if n, err := strconv.Atoi(name); err == nil {
		if sc.paramsUnknown {
			return word.Unknown("$" + name), false
		}
		if n < len(sc.params) {
			return word.FromLit(sc.params[n]), true
		}
		if n == 0 {
			return word.Unknown("$0"), false
		}
		return word.FromLit(""), true
	}
	switch name {
	case "#":
		if !sc.paramsUnknown {
			return word.FromLit(strconv.Itoa(max(len(sc.params)-1, 0))), true
		}
	case "PWD":
		if len(sc.cwd.Dirs) == 1 && !sc.cwd.Unknown {
			return word.FromLit(sc.cwd.Dirs[0]), true
		}
	case "IFS":
		// bash sets IFS itself at startup; it is never taken from the environment.
		return word.FromLit(" \t\n"), true
	case "HOME", "TMPDIR", "OLDPWD":
		if w.opts.Getenv != nil {
			if v := w.opts.Getenv(name); v != "" && filepath.IsAbs(v) {
				return word.FromLit(v), true
			}
		}
	}
	if digitVars[name] {
		return word.Word{Segs: []word.Seg{{Kind: word.Digits, Text: "$" + name}}}, false
	}
	return word.Unknown("$" + name), false
}

// digitVars are set by bash to non-negative numbers.
var digitVars = map[string]bool{"$": true, "!": true, "?": true, "#": true, "PPID": true, "UID": true,
	"EUID": true, "BASHPID": true, "RANDOM": true, "SECONDS": true, "LINENO": true, "EPOCHSECONDS": true}

// lookup returns a variable's value, or a hole described by desc.
func (sc *scope) lookup(w *walker, name, desc string) word.Word {
	v, ok := sc.get(w, name)
	if !ok {
		if len(v.Segs) == 1 && v.Segs[0].Kind == word.Digits {
			return v
		}
		return word.Word{Segs: []word.Seg{{Kind: word.Hole, Text: desc}}}
	}
	return v
}

// numeric reports whether a variable certainly holds an integer, so that
// evaluating it as arithmetic cannot run code.
func (sc *scope) numeric(w *walker, name string) bool {
	if bashNumeric[name] {
		return true
	}
	if v, ok := sc.vars[name]; ok {
		return v.numeric || v.unset || numericVal(v) || isEmpty(v.val) && !v.unknown
	}
	if _, err := strconv.Atoi(name); err == nil && !sc.paramsUnknown {
		v, _ := sc.get(w, name)
		s, ok := v.Static()
		_, perr := strconv.ParseInt(s, 10, 64)
		return ok && (perr == nil || s == "")
	}
	return false
}

func (sc *scope) isUnset(name string) bool { return sc.vars[name].unset }

func (sc *scope) set(name string, v word.Word) {
	old := sc.vars[name]
	if !v.IsStatic() {
		sc.vars[name] = varState{unknown: true, integer: old.integer}
		return
	}
	sc.vars[name] = varState{val: v, integer: old.integer}
}

func (sc *scope) setUnknown(name string) {
	old := sc.vars[name]
	sc.vars[name] = varState{unknown: true, integer: old.integer}
}

func (sc *scope) setNumeric(name string) {
	old := sc.vars[name]
	sc.vars[name] = varState{unknown: true, numeric: true, integer: old.integer}
}
