package shellparse

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/guard-exec/guard-exec/argspec"
	"github.com/guard-exec/guard-exec/word"
)

// varState is what is known of a variable assigned in the text.
type varState struct {
	val     word.Word
	unset   bool // unset by the text: expands to nothing
	unknown bool // assigned a value not known here
	data    bool // unknown: from data the command reads or makes (word.Seg.Data)
	numeric bool // unknown, but certainly an integer (arithmetic results)
	integer bool // declare -i: assignments to it are evaluated as arithmetic
	assoc   bool // declare -A: subscripts are strings, not arithmetic
	// cased: declare -l or -u: bash changes the case of every value
	// given it, which the walk does not follow (the value is then data).
	cased bool
	// elems are an indexed array's elements, 0, 1, … without gaps, when
	// all are known to be there (val is then the first).
	elems []word.Word
	// ref marks a name reference (declare -n): writes to it go to the
	// variable it names, refTarget ("" when not known), once refBound.
	ref       bool
	refBound  bool
	refTarget string
}

// varLayer is one layer of a persistent map of variables. Copying a scope
// (every subshell, branch and pipeline element) must be cheap in a script
// of thousands of lines: a copy shares the layers below and writes to a
// new layer of its own.
type varLayer struct {
	// A layer holds a few variables (those set between two copies of the
	// scope) in es; past smallLayer they move to m. States are shared by
	// pointer, never changed in place: merging layers copies pointers,
	// not states.
	es     []varEntry
	m      map[string]*varState
	parent *varLayer
	depth  int
	frozen bool
}

type varEntry struct {
	k string
	s *varState
}

const smallLayer = 8

func (l *varLayer) get(k string) (*varState, bool) {
	if l.m != nil {
		s, ok := l.m[k]
		return s, ok
	}
	for _, e := range l.es {
		if e.k == k {
			return e.s, true
		}
	}
	return nil, false
}

func (l *varLayer) set(k string, s *varState) {
	if l.m != nil {
		l.m[k] = s
		return
	}
	for i, e := range l.es {
		if e.k == k {
			l.es[i].s = s
			return
		}
	}
	if len(l.es) < smallLayer {
		l.es = append(l.es, varEntry{k, s})
		return
	}
	l.m = make(map[string]*varState, 2*smallLayer)
	for _, e := range l.es {
		l.m[e.k] = e.s
	}
	l.es = nil
	l.m[k] = s
}

func (l *varLayer) size() int {
	if l.m != nil {
		return len(l.m)
	}
	return len(l.es)
}

// each calls fn for every variable of the layer.
func (l *varLayer) each(fn func(string, *varState)) {
	if l.m != nil {
		for k, s := range l.m {
			fn(k, s)
		}
		return
	}
	for _, e := range l.es {
		fn(e.k, e.s)
	}
}

// vars is the variables a scope knows.
type vars struct{ top *varLayer }

func (v *vars) lookup(k string) (varState, bool) {
	for l := v.top; l != nil; l = l.parent {
		if s, ok := l.get(k); ok {
			return *s, true
		}
	}
	return varState{}, false
}

func (v *vars) put(k string, s varState) {
	if v.top == nil || v.top.frozen {
		depth := 0
		if v.top != nil {
			depth = v.top.depth + 1
		}
		v.top = &varLayer{parent: v.top, depth: depth}
	}
	v.top.set(k, &s)
	v.compact()
}

// compact merges the top layer into the one below while that one is not
// more than twice its size. Layer sizes then at least double going down,
// so a lookup visits O(log n) layers, and each variable is copied O(log n)
// times in all: folding every layer into one now and then (as this once
// did) copied all the variables each time, quadratic in a long script.
func (v *vars) compact() {
	for t := v.top; t.parent != nil && t.parent.size() <= 2*t.size(); t = v.top {
		p := t.parent
		n := &varLayer{parent: p.parent, depth: p.depth}
		if size := p.size() + t.size(); size > smallLayer {
			n.m = make(map[string]*varState, size)
		}
		p.each(n.set)
		t.each(n.set)
		v.top = n
	}
}

