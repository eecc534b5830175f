package shellparse

import (
	"slices"
	"strings"

	"github.com/guard-exec/guard-exec/argspec"
	"github.com/guard-exec/guard-exec/word"
	"mvdan.cc/sh/v3/syntax"
)

// The walk follows the text in execution order, and its picture of the
// shell's state is exact for straight-line code, branches, loops and
// subshells. It is not for code that runs at another time than where it
// stands: a trap handler runs whenever its signal comes (a DEBUG handler
// before every command), a function body whenever it is called, with
// locals restored after it, and a function may be defined again after a
// call. So the first walk also takes note of what bash may do anywhere
// (may): every value any assignment gives each variable, whether it is
// given in such deferred code or read there, every body each function is
// given. When that shows a variable with more than one possible value that
// deferred code writes or reads, or a function with more than one body,
// the text is walked again from the start with those variables unknown
// wherever they are read and every body walked at each call: a dynamic
// word is allowed only when every value bash may give it is known and
// allowed. A second walk never needs a third: it only ever makes values
// less known. Most texts need one walk; the note costs a map entry per
// assignment.

// mayVar is what the first walk saw of one variable.
type mayVar struct {
	values   map[string]bool // the static values given it (and the environment's)
	many     bool            // more values than are worth keeping
	unknown  bool            // a value not known here
	numeric  bool            // every value is certainly an integer
	deferred bool            // assigned in deferred code
	read     bool            // read in deferred code
	wrote    bool            // assigned in the text (not only the environment's)
}

// maxMayValues bounds the values kept per variable.
const maxMayValues = 8

// mayState is the note the first walk keeps, shared by every scope of one
// walk, and what the second walk is told.
type mayState struct {
	vars     map[string]*mayVar
	given    map[string]bool     // names given a value in a command's environment (gave)
	deferred int                 // > 0 while walking deferred code
	funcs    map[string]*mayFunc // every body each function is given
	unsetF   map[string]bool     // unset -f NAME anywhere
	intDef   map[string]bool     // declare -i NAME in deferred code
	refDef   bool                // a name reference made in deferred code
	keyword  bool                // set -k (or a set argument not known here) anywhere
	nullglob bool                // shopt -s nullglob or failglob anywhere
	dotglob  bool                // shopt -s dotglob, or GLOBIGNORE set, anywhere (or inherited)
	nocase   bool                // shopt -s nocaseglob anywhere (or inherited through BASHOPTS)
	globstar bool                // shopt -s globstar anywhere: ** matches any depth
	// nocaseMatch: shopt -s nocasematch anywhere (or inherited through
	// BASHOPTS): ${x%pat} and ${x/pat/rep} may match either case.
	nocaseMatch bool
	// noglob: set -f or +f in code that may run at any time (a trap
	// handler): any glob may be expanded or left as it is written.
	noglob bool
	// localeRanges: shopt -u globasciiranges anywhere, so a range in
	// brackets ([a-c]) follows the locale's collation, which may put
	// other letters (B) inside it.
	localeRanges bool
	exportF      bool // export -f, declare -fx or set -a anywhere
	// allexport: set -a (set -o allexport) anywhere, so every variable
	// the text assigns may reach the programs it runs; exported: the
	// names export, declare -x and the assignments before a function
	// call give the environment of the programs after them. The walk
	// gives each program what was exported before it (walker.exportWrite);
	// exportAnywhere says that was not enough: a variable was exported in
	// a loop's body (which runs again after) or in a trap's handler, or a
	// handler ran code while anything was exported (trapped: the handler
	// runs at any time). Then the second walk gives every program
	// exportedEnv, every variable exported anywhere (Cmd.Exported).
	allexport      bool
	exported       map[string]bool
	exportAnywhere bool
	exportedAny    bool
	trapped        bool
	exportedEnv    []Assign
	// recursed: a function called itself (the walk does not follow the
	// inner call). posix: POSIX mode may be on anywhere (set in a loop,
	// a handler, or a recursive function): the second walk starts with
	// it on; posixSeen: set anywhere.
	recursed, posix, posixSeen bool
	src                        string // the text being walked, for function bodies' text

	// stored is told of every write (scope.store): the walker judges
	// there what a variable's value does whatever wrote it (read,
	// printf -v, for, a name reference): a code variable's value is code,
	// an integer variable's is arithmetic.
	stored func(sc *scope, name string, st varState, via bool)
	// exportHook is told of every write too (walker.exportWrite).
	exportHook func(name string, st varState)
	// refHook is told of a value that binds a name reference declared
	// without one (declare -n r; r=VALUE): VALUE is the name r then
	// refers to, whose subscript bash evaluates at every use.
	refHook func(sc *scope, name string, value word.Word)
	// lastpipe: shopt -s lastpipe anywhere, so a pipeline's last command
	// may run in the shell itself. paramsDeferred: a trap handler sets
	// the positional parameters.
	lastpipe, paramsDeferred bool
	// physical: set -P (set -o physical) anywhere, so cd may resolve
	// links as it goes: cd link/.. is not where the text says.
	physical bool
	// xtrace: set -x (set -o xtrace) anywhere, or a shell started with
	// -x: commands may be printed with their words expanded (Cmd.Traced).
	xtrace bool
	// secret: the text expands a secret variable's value somewhere
	// (walker.sawSecret).
	secret bool
	inTrap int // > 0 while walking a trap handler
	// aliasNames are the names the text defines aliases for, with the
	// words of their text when it is plain words; aliasAny:
	// one it defines is not known here (alias "$x", BASH_ALIASES written).
	// bash replaces such a name with the alias's text where it starts a
	// command read later, and runs the two together.
	aliasNames map[string][]string // the words of each alias's text; nil: not plain words
	aliasAny   bool
	// hashAny: BASH_CMDS is written, so a name may run any program
	// (bash's table of command names and the files they run).
	hashAny bool

	// For the second walk.
	second    bool
	written   map[string]bool           // every variable the text writes (wrote)
	ambiguous map[string]bool           // variables unknown wherever read
	numeric   map[string]bool           // of those, the ones whose every value is an integer
	bodies    map[string][]*syntax.Stmt // functions with several possible bodies
	unsetNow  map[string]bool           // functions that may be unset when called
}

