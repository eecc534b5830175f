package argspec

import (
	"strings"
	"sync"
	"unicode/utf8"
)

// Awk is what an awk program does beyond reading its input and printing:
// what the readers of the program (gawk 5, mawk 1.3, the one true awk) all
// find, read as their lexers and grammars read it.
type Awk struct {
	// Exec lists the commands it runs through /bin/sh -c: system(CMD),
	// print | CMD, CMD | getline and the |& coprocesses. "" stands for a
	// command built at run time.
	Exec []string
	// Write and Read list the files print and printf write (> and >>) and
	// getline reads (<). "" stands for a file named at run time.
	// /dev/stdout, /dev/stderr, /dev/stdin and "-" are left out.
	Write, Read []string
	// Unsure says why the program cannot be read with certainty; "" when
	// it can. What was found up to there is still listed.
	Unsure string
}

// AwkProgram reads the text of an awk program.
func AwkProgram(src string) Awk {
	return awkProgram(src, nil, false)
}

// awkProgram reads a program whose command line assigns the variables in
// assigned (-v, var=value operands); unknownArgs says the command line may
// assign others.
func awkProgram(src string, assigned map[string]bool, unknownArgs bool) Awk {
	var a Awk
	toks, why := awkLex(src)
	if why != "" {
		a.Unsure = why
	}
	var consts map[string][]string
	if !unknownArgs {
		consts = awkConsts(toks, assigned)
	}
	awkScan(toks, consts, &a)
	return a
}

type awkTok struct {
	kind byte   // see the awk* kinds
	text string // the operator, name or source text
	val  string // a string's value
	sure bool   // a string's value is the same to every awk
}

const (
	awkName   = 'a'
	awkString = 's'
	awkNumber = 'n'
	awkRegex  = 'r'
	awkNL     = '\n'
	awkOp     = 'o'
	awkAt     = '@' // gawk's @include, @load, @namespace, @f() and @/re/
)

var awkKeywords = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"BEGIN": true, "END": true, "BEGINFILE": true, "ENDFILE": true, "function": true, "func": true,
		"if": true, "else": true, "while": true, "for": true, "do": true, "break": true, "continue": true,
		"next": true, "nextfile": true, "exit": true, "return": true, "delete": true, "in": true,
		"getline": true, "print": true, "printf": true,
	}
})

// awkOps are the operators, longest first.
var awkOps = []string{
	"**=", "&&", "||", "|&", "++", "--", "+=", "-=", "*=", "/=", "%=", "^=", "==", "<=", ">=", "!=", ">>",
	"!~", "**", "{", "}", "(", ")", "[", "]", ";", ",", "+", "-", "*", "/", "%", "^", "!", ">", "<", "|",
	"?", ":", "~", "$", "=",
}

