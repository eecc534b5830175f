//go:build linux

package difftest

// The bash grammar behind FuzzGrammar (fuzz_test.go).
//
// A fuzz input is not bash text: it is a stream of choices. Each byte picks
// one production (byte % number of choices) and a finished stream reads as
// zeros, so every input, however mutated, yields a short, valid, terminating
// bash program, and choice 0 is always the simplest one (`m1`).
//
// The programs run marker programs m1…m9 (recording stubs that print nothing)
// in every way bash has of starting a command: plain and quoted names,
// variables assigned earlier, arrays, positional parameters, brace expansion,
// functions, aliases, wrappers (env, timeout, nice, nohup, stdbuf, setsid,
// command, exec, time, xargs, find -exec), code in strings (eval, bash -c,
// sh -c, trap, here-strings, heredocs and pipes into a shell, source),
// substitutions ($(…), `…`, <(…), >(…)), arithmetic, and data that becomes
// code. Loops are bounded (for over fixed words, while … break, until over a
// true condition); functions only call functions defined before them and are
// never redefined, so nothing recurses.

import (
	"fmt"
	"strconv"
	"strings"
)

const (
	grammarMaxDepth = 3 // nesting of compounds, substitutions and code strings
	grammarMaxCmds  = 8 // simple commands in a whole program
)

// grammarSnippets are handpicked tricky programs. Each is a seed of
// FuzzGrammar on its own (snippetSeed) and a production the fuzzer can
// combine with the others.
var grammarSnippets = []string{
	`X=m9; $X`,
	`eval 'm9'`,
	`bash -c 'm9'`,
	`sh -c 'm9 a'`,
	`{m1,m9}`,
	`{m9,m1} a`,
	`f(){ m9; }; f`,
	`f(){ m9; }`,
	`trap m9 EXIT`,
	`trap 'm1; m9' EXIT; m2`,
	`echo m9 | bash`,
	`echo 'm1; m9' | sh`,
	`bash <<< 'm9'`,
	`m1 $(m9)`,
	`echo "$(m9)"`,
	"echo `m9`",
	"cat <<EOF\n$(m9)\nEOF",
	"cat <<'EOF'\n$(m9)\nEOF",
	"cat <<'EOF' | bash\nm9\nEOF",
	"bash <<EOF\nm1\nm9\nEOF",
	`xargs m9 </dev/null`,
	`echo a | xargs -I{} m9 {}`,
	`echo m9 | xargs -I{} {}`,
	`env m9`,
	`env -i A=1 m9`,
	`timeout --foreground 5 m9`,
	`nice -n 1 m9`,
	`nohup m9`,
	`command m9`,
	`exec m9`,
	`find . -maxdepth 0 -exec m9 {} \;`,
	`case x in x) m9;; esac`,
	`case m9 in m1) ;; *) m1;; esac`,
	`for c in m1 m9; do $c; done`,
	`for c in m1; do $c a; done`,
	`X=m1; f(){ X=m9; }; f; $X`,
	`X=m1; ( X=m9 ); $X`,
	`X=m1; true || X=m9; $X`,
	`X=m1; if false; then X=m9; fi; $X`,
	`X=m1; X=m9 :; $X`,
	`A=(m1 m9); "${A[@]}"`,
	`A=(m1 m9); ${A[1]}`,
	`set -- m9 a; "$@"`,
	`Y=X; X=m9; ${!Y}`,
	`declare -n R=X; X=m9; $R`,
	`X='a[$(m9)]'; (( X ))`,
	`printf -v X %s m9; $X`,
	`read -r X <<< m9; $X`,
	`X=$'m\x39'; $X`,
	`X=m; ${X}9`,
	`${U:-m9}`,
	`X=m19; ${X/1/}`,
	`IFS=x; X=m1xm9; $X`,
	`X='m1 m9'; $X`,
	`X=m9; unset X; $X`,
	`f(){ local X=m9; $X; }; f`,
	`export X=m9; bash -c '$X'`,
	`bash -c '"$0" a' m9`,
	`sh -c '"$@"' sh m9`,
	"shopt -s expand_aliases\nalias a1=m9\na1",
	`trap 'm9' DEBUG; :`,
	`f(){ m9; }; trap f EXIT`,
	`eval "$(echo m9)"`,
	`source <(echo m9)`,
	`. /dev/stdin <<< m9`,
	`m1 <(m9)`,
	`m1 > >(m9)`,
	`coproc m9`,
	`time m9`,
	`while m1; do m9; break; done`,
	`until m1; do m9; done`,
	`m1 & m9; wait`,
	`m1 | m9`,
	`! m9`,
	`m\9`,
	`'m9'`,
	`m""9`,
	`echo bTk= | base64 -d | bash`,
	`awk 'BEGIN { system("m9") }'`,
	`echo 'm9'; command -v m9; type m9 >/dev/null; : m9`,
	// append only: an index is a seed's whole input
	`X='$(m9)'; echo ${X@P}`,
	`PS4='$(m9)'; set -x; m1`,
	`f() { m9; }; export -f f; bash -c f`,
	`select x in a; do m9; done`,
	`mapfile -t A < <(echo m9); ${A[0]}`,
	"cat <<E'O'F\nx\\\nEOF\nm9\nEOF",
}

