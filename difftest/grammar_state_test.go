//go:build linux

package difftest

// The state-changing part of the grammar (issue 11): constructs whose effect
// on variables, functions, aliases and shell options bash applies at a time
// or in an order the text does not show — trap handlers of every kind that
// assign, redefinitions and unset -f, definitions on branches, exported
// functions reaching child shells, every builtin that assigns without an
// assignment word, quoted compound and integer assignments, loops and
// recursion that carry state, case fall-through, set -k, nullglob, extglob
// bodies, code re-read by dash (aliases, echo escapes, no brace expansion),
// lastpipe keeping what a pipeline's last element changes, and the variables
// that carry code (PS4, BASH_ENV, ENV, PROMPT_COMMAND) set by those means.
//
// It is opt-in: FuzzGrammar uses it only when GUARD_EXEC_FUZZ_STATE=1, since
// the walker does not yet judge these constructs soundly (see
// testdata/corpus-pending/README.md) and the default CI run must stay green
// until it does. TestGrammarStateValid checks on every run that it makes
// valid bash.
//
// Termination is kept by construction: a function body only calls
// functions defined before it (a redefinition of f_j only calls f_i with
// i < j), recursion goes through a counted argument, loops run over fixed
// words or here-strings, CHLD and RETURN handlers only assign literals (a
// handler that started a program would raise the next SIGCHLD), and
// command_not_found_handle only runs a marker.

import (
	"os"
	"strconv"
	"strings"
)

// fuzzStateEnv turns the state grammar on for FuzzGrammar.
const fuzzStateEnv = "GUARD_EXEC_FUZZ_STATE"

func fuzzStateOn() bool { return os.Getenv(fuzzStateEnv) == "1" }

// stateKinds is how many extra choices command has in state mode.
const stateKinds = 13

// stateSnippets are the handpicked seeds of the state grammar (append only:
// an index is a seed's whole input in state mode).
var stateSnippets = []string{
	`C=m1; trap '"$C"' EXIT; C=m9`,
	`P=m1; trap 'P=m9' DEBUG; "$P"`,
	`C=m1; trap 'C=m9' ERR; false; "$C"`,
	`f(){ trap 'C=m9' RETURN; }; C=m1; f; "$C"`,
	`C=m1; trap 'C=m9' CHLD; m2; "$C"`,
	`f(){ m1; }; trap f EXIT; f(){ m9; }`,
	`f(){ m1; }; f; f(){ m9; }; f`,
	`if false; then f(){ m1; }; fi; f(){ m9; }; f`,
	`m9(){ m1; }; unset m9; m9`,
	`f(){ m9; }; export -f f; bash -c f`,
	`set -a; f(){ m9; }; bash -c f`,
	`printf -vC m9; "$C"`,
	`mapfile -t <<< m9; "${MAPFILE[0]}"`,
	`getopts a: o -a m9; "$OPTARG"`,
	`select x in a; do "$REPLY"; break; done <<< m9`,
	`[[ m9 =~ (.*) ]]; "${BASH_REMATCH[1]}"`,
	`: m9; "$_"`,
	`: ${C:=m9}; "$C"`,
	`for C in m9; do :; done; "$C"`,
	`declare -n R=C; R=m9; "$C"`,
	`typeset -a 'A=(m1 $(m9))'`,
	`declare -i N; N='A[$(m9)]'`,
	`f(){ local C=m1; }; C=m9; f; "$C"`,
	`C=m1; for i in 1 2; do "$C"; C=m9; done`,
	`f(){ (( $1 )) || { "$C"; return; }; C=m9; f 0; }; C=m1; f 1`,
	`case a in a) C=m1 ;& b) C=m9 ;; esac; "$C"`,
	`case a in a) ;;& *) m9 ;; esac`,
	`set -k; f(){ "$C"; }; f C=m9`,
	`shopt -s nullglob; *.nomatch m9`,
	`bash -O extglob -c 'echo !(x|$(m9))'`,
	`sh -c 'alias a=m9
a'`,
	`sh -c 'x=$(echo "\1559"); $x'`,
	`read -r PS4 <<< '$(m9)'; set -x; m1`,
	`echo m9 > be.sh; printf -v BASH_ENV be.sh; export BASH_ENV; bash -c :`,
	`printf -v PROMPT_COMMAND m9; export PROMPT_COMMAND; bash -i </dev/null >/dev/null 2>&1`,
	`set -k; echo m9 > be.sh; bash -c : BASH_ENV=be.sh`,
	`shopt -s lastpipe; f(){ m1; }; : | f(){ m9; }; f`,
	`shopt -s lastpipe; m9(){ m1; }; : | unset -f m9; m9`,
	`sh -c 'm1 {a,b}'`,
}