// awkLex splits a program into tokens. A slash is a regular expression
// where an operand may start and a division after one, which is where the
// awks agree; where they do not (a slash after an if's condition, after
// length) the program is not read with certainty.
func awkLex(src string) (toks []awkTok, unsure string) {
	if !utf8.ValidString(src) {
		return nil, "an awk program with bytes that are not UTF-8 (awk reads them by the locale)"
	}
	// Parentheses opened by if, while and for: after their ")" a statement
	// starts, where gawk reads a slash as a regular expression and mawk as
	// a division.
	var parens []bool
	lastControl := false
	i := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
			continue
		case c == '\\' && i+1 < len(src) && src[i+1] == '\n':
			i += 2
			continue
		case c == '\\' && i+2 < len(src) && src[i+1] == '\r' && src[i+2] == '\n':
			i += 3
			continue
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		case c == '\n':
			toks = append(toks, awkTok{kind: awkNL, text: "\n"})
			i++
			lastControl = false
			continue
		case c == '"':
			t, n, ok := awkLexString(src[i:])
			if !ok {
				return toks, "an awk string that does not end on its line"
			}
			toks = append(toks, t)
			i += n
			lastControl = false
			continue
		case c == '@':
			toks = append(toks, awkTok{kind: awkAt, text: "@"})
			i++
			if i < len(src) && src[i] == '/' {
				n, ok := awkLexRegex(src[i:])
				if !ok {
					return toks, "an awk regular expression that does not end on its line"
				}
				toks = append(toks, awkTok{kind: awkRegex, text: src[i : i+n]})
				i += n
			}
			lastControl = false
			continue
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i
			for j < len(src) && (src[j] == '_' || src[j] >= 'a' && src[j] <= 'z' || src[j] >= 'A' && src[j] <= 'Z' || src[j] >= '0' && src[j] <= '9' ||
				src[j] == ':' && j+2 < len(src) && src[j+1] == ':' && (src[j+2] == '_' || src[j+2] >= 'a' && src[j+2] <= 'z' || src[j+2] >= 'A' && src[j+2] <= 'Z')) {
				if src[j] == ':' {
					j++
				}
				j++
			}
			toks = append(toks, awkTok{kind: awkName, text: src[i:j]})
			i = j
			lastControl = false
			continue
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9':
			j := i
			for j < len(src) && (src[j] >= '0' && src[j] <= '9' || src[j] == '.' || src[j] >= 'a' && src[j] <= 'z' || src[j] >= 'A' && src[j] <= 'Z' ||
				(src[j] == '+' || src[j] == '-') && (src[j-1] == 'e' || src[j-1] == 'E')) {
				j++
			}
			toks = append(toks, awkTok{kind: awkNumber, text: src[i:j]})
			i = j
			lastControl = false
			continue
		case c == '/' && lastControl:
			return toks, "a slash after an if, while or for condition, which the awks read differently"
		case c == '/' && awkOperandNext(toks):
			if n := len(toks); n > 0 && toks[n-1].kind == awkName && toks[n-1].text == "length" {
				return toks, "a slash after length, which the awks read differently"
			}
			n, ok := awkLexRegex(src[i:])
			if !ok {
				return toks, "an awk regular expression that does not end on its line, or that the awks end differently"
			}
			toks = append(toks, awkTok{kind: awkRegex, text: src[i : i+n]})
			i += n
			lastControl = false
			continue
		}
		if c == '/' && len(toks) > 0 && toks[len(toks)-1].kind == awkName && (toks[len(toks)-1].text == "length" || toks[len(toks)-1].text == "case") {
			// length / 2 divides to gawk and may start a regular expression
			// to others; gawk's case /re/: is a regular expression to gawk
			// and a division to mawk.
			return toks, "a slash after " + toks[len(toks)-1].text + ", which the awks read differently"
		}
		op := ""
		for _, o := range awkOps {
			if strings.HasPrefix(src[i:], o) {
				op = o
				break
			}
		}
		if op == "" {
			return toks, "a character awk does not read here: " + string(rune(c))
		}
		lastControl = false
		switch op {
		case "(":
			n := len(toks)
			parens = append(parens, n > 0 && toks[n-1].kind == awkName && (toks[n-1].text == "if" || toks[n-1].text == "while" || toks[n-1].text == "for"))
		case ")":
			if len(parens) > 0 {
				lastControl = parens[len(parens)-1]
				parens = parens[:len(parens)-1]
			}
		}
		toks = append(toks, awkTok{kind: awkOp, text: op})
		i += len(op)
	}
	return toks, ""
}

// awkOperandNext reports whether an operand may start after toks: there a
// slash opens a regular expression.
func awkOperandNext(toks []awkTok) bool {
	if len(toks) == 0 {
		return true
	}
	t := toks[len(toks)-1]
	switch t.kind {
	case awkNumber, awkString, awkRegex:
		return false
	case awkName:
		// getline / 2 divides in every awk; print /x/ matches.
		return awkKeywords()[t.text] && t.text != "getline"
	case awkOp:
		switch t.text {
		case ")", "]", "++", "--":
			return false
		}
	}
	return true
}

// awkLexString reads a string constant; its value is sure when it uses
// only the escapes every awk reads alike.
func awkLexString(s string) (awkTok, int, bool) {
	var v strings.Builder
	sure := true
	i := 1
	for i < len(s) {
		c := s[i]
		switch c {
		case '"':
			return awkTok{kind: awkString, text: s[:i+1], val: v.String(), sure: sure}, i + 1, true
		case '\n':
			return awkTok{}, 0, false
		case '\\':
			i++
			if i >= len(s) {
				return awkTok{}, 0, false
			}
			switch e := s[i]; e {
			case '"', '\\', '/':
				v.WriteByte(e)
			case 'a':
				v.WriteByte('\a')
			case 'b':
				v.WriteByte('\b')
			case 'f':
				v.WriteByte('\f')
			case 'n':
				v.WriteByte('\n')
			case 'r':
				v.WriteByte('\r')
			case 't':
				v.WriteByte('\t')
			case 'v':
				v.WriteByte('\v')
			case '\n':
				// gawk joins the lines; others may not.
				sure = false
			default:
				if e >= '0' && e <= '7' {
					n, j := 0, i
					for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
						n = n*8 + int(s[j]-'0')
						j++
					}
					if n == 0 || n > 255 {
						sure = false
					}
					v.WriteByte(byte(n))
					i = j
					continue
				}
				// \x, \q, \ and the like: the awks differ.
				sure = false
				v.WriteByte('\\')
				v.WriteByte(e)
			}
			i++
		default:
			v.WriteByte(c)
			i++
		}
	}
	return awkTok{}, 0, false
}