// snippetSeed is the fuzz input whose program is exactly grammarSnippets[i].
func snippetSeed(i int) []byte { return []byte{snippetMode, byte(i)} }

// snippetMode as a first byte starts the program with a snippet.
const snippetMode = 0xF0

type grammar struct {
	data    []byte
	pos     int
	cmds    int      // simple commands left
	vars    []string // variable names assigned so far
	arrays  []string
	funcs   []string // functions defined so far (callable without recursion)
	aliases []string
	nfunc   *int // shared counters, unique across nested code strings
	ndelim  *int
	inFunc  bool
	wasDef  bool // the last command was a function definition
	state   bool // with the state-changing constructs (grammar_state_test.go)
}

// generateProgram turns a fuzz input into a bash program.
func generateProgram(data []byte) string { return generate(data, false) }

// generate is generateProgram, with the state-changing constructs when state is set.
func generate(data []byte, state bool) string {
	nf, nd := 0, 0
	g := &grammar{data: data, cmds: grammarMaxCmds, nfunc: &nf, ndelim: &nd, state: state}
	mode := g.next()
	if mode >= snippetMode && len(data) > 1 {
		snippets := grammarSnippets
		if state {
			snippets = append(append([]string{}, grammarSnippets...), stateSnippets...)
		}
		s := snippets[g.next()%len(snippets)]
		if g.pick(4) == 0 {
			return s
		}
		g.cmds -= 2
		return s + "\n" + g.list(0)
	}
	return g.list(0)
}

func (g *grammar) next() int {
	if g.pos >= len(g.data) {
		return 0
	}
	b := g.data[g.pos]
	g.pos++
	return int(b)
}

func (g *grammar) pick(n int) int { return g.next() % n }

func (g *grammar) marker() string {
	// m9, the denied one, seldom: most programs should be allowed, so
	// that bash runs them and the allow path is what gets tested
	if i := g.pick(32); i < 30 {
		return "m" + strconv.Itoa(1+i%8)
	}
	return "m9"
}

func (g *grammar) varName() string {
	if len(g.vars) > 0 && g.pick(3) > 0 {
		return g.vars[g.pick(len(g.vars))]
	}
	return []string{"X", "Y", "Z", "C"}[g.pick(4)]
}

func (g *grammar) addVar(v string) {
	for _, x := range g.vars {
		if x == v {
			return
		}
	}
	g.vars = append(g.vars, v)
}

func sq(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func dq(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, `$`, `\$`, "`", "\\`").Replace(s) + `"`
}

func ansiC(s string) string {
	return `$'` + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + `'`
}

// quote quotes code or data one of the ways bash reads back as the same text.
func (g *grammar) quote(s string) string {
	switch g.pick(4) {
	case 1:
		return dq(s)
	case 2:
		return ansiC(s)
	}
	return sq(s)
}

// list is 1-3 pipelines joined by ; newline && || &.
func (g *grammar) list(d int) string {
	n := 1 + g.pick(3)
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString([]string{"; ", "\n", " && ", " || ", " & ", "; "}[g.pick(6)])
		}
		b.WriteString(g.pipeline(d))
	}
	return b.String()
}