// mayFunc is the bodies a function is given, in the order met.
type mayFunc struct {
	bodies []*syntax.Stmt
	seen   map[string]bool // their text: the same text read twice (sh as bash and as dash) is one body
}

func newMayState() *mayState {
	return &mayState{vars: map[string]*mayVar{}, funcs: map[string]*mayFunc{},
		unsetF: map[string]bool{}, intDef: map[string]bool{}}
}

func (m *mayState) entry(name string) *mayVar {
	v := m.vars[name]
	if v == nil {
		v = &mayVar{values: map[string]bool{}, numeric: true}
		m.vars[name] = v
	}
	return v
}

// assigned notes a write of st to name.
func (m *mayState) assigned(name string, st varState) {
	if m == nil || m.second {
		return
	}
	v := m.entry(name)
	v.wrote = true
	if m.deferred > 0 {
		v.deferred = true
	}
	switch {
	case st.ref:
		if m.deferred > 0 {
			m.refDef = true
		}
		v.unknown = true
	case st.unset:
		m.value(v, "\x00unset")
	case st.unknown || len(st.elems) > 1:
		v.unknown = true
		v.numeric = v.numeric && st.numeric
	default:
		s, ok := st.val.Static()
		if !ok {
			v.unknown, v.numeric = true, false
			return
		}
		m.value(v, s)
	}
}

func (m *mayState) value(v *mayVar, s string) {
	if !word.IsInteger(s) {
		v.numeric = false
	}
	if len(v.values) >= maxMayValues {
		v.many = true
		return
	}
	v.values[s] = true
}

// initial notes a value a variable has without an assignment in the text
// (HOME from the environment), read where it is read.
func (m *mayState) initial(name, s string) {
	if m == nil || m.second {
		return
	}
	m.value(m.entry(name), s)
}

// readIn notes a read of name, which matters in deferred code.
func (m *mayState) readIn(name string) {
	if m == nil || m.second || m.deferred == 0 {
		return
	}
	m.entry(name).read = true
}

// defined notes a definition of a function.
func (m *mayState) defined(name string, body *syntax.Stmt) {
	if m == nil || m.second || body == nil {
		return
	}
	f := m.funcs[name]
	if f == nil {
		f = &mayFunc{seen: map[string]bool{}}
		m.funcs[name] = f
	}
	key := ""
	if start, end := int(body.Pos().Offset()), int(body.End().Offset()); start >= 0 && start <= end && end <= len(m.src) {
		key = m.src[start:end]
	}
	if key != "" && f.seen[key] {
		return
	}
	f.seen[key] = true
	f.bodies = append(f.bodies, body)
}