// each calls fn once for every variable, with its current state.
func (v *vars) each(fn func(string, varState)) {
	seen := map[string]bool{}
	for l := v.top; l != nil; l = l.parent {
		l.each(func(k string, s *varState) {
			if !seen[k] {
				seen[k] = true
				fn(k, *s)
			}
		})
	}
}

// share freezes the layers so that two scopes can use them.
func (v *vars) share() vars {
	if v.top != nil {
		v.top.frozen = true
	}
	return vars{top: v.top}
}

// changed returns the variables that may differ between a and b: those
// written above the layers they share.
func changed(a, b vars) []string {
	// The deepest common layer, as in a lowest common ancestor: climb the
	// deeper chain to the other's depth, then both together.
	la, lb := a.top, b.top
	depth := func(l *varLayer) int {
		if l == nil {
			return -1
		}
		return l.depth
	}
	for depth(la) > depth(lb) {
		la = la.parent
	}
	for depth(lb) > depth(la) {
		lb = lb.parent
	}
	for la != lb {
		la, lb = la.parent, lb.parent
	}
	common := la
	var out []string
	var seen map[string]bool
	for _, v := range []vars{a, b} {
		for l := v.top; l != nil && l != common; l = l.parent {
			l.each(func(k string, _ *varState) {
				if seen == nil {
					seen = map[string]bool{}
				}
				if !seen[k] {
					seen[k] = true
					out = append(out, k)
				}
			})
		}
	}
	return out
}

// scope is the shell state the walk follows: variables and functions the
// text defines, the working directory, the positional parameters.
type scope struct {
	vars          vars
	funcs         map[string]*syntax.Stmt
	funcsShared   bool
	cwd           Cwd
	cdFallback    *Cwd   // the directory if the last cd failed
	failAlt       *scope // the state if the last command failed, when it differs
	params        []string
	paramsUnknown bool
	errexit       bool
	noglob        noglobState
	dead          bool // the path ended (exit, exec, return)
	// havoc: a write through a name reference to a variable not known
	// here: no variable's value can be trusted any more.
	havoc bool
	// reopened: the fds 1 and 2 (bits 1 and 2) that an exec has put on a
	// file opened for reading, closed, or copied from another descriptor
	// (Cmd.Reopened).
	reopened uint8
	// may is the walk's note of what bash may do anywhere (may.go),
	// shared by every scope of the walk.
	may *mayState
	// written are the files this shell has written with a content known
	// here, by absolute path (noteWrite). Clones share the map, which is
	// replaced, never changed in place.
	written map[string]*Written
}