func (g *grammar) pipeline(d int) string {
	var b strings.Builder
	prefix := []string{"", "", "", "", "", "", "! ", "time "}[g.pick(8)]
	if prefix == "time " && d > 0 {
		prefix = "" // bash cannot read `<(time for …)`
	}
	g.wasDef = false
	c := g.command(d)
	if !g.wasDef { // `! f() {…}` is not bash
		b.WriteString(prefix)
	}
	b.WriteString(c)
	for i, n := 0, g.pick(4)/2; i < n; i++ {
		b.WriteString([]string{" | ", " |& "}[g.pick(2)])
		b.WriteString(g.command(d))
	}
	return b.String()
}

// command is one simple command, compound command or special statement.
func (g *grammar) command(d int) string {
	if g.cmds <= 0 {
		return ":"
	}
	n := 36
	if g.state {
		n += 8
	}
	k := g.pick(n)
	if d >= grammarMaxDepth && k >= 8 {
		k = 0
	}
	if k >= 36 {
		return g.stateCommand(d)
	}
	switch k {
	case 8:
		return "( " + g.list(d+1) + " )"
	case 9:
		return "{ " + g.list(d+1) + "; }"
	case 10:
		s := "if " + g.list(d+1) + "; then " + g.list(d+1) + "; "
		if g.pick(2) == 1 {
			s += "else " + g.list(d+1) + "; "
		}
		return s + "fi"
	case 11:
		v := []string{"c", "X", "w"}[g.pick(3)]
		words := []string{g.marker()}
		for i, n := 0, g.pick(3); i < n; i++ {
			words = append(words, g.arg(d+1))
		}
		g.addVar(v)
		return "for " + v + " in " + strings.Join(words, " ") + "; do " + g.list(d+1) + "; done"
	case 12:
		if g.pick(2) == 0 {
			// _k is assigned nowhere else, so the loop always ends
			return "for (( _k = 0; _k < 2; _k++ )); do " + g.list(d+1) + "; done"
		}
		return "for i in 1 2; do " + g.list(d+1) + "; done"
	case 13:
		if g.pick(2) == 0 {
			return "while " + g.simple(d+1) + "; do " + g.list(d+1) + "; break; done"
		}
		// the condition may fail (a name bash cannot find): leave anyway
		return "until " + g.simple(d+1) + "; do " + g.list(d+1) + "; break; done"
	case 14:
		subj := []string{"x", g.marker(), "$" + g.varName(), "$1"}[g.pick(4)]
		pats := []string{"x", g.marker(), "m[0-9]", "*", "m1|m9", "''"}
		s := "case " + subj + " in "
		for i, n := 0, 1+g.pick(2); i < n; i++ {
			s += pats[g.pick(len(pats))] + ") " + g.list(d+1) + ";; "
		}
		return s + "esac"
	case 15:
		return g.funcDef(d)
	case 16, 17:
		return g.assignment(d)
	case 18:
		return g.evalStmt(d)
	case 19:
		return g.shellC(d)
	case 20:
		return g.pipedCode(d)
	case 21:
		return g.trap(d)
	case 22:
		return g.heredoc(d)
	case 23:
		return g.spawner(d)
	case 24:
		return g.benign()
	case 25:
		// a group, so that a snippet with a heredoc or a function
		// definition is still one command wherever it stands
		g.cmds--
		return "{ " + grammarSnippets[g.pick(len(grammarSnippets))] + "\n}"
	case 26:
		return g.condition(d)
	case 27:
		return g.shellState()
	case 28:
		return g.alias(d)
	case 29:
		return g.source(d)
	case 30:
		if g.pick(2) == 0 {
			// its own stdin: a coprocess reading the shell's pipe would
			// never see EOF before `wait`
			return "coproc " + g.simple(d+1) + " </dev/null"
		}
		return "wait"
	}
	return g.simple(d)
}