// stateCommand is one of the state-changing constructs.
func (g *grammar) stateCommand(d int) string {
	switch g.pick(stateKinds) {
	case 0:
		return g.stateTrap(d)
	case 1:
		return g.redefine(d)
	case 2:
		return g.exportFunc(d)
	case 3, 4:
		return g.assigningBuiltin(d)
	case 5:
		return g.compoundOrInteger()
	case 6:
		return g.stateLoop(d)
	case 7:
		return g.recursion(d)
	case 8:
		return g.fallThrough(d)
	case 9:
		return g.stateOption(d)
	case 10:
		return g.dashCode()
	case 11:
		// lastpipe runs a pipeline's last element in the shell itself,
		// so what it defines, removes or traps stays
		s := "shopt -s lastpipe; : | "
		switch g.pick(3) {
		case 0:
			return s + g.redefine(d)
		case 1:
			return s + g.stateTrap(d)
		}
		return s + g.newVar() + "=" + g.marker()
	}
	return g.codeVariable()
}

func (g *grammar) newVar() string {
	v := []string{"C", "P", "X", "Y"}[g.pick(4)]
	g.addVar(v)
	return v
}

// stateTrap: handlers that assign, or use state that changes afterwards.
func (g *grammar) stateTrap(d int) string {
	v := g.newVar()
	m := g.marker()
	switch g.pick(8) {
	case 0:
		return "trap " + g.quote(`"$`+v+`"`) + " EXIT; " + v + "=" + m
	case 1:
		return "trap " + sq(v+"="+m) + " DEBUG"
	case 2:
		return "trap " + sq(v+"="+m) + " ERR; false"
	case 3:
		// RETURN handlers only assign: see the file comment
		*g.nfunc++
		name := "f" + strconv.Itoa(*g.nfunc)
		g.funcs = append(g.funcs, name)
		return name + "(){ trap " + sq(v+"="+m) + " RETURN; }; " + name
	case 4:
		return []string{"", "set -m; "}[g.pick(2)] + "trap " + sq(v+"="+m) + " " + []string{"CHLD", "SIGCHLD"}[g.pick(2)]
	case 5:
		if len(g.funcs) > 0 {
			return "trap " + g.funcs[g.pick(len(g.funcs))] + " " + []string{"EXIT", "DEBUG", "ERR"}[g.pick(3)]
		}
	case 6:
		return "set -" + []string{"E", "T"}[g.pick(2)]
	}
	return "trap " + g.quote("set -- "+m) + " DEBUG"
}

// redefine redefines or removes a function or alias defined earlier.
func (g *grammar) redefine(d int) string {
	if len(g.funcs) > 0 && g.pick(4) != 0 {
		j := g.pick(len(g.funcs))
		name := g.funcs[j]
		if name == "command_not_found_handle" {
			return name + "(){ " + g.marker() + "; }"
		}
		switch g.pick(5) {
		case 0:
			return "unset -f " + name
		case 1:
			return "unset " + name
		}
		saved, savedIn := g.funcs, g.inFunc
		g.funcs, g.inFunc = g.funcs[:j], true // only functions defined before it
		body := g.list(d + 1)
		g.funcs, g.inFunc = saved, savedIn
		def := name + "(){ " + body + "; }"
		switch g.pick(4) {
		case 1:
			return "if false; then " + def + "; fi"
		case 2:
			return "true || " + def
		case 3:
			return "eval " + sq(def)
		}
		return def
	}
	if len(g.aliases) > 0 {
		a := g.aliases[g.pick(len(g.aliases))]
		if g.pick(3) == 0 {
			return "unalias " + a
		}
		return "alias " + a + "=" + g.marker()
	}
	// a marker shadowed by a function, which unset may take away again
	// (its body runs the program: a function must never call itself)
	m := g.marker()
	return m + "(){ command " + g.marker() + "; }; " + []string{"unset -f " + m, "unset " + m, ":"}[g.pick(3)]
}