// awkLexRegex reads a regular expression constant from its opening slash.
// A slash inside a bracket expression ends it for some awks and not for
// others: then it is not read with certainty.
func awkLexRegex(s string) (int, bool) {
	inBracket := false
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\n':
			return 0, false
		case c == '\\':
			i++
			if i < len(s) && s[i] == '\n' {
				return 0, false
			}
		case c == '[' && !inBracket:
			inBracket = true
			if i+1 < len(s) && s[i+1] == '^' {
				i++
			}
			if i+1 < len(s) && s[i+1] == ']' {
				i++
			}
		case c == '[' && inBracket && i+1 < len(s) && (s[i+1] == ':' || s[i+1] == '.' || s[i+1] == '='):
			end := strings.Index(s[i+2:], string(s[i+1])+"]")
			if end < 0 || strings.ContainsAny(s[i+2:i+2+end], "/\n") {
				return 0, false
			}
			i += end + 3
		case c == ']' && inBracket:
			inBracket = false
		case c == '/':
			if inBracket {
				return 0, false
			}
			return i + 1, true
		}
	}
	return 0, false
}

// awkSpecialFiles are the program's own streams: "-" is standard input to
// getline and standard output to print in gawk and mawk alike.
var awkSpecialFiles = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"/dev/stdout": true, "/dev/stderr": true, "/dev/stdin": true, "-": true}
})