func (g *grammar) funcDef(d int) string {
	*g.nfunc++
	name := "f" + strconv.Itoa(*g.nfunc)
	if g.pick(6) == 5 {
		// bash calls it for a command it cannot find (see missing)
		name = "command_not_found_handle"
	}
	saved := g.inFunc
	g.inFunc = true
	var body string
	switch g.pick(3) {
	case 0:
		body = name + "() { " + g.list(d+1) + "; }"
	case 1:
		body = "function " + name + " { " + g.list(d+1) + "; }"
	default:
		body = name + "() ( " + g.list(d+1) + " )"
	}
	g.inFunc = saved
	g.funcs = append(g.funcs, name)
	g.wasDef = true
	return body
}

func (g *grammar) value(d int) string {
	switch g.pick(10) {
	case 1:
		return sq(g.marker() + " " + g.word())
	case 2:
		return dq(g.marker())
	case 3:
		return ansiC(g.marker())
	case 4:
		return "$(echo " + g.marker() + ")"
	case 5:
		return "${" + g.varName() + ":-" + g.marker() + "}"
	case 6:
		return "$" + g.varName()
	case 7:
		return g.word()
	case 8:
		if d < grammarMaxDepth {
			return "$(" + g.list(d+1) + ")"
		}
	}
	return g.marker()
}

func (g *grammar) assignment(d int) string {
	v := g.varName()
	var s string
	switch g.pick(20) {
	case 1:
		s = "declare " + v + "=" + g.value(d)
	case 2:
		s = "export " + v + "=" + g.value(d)
	case 3:
		if g.inFunc {
			s = "local " + v + "=" + g.value(d)
		} else {
			s = v + "+=" + g.value(d)
		}
	case 4:
		g.arrays = append(g.arrays, "A")
		s = "A=(" + g.marker() + " " + g.marker() + ")"
	case 5:
		g.arrays = append(g.arrays, "A")
		s = "A[" + strconv.Itoa(g.pick(2)) + "]=" + g.marker()
	case 6:
		s = "read -r " + v + " <<< " + g.marker()
	case 7:
		s = "printf -v " + v + " %s " + g.marker()
	case 8:
		s = "IFS=" + []string{"x", ":", "' '"}[g.pick(3)]
	case 9:
		s = "unset " + v
	case 10:
		s = "declare -n " + v + "=" + g.varName()
	case 11:
		s = "set -- " + g.marker() + " " + g.word()
	case 12:
		s = ": ${" + v + ":=" + g.marker() + "}"
	case 13:
		s = "mapfile -t A <<< " + g.marker()
		g.arrays = append(g.arrays, "A")
	case 14:
		s = v + "=" + g.value(d) + " " + g.simple(d)
	case 15:
		s = v + "=" + g.marker() + " " + v + "=" + g.value(d)
	default:
		s = v + "=" + g.value(d)
	}
	g.addVar(v)
	return s
}

func (g *grammar) word() string {
	return []string{"a", "b", "-x", "--long", "x.txt", "1", "notes.txt", "''", "-n", "a=b"}[g.pick(10)]
}

// code is a list for another shell (fresh: no functions) or for eval/trap (same shell).
func (g *grammar) code(d int, fresh bool) string {
	if !fresh {
		return g.list(d + 1)
	}
	savedF, savedA := g.funcs, g.aliases
	g.funcs, g.aliases = nil, nil
	s := g.list(d + 1)
	g.funcs, g.aliases = savedF, savedA
	return s
}

func (g *grammar) evalStmt(d int) string {
	switch g.pick(6) {
	case 1:
		return "eval " + g.simple(d+1)
	case 2:
		return "eval \"$" + g.varName() + "\""
	case 3:
		return []string{"builtin", "command"}[g.pick(2)] + " eval " + g.quote(g.code(d, false))
	}
	return "eval " + g.quote(g.code(d, false))
}

func (g *grammar) shell() string {
	return []string{"bash", "sh", "bash", "env bash", "bash --norc", "bash -e", "bash -o pipefail"}[g.pick(7)]
}

func (g *grammar) shellC(d int) string {
	sh := g.shell()
	c := g.quote(g.code(d, true))
	switch g.pick(6) {
	case 1:
		return sh + " -c " + c + " name " + g.marker()
	case 2:
		return sh + " -c -- " + c
	case 3:
		if strings.HasPrefix(sh, "bash") {
			return "bash -ec " + c
		}
	case 4:
		return "env " + g.varName() + "=" + g.marker() + " " + sh + " -c " + c
	}
	return sh + " -c " + c
}