// decide reads the note of a first walk and returns what a second walk
// must know, or nil when one walk was enough.
func (m *mayState) decide(getenv func(string) string) *mayState {
	if m == nil {
		return nil
	}
	next := &mayState{second: true, ambiguous: map[string]bool{}, numeric: map[string]bool{}, bodies: map[string][]*syntax.Stmt{},
		unsetNow: map[string]bool{}, intDef: m.intDef, refDef: m.refDef,
		keyword: m.keyword, nullglob: m.nullglob, dotglob: m.dotglob, nocase: m.nocase, exportF: m.exportF, lastpipe: m.lastpipe, paramsDeferred: m.paramsDeferred,
		physical: m.physical, globstar: m.globstar, xtrace: m.xtrace, secret: m.secret, localeRanges: m.localeRanges, noglob: m.noglob, nocaseMatch: m.nocaseMatch}
	// A handler's writes happen at any time, also after an export of the
	// name or set -a that comes later in the text (trap 'MAGIC=F' DEBUG;
	// export MAGIC): with anything exported anywhere, every program may
	// get them.
	if m.exportAnywhere || (m.trapped || m.recursed) && (m.exportedAny || len(m.exported) > 0 || m.allexport) {
		next.exportedEnv = m.exportedVars(getenv)
	}
	next.posix = m.posix || (m.trapped || m.recursed) && m.posixSeen
	need := len(next.exportedEnv) > 0 || next.posix || m.refDef || len(m.intDef) > 0 || m.keyword || m.nullglob || m.dotglob || m.nocase || m.exportF || m.lastpipe || m.paramsDeferred || m.physical || m.globstar || m.xtrace || m.secret || m.localeRanges || m.noglob || m.nocaseMatch
	next.written = make(map[string]bool, len(m.vars)+len(m.given))
	for name := range m.given {
		next.written[name] = true
	}
	for name, v := range m.vars {
		next.written[name] = true
		distinct := len(v.values)
		if v.unknown || v.many {
			distinct++
		}
		if distinct >= 2 && (v.deferred || v.read) {
			next.ambiguous[name] = true
			next.numeric[name] = v.numeric
			need = true
		}
	}
	for name, f := range m.funcs {
		if len(f.bodies) > 1 || m.unsetF[name] && len(f.bodies) > 0 {
			next.bodies[name] = f.bodies
			next.unsetNow[name] = m.unsetF[name]
			need = true
		}
	}
	if !need {
		return nil
	}
	return next
}

// exportedVars is the variables the text assigns that may reach the
// environment of a program it runs other than as the program's own
// assignments: exported (export N=v, declare -x, N=v before a function
// call, whose body's programs get it), every one once set -a may be on
// (or SHELLOPTS brings allexport), and a name the environment already
// holds, which bash exports as it was. Of those, the ones the catalogue
// judges wherever they are set, and the preferences and the script's own
// (lower-case) names, are left out (argspec.EnvNeedsReview). Sorted, so
// that the parts are the same from one walk to the next.
func (m *mayState) exportedVars(getenv func(string) string) []Assign {
	all := m.allexport || getenv != nil && strings.Contains(getenv("SHELLOPTS"), "allexport")
	var out []Assign
	for name, v := range m.vars {
		if !v.wrote || !word.IsName(name) {
			continue
		}
		if !all && !m.exported[name] && (getenv == nil || getenv(name) == "") {
			continue
		}
		val := word.Unknown("$" + name)
		if !v.unknown && !v.many && len(v.values) == 1 {
			for s := range v.values {
				if s != "\x00unset" {
					val = word.FromLit(s)
				}
			}
		}
		if argspec.EnvNeedsReview(name, val, ReviewedVar) {
			out = append(out, Assign{Name: name, Value: val})
		}
	}
	slices.SortFunc(out, func(a, b Assign) int { return strings.Compare(a.Name, b.Name) })
	if len(out) > maxExported {
		out = append(out[:maxExported], Assign{Value: word.Unknown("more variables")})
	}
	return out
}

// exports notes a name exported to the programs the text runs.
func (m *mayState) exports(name string) {
	if m == nil || m.second {
		return
	}
	if m.exported == nil {
		m.exported = map[string]bool{}
	}
	m.exported[name] = true
}

// masked returns the state a write stores in a second walk: a variable
// with several possible values is unknown wherever it is read.
func (m *mayState) masked(name string, st varState) varState {
	if m == nil || !m.second || !m.ambiguous[name] && !m.refDef || st.ref {
		return st
	}
	return varState{unknown: true, data: true, numeric: m.numeric[name], integer: st.integer, assoc: st.assoc}
}

// wrote reports whether the text gives name a value anywhere (noted so
// far in a first walk; anywhere, in a second): a value the name has
// where it is read may then be one the text made of data it read.
func (m *mayState) wrote(name string) bool {
	if m == nil {
		return false
	}
	if m.second {
		return m.written[name]
	}
	return m.vars[name] != nil || m.given[name]
}

// gave notes a name given a value for one command's environment (NAME=V
// CMD, env NAME=V CMD): what that command runs reads it as its
// environment, but the text made it.
func (m *mayState) gave(name string) {
	if m == nil || m.second {
		return
	}
	if m.given == nil {
		m.given = map[string]bool{}
	}
	m.given[name] = true
}

// hidden reports whether a variable's value is unknown in a second walk.
// A name reference made in deferred code may redirect any write at any
// time: then no variable is known.
func (m *mayState) hidden(name string) bool {
	return m != nil && m.second && (m.ambiguous[name] || m.refDef)
}