// awkScan finds the commands and files in a token list; consts are the
// variables that only ever hold string constants, with their values.
func awkScan(toks []awkTok, consts map[string][]string, a *Awk) {
	unsure := func(why string) {
		if a.Unsure == "" {
			a.Unsure = why
		}
	}
	at := func(i int) awkTok {
		if i < 0 || i >= len(toks) {
			return awkTok{kind: awkNL}
		}
		return toks[i]
	}
	isOp := func(i int, ops ...string) bool {
		t := at(i)
		if t.kind != awkOp {
			return false
		}
		for _, o := range ops {
			if t.text == o {
				return true
			}
		}
		return false
	}
	isName := func(i int, name string) bool {
		t := at(i)
		return t.kind == awkName && (t.text == name || strings.HasSuffix(t.text, "::"+name))
	}
	// literalAfter reads the strings from i up to the end of a statement:
	// a file or command named by constants alone.
	literalAfter := func(i int, ends func(int) bool) (string, bool) {
		var b strings.Builder
		if isOp(i, "(") && at(i+1).kind == awkString && isOp(i+2, ")") && ends(i+3) && at(i+1).sure {
			return at(i + 1).val, true // > ("file")
		}
		j := i
		for at(j).kind == awkString {
			if !at(j).sure {
				return "", false
			}
			b.WriteString(at(j).val)
			j++
		}
		if j == i || !ends(j) {
			return "", false
		}
		return b.String(), true
	}
	// valuesAfter is literalAfter, or the values of a variable that only
	// ever holds constants.
	valuesAfter := func(i int, ends func(int) bool) ([]string, bool) {
		if t := at(i); t.kind == awkName && consts[t.text] != nil && ends(i+1) {
			return consts[t.text], true
		}
		v, ok := literalAfter(i, ends)
		return []string{v}, ok
	}
	stmtEnd := func(j int) bool {
		t := at(j)
		return j >= len(toks) || t.kind == awkNL || t.kind == awkOp && (t.text == ";" || t.text == "}")
	}
	// A getline file ends where no operand continues it.
	readEnd := func(j int) bool {
		return stmtEnd(j) || isOp(j, ")", "]", ",", "&&", "||", "?", ":", ">", "<", ">=", "<=", "==", "!=", "~", "!~")
	}
	addFile := func(list *[]string, names []string, ok bool) {
		if !ok {
			*list = append(*list, "")
			return
		}
		for _, name := range names {
			switch {
			case strings.HasPrefix(name, "/inet/") || strings.HasPrefix(name, "/inet4/") || strings.HasPrefix(name, "/inet6/"):
				unsure("gawk opens a network connection (" + name + ")")
			case awkSpecialFiles()[name]:
			default:
				*list = append(*list, name)
			}
		}
	}
	addExec := func(cmds []string, ok bool) {
		if !ok {
			a.Exec = append(a.Exec, "")
			return
		}
		a.Exec = append(a.Exec, cmds...)
	}
	unknownExec := func() { addExec(nil, false) }
	// The print statement being read: the paren depth it started at, or -1.
	depth, printDepth := 0, -1
	// Where the current statement started, for getline's <.
	stmtStart := 0
	var calls []string // the function each open parenthesis calls, or ""
	envChanged := false
	defer func() {
		if envChanged && len(a.Exec) > 0 {
			unsure("the awk program changes ENVIRON, the environment of the commands it runs")
		}
	}()
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch t.kind {
		case awkNL:
			if printDepth >= 0 && (at(i-1).kind == awkOp && !isOp(i-1, ")", "]", "++", "--", ";", "}") || isName(i-1, "do") || isName(i-1, "else")) {
				// A newline after , { && || do else, and in gawk after ? and
				// :, does not end the statement; after another operator it
				// is an error. Either way the print goes on.
				continue
			}
			printDepth, stmtStart = -1, i+1
		case awkAt:
			n := at(i + 1)
			switch {
			case n.kind == awkName && (n.text == "include" || n.text == "load"):
				unsure("gawk's @" + n.text + " reads code from a file not known here")
			case n.kind == awkName && n.text == "namespace", n.kind == awkRegex:
			default:
				// @f(…) calls the function named by f's value: system too.
				unknownExec()
			}
		case awkName:
			switch {
			case t.text == "print" || t.text == "printf":
				if printDepth < 0 {
					printDepth = depth
				}
			case isName(i, "system"):
				if !isOp(i+1, "(") {
					unknownExec()
					break
				}
				addExec(valuesAfter(i+2, func(j int) bool { return isOp(j, ")") }))
			case t.text == "getline":
				j := i + 1
				// An optional variable: name, name[…], $primary.
				switch {
				case at(j).kind == awkName && !awkKeywords()[at(j).text]:
					j++
					if isOp(j, "[") {
						j = awkSkipGroup(toks, j)
					}
				case isOp(j, "$"):
					j++
					for isOp(j, "$", "++", "--", "-", "+", "!") {
						j++
					}
					switch {
					case isOp(j, "("):
						j = awkSkipGroup(toks, j)
					case at(j).kind == awkName:
						j++
						if isOp(j, "[") {
							j = awkSkipGroup(toks, j)
						}
					default:
						j++
					}
				}
				if isOp(j, "<") {
					names, ok := valuesAfter(j+1, readEnd)
					addFile(&a.Read, names, ok)
				}
			case t.text == "ARGV" || t.text == "ARGC":
				if awkChangesArgs(toks, i, calls) {
					// The files read are ARGV's, which the program changes.
					addFile(&a.Read, nil, false)
				}
			case t.text == "ENVIRON":
				// gawk hands a changed ENVIRON to the commands it runs
				// (PATH, LD_PRELOAD): they are then not what they say.
				envChanged = envChanged || awkChangesArgs(toks, i, calls)
			}
		case awkOp:
			switch t.text {
			case "(", "[":
				depth++
				call := ""
				if t.text == "(" && at(i-1).kind == awkName {
					call = at(i - 1).text
				}
				calls = append(calls, call)
			case ")", "]":
				depth--
				if len(calls) > 0 {
					calls = calls[:len(calls)-1]
				}
				if depth < printDepth {
					printDepth = -1
				}
			case ";", "}":
				printDepth, stmtStart = -1, i+1
				if t.text == "}" {
					depth = 0
					calls = calls[:0]
				}
			case ">", ">>":
				if printDepth >= 0 && depth == printDepth {
					names, ok := valuesAfter(i+1, stmtEnd)
					addFile(&a.Write, names, ok)
				}
			case "<":
				// A getline's file is found from the getline; a < that
				// follows a getline this reader could not follow is a read
				// of a file not known here.
				if awkGetlineBefore(toks, stmtStart, i) && !awkGetlineFile(toks, i) {
					addFile(&a.Read, nil, false)
				}
			case "|", "|&":
				if isName(i+1, "getline") {
					if printDepth >= 0 && depth == printDepth {
						unknownExec() // print … | getline: both readings
						break
					}
					addExec(awkLeftLiteral(toks, i, consts))
					break
				}
				if printDepth >= 0 && depth == printDepth {
					addExec(valuesAfter(i+1, stmtEnd))
					break
				}
				unknownExec()
			}
		}
	}
}