func (g *grammar) pipedCode(d int) string {
	sh := g.shell()
	c := g.code(d, true)
	switch g.pick(5) {
	case 1:
		return "printf '%s\\n' " + g.quote(c) + " | " + sh
	case 2:
		return sh + " <<< " + g.quote(c)
	case 3:
		return sh + " -s <<< " + g.quote(c)
	case 4:
		return g.heredocWith(sh, c)
	}
	return "echo " + g.quote(c) + " | " + sh
}

func (g *grammar) trap(d int) string {
	var action string
	if len(g.funcs) > 0 && g.pick(3) == 0 {
		action = g.funcs[g.pick(len(g.funcs))]
	} else {
		action = g.quote(g.code(d, false))
	}
	sig := []string{"EXIT", "EXIT", "ERR", "DEBUG", "EXIT INT", "0"}[g.pick(6)]
	if g.pick(2) == 1 {
		return "trap -- " + action + " " + sig
	}
	return "trap " + action + " " + sig
}

// heredoc is a complete statement: a group, so that what follows it may
// stand on the same line as its closing brace.
func (g *grammar) heredoc(d int) string {
	cmds := []string{"cat", g.marker(), "bash", "sh", "xargs " + g.marker(),
		"while read -r l; do $l; done", "source /dev/stdin", "eval \"$(cat)\"", "cat | bash"}
	c := cmds[g.pick(len(cmds))]
	var lines []string
	for i, n := 0, 1+g.pick(2); i < n; i++ {
		switch g.pick(7) {
		case 1:
			lines = append(lines, "$("+g.marker()+")")
		case 2:
			lines = append(lines, "$"+g.varName())
		case 3:
			lines = append(lines, "`"+g.marker()+"`")
		case 4:
			lines = append(lines, "hello "+g.word())
		case 5: // a backslash-newline: joined in an unquoted body only
			lines = append(lines, "hello \\", g.marker()+" "+g.word())
		default:
			lines = append(lines, g.marker()+" "+g.word())
		}
	}
	return g.heredocWith(c, strings.Join(lines, "\n"))
}

func (g *grammar) heredocWith(cmd, body string) string {
	*g.ndelim++
	delim := "E" + strconv.Itoa(*g.ndelim)
	spec := delim
	switch g.pick(6) {
	case 1:
		spec = "'" + delim + "'"
	case 2:
		spec = `"` + delim + `"`
	case 3:
		spec = "\\" + delim
	case 4: // quoted in part: quoted to bash
		spec = delim[:1] + "'" + delim[1:] + "'"
	case 5:
		spec = `"` + delim[:1] + `"` + delim[1:]
	}
	op := "<<"
	if g.pick(3) == 2 {
		op = "<<-"
		body = "\t" + strings.ReplaceAll(body, "\n", "\n\t")
	}
	return "{ " + cmd + " " + op + spec + "\n" + body + "\n" + delim + "\n}"
}

func (g *grammar) spawner(d int) string {
	m := g.marker()
	switch g.pick(10) {
	case 1:
		return "xargs " + m + " <<< " + sq("a b")
	case 2:
		return "xargs -I{} " + m + " {} <<< a"
	case 3:
		return "printf '%s\\n' " + m + " | xargs -I{} {}"
	case 4:
		return "find . -maxdepth 0 -exec " + m + " {} \\;"
	case 5:
		return "find . -maxdepth 0 -exec " + m + " {} +"
	case 6:
		return "xargs -n1 " + m + " < notes.txt"
	case 7:
		return "echo a | xargs " + g.shell() + " -c " + g.quote(g.code(d, true))
	case 8:
		return "find . -maxdepth 0 -execdir " + g.shell() + " -c " + g.quote(g.code(d, true)) + " \\;"
	case 9:
		return "xargs -a notes.txt " + m
	}
	return "echo a b | xargs " + m
}