// exportFunc exports a function to a child shell that calls it.
func (g *grammar) exportFunc(d int) string {
	var cands []string
	for _, f := range g.funcs {
		if f != "command_not_found_handle" {
			cands = append(cands, f)
		}
	}
	var f, pre string
	if len(cands) == 0 || g.pick(3) == 0 {
		*g.nfunc++
		f = "f" + strconv.Itoa(*g.nfunc)
		pre = f + "(){ " + g.marker() + "; }; "
		g.funcs = append(g.funcs, f)
	} else {
		f = cands[g.pick(len(cands))]
	}
	how := []string{"export -f " + f, "declare -fx " + f, "typeset -fx " + f, "declare -x -f " + f}[g.pick(4)]
	child := []string{"bash -c " + f, "echo " + f + " | bash", "env bash -c " + f, "bash -c " + sq("g(){ "+f+"; }; g")}[g.pick(4)]
	return pre + how + "; " + child
}

// assigningBuiltin assigns a variable without an assignment word.
func (g *grammar) assigningBuiltin(d int) string {
	v := g.newVar()
	m := g.marker()
	switch g.pick(16) {
	case 0:
		return "read -r " + v + " <<< " + m
	case 1:
		return "IFS=: read -r _ " + v + " <<< " + g.marker() + ":" + m
	case 2:
		return "printf -v" + v + " %s " + m
	case 3:
		return "printf -v " + v + " '%s%s' m " + m[1:]
	case 4:
		return "mapfile -t <<< " + m + "; " + v + "=${MAPFILE[0]}"
	case 5:
		return "readarray -t A <<< " + m + "; " + v + "=${A[0]}"
	case 6:
		return "getopts a: o -a " + m + "; " + v + "=$OPTARG"
	case 7:
		return "select " + v + " in " + m + "; do break; done <<< 1"
	case 8:
		return "select _x in a; do " + v + "=$REPLY; break; done <<< " + m
	case 9:
		return "[[ " + m + " =~ (.*) ]]; " + v + "=${BASH_REMATCH[1]}"
	case 10:
		return ": " + m + "; " + v + "=$_"
	case 11:
		return ": ${" + v + ":=" + m + "}"
	case 12:
		return "for " + v + " in " + g.marker() + " " + m + "; do :; done"
	case 13:
		return "declare -n R=" + v + "; R=" + m + "; unset -n R"
	case 14:
		if g.inFunc {
			return []string{"local ", "declare ", "typeset ", "declare -g "}[g.pick(4)] + v + "=" + m
		}
		return "mapfile -t -C " + m + " -c 1 A <<< a"
	}
	if len(g.funcs) > 0 {
		return v + "=" + m + " " + g.funcs[g.pick(len(g.funcs))]
	}
	return "shopt -s lastpipe; echo " + m + " | read -r " + v
}

func (g *grammar) compoundOrInteger() string {
	m := g.marker()
	switch g.pick(6) {
	case 0:
		return []string{"typeset", "declare"}[g.pick(2)] + " -a " + sq("A=("+g.marker()+" $("+m+"))")
	case 1:
		return "declare -A " + sq("M=([k]=$("+m+"))")
	case 2:
		g.arrays = append(g.arrays, "A")
		return "declare -a " + sq("A=("+g.marker()+" "+m+")")
	case 3:
		return "declare -i N; N=" + sq("A[$("+m+")]")
	case 4:
		return "declare -i N; read -r N <<< " + sq("A[$("+m+")]")
	}
	return "declare -i N; for N in " + sq("A[$("+m+")]") + "; do :; done"
}

// stateLoop: a loop whose body changes what the next iteration runs.
func (g *grammar) stateLoop(d int) string {
	v := g.newVar()
	use := []string{`"$` + v + `"`, "$" + v, "${" + v + ":-" + g.marker() + "}"}[g.pick(3)]
	set := v + "=" + g.marker()
	switch g.pick(4) {
	case 1:
		set = "read -r " + v + " <<< " + g.marker()
	case 2:
		set = "printf -v " + v + " %s " + g.marker()
	}
	body := use + "; " + set
	if g.pick(2) == 0 && d < grammarMaxDepth {
		body = g.list(d+1) + "; " + body
	}
	switch g.pick(4) {
	case 1:
		return "_n=0; while (( _n++ < 2 )); do " + body + "; done"
	case 2:
		return "for (( _k = 0; _k < 2; _k++ )); do " + body + "; done"
	case 3:
		return "select _s in a b; do " + body + "; done <<< " + sq("1\n2")
	}
	return v + "=" + g.marker() + "; for i in 1 2; do " + body + "; done"
}