// awkSkipGroup returns the index after the bracket or parenthesis group
// opening at i.
func awkSkipGroup(toks []awkTok, i int) int {
	d := 0
	for ; i < len(toks); i++ {
		if toks[i].kind != awkOp {
			continue
		}
		switch toks[i].text {
		case "(", "[":
			d++
		case ")", "]":
			d--
			if d == 0 {
				return i + 1
			}
		}
	}
	return i
}

// awkLeftLiteral reads the command of CMD | getline: the strings right
// before the pipe, or a variable that only holds constants, when nothing
// else can be part of the command.
func awkLeftLiteral(toks []awkTok, pipe int, consts map[string][]string) ([]string, bool) {
	j := pipe - 1
	var vals []string
	if j >= 0 && toks[j].kind == awkName && consts[toks[j].text] != nil {
		vals = consts[toks[j].text]
		j--
	} else {
		for j >= 0 && toks[j].kind == awkString {
			j--
		}
		if j == pipe-1 {
			return nil, false
		}
	}
	if j >= 0 {
		t := toks[j]
		switch {
		case t.kind == awkNL:
		case t.kind == awkOp && awkBoundaryOp(t.text):
		case t.kind == awkName && (t.text == "return" || t.text == "do" || t.text == "else"):
		default:
			return nil, false
		}
	}
	if vals != nil {
		return vals, true
	}
	var b strings.Builder
	for k := j + 1; k < pipe; k++ {
		if !toks[k].sure {
			return nil, false
		}
		b.WriteString(toks[k].val)
	}
	return []string{b.String()}, true
}

// awkArrayTargets change the variable they are given (sub and gsub their
// third argument, the others an array).
var awkArrayTargets = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"sub": true, "gsub": true, "split": true, "match": true, "patsplit": true, "asort": true, "asorti": true}
})

// awkConsts finds the variables that only ever hold string constants: each
// is assigned only by NAME = "constant" statements and never changed any
// other way (another operator, ++/--, getline NAME, for (NAME in …), a
// function parameter of that name, sub/gsub/split… targets, delete, the
// command line). Their values are what the program can run or open through
// them. A program that uses gawk's SYMTAB or namespaces, or touches ARGV or
// ARGC (whose var=value words assign variables), has none.
func awkConsts(toks []awkTok, assigned map[string]bool) map[string][]string {
	at := func(i int) awkTok {
		if i < 0 || i >= len(toks) {
			return awkTok{kind: awkNL}
		}
		return toks[i]
	}
	op := func(i int, ops ...string) bool {
		t := at(i)
		if t.kind != awkOp {
			return false
		}
		for _, o := range ops {
			if t.text == o {
				return true
			}
		}
		return false
	}
	name := func(i int, names ...string) bool {
		t := at(i)
		if t.kind != awkName {
			return false
		}
		for _, n := range names {
			if t.text == n {
				return true
			}
		}
		return false
	}
	vals := map[string][]string{}
	bad := map[string]bool{}
	var calls []string // the name before each open parenthesis
	for i, t := range toks {
		switch {
		case t.kind == awkAt:
			return nil // @namespace, @f(…)
		case t.kind == awkOp && (t.text == "(" || t.text == "["):
			c := ""
			if t.text == "(" && at(i-1).kind == awkName {
				c = at(i - 1).text
			}
			calls = append(calls, c)
			continue
		case t.kind == awkOp && (t.text == ")" || t.text == "]"):
			if len(calls) > 0 {
				calls = calls[:len(calls)-1]
			}
			continue
		case t.kind == awkOp && t.text == "}":
			calls = calls[:0]
			continue
		case t.kind != awkName:
			continue
		case t.text == "SYMTAB" || t.text == "ARGV" || t.text == "ARGC" || strings.Contains(t.text, "::"):
			return nil
		case name(i, "function", "func"):
			// The parameters, to the ")": locals that shadow the globals of
			// their names, bound to whatever a call passes.
			for j := i + 1; j < len(toks) && !op(j, ")", "{"); j++ {
				if at(j).kind == awkName {
					bad[at(j).text] = true
				}
			}
			continue
		case awkKeywords()[t.text] || strings.ToUpper(t.text) == t.text:
			continue // keywords, and awk's own variables (NR, FS, ENVIRON…)
		}
		v := t.text
		switch {
		case assigned[v], op(i+1, "["), op(i+1, "("), op(i-1, "++", "--", "$"), op(i+1, "++", "--"),
			name(i-1, "getline", "delete", "function", "func"), name(i+1, "in"),
			op(i+1, "+=", "-=", "*=", "/=", "%=", "^=", "**="):
			bad[v] = true
		case op(i-1, "(", ",") && op(i+1, ")", ",") && len(calls) > 0 && awkArrayTargets()[calls[len(calls)-1]]:
			bad[v] = true
		case op(i+1, "="):
			p := at(i - 1)
			boundary := p.kind == awkNL || p.kind == awkOp && (p.text == ";" || p.text == "{" || p.text == "}" || p.text == ")") ||
				p.kind == awkName && (p.text == "else" || p.text == "do")
			if s := at(i + 2); boundary && s.kind == awkString && s.sure &&
				(at(i+3).kind == awkNL || op(i+3, ";", "}") || i+3 >= len(toks)) {
				vals[v] = append(vals[v], s.val)
			} else {
				bad[v] = true
			}
		}
	}
	for v := range bad {
		delete(vals, v)
	}
	return vals
}