func (g *grammar) benign() string {
	m := g.marker()
	switch g.pick(8) {
	case 1:
		return "echo " + sq(m+"; "+g.marker())
	case 2:
		return "printf '%s\\n' " + m
	case 3:
		return "command -v " + m
	case 4:
		return "type " + m + " >/dev/null"
	case 5:
		return ": " + m
	case 6:
		return []string{"true", "false", ":"}[g.pick(3)]
	case 7:
		if len(g.funcs) > 0 {
			return "declare -f " + g.funcs[g.pick(len(g.funcs))] + " >/dev/null"
		}
	}
	return "echo " + m
}

func (g *grammar) condition(d int) string {
	v := g.varName()
	switch g.pick(6) {
	case 1:
		return "(( " + []string{"1", v, v + " + 1", "i = 2"}[g.pick(4)] + " ))"
	case 2:
		return "[[ $" + v + " == " + g.marker() + " ]]"
	case 3:
		return `test -n "$` + v + `"`
	case 4:
		return "let " + sq(v+"=1")
	case 5:
		return "[[ -v " + v + " ]]"
	}
	return "[[ -n $" + v + " ]]"
}

func (g *grammar) shellState() string {
	switch g.pick(6) {
	case 1:
		return "shopt -s nullglob"
	case 2:
		return "set -f"
	case 3:
		return "exec 3>fd.txt"
	case 4:
		return "shopt -s lastpipe"
	case 5:
		return "set +e"
	}
	return "shopt -s expand_aliases"
}

// alias defines an alias; a later line may use it.
func (g *grammar) alias(d int) string {
	name := "a" + strconv.Itoa(len(g.aliases)+1)
	var val string
	if g.pick(2) == 0 {
		val = g.marker()
	} else {
		val = g.simple(d + 1)
	}
	g.aliases = append(g.aliases, name)
	return "shopt -s expand_aliases\nalias " + name + "=" + sq(val)
}

func (g *grammar) source(d int) string {
	c := g.code(d, false)
	switch g.pick(3) {
	case 1:
		return ". /dev/stdin <<< " + g.quote(c)
	case 2:
		return "source <(echo " + g.quote(c) + ")"
	}
	return "source /dev/stdin <<< " + g.quote(c)
}

// simple is a simple command: optional prefix assignment, a command name
// (maybe behind wrappers), arguments and a redirection.
func (g *grammar) simple(d int) string {
	g.cmds--
	var parts []string
	if g.pick(10) == 9 {
		v := g.varName()
		parts = append(parts, v+"="+g.value(grammarMaxDepth))
		g.addVar(v)
	}
	parts = append(parts, g.name(d, 0))
	for i, n := 0, []int{0, 0, 1, 1, 1, 2, 2, 3}[g.pick(8)]; i < n; i++ {
		parts = append(parts, g.arg(d))
	}
	if r := g.redirect(d); r != "" {
		parts = append(parts, r)
	}
	return strings.Join(parts, " ")
}