func (sc *scope) clone() *scope {
	c := *sc
	c.vars = sc.vars.share()
	sc.funcsShared, c.funcsShared = true, true
	// Both slices are replaced, never changed in place: the copies can
	// share them (clipped, so that an append cannot write into the other).
	sc.cwd.Dirs, sc.params = slices.Clip(sc.cwd.Dirs), slices.Clip(sc.params)
	c.cwd.Dirs, c.params = sc.cwd.Dirs, sc.params
	if sc.cdFallback != nil {
		fb := *sc.cdFallback
		c.cdFallback = &fb
	}
	if sc.failAlt != nil {
		c.failAlt = sc.failAlt.clone()
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
	for _, k := range changed(a.vars, b.vars) {
		va, okA := a.vars.lookup(k)
		vb, okB := b.vars.lookup(k)
		if okA && okB && sameVar(va, vb) {
			continue
		}
		num := (!okA || va.numeric || numericVal(va)) && (!okB || vb.numeric || numericVal(vb))
		// One of the values the text gave it, or the environment's: a
		// value the guard no longer knows, which may be any of them (the
		// path of a secret included), so data (word.Seg.Data).
		out.vars.put(k, varState{unknown: true, data: true, numeric: num && (okA || okB), cased: okA && va.cased || okB && vb.cased})
	}
	for k, f := range b.funcs {
		if out.funcs[k] != f {
			out.defineFunc(k, f) // either definition may be the one in force
		}
	}
	out.cwd = unionCwd(a.cwd, b.cwd)
	if !slices.Equal(a.params, b.params) || a.paramsUnknown || b.paramsUnknown {
		out.paramsUnknown = true
	}
	out.errexit = a.errexit && b.errexit
	if a.noglob != b.noglob {
		out.noglob = noglobMaybe // set -f on one path only (false && set -f)
	}
	out.havoc = a.havoc || b.havoc
	out.reopened = a.reopened | b.reopened
	if len(a.written) > 0 {
		// A file is known to hold a content only if it does on both paths.
		kept := map[string]*Written{}
		for k, v := range a.written {
			if u := b.written[k]; u != nil && *u == *v {
				kept[k] = v
			}
		}
		out.written = kept
	}
	return out
}

// wrote notes that this shell wrote f.
func (sc *scope) wrote(f *Written) {
	m := make(map[string]*Written, len(sc.written)+1)
	for k, v := range sc.written {
		m[k] = v
	}
	m[f.Path] = f
	sc.written = m
}

func sameVar(a, b varState) bool {
	if a.unknown || b.unknown || a.unset != b.unset || len(a.elems) != len(b.elems) {
		return false
	}
	for i := range a.elems {
		as, aok := a.elems[i].Static()
		bs, bok := b.elems[i].Static()
		if !aok || !bok || as != bs {
			return false
		}
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

// noglobState is whether set -f is on: globs expand (noglobOff), may
// (noglobMaybe: set -f on some paths, or set with a word not known
// here), or do not (noglobOn).
type noglobState uint8

const (
	noglobOff noglobState = iota
	noglobMaybe
	noglobOn
)

func unionCwd(a, b Cwd) Cwd {
	// Either directory as written (a bound on how many: past it, what
	// their text told is lost, and a path there is not known at all).
	written := a.Written
	for _, d := range b.Written {
		if !slices.Contains(written, d) {
			written = append(slices.Clip(written), d)
		}
	}
	if len(written) > 8 {
		written = nil
	}
	if slices.Equal(a.Dirs, b.Dirs) {
		// The usual case: both branches stayed in one directory. Dirs
		// slices are never changed in place, so they can be shared.
		return Cwd{Unknown: a.Unknown || b.Unknown, Data: a.Data || b.Data, Dirs: a.Dirs, Written: written}
	}
	out := Cwd{Unknown: a.Unknown || b.Unknown, Data: a.Data || b.Data, Dirs: slices.Clone(a.Dirs), Written: written}
	for _, d := range b.Dirs {
		if !slices.Contains(out.Dirs, d) {
			out.Dirs = append(out.Dirs, d)
		}
	}
	if len(out.Dirs) > 8 {
		out = Cwd{Unknown: true, Data: true} // one of the text's directories
	}
	return out
}

// bashNumeric are variables bash itself keeps as integers.
// paramNumber is strconv.Atoi(name) for a parameter's name: most names
// are not numbers, and strconv's error for them costs an allocation on
// every read of a variable.
func paramNumber(name string) (int, bool) {
	if name == "" || (name[0] < '0' || name[0] > '9') && name[0] != '+' && name[0] != '-' {
		return 0, false
	}
	n, err := strconv.Atoi(name)
	return n, err == nil
}

// bashInteger are the variables whose assigned values bash evaluates as
// arithmetic, as for declare -i: RANDOM='a[$(cmd)]' runs cmd (a red
// team's; bash 5.2, every special variable tried). Even after unset,
// which takes that away, they are taken so here.
func bashInteger(name string) bool {
	switch name {
	case "RANDOM", "SRANDOM", "OPTIND", "HISTCMD":
		return true
	}
	return false
}

// isInteger reports whether assigning to name evaluates the value as
// arithmetic.
func (sc *scope) isInteger(name string) bool { return sc.varState(name).integer || bashInteger(name) }

func bashNumeric(name string) bool {
	switch name {
	case "?", "$", "!", "#", "RANDOM", "LINENO", "SECONDS", "BASHPID", "PPID", "UID", "EUID", "SHLVL",
		"OPTIND", "COLUMNS", "LINES", "EPOCHSECONDS":
		return true
	}
	return false
}

// defineFunc records a function, copying the shared table first.
func (sc *scope) defineFunc(name string, body *syntax.Stmt) {
	sc.ownFuncs()
	sc.funcs[name] = body
}

func (sc *scope) deleteFunc(name string) {
	sc.ownFuncs()
	delete(sc.funcs, name)
}

func (sc *scope) ownFuncs() {
	if sc.funcsShared {
		m := make(map[string]*syntax.Stmt, len(sc.funcs)+1)
		for k, v := range sc.funcs {
			m[k] = v
		}
		sc.funcs, sc.funcsShared = m, false
	}
}

// get returns a variable's value and whether it is known.
func (sc *scope) get(w *walker, name string) (word.Word, bool) { return sc.resolve(w, name, "", false) }

// resolve is get, with the hole of a value not known described as desc
// when described (lookup): a hole made only to be replaced was two
// allocations for every expansion of an unknown variable.
func (sc *scope) resolve(w *walker, name, desc string, described bool) (word.Word, bool) {
	// A value the text gave the name is data it read or made (word.Seg.Data), one from outside the text is not.
	data := true
	// secret: the value may be a secret variable's (word.Seg.Secret):
	// the name says so, or a name reference may lead to one.
	secret := w.secretVar(name)
	unknown := func() word.Word {
		if !described {
			desc = "$" + name
		}
		v := word.Unknown(desc)
		v.Segs[0].Data, v.Segs[0].Secret = data, secret
		if secret {
			w.sawSecret()
		}
		return v
	}
	sc.may.readIn(name)
	if v, ok := sc.vars.lookup(name); ok {
		if v.unset {
			return word.FromLit(""), true
		}
		if v.unknown {
			// A name reference reads the variable it names: a value the
			// text gave (or may give) it.
			data = v.data || v.ref
			secret = secret || v.ref && (v.refTarget == "" || argspec.SecretName(v.refTarget))
			return unknown(), false
		}
		return v.val, true
	}
	if n, ok := paramNumber(name); ok {
		if sc.paramsUnknown {
			return unknown(), false
		}
		if n < len(sc.params) {
			return word.FromLit(sc.params[n]), true
		}
		if n == 0 {
			return unknown(), false // $0
		}
		return word.FromLit(""), true
	}
	if sc.havoc && name != "#" {
		// Any variable may have been written through a name reference.
		return unknown(), false
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
	case "HOME", "TMPDIR", "OLDPWD", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME",
		"XDG_RUNTIME_DIR", "GITHUB_OUTPUT", "GITHUB_ENV", "GITHUB_PATH", "GITHUB_STEP_SUMMARY", "GITHUB_STATE",
		"RUNNER_TEMP", "GITHUB_WORKSPACE":
		// Directories of the real environment, which the guard reads too,
		// and a CI runner's files of workflow commands ($GITHUB_OUTPUT…):
		// the runner names them, and writes to them are judged by where
		// they go.
		if w.opts.Getenv != nil {
			if v := w.opts.Getenv(name); v != "" && filepath.IsAbs(v) {
				sc.may.initial(name, v)
				if sc.may.hidden(name) {
					return unknown(), false
				}
				return word.FromLit(v), true
			}
		}
	}
	if digitVars(name) {
		return word.Word{Segs: []word.Seg{{Kind: word.Digits, Text: "$" + name}}}, false
	}
	// The environment's value, unless the text may give it one
	// (textValue: a trap handler, a function, bash itself).
	data = sc.textValue(name)
	return unknown(), false
}

// digitVars are set by bash to non-negative numbers.
func digitVars(name string) bool {
	switch name {
	case "$", "!", "?", "#", "PPID", "UID", "EUID", "BASHPID", "RANDOM", "SECONDS", "LINENO", "EPOCHSECONDS":
		return true
	}
	return false
}

// textValue reports whether a name's value may be one the text gave it,
// so data it read or made (word.Seg.Data), rather than the environment's:
// an expansion of it that is not known here is such data.
func (sc *scope) textValue(name string) bool {
	if _, ok := sc.vars.lookup(name); ok || sc.havoc || sc.may.wrote(name) {
		return true
	}
	if _, param := paramNumber(name); param || name == "@" || name == "*" || bashSetsFromText(name) {
		return true
	}
	return name == "PWD" && sc.cwd.Data
}

// bashSetsFromText reports whether bash sets a variable from the text it
// runs or from what that text does (the last argument, the command
// running, the directory stack, a line read): data (word.Seg.Data), never
// the environment's.
func bashSetsFromText(name string) bool {
	switch name {
	case "_", "BASH_COMMAND", "BASH_EXECUTION_STRING", "BASH_ARGV", "BASH_ARGV0", "BASH_ARGC", "BASH_SOURCE",
		"BASH_LINENO", "FUNCNAME", "DIRSTACK", "OLDPWD", "REPLY", "MAPFILE", "OPTARG", "COPROC", "BASH_REMATCH",
		"BASH_ALIASES", "BASH_CMDS", "READLINE_LINE", "READLINE_ARGUMENT", "COMP_LINE", "COMP_WORDS", "COMP_WORDBREAKS",
		"PIPESTATUS", "GROUPS", "SHELLOPTS", "BASHOPTS", "HISTFILE",
		"GUARD_INPUT": // what parallel reads (argspec's parallelWrapper)
		return true
	}
	return false
}

// lookup returns a variable's value, or a hole described by desc.
func (sc *scope) lookup(w *walker, name, desc string) word.Word {
	v, _ := sc.resolve(w, name, desc, true)
	return v
}

// numeric reports whether a variable certainly holds an integer, so that
// evaluating it as arithmetic cannot run code.
func (sc *scope) numeric(w *walker, name string) bool {
	// What the text wrote comes first: read -r RANDOM < F gives RANDOM
	// F's text, which its assignment then evaluates (topScope).
	if v, ok := sc.vars.lookup(name); ok {
		return v.numeric || v.unset || numericVal(v) || isEmpty(v.val) && !v.unknown
	}
	if bashNumeric(name) {
		return true
	}
	if _, ok := paramNumber(name); ok && !sc.paramsUnknown {
		v, _ := sc.get(w, name)
		s, ok := v.Static()
		_, perr := strconv.ParseInt(s, 10, 64)
		return ok && (perr == nil || s == "")
	}
	return false
}

// numericElems reports whether every element of name is a number: a[i]
// with a subscript not worked out here may read any of them.
func (sc *scope) numericElems(w *walker, name string) bool {
	st, ok := sc.vars.lookup(name)
	if !ok || st.elems == nil {
		return sc.numeric(w, name) // a scalar: element 0, the others empty
	}
	if st.unknown || st.unset {
		return st.unset
	}
	for _, e := range st.elems {
		s, ok := e.Static()
		if _, err := strconv.ParseInt(s, 10, 64); !ok || err != nil && s != "" {
			return false
		}
	}
	return true
}

func (sc *scope) isUnset(name string) bool { v, _ := sc.vars.lookup(name); return v.unset }

// setArray records an indexed array whose elements are all known words.
func (sc *scope) setArray(name string, elems []word.Word) {
	old := sc.varState(name)
	first := word.FromLit("")
	if len(elems) > 0 {
		first = elems[0]
	}
	sc.put(name, varState{val: first, elems: elems, assoc: old.assoc})
}

func (sc *scope) varState(name string) varState { v, _ := sc.vars.lookup(name); return v }

// maxValueBytes bounds a variable's known value: a=$a$a doubles it each
// time, and forty of them would be a terabyte. A longer value is not
// known here, as one known only at run time.
const maxValueBytes = 1 << 20

func (sc *scope) set(name string, v word.Word) {
	old := sc.varState(name)
	if t, ok := v.Static(); !ok || len(t) > maxValueBytes {
		// Not kept: a value the text made, of its text and what it
		// read, so data (word.Seg.Data) — ~/.ssh/$k is a key's path
		// whatever $k is.
		sc.put(name, varState{unknown: true, data: true, integer: old.integer, assoc: old.assoc})
		return
	}
	sc.put(name, varState{val: v, integer: old.integer, assoc: old.assoc})
}

func (sc *scope) setUnknown(name string) { sc.setUnknownOf(name, true) }

// markCased gives name the -l/-u attribute (varState.cased), keeping its
// value: bash changes the case of the values given it from now on.
func (sc *scope) markCased(name string) {
	st := sc.varState(name)
	st.cased = true
	sc.store(name, st)
}

// setUnknownOf records a write of a value not known here; data says
// whether it comes from data the command reads or makes (word.Seg.Data).
func (sc *scope) setUnknownOf(name string, data bool) {
	old := sc.varState(name)
	sc.put(name, varState{unknown: true, data: data, integer: old.integer, assoc: old.assoc})
}

// put records a write to name, following name references: a write to r
// after declare -n r=a is a write to a.
func (sc *scope) put(name string, st varState) {
	for depth := 0; ; depth++ {
		cur, _ := sc.vars.lookup(name)
		if !cur.ref {
			st.integer, st.assoc = cur.integer || st.integer, cur.assoc || st.assoc
			if st.cased = st.cased || cur.cased && !st.unset; st.cased && !st.unknown && !st.unset {
				st = varState{unknown: true, data: true, cased: true, integer: st.integer, assoc: st.assoc}
			}
			sc.storeVia(name, st, depth > 0)
			return
		}
		if !cur.refBound {
			// declare -n r; r=a: the value names the variable r refers to.
			if sc.may != nil && sc.may.refHook != nil {
				v := st.val
				if st.unknown || st.unset || st.elems != nil {
					v = word.Unknown("$" + name)
				}
				sc.may.refHook(sc, name, v)
			}
			t, ok := st.val.Static()
			if st.unknown || st.unset || st.elems != nil || !ok {
				t = ""
			}
			sc.vars.put(name, varState{unknown: true, ref: true, refBound: true, refTarget: t})
			return
		}
		base, _, indexed := strings.Cut(cur.refTarget, "[")
		if !word.IsName(base) || depth > 8 {
			sc.havocVars()
			return
		}
		if indexed {
			st = varState{unknown: true, data: true} // one element of an array
		}
		name = base
	}
}

// store writes a variable's state, noting the write for the may-analysis
// (may.go), and in a second walk storing it as unknown when the variable
// may have other values.
func (sc *scope) store(name string, st varState) { sc.storeVia(name, st, false) }

// storeVia is store for a write that a name reference redirected here
// (via): the variable written is not the one its assignment named.
func (sc *scope) storeVia(name string, st varState, via bool) {
	if base, _, _ := strings.Cut(name, "["); sc.may != nil {
		switch base {
		case "BASH_ALIASES":
			sc.may.aliasAny = true // an alias defined through the array
		case "BASH_CMDS":
			sc.may.hashAny = true // a name hashed to another program
		}
	}
	sc.may.assigned(name, st)
	sc.vars.put(name, sc.may.masked(name, st))
	if sc.may != nil && sc.may.exportHook != nil {
		sc.may.exportHook(name, st)
	}
	if sc.may != nil && sc.may.stored != nil {
		sc.may.stored(sc, name, st, via)
	}
}

// havocVars forgets every variable's value: a write went through a name
// reference to a variable not known here.
func (sc *scope) havocVars() {
	if sc.may != nil {
		sc.may.aliasAny = true // BASH_ALIASES may be written too
		sc.may.hashAny = true  // and BASH_CMDS
	}
	var names []string
	sc.vars.each(func(k string, s varState) {
		if !s.ref {
			names = append(names, k)
		}
	})
	for _, k := range names {
		old := sc.varState(k)
		sc.vars.put(k, varState{unknown: true, data: true, integer: old.integer, assoc: old.assoc})
	}
	sc.havoc = true
}

// declareRef makes name a name reference to target ("" when the value is
// not known); bound is false for declare -n NAME without a value.
func (sc *scope) declareRef(name, target string, bound bool) {
	if !bound {
		if cur, ok := sc.vars.lookup(name); ok && !cur.ref && !cur.unknown && !cur.unset {
			// r=a; declare -n r: the value it has is what it refers to.
			if t, ok := cur.val.Static(); ok {
				target, bound = t, true
			}
		}
	}
	sc.store(name, varState{unknown: true, ref: true, refBound: bound, refTarget: target})
	if sc.may != nil && sc.may.deferred > 0 && !sc.may.second {
		sc.may.refDef = true
	}
}

func (sc *scope) setNumeric(name string) {
	old := sc.varState(name)
	sc.put(name, varState{unknown: true, numeric: true, integer: old.integer, assoc: old.assoc})
}