func awkBoundaryOp(op string) bool {
	switch op {
	case "(", "{", "}", ";", ",", "=", "+=", "-=", "*=", "/=", "%=", "^=", "**=", "&&", "||", "?", ":":
		return true
	}
	return false
}

// awkGetlineBefore reports whether a getline stands between from and i.
func awkGetlineBefore(toks []awkTok, from, i int) bool {
	for k := from; k < i; k++ {
		if toks[k].kind == awkName && toks[k].text == "getline" {
			return true
		}
	}
	return false
}

// awkGetlineFile reports whether the < at i is one awkScan read as a
// getline's file: a getline, its optional variable, then <.
func awkGetlineFile(toks []awkTok, i int) bool {
	for k := i - 1; k >= 0 && k >= i-12; k-- {
		if toks[k].kind == awkName && toks[k].text == "getline" {
			// Re-walk as awkScan does.
			j := k + 1
			if j < len(toks) && toks[j].kind == awkName && !awkKeywords()[toks[j].text] {
				j++
				if j < len(toks) && toks[j].kind == awkOp && toks[j].text == "[" {
					j = awkSkipGroup(toks, j)
				}
			} else if j < len(toks) && toks[j].kind == awkOp && toks[j].text == "$" {
				j++
				for j < len(toks) && toks[j].kind == awkOp && strings.Contains(" $ ++ -- - + ! ", " "+toks[j].text+" ") {
					j++
				}
				switch {
				case j < len(toks) && toks[j].kind == awkOp && toks[j].text == "(":
					j = awkSkipGroup(toks, j)
				case j < len(toks) && toks[j].kind == awkName:
					j++
					if j < len(toks) && toks[j].kind == awkOp && toks[j].text == "[" {
						j = awkSkipGroup(toks, j)
					}
				default:
					j++
				}
			}
			return j == i
		}
	}
	return false
}

// awkChangesArgs reports whether the ARGV, ARGC or ENVIRON at i may be
// changed there: assigned, incremented, read into, deleted from (ENVIRON),
// passed whole, or the target of sub or gsub. Reading ARGV[i] or ARGC, or
// testing (k in ARGV), is not.
func awkChangesArgs(toks []awkTok, i int, calls []string) bool {
	prev := func(k int) awkTok {
		if k < 0 {
			return awkTok{kind: awkNL}
		}
		return toks[k]
	}
	if p := prev(i - 1); p.kind == awkOp && (p.text == "++" || p.text == "--") || p.kind == awkName && (p.text == "getline" || p.text == "delete" && toks[i].text == "ENVIRON") {
		return true
	}
	j := i + 1
	if toks[i].text != "ARGC" {
		if j >= len(toks) || toks[j].kind != awkOp || toks[j].text != "[" {
			// The whole array: split(s, ARGV), f(ARGV), for (k in ARGV).
			p := prev(i - 1)
			return !(p.kind == awkName && p.text == "in")
		}
		j = awkSkipGroup(toks, j)
		for _, c := range calls {
			if c == "sub" || c == "gsub" {
				return true
			}
		}
	}
	if j < len(toks) && toks[j].kind == awkOp {
		switch toks[j].text {
		case "=", "+=", "-=", "*=", "/=", "%=", "^=", "**=", "++", "--":
			return true
		}
	}
	return false
}