// name is the command word(s); wraps counts the wrappers around it so far.
func (g *grammar) name(d, wraps int) string {
	m := g.marker()
	n := 32
	if g.state {
		n += 3
	}
	k := g.pick(n)
	switch k {
	case 32:
		// what the assigning builtins of the state grammar set
		return []string{`"$REPLY"`, `"$OPTARG"`, `"${MAPFILE[0]}"`, `"${BASH_REMATCH[1]}"`, "$_", `"$C"`}[g.pick(6)]
	case 33:
		return "*.nomatch " + m // a word nullglob may remove
	case 1:
		return sq(m)
	case 2:
		return dq(m)
	case 3:
		return m[:1] + `\` + m[1:]
	case 4:
		return fmt.Sprintf(`$'\x%02x%s'`, m[0], m[1:])
	case 5:
		return m[:1] + `""` + m[1:]
	case 6, 7:
		if len(g.vars) > 0 {
			v := g.vars[g.pick(len(g.vars))]
			return []string{"$" + v, `"$` + v + `"`, "${" + v + "}", "${" + v + "/1/9}", "${" + v + "%1}9"}[g.pick(5)]
		}
	case 8:
		return "{" + m + "," + g.marker() + "}"
	case 9, 10:
		if len(g.funcs) > 0 {
			return g.funcs[g.pick(len(g.funcs))]
		}
	case 11, 12, 13:
		if wraps < 2 {
			return g.wrapper() + " " + g.name(d, wraps+1)
		}
	case 14:
		return []string{"$(echo " + m + ")", "`echo " + m + "`", "$(printf %s " + m + ")"}[g.pick(3)]
	case 15:
		return "${U:-" + m + "}"
	case 16:
		if len(g.arrays) > 0 {
			return []string{`"${A[@]}"`, "${A[1]}", "${A[0]}", "${A[*]}"}[g.pick(4)]
		}
	case 17:
		return []string{`"$1"`, `"$@"`, "$*", "${1}"}[g.pick(4)]
	case 18:
		return `\` + m
	case 19:
		return "m${U}" + m[1:]
	case 20:
		if len(g.aliases) > 0 {
			return g.aliases[g.pick(len(g.aliases))]
		}
	case 22, 23, 24:
		// builtins that take any words: substitutions in their
		// arguments run without making the verdict ask
		if wraps == 0 {
			return []string{"echo", ":", "true", "printf '%s\\n'", "test -n"}[g.pick(5)]
		}
	case 25:
		// allowed by the guard's defaults, but not on the stub PATH
		return []string{"ls", "wc", "head", "grep"}[g.pick(4)]
	case 21:
		if g.pick(4) == 0 {
			return "m[9]" // a glob that matches nothing (mvdan/sh cannot read it)
		}
	}
	return m
}

func (g *grammar) wrapper() string {
	ws := []string{
		"env", "env -i", "env A=1", "env -u HOME", "env --",
		"timeout --foreground 5", "timeout --foreground -k 1 5", "timeout --foreground -s TERM 5",
		"nice", "nice -n 1", "nohup", "stdbuf -oL", "setsid", "command", "exec", "xargs",
		"xargs -r", "exec -a x", "command --", "builtin command",
	}
	return ws[g.pick(len(ws))]
}

func (g *grammar) arg(d int) string {
	k := g.pick(36)
	if d >= grammarMaxDepth && (k == 5 || k == 7 || k == 11) {
		k = 0
	}
	switch k {
	case 1:
		return sq("a b")
	case 2:
		return `"$` + g.varName() + ` a"`
	case 3:
		return `$'a\tb'`
	case 4:
		v := g.varName()
		return []string{"$" + v, `"$` + v + `"`, "${" + v + "}"}[g.pick(3)]
	case 5:
		return "$(" + g.list(d+1) + ")"
	case 6:
		return "`" + g.marker() + " " + g.word() + "`"
	case 7:
		return "<(" + g.list(d+1) + ")"
	case 8:
		return []string{"$((1 + 2))", "$(( i + 1 ))", "$((" + g.varName() + "))"}[g.pick(3)]
	case 9:
		return "{a,b}"
	case 10:
		return []string{"*.nomatch", "?.none", "[z]*.none"}[g.pick(3)]
	case 11:
		return `"$(` + g.list(d+1) + `)"`
	case 12:
		return "${" + g.varName() + ":-a}"
	case 13:
		return g.marker()
	case 14:
		if len(g.arrays) > 0 {
			return `"${A[@]}"`
		}
	case 15:
		return fmt.Sprintf(`$'\x%02x%s'`, 'm', g.marker()[1:])
	case 16:
		return []string{"$1", `"$@"`}[g.pick(2)]
	case 17:
		return "~/x"
	}
	return g.word()
}

func (g *grammar) redirect(d int) string {
	k := g.pick(24)
	if d >= grammarMaxDepth && (k == 14 || k == 15) {
		return ""
	}
	switch k {
	case 9:
		return "> out.txt"
	case 10:
		return ">> log.txt"
	case 11:
		return "2>/dev/null"
	case 12:
		return "< notes.txt"
	case 13:
		return "<<< " + []string{g.marker(), sq("a b"), "$" + g.varName()}[g.pick(3)]
	case 14:
		return "> >(" + g.list(d+1) + ")"
	case 15:
		return "< <(" + g.list(d+1) + ")"
	case 16:
		return "&> out2.txt"
	case 17:
		return "2>&1"
	}
	return ""
}