// recursion: a function that calls itself a counted number of times,
// changing state on the way down and using it on the way up.
func (g *grammar) recursion(d int) string {
	*g.nfunc++
	name := "r" + strconv.Itoa(*g.nfunc)
	v := g.newVar()
	saved := g.inFunc
	g.inFunc = true
	body := g.list(d + 1)
	g.inFunc = saved
	def := name + "(){ (( $1 > 0 )) || return 0; " + body + "; " + `"${` + v + `:-m1}"; ` + v + "=" + g.marker() + "; " + name + " $(( $1 - 1 )); }"
	g.funcs = append(g.funcs, name)
	return def + "; " + name + " " + strconv.Itoa(1+g.pick(3))
}

func (g *grammar) fallThrough(d int) string {
	v := g.newVar()
	op := []string{";&", ";;&"}[g.pick(2)]
	pat := []string{"*", "a", "b", "a|b"}[g.pick(4)]
	return "case a in a) " + v + "=" + g.marker() + " " + op + " " + pat + ") " + g.list(d+1) + "; " + v + "=" + g.marker() + " ;; esac"
}

// stateOption: set -k, nullglob and extglob with the words they change.
func (g *grammar) stateOption(d int) string {
	m := g.marker()
	switch g.pick(8) {
	case 0:
		return []string{"set -k", "set -o keyword", "set -ek"}[g.pick(3)]
	case 1:
		if len(g.funcs) > 0 {
			v := g.newVar()
			return "set -k; " + g.funcs[g.pick(len(g.funcs))] + " " + v + "=" + m
		}
		return "set -k; bash -c " + sq(`"$C"`) + " C=" + m
	case 2:
		return "shopt -s nullglob; *.nomatch " + m + " " + g.word()
	case 3:
		return "shopt -s nullglob; set -- *.none " + m + `; "$1"`
	case 4:
		return "bash -O extglob -c " + sq("echo !(x|$("+m+"))")
	case 5:
		return "shopt -s extglob; eval " + sq("echo @(x|$("+m+"))")
	case 6:
		return "[[ x == @(x|$(" + m + ")) ]]"
	}
	return "shopt -s failglob; m1 *.nomatch; shopt -u failglob"
}

// dashCode: code that dash reads differently from bash.
func (g *grammar) dashCode() string {
	m := g.marker()
	switch g.pick(4) {
	case 0:
		return "sh -c " + sq("alias a="+m+"\na")
	case 1:
		// dash's echo turns \155 into m
		return "sh -c " + sq(`x=$(echo "\155`+m[1:]+`"); $x`)
	case 2:
		return "sh -c " + sq(`C=m1; trap '"$C"' EXIT; C=`+m)
	}
	return "sh -c " + sq("eval "+sq(m))
}

// codeVariable: a variable that carries code, set without an assignment word.
func (g *grammar) codeVariable() string {
	m := g.marker()
	set := []string{"read -r NAME <<< VAL", "printf -v NAME %s VAL", "for NAME in VAL; do :; done", "IFS=: read -r _ NAME <<< :VAL"}[g.pick(4)]
	sub := func(name, val string) string {
		return strings.NewReplacer("NAME", name, "VAL", val).Replace(set)
	}
	switch g.pick(4) {
	case 0:
		return sub("PS4", sq("$("+m+")")) + "; set -x; m1; set +x"
	case 1:
		return "echo " + m + " > be.sh; " + sub("BASH_ENV", "be.sh") + "; export BASH_ENV; bash -c :; unset BASH_ENV"
	case 2:
		return sub("PROMPT_COMMAND", m) + "; export PROMPT_COMMAND; bash -i </dev/null >/dev/null 2>&1; unset PROMPT_COMMAND"
	}
	return "echo " + m + " > env.sh; " + sub("ENV", "env.sh") + "; export ENV; sh -i -c : 2>/dev/null; unset ENV"
}
