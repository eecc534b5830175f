package shellparse

import (
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/guard-exec/guard-exec/argspec"
	"github.com/guard-exec/guard-exec/word"
)

func (w *walker) stmts(sc *scope, stmts []*syntax.Stmt) {
	for _, st := range stmts {
		if !w.step() {
			return
		}
		settle(sc)
		w.stmt(sc, st, nil)
	}
}

// stmt walks one statement. in is what a pipeline feeds it, if known.
func (w *walker) stmt(sc *scope, st *syntax.Stmt, in *Input) {
	if st == nil || !w.step() {
		return
	}
	// The parser builds "a | b | …" and "a && b && …" without recursing,
	// as a tree as deep as the list is long, which the walk descends.
	if w.depth++; w.depth > maxWalkDepth {
		w.fatal = &ParseError{Reason: fmt.Sprintf("the command is nested too deeply to judge part by part (more than %d statements within one another)", maxWalkDepth), TooLarge: true}
		return
	}
	defer func() { w.depth-- }()
	if w.nested == 0 && !w.checking {
		w.pos = Pos{int(st.Position.Line()), int(st.Position.Col())}
	}
	if st.Background || st.Coprocess {
		// An asynchronous job cannot change this shell's state.
		sc = sc.clone()
	}
	// Commands reported while walking this statement run in sc's state
	// (its working directory), whichever branch or subshell sc is.
	outer := w.curScope
	w.curScope = sc
	defer func() { w.curScope = outer }()
	w.fdVarRedirs(sc, st)
	redirs, stdin := w.redirs(sc, st.Redirs)
	if stdin != nil {
		in = stdin
	}
	switch c := st.Cmd.(type) {
	case nil:
		if len(redirs) > 0 {
			w.emit(&Cmd{Redirs: redirs})
		}
	case *syntax.CallExpr:
		w.xargsFlood(st, word.No)
		w.call(sc, c, redirs, in, st)
	default:
		if len(redirs) > 0 {
			w.emit(&Cmd{Redirs: redirs})
			// { …; } 1<F: every command inside has the descriptors set so.
			outerReopened := w.cmdReopened
			w.cmdReopened = reopens(redirs, outerReopened|sc.reopened)
			defer func() { w.cmdReopened = outerReopened }()
		}
		w.compound(sc, c, in)
	}
}

// maxGlobValues bounds the files a for loop's globs are walked with.
const maxGlobValues = 16

// globValues returns the values a for loop's items give now, when some
// are globs (each match as bash would give it: absolute for an absolute
// pattern, else relative to the working directory; the pattern itself
// when it matches nothing), and the rest are known words; nil otherwise,
// or past maxGlobValues.
func (w *walker) globValues(sc *scope, items []word.Word) []word.Word {
	var out []word.Word
	globs := false
	for _, it := range items {
		if s, ok := it.Static(); ok {
			out = append(out, word.FromLit(s))
			continue
		}
		if !it.HasGlob() || it.HasHole() || it.Split {
			return nil
		}
		globs = true
		if len(it.Matches) == 0 {
			// No match: bash gives the pattern as it is (with nullglob,
			// nothing).
			out = append(out, word.FromLit(it.String()))
			continue
		}
		dir, _ := knownDir(sc)
		for _, m := range it.Matches {
			if !strings.HasPrefix(it.Prefix(), "/") {
				rel, err := filepath.Rel(dir, m)
				if dir == "" || err != nil {
					return nil
				}
				if strings.HasPrefix(it.Prefix(), "./") {
					rel = "./" + rel
				}
				m = rel
			}
			out = append(out, word.FromLit(m))
		}
		if len(out) > maxGlobValues {
			return nil
		}
	}
	if !globs {
		return nil
	}
	return out
}

func (w *walker) compound(sc *scope, c syntax.Command, in *Input) {
	switch c := c.(type) {
	case *syntax.BinaryCmd:
		w.binary(sc, c, in)
	case *syntax.Subshell:
		exported, allexport := len(w.exportedNow), w.allexportNow
		w.stmts(sc.clone(), c.Stmts)
		// What it exports stays in it. Clipped: the commands in it keep
		// their lists when the list grows again.
		w.exportedNow, w.allexportNow = slices.Clip(w.exportedNow[:exported]), allexport
	case *syntax.Block:
		w.stmts(sc, c.Stmts)
	case *syntax.IfClause:
		w.ifClause(sc, c)
	case *syntax.WhileClause:
		if endless(c.Cond, c.Until) && w.floods(sc, c.Do) {
			w.emit(&Cmd{Argv: []word.Word{word.FromLit("while")}, Special: "fork-bomb"})
		} else if !endless(c.Cond, !c.Until) && w.mayFlood(sc, c.Cond, c.Do) {
			// (A loop whose body never runs, until :, is none.)
			w.emit(&Cmd{Argv: []word.Word{word.FromLit("while")}, CodeArg: -1, Opaque: mayFloodOpaque})
		}
		w.loop(sc, c, func(ls *scope) {
			w.stmts(ls, c.Cond)
			w.stmts(ls, c.Do)
		})
	case *syntax.ForClause:
		switch l := c.Loop.(type) {
		case *syntax.WordIter:
			if (c.Select || !fewItems(l)) && w.mayFlood(sc, nil, c.Do) {
				// select runs its body once for every line it reads;
				// a list of unknown length ($(seq 1000000), {1..N},
				// globs) may be as long as anything.
				w.emit(&Cmd{Argv: []word.Word{word.FromLit("for")}, CodeArg: -1, Opaque: mayFloodOpaque})
			}
			var items []word.Word
			for _, it := range l.Items {
				items = w.appendFields(items, sc, it) // bounded as a whole (appendExpanded)
			}
			if !argspec.SecretName(l.Name.Value) {
				for _, it := range items {
					if it.HasSecret() {
						w.secretCopy(l.Name.Value, it)
					}
				}
			}
			if sc.varState(l.Name.Value).ref {
				// A name reference as the loop variable refers to each
				// item in turn: what the body writes is not known here.
				sc.havocVars()
			}
			// select runs its body any number of times, with the name set
			// to an item or to "" for an answer that is not a number.
			known := !c.Select && l.InPos.IsValid() && len(items) > 0 && len(items) <= 16 && !sc.havoc
			numeric := l.InPos.IsValid()
			for _, it := range items {
				s, ok := it.Static()
				known = known && ok
				numeric = numeric && ok && word.IsInteger(s)
			}
			if known {
				// A short literal list: walk the body once per value, as
				// bash does, each iteration in the state the last left.
				var out *scope
				for _, it := range items {
					sc.set(l.Name.Value, it)
					w.stmts(sc, c.Do)
					settle(sc)
					sc.dead = false
					if out == nil {
						out = sc.clone()
					} else {
						out = merge(out, sc)
					}
				}
				*sc = *out
				break
			}
			// The name's value in the walk below is data the command reads
			// (word.Seg.Data) unless every value it can have now was walked
			// here: then what it has only later is a file the command makes
			// first, whose making is judged.
			data := true
			if vals := w.globValues(sc, items); !c.Select && l.InPos.IsValid() && !sc.havoc && len(vals) > 0 {
				data = false
				for _, it := range items {
					data = data || it.HasData()
				}
				// A list with globs: the files they match now are values
				// the body gets, and what it does with each is judged too
				// (for f in ~/.ssh/*; do cat "$f"; done reads the keys).
				// Files the text makes first are values too, so the body is
				// also walked with the name unknown, and that walk's state
				// is the one that goes on.
				for _, v := range vals {
					one := sc.clone()
					one.set(l.Name.Value, v)
					w.stmts(one, c.Do)
				}
			}
			w.loop(sc, c, func(ls *scope) {
				if numeric {
					ls.setNumeric(l.Name.Value)
				} else {
					ls.setUnknownOf(l.Name.Value, data)
				}
				if c.Select {
					ls.setUnknown("REPLY") // the line the person typed
				}
				w.stmts(ls, c.Do)
			})
		case *syntax.CStyleLoop:
			if l.Init != nil {
				w.arith(sc, l.Init)
			}
			if endlessArith(l.Cond) && w.floods(sc, c.Do) {
				w.emit(&Cmd{Argv: []word.Word{word.FromLit("for")}, Special: "fork-bomb"})
			} else if !boundedCStyle(l, c.Do) && w.mayFlood(sc, nil, c.Do) {
				w.emit(&Cmd{Argv: []word.Word{word.FromLit("for")}, CodeArg: -1, Opaque: mayFloodOpaque})
			}
			w.loop(sc, c, func(ls *scope) {
				if l.Cond != nil {
					w.arith(ls, l.Cond)
				}
				w.stmts(ls, c.Do)
				if l.Post != nil {
					w.arith(ls, l.Post)
				}
			})
		}
	case *syntax.CaseClause:
		subject := w.value(sc, c.Word, wctx{})
		out := sc.clone() // no pattern matched
		var prev *scope   // the state a ;& or ;;& hands on to the next body
		shown := false
		for _, it := range c.Items {
			for _, p := range it.Patterns {
				pat := w.value(sc, p, wctx{pattern: true})
				// Which branch runs tells the subject, when it or a
				// pattern is a secret's value: case $T in a*) … tells its
				// first letter. "" and * tell nothing -z does not.
				if !shown && (subject.HasSecret() && !tellsNothing(pat) || pat.HasSecret() || argspec.DerivedSecret(subject) && !allStars(pat)) {
					shown = true
					w.secretShown("case " + subject.String() + " in " + pat.String() + "): matches a secret variable's value against a pattern, and the branch that runs tells that value, a piece at a time")
				}
			}
			bs := sc.clone()
			if prev != nil {
				bs = merge(bs, prev) // entered by its pattern, or fallen into
			}
			w.stmts(bs, it.Stmts)
			out = merge(out, bs)
			prev = nil
			if it.Op == syntax.Fallthrough || it.Op == syntax.Resume {
				prev = bs.clone()
			}
		}
		*sc = *out
	case *syntax.FuncDecl:
		if _, ok := c.Body.Cmd.(*syntax.BinaryCmd); ok {
			// bash ends a function at its compound command: in
			// "f() { …; } && cmd" the cmd runs now, while the parser
			// puts it in the function's body.
			w.differential(c.Pos(), "a function definition followed by &&, || or | (bash runs what follows now; the parser makes it part of the function)")
			return
		}
		var names []string
		if c.Name != nil && c.Name.Value != "" {
			names = append(names, c.Name.Value)
		}
		for _, n := range c.Names {
			if n != nil && n.Value != "" {
				names = append(names, n.Value)
			}
		}
		if len(names) == 0 {
			w.differential(c.Pos(), "a function definition without a name (bash rejects it)")
			return
		}
		for _, name := range names {
			if len(w.res.Funcs) < MaxParts {
				w.res.Funcs = append(w.res.Funcs, name)
			}
			sc.defineFunc(name, c.Body)
			w.may.defined(name, c.Body)
			if name == "command_not_found_handle" {
				// bash calls it for any later command it cannot find,
				// which cannot be known here: judge it as called now.
				w.callFunc(sc.clone(), name, c.Body, []word.Word{word.FromLit(name), word.Unknown("$1")}, false)
			}
		}
	case *syntax.ArithmCmd:
		w.arith(sc, c.X)
	case *syntax.TestClause:
		w.test(sc, c.X)
	case *syntax.DeclClause:
		w.decl(sc, c)
	case *syntax.LetClause:
		for _, e := range c.Exprs {
			w.arith(sc, e)
		}
	case *syntax.TimeClause:
		w.stmt(sc, c.Stmt, in)
	case *syntax.CoprocClause:
		st := c.Stmt
		arr := "COPROC"
		if c.Name != nil {
			arr = c.Name.Lit()
		}
		if c.Name != nil {
			// bash takes NAME only before a compound command: in
			// "coproc NAME args" NAME is the command, which the parser
			// reads as the name.
			switch cmd := st.Cmd.(type) {
			case nil:
				arr = "COPROC"
				cp := *st
				cp.Cmd = &syntax.CallExpr{Args: []*syntax.Word{c.Name}}
				st = &cp
			case *syntax.CallExpr:
				arr = "COPROC"
				cp, call := *st, *cmd
				call.Args = append([]*syntax.Word{c.Name}, cmd.Args...)
				cp.Cmd = &call
				st = &cp
			case *syntax.BinaryCmd:
				w.differential(c.Pos(), "coproc followed by a list or pipeline (the parser takes the command for the coprocess's name)")
				return
			}
		}
		if call, ok := st.Cmd.(*syntax.CallExpr); ok && len(call.Assigns) > 0 && len(call.Args) > 0 &&
			!call.Args[0].Pos().After(call.Assigns[len(call.Assigns)-1].Pos()) {
			w.differential(call.Pos(), "assignment words after the command name of a coproc (the parser moves them before it)")
			return
		}
		if c.Name != nil && st == c.Stmt {
			// bash expands the NAME word in this shell before it checks it
			// is a name: coproc $(cmd) { …; } runs cmd (a red team's).
			v := w.value(sc, c.Name, wctx{noSplit: true})
			if s, ok := v.Static(); !ok || !word.IsName(s) {
				arr = ""
			} else {
				arr = s
			}
		}
		w.stmt(sc.clone(), st, nil)
		// The coprocess's file descriptors and pid: numbers.
		if word.IsName(arr) {
			sc.setNumeric(arr)
			sc.setNumeric(arr + "_PID")
		}
	default:
		w.emit(&Cmd{Opaque: "a shell construct the guard does not know", CodeArg: -1})
	}
}

func (w *walker) binary(sc *scope, c *syntax.BinaryCmd, in *Input) {
	switch c.Op {
	case syntax.AndStmt:
		// Y runs only if X succeeded; the list fails if X or Y failed.
		w.stmt(sc, c.X, in)
		failX := failState(sc)
		sc.cdFallback, sc.failAlt = nil, nil
		w.stmt(sc, c.Y, nil)
		sc.failAlt = merge(failX, failState(sc))
		sc.cdFallback = nil
	case syntax.OrStmt:
		// Y runs only if X failed; the list succeeds if X or Y did.
		w.stmt(sc, c.X, in)
		ok := sc.clone()
		ok.cdFallback, ok.failAlt = nil, nil
		*sc = *failState(sc)
		w.stmt(sc, c.Y, nil)
		failY := failState(sc)
		sc.cdFallback, sc.failAlt = nil, nil
		*sc = *merge(ok, sc)
		sc.failAlt = failY
	case syntax.Pipe, syntax.PipeAll:
		if in := endlessOutput(c.X); in != word.No {
			w.xargsFlood(c.Y, in)
		}
		// Every element runs in a subshell; what the left side prints is
		// known only for literal text.
		left := sc.clone()
		was := w.inPipe
		w.inPipe = true
		w.stmt(left, c.X, in)
		out := &Input{Desc: "the output of another command"}
		if mayReadCode(c.Y) {
			out = w.literalOutput(sc, c.X)
			if c.Op == syntax.PipeAll && out.Found != nil {
				// |& pipes find's errors too, which quote its starting
				// points as written (find 'x /home/u/.ssh/id_rsa y').
				cp := *out
				cp.Found = nil
				out = &cp
			}
		}
		right := sc.clone()
		w.stmt(right, c.Y, out)
		w.inPipe = was
		if w.may.lastpipe {
			// With lastpipe the last command may run in this shell: what
			// it defines, unsets or assigns may stay.
			*sc = *merge(sc, right)
			return
		}
		// With lastpipe the last element's assignments would survive: make
		// them unknown rather than guess.
		for _, k := range changed(sc.vars, right.vars) {
			old, ok := sc.vars.lookup(k)
			nw, _ := right.vars.lookup(k)
			if !ok || !sameVar(old, nw) {
				sc.setUnknown(k)
			}
		}
	}
}

// failState is the state after a command failed: a cd that failed left
// the directory as it was; a list that failed says where it could be.
func failState(sc *scope) *scope {
	if sc.failAlt != nil {
		return sc.failAlt.clone()
	}
	f := sc.clone()
	if f.cdFallback != nil {
		f.cwd = *f.cdFallback
		f.cdFallback = nil
	}
	return f
}

// settle moves on to the next statement, which runs whether the last one
// succeeded or failed: either state may hold.
func settle(sc *scope) {
	if sc.cdFallback == nil && sc.failAlt == nil {
		return
	}
	if !sc.errexit || sc.failAlt != nil {
		// With set -e a failed cd stops the script; a failed && list
		// does not (bash exempts all but its last command).
		*sc = *merge(sc, failState(sc))
	}
	sc.cdFallback, sc.failAlt = nil, nil
}

func (w *walker) ifClause(sc *scope, c *syntax.IfClause) {
	w.stmts(sc, c.Cond)
	then := sc.clone()
	then.cdFallback, then.failAlt = nil, nil
	w.stmts(then, c.Then)
	settle(then)
	other := failState(sc)
	if c.Else != nil {
		if len(c.Else.Cond) == 0 {
			w.stmts(other, c.Else.Then)
		} else {
			w.ifClause(other, c.Else)
		}
	}
	settle(other)
	*sc = *merge(then, other)
}

// loop walks a loop body once, in a state where everything the body
// assigns is already unknown (a later iteration sees earlier ones' work).
func (w *walker) loop(sc *scope, node syntax.Node, body func(*scope)) {
	ls := sc.clone()
	numeric := map[string]bool{}
	assigned := map[string]bool{}
	cds := false
	syntax.Walk(node, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Assign:
			if n.Name != nil {
				assigned[n.Name.Value] = true
				if _, ok := numeric[n.Name.Value]; !ok {
					numeric[n.Name.Value] = true
				}
				if n.Value != nil && !isArithWord(n.Value) {
					if s, ok := staticWord(n.Value); !ok || !word.IsInteger(s) {
						numeric[n.Name.Value] = false
					}
				} else if n.Array != nil {
					numeric[n.Name.Value] = false
				}
			}
		case *syntax.BinaryArithm:
			if isAssignOp(n.Op) {
				if wd, ok := n.X.(*syntax.Word); ok {
					assigned[wd.Lit()] = true
					if _, ok := numeric[wd.Lit()]; !ok {
						numeric[wd.Lit()] = true
					}
				}
			}
		case *syntax.UnaryArithm:
			if wd, ok := n.X.(*syntax.Word); ok && (n.Op == syntax.Inc || n.Op == syntax.Dec) {
				assigned[wd.Lit()] = true
				if _, ok := numeric[wd.Lit()]; !ok {
					numeric[wd.Lit()] = true
				}
			}
		case *syntax.CallExpr:
			if len(n.Args) > 0 {
				switch n.Args[0].Lit() {
				case "cd", "pushd", "popd":
					cds = true
				case "read", "mapfile", "readarray", "getopts", "printf", "unset", "select":
					// Every name the builtin could assign, however its
					// options are spelled (-vx, -ra NAME), and the ones
					// it assigns by default.
					for _, a := range n.Args[1:] {
						l := a.Lit()
						for _, cand := range []string{l, strings.TrimLeft(l, "-")} {
							for k := 0; k < len(cand); k++ {
								if word.IsName(cand[k:]) {
									assigned[cand[k:]] = true
									numeric[cand[k:]] = false
								}
							}
						}
					}
					for _, d := range []string{"REPLY", "MAPFILE", "OPTARG", "OPTIND"} {
						assigned[d] = true
						numeric[d] = d == "OPTIND"
					}
				}
			}
		case *syntax.ForClause:
			if wi, ok := n.Loop.(*syntax.WordIter); ok {
				assigned[wi.Name.Value] = true
				numeric[wi.Name.Value] = false
			}
		case *syntax.BinaryTest:
			if n.Op == syntax.TsReMatch {
				assigned["BASH_REMATCH"] = true
				numeric["BASH_REMATCH"] = false
			}
		case *syntax.ParamExp:
			if n.Exp != nil && n.Param != nil && (n.Exp.Op == syntax.AssignUnset || n.Exp.Op == syntax.AssignUnsetOrNull) {
				assigned[n.Param.Value] = true
				numeric[n.Param.Value] = false
			}
		}
		return true
	})
	for name := range assigned {
		cur, known := ls.vars.lookup(name)
		wasNumeric := !known || cur.numeric || numericVal(cur) || bashNumeric(name)
		if !known {
			wasNumeric = ls.numeric(w, name)
		}
		if numeric[name] && wasNumeric {
			ls.setNumeric(name)
		} else {
			ls.setUnknown(name)
		}
	}
	if cds {
		ls.cwd.Unknown, ls.cwd.Data = true, true // where an earlier round went
	}
	entry := ls.clone()
	w.loopDepth++ // a later iteration runs after what the body does (exportWrite)
	body(ls)
	w.loopDepth--
	ls.dead = false
	*sc = *merge(entry, ls)
}

func isAssignOp(op syntax.BinAritOperator) bool {
	switch op {
	case syntax.Assgn, syntax.AddAssgn, syntax.SubAssgn, syntax.MulAssgn, syntax.QuoAssgn,
		syntax.RemAssgn, syntax.AndAssgn, syntax.OrAssgn, syntax.XorAssgn, syntax.ShlAssgn, syntax.ShrAssgn:
		return true
	}
	return false
}

// isArithWord reports whether a word is a single arithmetic expansion.
func isArithWord(wd *syntax.Word) bool {
	if len(wd.Parts) != 1 {
		return false
	}
	switch p := wd.Parts[0].(type) {
	case *syntax.ArithmExp:
		return true
	case *syntax.DblQuoted:
		if len(p.Parts) == 1 {
			_, ok := p.Parts[0].(*syntax.ArithmExp)
			return ok
		}
	}
	return false
}

func staticWord(wd *syntax.Word) (string, bool) {
	if len(wd.Parts) == 1 {
		// Most words: the text itself, not a copy of it.
		switch p := wd.Parts[0].(type) {
		case *syntax.Lit:
			if !strings.ContainsAny(p.Value, "\\*?[~") {
				return p.Value, true
			}
			return "", false
		case *syntax.SglQuoted:
			if !p.Dollar {
				return p.Value, true
			}
			return "", false
		}
	}
	var b strings.Builder
	for _, p := range wd.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, "\\*?[~") {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			b.WriteString(p.Value)
		default:
			return "", false
		}
	}
	return b.String(), true
}

// fdVarRedirs follows {NAME}> redirections: bash opens a descriptor and
// assigns its number to NAME (exported, if NAME is), or closes the one
// NAME holds ({NAME}<&-). With a subscript ({a[i]}>) bash evaluates it as
// arithmetic, but the parser reads {a[i]} as an argument word before a
// plain redirection: refused (a red team's).
func (w *walker) fdVarRedirs(sc *scope, st *syntax.Stmt) {
	for _, r := range st.Redirs {
		if r.N == nil || !strings.HasPrefix(r.N.Value, "{") {
			continue
		}
		name := strings.TrimSuffix(strings.TrimPrefix(r.N.Value, "{"), "}")
		if !word.IsName(name) {
			w.differential(r.N.Pos(), "a descriptor variable that is not a plain name in {…}> (bash evaluates it; the parser does not)")
			continue
		}
		if r.Op == syntax.DplIn || r.Op == syntax.DplOut {
			if r.Word.Lit() == "-" {
				w.arithName(sc, name) // the number it holds, read
				continue
			}
		}
		sc.setNumeric(name)
	}
	c, ok := st.Cmd.(*syntax.CallExpr)
	if !ok {
		return
	}
	for _, r := range st.Redirs {
		if r.N != nil {
			continue
		}
		for _, a := range c.Args {
			if a.End().Offset() != r.OpPos.Offset() || len(a.Parts) == 0 {
				continue
			}
			first, ok1 := a.Parts[0].(*syntax.Lit)
			last, ok2 := a.Parts[len(a.Parts)-1].(*syntax.Lit)
			if ok1 && ok2 && fdVarStart(first.Value) && strings.HasSuffix(last.Value, "}") {
				w.differential(a.Pos(), "{…} right before a redirection: bash reads it as a descriptor variable, evaluating a subscript in it; the parser reads an argument")
			}
		}
	}
}

// fdVarStart reports text that starts as {NAME[ does: a descriptor
// variable with a subscript, before a redirection ({a,b}> is a brace
// expansion).
func fdVarStart(s string) bool {
	name, _, ok := strings.Cut(strings.TrimPrefix(s, "{"), "[")
	return ok && strings.HasPrefix(s, "{") && word.IsName(name)
}

// redirs evaluates a statement's redirections. A heredoc or here-string
// with literal text is returned as the statement's known input.
func (w *walker) redirs(sc *scope, rs []*syntax.Redirect) ([]Redir, *Input) {
	var out []Redir
	var in *Input
	for _, r := range rs {
		rd := Redir{Op: r.Op.String()}
		if r.N != nil {
			rd.Fd = normFd(r.N.Value)
		}
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			rd.Op = "<<"
			quoted := false
			for _, p := range r.Word.Parts {
				if _, ok := p.(*syntax.Lit); !ok {
					quoted = true
				}
			}
			if strings.Contains(r.Word.Lit(), `\`) {
				quoted = true
			}
			text, known, secret := "", true, false
			if r.Hdoc != nil {
				if quoted {
					text = hdocLiteral(r.Hdoc)
				} else {
					v := w.value(sc, r.Hdoc, wctx{dq: true, hdoc: true})
					text, known = v.Static()
					if !known {
						text, secret = v.String(), v.HasSecret()
					}
				}
			}
			if r.Op == syntax.DashHdoc {
				text = stripTabs(text)
			}
			if r.N == nil || normFd(r.N.Value) == "0" {
				in = &Input{Text: text, Known: known, Desc: "a heredoc", Secret: secret}
			}
			rd.Secret = secret
		case syntax.WordHdoc:
			rd.Op = "<<<"
			v := w.value(sc, r.Word, wctx{})
			text, known := v.Static()
			if !known {
				text = v.String() // as a heredoc's: what it expands shows ($TOKEN)
			}
			if r.N == nil || normFd(r.N.Value) == "0" {
				in = &Input{Text: text + "\n", Known: known, Desc: "a here-string", Secret: v.HasSecret()}
			}
			rd.Secret = v.HasSecret()
		default:
			// bash expands a glob in a redirection's target (outside POSIX
			// mode) and writes the one file it matches: > t[e]st/f writes
			// test/f. The target keeps its glob, with what it matches now.
			rd.Target = w.globbed(sc, w.value(sc, r.Word, wctx{pattern: true}))
			if len(rd.Target.Segs) == 0 {
				rd.Target = word.FromLit("")
			}
			if rd.Op == "<" && (r.N == nil || normFd(r.N.Value) == "0") {
				in = &Input{Desc: "the file " + rd.Target.String()}
			} else if opensStdin(r) {
				// The last redirection of fd 0 is what the command reads:
				// bash <<EOF 0<&3 reads fd 3, not the heredoc.
				desc := "the file " + rd.Target.String()
				if rd.Op == "<&" || rd.Op == ">&" {
					desc = "what file descriptor " + strings.TrimSuffix(rd.Target.String(), "-") + " holds"
				}
				in = &Input{Desc: desc}
			}
		}
		out = append(out, rd)
	}
	return out, in
}

// opensStdin reports whether a redirection other than a heredoc, a
// here-string or < FILE replaces standard input: <&N, <&-, <> FILE, and
// any operator given fd 0 (0>FILE, 0>&N).
func opensStdin(r *syntax.Redirect) bool {
	if r.N != nil {
		return normFd(r.N.Value) == "0"
	}
	switch r.Op {
	case syntax.DplIn, syntax.RdrInOut:
		return true
	}
	return false
}

// normFd is a redirection's file descriptor number as bash reads it: 00
// is 0.
func normFd(n string) string {
	if t := strings.TrimLeft(n, "0"); t != "" || n == "" {
		return t
	}
	return "0"
}

// hdocLiteral returns a quoted heredoc's body as written.
func hdocLiteral(wd *syntax.Word) string {
	var b strings.Builder
	for _, p := range wd.Parts {
		if l, ok := p.(*syntax.Lit); ok {
			b.WriteString(l.Value)
		}
	}
	return b.String()
}

func stripTabs(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimLeft(l, "\t")
	}
	return strings.Join(lines, "\n")
}

// mayReadCode reports whether a pipeline's next element could run what it
// reads (a shell, an interpreter, or something that runs commands); only
// then is the literal text fed to it worth working out.
func mayReadCode(st *syntax.Stmt) bool {
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok {
		return true // a compound command: anything inside may read it
	}
	if len(call.Args) == 0 {
		return false
	}
	name := call.Args[0].Lit()
	if name == "" {
		return true
	}
	return !readsNoCode(path.Base(name))
}

// readsNoCode are programs that never run what they read.
func readsNoCode(name string) bool {
	switch name {
	case "grep", "egrep", "fgrep", "rg", "head", "tail", "wc", "sort", "uniq", "cut", "tr", "cat",
		"less", "more", "jq", "tee", "column", "nl", "tac", "rev", "fold", "fmt", "base64", "md5sum",
		"sha256sum", "sha1sum", "od", "xxd", "hexdump", "strings", "gzip", "gunzip", "zcat", "diff",
		"comm", "paste", "expand", "yq", "true", "false", "echo", "printf", "ts", "pbcopy", "xclip",
		"column2", "python-json", "json_pp", "bat":
		return true
	}
	return false
}

// literalOutput returns what a pipeline element prints, when it is literal
// text (echo, printf without directives, cat of a heredoc).
func (w *walker) literalOutput(sc *scope, st *syntax.Stmt) *Input {
	unknown := &Input{Desc: "the output of another command"}
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) == 0 {
		return unknown
	}
	unknown.Desc = "the output of " + call.Args[0].Lit()
	was, wasRe := w.checking, w.rereading
	w.checking, w.rereading = true, true // words were walked already; only compute values
	defer func() { w.checking, w.rereading = was, wasRe }()
	var argv []word.Word
	for _, a := range call.Args {
		argv = w.appendFields(argv, sc.clone(), a)
	}
	args, ok := staticArgs(argv)
	if !ok || len(args) == 0 || w.aliases || w.mayBeFunc(sc, args[0]) {
		// echo() { …; } or an alias prints something else.
		return unknown
	}
	switch args[0] {
	case "find":
		// Only find's standard output: a redirection may send its errors
		// there, and they hold the starting points as written.
		if findPrintsPaths(args) && len(st.Redirs) == 0 {
			unknown.Found = args
		}
	case "echo":
		rest, nl := args[1:], "\n"
		for len(rest) > 0 && (rest[0] == "-n" || rest[0] == "-E") {
			if rest[0] == "-n" {
				nl = ""
			}
			rest = rest[1:]
		}
		if len(rest) > 0 && strings.HasPrefix(rest[0], "-") && strings.Trim(rest[0][1:], "neE") == "" {
			return unknown
		}
		text := strings.Join(rest, " ")
		if strings.Contains(text, "\\") {
			return unknown // shopt -s xpg_echo makes echo read escapes: \057 is /
		}
		return &Input{Text: text + nl, Known: true, Desc: "literal text from echo"}
	case "printf":
		if text, ok := printfLiteral(args[1:]); ok {
			return &Input{Text: text, Known: true, Desc: "literal text from printf"}
		}
	case "cat":
		if len(args) == 1 || (len(args) == 2 && args[1] == "-") {
			if _, in := w.redirs(sc.clone(), st.Redirs); in != nil && in.Known {
				return &Input{Text: in.Text, Known: true, Desc: in.Desc}
			}
		}
	}
	return unknown
}

// findPrintsPaths reports whether find prints only the paths it finds
// (which start with its starting points): no action that prints other
// text (-printf, -ls, -exec's commands) or to elsewhere, and no starting
// points read from a file.
func findPrintsPaths(args []string) bool {
	for _, a := range args[1:] {
		switch a {
		case "-exec", "-execdir", "-ok", "-okdir", "-printf", "-fprintf", "-fprint", "-fprint0", "-ls", "-fls", "-files0-from":
			return false
		}
	}
	return true
}

// printfEscape reads the backslash escape at s[i] as bash's printf does
// in its format (inB false) or in a %b argument (inB true), checked
// against bash (TestPrintfLiteralAgainstBash): the text it stands for,
// the index after it, and stop for %b's \c, which ends all output. Not
// ok for what is not worked out here (\u above ASCII, which depends on
// the locale).
func printfEscape(s string, i int, inB bool) (text string, next int, stop, ok bool) {
	if i+1 >= len(s) {
		return `\`, i + 1, false, true
	}
	c := s[i+1]
	digits := func(from, most int, isDigit func(byte) bool) (int, int) {
		j := from
		for j < len(s) && j < from+most && isDigit(s[j]) {
			j++
		}
		return from, j
	}
	octal := func(b byte) bool { return b >= '0' && b <= '7' }
	hex := func(b byte) bool {
		return b >= '0' && b <= '9' || b >= 'a' && b <= 'f' || b >= 'A' && b <= 'F'
	}
	value := func(from, to, base int) int {
		n, _ := strconv.ParseInt(s[from:to], base, 64)
		return int(n)
	}
	switch {
	case octal(c):
		from, most := i+1, 3
		if inB && c == '0' {
			from = i + 2 // %b: \0 and up to three more
		}
		from, to := digits(from, most, octal)
		return string([]byte{byte(value(from, to, 8))}), to, false, true
	case c == 'x', c == 'u', c == 'U':
		most := map[byte]int{'x': 2, 'u': 4, 'U': 8}[c]
		from, to := digits(i+2, most, hex)
		if to == from {
			return `\`, i + 1, false, true // printed as written
		}
		n := value(from, to, 16)
		if c != 'x' && n >= 0x80 {
			return "", 0, false, false
		}
		return string([]byte{byte(n)}), to, false, true
	case c == 'c' && inB:
		return "", i + 2, true, true
	case c == '"' || c == '\'' || c == '?':
		if inB {
			return `\`, i + 1, false, true
		}
		return string(c), i + 2, false, true
	case strings.IndexByte("abeEfnrtv\\", c) >= 0:
		e, _ := ansiC(`\` + string(c))
		if c == 'E' {
			e = "\x1b"
		}
		return e, i + 2, false, true
	}
	// \q: as written; the character after is read as it would be
	// without the backslash (\%s is a backslash and a conversion).
	return `\`, i + 1, false, true
}

// printfLiteral formats printf's arguments when the result is plain text:
// escapes, %s, %b, %c, %d and %%; anything else is not worked out.
func printfLiteral(args []string) (string, bool) {
	if len(args) == 0 || args[0] == "-v" || args[0] == "--" && len(args) == 1 {
		return "", false
	}
	if args[0] == "--" {
		args = args[1:]
	}
	format, rest := args[0], args[1:]
	var b strings.Builder
	for first := true; first || len(rest) > 0; first = false {
		used := false
		for i := 0; i < len(format); i++ {
			c := format[i]
			switch {
			case c == '\\':
				e, next, _, ok := printfEscape(format, i, false)
				if !ok {
					return "", false
				}
				b.WriteString(e)
				i = next - 1
			case c == '%' && i+1 < len(format):
				i++
				if format[i] == '%' {
					b.WriteByte('%')
					continue
				}
				arg := ""
				if len(rest) > 0 {
					arg, rest = rest[0], rest[1:]
				}
				used = true
				switch format[i] {
				case 's':
					b.WriteString(arg)
				case 'b':
					for j := 0; j < len(arg); j++ {
						if arg[j] != '\\' {
							b.WriteByte(arg[j])
							continue
						}
						e, next, stop, ok := printfEscape(arg, j, true)
						if !ok {
							return "", false
						}
						if stop {
							return b.String(), true // \c: nothing more at all
						}
						b.WriteString(e)
						j = next - 1
					}
				case 'c':
					if arg != "" {
						b.WriteByte(arg[0])
					}
				case 'd', 'i':
					if arg == "" {
						arg = "0"
					}
					if !word.IsInteger(arg) {
						return "", false
					}
					b.WriteString(arg)
				default:
					return "", false
				}
			default:
				b.WriteByte(c)
			}
		}
		if !used {
			break
		}
	}
	return b.String(), true
}

// allStars reports whether a case pattern matches any string.
func allStars(pat word.Word) bool {
	for _, s := range pat.Segs {
		if s.Kind != word.Star {
			return false
		}
	}
	return len(pat.Segs) > 0
}

// tellsNothing reports whether a case pattern matches only the empty
// string or any string: which branch runs then tells only what -z tells.
func tellsNothing(pat word.Word) bool {
	if t, ok := pat.Static(); ok && t == "" {
		return true
	}
	for _, s := range pat.Segs {
		if s.Kind != word.Star {
			return false
		}
	}
	return len(pat.Segs) > 0
}

// testSide says of one side of a [[ ]] comparison whether it is the
// empty string for certain ([[ $T == "" ]] tells only what -z tells).
type testSide struct{ empty bool }

// testWord walks one side of a [[ ]] comparison and returns its value
// when it is a word (an empty word for a nested expression).
func (w *walker) testWord(sc *scope, x syntax.TestExpr, ctx wctx) (word.Word, testSide) {
	wd, ok := x.(*syntax.Word)
	if !ok {
		w.test(sc, x)
		return word.Word{}, testSide{}
	}
	v := w.value(sc, wd, ctx)
	s, static := v.Static()
	return v, testSide{empty: static && s == ""}
}

// test walks a [[ ]] expression.
func (w *walker) test(sc *scope, e syntax.TestExpr) {
	switch e := e.(type) {
	case *syntax.BinaryTest:
		switch e.Op {
		case syntax.TsEql, syntax.TsNeq, syntax.TsLss, syntax.TsLeq, syntax.TsGtr, syntax.TsGeq:
			// Arithmetic comparisons evaluate their operands as expressions.
			for _, x := range []syntax.TestExpr{e.X, e.Y} {
				if wd, ok := x.(*syntax.Word); ok {
					w.arithOperand(sc, wd)
				} else {
					w.test(sc, x)
				}
			}
			return
		case syntax.TsMatch, syntax.TsMatchShort, syntax.TsNoMatch, syntax.TsReMatch, syntax.TsBefore, syntax.TsAfter:
			x, xs := w.testWord(sc, e.X, wctx{})
			if e.Op == syntax.TsReMatch {
				sc.setUnknown("BASH_REMATCH") // the matched text
			}
			y, ys := w.testWord(sc, e.Y, wctx{pattern: e.Op != syntax.TsBefore && e.Op != syntax.TsAfter})
			if x.HasSecret() && !ys.empty || y.HasSecret() && !xs.empty {
				w.secretShown("[[ " + x.String() + " " + e.Op.String() + " " + y.String() + " ]]: compares a secret variable's value with other text, and what runs after it tells that value, a piece at a time")
			}
			return
		}
		w.test(sc, e.X)
		w.test(sc, e.Y)
	case *syntax.UnaryTest:
		if e.Op == syntax.TsVarSet || e.Op == syntax.TsRefVar {
			if wd, ok := e.X.(*syntax.Word); ok {
				v := w.value(sc, wd, wctx{})
				w.varNameArg(sc, v, "[[ -v ]]")
				return
			}
		}
		if v, _ := w.testWord(sc, e.X, wctx{}); argspec.DerivedSecret(v) {
			w.secretShown("[[ " + e.Op.String() + " " + v.String() + " ]]: tests a piece of a secret variable's value, and what runs after it tells that piece")
		}
	case *syntax.ParenTest:
		w.test(sc, e.X)
	case *syntax.Word:
		if v := w.value(sc, e, wctx{}); argspec.DerivedSecret(v) {
			w.secretShown("[[ " + v.String() + " ]]: tests a piece of a secret variable's value, and what runs after it tells that piece")
		}
	}
}

// arithOperand checks a word that bash evaluates as an arithmetic
// expression (as in [[ $x -eq 1 ]]).
func (w *walker) arithOperand(sc *scope, wd *syntax.Word) {
	v := w.value(sc, wd, wctx{arith: true})
	w.arithText(sc, v, "[[ … -eq … ]]")
}

// arithText checks text that will be evaluated as arithmetic.
func (w *walker) arithText(sc *scope, v word.Word, where string) {
	if s, ok := v.Static(); ok && !strings.ContainsAny(s, "$`") {
		// Literal text: read it as the expression bash will evaluate, so
		// that assignments (let 'x = 1') are told from reads.
		if f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(newDepthReader("(( "+s+" ))"), ""); err == nil && len(f.Stmts) == 1 {
			if ac, ok := f.Stmts[0].Cmd.(*syntax.ArithmCmd); ok {
				if wd, isWord := ac.X.(*syntax.Word); isWord {
					// A single operand: a name or a number, never text to
					// read again.
					if l := wd.Lit(); word.IsName(l) {
						w.arithName(sc, l)
						return
					} else if l != "" && !strings.ContainsAny(l, "$`[") {
						return
					}
				} else {
					w.nested++
					w.arith(sc, ac.X)
					w.nested--
					return
				}
			}
		}
	}
	if s, ok := v.Static(); ok {
		if !strings.ContainsAny(s, "$`[") && !hasUnknownName(sc, w, s) {
			return
		}
		if strings.ContainsAny(s, "$`") {
			w.dataAsCode(where + " evaluates " + quote(s) + " as arithmetic, which runs the commands in it")
			return
		}
		if !hasUnknownName(sc, w, s) {
			return
		}
	}
	// Every hole in the value must be known numeric to be safe.
	for _, seg := range v.Segs {
		if seg.Kind == word.Hole && !numericHole(sc, w, seg.Text) {
			w.dataAsCode(where + " evaluates " + seg.Text + " as arithmetic; its value is not known here and could name an array subscript that runs a command")
			return
		}
	}
	if s, ok := v.Static(); ok && hasUnknownName(sc, w, s) {
		w.dataAsCode(where + " evaluates variables whose values are not known here as arithmetic; such a value could run a command")
	}
}

func quote(s string) string { return "'" + s + "'" }

// numericHole reports whether a hole described as "$x" or "${#x}" or
// "$((…))" is certainly a number.
func numericHole(sc *scope, w *walker, desc string) bool {
	switch {
	case desc == "$((…))" || strings.HasPrefix(desc, "${#"):
		return true
	case strings.HasPrefix(desc, "${") && strings.HasSuffix(desc, "[…]}"):
		return sc.numericElems(w, strings.TrimSuffix(desc[2:], "[…]}"))
	case strings.HasPrefix(desc, "${") && strings.HasSuffix(desc, "…}"):
		return false
	case strings.HasPrefix(desc, "$"):
		return sc.numeric(w, desc[1:])
	}
	return false
}

// hasUnknownName reports whether arithmetic text refers to a variable
// whose value is not known to be a number.
func hasUnknownName(sc *scope, w *walker, s string) bool {
	return unknownNameIn(sc, w, s, 0)
}

// unknownNameIn follows names whose values name others; a cycle (a='=a')
// makes bash give up with "expression recursion level exceeded", and the
// guard with "not known".
func unknownNameIn(sc *scope, w *walker, s string, depth int) bool {
	if depth > 32 {
		return true
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
			j := i
			for j < len(s) && (s[j] == '_' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= '0' && s[j] <= '9') {
				j++
			}
			if j < len(s) && s[j] == '[' {
				// a[i]: any element may be read (a subscript is not
				// worked out here), and its value is evaluated in turn.
				if st, ok := sc.vars.lookup(s[i:j]); ok && st.elems != nil {
					if st.unknown || st.unset {
						return true
					}
					for _, e := range st.elems {
						t, ok := e.Static()
						if !ok || strings.ContainsAny(t, "$`[") || (t != "" && !word.IsInteger(t) && unknownNameIn(sc, w, t, depth+1)) {
							return true
						}
					}
					i = j
					continue
				}
			}
			if !sc.numeric(w, s[i:j]) {
				v, known := sc.get(w, s[i:j])
				t, ok := v.Static()
				if !known || !ok || strings.ContainsAny(t, "$`[") || (t != "" && !word.IsInteger(t) && unknownNameIn(sc, w, t, depth+1)) {
					return true
				}
			}
			i = j
			continue
		}
		if c >= '0' && c <= '9' {
			for i < len(s) && (s[i] == 'x' || s[i] == '#' || s[i] == '_' || s[i] >= '0' && s[i] <= '9' || s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z') {
				i++
			}
			continue
		}
		i++
	}
	return false
}

// endless reports a loop condition that never ends it: while :, while
// true, while ((1)), until false.
func endless(cond []*syntax.Stmt, until bool) bool {
	if len(cond) != 1 || cond[0].Background || cond[0].Negated || len(cond[0].Redirs) > 0 {
		return false
	}
	switch c := cond[0].Cmd.(type) {
	case *syntax.CallExpr:
		if len(c.Assigns) > 0 {
			return false
		}
		var args []string
		for _, a := range c.Args {
			s, ok := litText(a)
			if !ok {
				return false
			}
			args = append(args, s)
		}
		for len(args) > 1 && (args[0] == "builtin" || args[0] == "command") {
			args = args[1:]
		}
		switch {
		case len(args) == 1 && (args[0] == ":" || args[0] == "true" || args[0] == "/bin/true" || args[0] == "/usr/bin/true"):
			return !until
		case len(args) == 1 && (args[0] == "false" || args[0] == "/bin/false" || args[0] == "/usr/bin/false"):
			return until
		case len(args) == 3 && args[0] == "[" && args[1] != "" && args[2] == "]", len(args) == 2 && args[0] == "test" && args[1] != "":
			return !until // [ 1 ], test 1: a non-empty string
		}
	case *syntax.ArithmCmd:
		return !until && endlessArith(c.X)
	}
	return false
}

// endlessArith reports an arithmetic loop condition that is always true:
// none (for ((;;))) or a literal number other than 0.
func endlessArith(e syntax.ArithmExpr) bool {
	if e == nil {
		return true
	}
	wd, ok := e.(*syntax.Word)
	if !ok {
		return false
	}
	n, err := strconv.ParseInt(wd.Lit(), 0, 64)
	return err == nil && n != 0
}

// flood is what a loop's code does on each turn, as far as processes
// go: bg, it starts a job that runs on without being waited for; mayBg,
// it runs code not seen here, which may; mayHold, something in it may
// wait or end the loop (any program in the foreground may: inotifywait,
// entr, a server's health check); holds, something certainly does (wait,
// sleep of a second or more, break, exit, return).
//
// A wait holds only the jobs of the loop's own shell: waits is a wait
// there, detached a job it cannot wait for (disown, setsid -f, a job
// started in a subshell or another shell); holds is then decided by
// held.
type flood struct{ bg, mayBg, mayHold, holds, waits, detached bool }

func (f *flood) add(g flood) {
	f.bg, f.mayBg, f.mayHold, f.holds = f.bg || g.bg, f.mayBg || g.mayBg, f.mayHold || g.mayHold, f.holds || g.holds
	f.waits, f.detached = f.waits || g.waits, f.detached || g.detached
}

// held reports whether something certainly holds the loop.
func (f flood) held() bool { return f.holds || f.waits && !f.detached }

// A scanCtx is where scanned code runs: in a subshell (a pipeline's
// element, ( ), $( ), another shell: exit, break and wait there end or
// wait for nothing of the loop's shell), or in a function the loop calls
// (break there does not break the loop).
type scanCtx struct{ sub, inFunc bool }

// floods reports an endless loop's body that starts a job in the
// background on every turn and nothing that may stop it, wait or slow it:
// the processes multiply until the machine stops, as a fork bomb's do. A
// function the body calls is looked into as if its body stood there
// (f(){ x & }; while :; do f; done), and so is literal eval and shell -c
// code, to a bound.
func (w *walker) floods(sc *scope, body []*syntax.Stmt) bool {
	f := w.floodScan(sc, body, 0, nil, map[string]*syntax.Stmt{}, scanCtx{})
	return f.bg && !f.mayHold
}

// mayFlood reports a loop that is not seen to end whose turns (cond and
// body) start a job in the background, or run code not seen here, with
// nothing that certainly waits or ends it: it may be a fork bomb, and a
// person decides (floods says when it certainly is one).
func (w *walker) mayFlood(sc *scope, cond, body []*syntax.Stmt) bool {
	f := w.floodScan(sc, append(append([]*syntax.Stmt(nil), cond...), body...), 0, nil, map[string]*syntax.Stmt{}, scanCtx{})
	return (f.bg || f.mayBg) && !f.held()
}

// mayFloodOpaque is the reason a loop mayFlood asks.
const mayFloodOpaque = "a loop that may not end (or may run a great many times) starts a job in the background on every turn (or runs code not seen here), with nothing that waits for it or slows it (wait, sleep of a second or more): it may multiply processes until the machine stops"

// floodScan reads what stmts do for flood; inside are the functions
// being looked into, outermost first, and defs the functions the scanned
// code defines (a definition runs nothing until called).
func (w *walker) floodScan(sc *scope, body []*syntax.Stmt, depth int, inside []string, defs map[string]*syntax.Stmt, ctx scanCtx) (f flood) {
	unseen := func() { f.mayBg, f.mayHold, f.detached = true, true, true }
	subCtx := ctx
	subCtx.sub = true
	// ofSub is what a subshell (or another shell) run in the foreground
	// does to the loop: one that waits for the jobs it started holds the
	// loop while they run; otherwise its jobs run on, detached from the
	// loop's shell, and its wait waits for nothing of that shell's.
	ofSub := func(g flood) flood {
		if g.holds || g.waits && g.bg && !g.detached {
			return flood{mayHold: true, holds: true}
		}
		if g.bg {
			g.detached = true
		}
		g.waits = false
		return g
	}
	inSub := func(stmts []*syntax.Stmt) flood {
		return ofSub(w.floodScan(sc, stmts, depth+1, inside, defs, subCtx))
	}
	for _, st := range body {
		syntax.Walk(st, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.FuncDecl:
				defs[n.Name.Value] = n.Body
				return false
			case *syntax.Stmt:
				if n.Background || n.Coprocess {
					f.bg = true  // a subshell's: see ofSub
					return false // what the job runs does not hold the loop
				}
			case *syntax.CoprocClause:
				f.bg = true
				return false
			case *syntax.ProcSubst:
				f.bg, f.detached = true, true // <(x) runs alongside, and nothing waits for it
				return false
			case *syntax.Subshell:
				f.add(inSub(n.Stmts))
				return false
			case *syntax.BinaryCmd:
				if n.Op == syntax.Pipe || n.Op == syntax.PipeAll {
					// Each element of a pipeline runs in a subshell.
					f.add(inSub([]*syntax.Stmt{n.X, n.Y}))
					return false
				}
			case *syntax.CmdSubst:
				// $(x &) waits for x while x holds its output: a job
				// there may or may not run on.
				g := inSub(n.Stmts)
				if g.bg {
					g.bg, g.mayBg = false, true
				}
				f.add(g)
				return false
			case *syntax.CallExpr:
				if len(n.Args) == 0 {
					return true
				}
				name, lit := litText(n.Args[0])
				if !lit {
					// $g: any program or function; a value known here
					// holds on every turn only where nothing the loop
					// runs may set it (the loop, the functions of this
					// shell).
					var v string
					if name, v, lit = w.knownName(sc, n.Args[0]); !lit || w.maySet(sc, v, body, defs) {
						unseen()
					}
					if !lit {
						return true
					}
				}
				if code, shell, ok := carriedCode(n.Args); ok {
					// eval 'x &', bash -c 'x &': the code runs there and
					// then (a shell -c exits at once, leaving its job
					// behind).
					fl, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(newDepthReader(code), "")
					if err != nil || depth >= 8 {
						unseen()
						return false
					}
					inner, innerDefs, innerCtx := sc, defs, ctx
					if shell {
						// A new shell: no functions of this one, and its
						// jobs are not the loop's.
						inner, innerDefs, innerCtx = nil, map[string]*syntax.Stmt{}, subCtx
					}
					g := w.floodScan(inner, fl.Stmts, depth+1, inside, innerDefs, innerCtx)
					if shell {
						g = ofSub(g)
					}
					f.add(g)
					return false
				}
				args, allLit := litArgs(&syntax.Stmt{Cmd: n})
				prog := unwrapped(args)
				if !allLit && (name == "eval" || shellNames[path.Base(name)] || len(unwrapped([]string{name, "x"})) < 2) ||
					len(prog) > 0 && (prog[0] == "eval" || shellNames[path.Base(prog[0])]) {
					unseen() // code from a variable, a file or its input
					return true
				}
				bodies := w.funcBodies(sc, name)
				if b, ok := defs[name]; ok {
					bodies = []*syntax.Stmt{b}
				}
				if len(bodies) > 0 {
					if depth >= 8 || slices.Contains(inside, name) {
						unseen() // deeper, or calling itself
						return false
					}
					fctx := ctx
					fctx.inFunc = true
					for _, b := range bodies {
						f.add(w.floodScan(sc, []*syntax.Stmt{b}, depth+1, append(inside, name), defs, fctx))
					}
					return false
				}
				if len(prog) > 0 {
					args = prog // nice sleep 9, busybox wait: as the command
				}
				switch holdOf(args) {
				case holdNever:
					if len(args) > 0 && args[0] == "disown" {
						f.detached = true
					}
				case holdCertain:
					// exit, break and wait in a subshell end or wait for
					// nothing of the loop's shell, break in a function
					// does not break the loop, return outside one
					// returns nothing and in one the loop calls leaves
					// only that: each is then as if not there.
					switch args[0] {
					case "wait":
						f.mayHold, f.waits = true, true // for this shell's jobs (ofSub)
					case "break":
						if !ctx.sub && !ctx.inFunc {
							f.mayHold, f.holds = true, true
						}
					case "exit":
						if !ctx.sub {
							f.mayHold, f.holds = true, true
						}
					case "return":
						if !ctx.sub && !ctx.inFunc && len(w.calls) > 0 {
							f.mayHold = true // the loop's own function returns
						}
					default:
						f.mayHold, f.holds = true, true
					}
				case holdForks:
					f.bg, f.detached = true, true
					return false
				default:
					f.mayHold = true
				}
			}
			return true
		})
	}
	return f
}

// knownName is the value of a command name that is one variable ($X,
// "${X}") whose value the scope knows, and the variable's name.
func (w *walker) knownName(sc *scope, wd *syntax.Word) (value, name string, ok bool) {
	if sc == nil || len(wd.Parts) != 1 {
		return "", "", false
	}
	part := wd.Parts[0]
	if dq, ok := part.(*syntax.DblQuoted); ok && len(dq.Parts) == 1 {
		part = dq.Parts[0]
	}
	pe, ok := part.(*syntax.ParamExp)
	if !ok || pe.Excl || pe.Length || pe.Width || pe.Index != nil || pe.Slice != nil || pe.Repl != nil || pe.Exp != nil || pe.Names != 0 {
		return "", "", false
	}
	v, known := sc.get(w, pe.Param.Value)
	if !known {
		return "", "", false
	}
	s, ok := v.Static()
	if !ok || s == "" || strings.ContainsAny(s, " \t\n*?[") {
		return "", "", false
	}
	return s, pe.Param.Value, true
}

// maySet reports whether name is named as a word anywhere in stmts, the
// functions they define, or the functions of the scope (an assignment,
// read NAME, declare NAME, ((NAME=…)) all name it so).
func (w *walker) maySet(sc *scope, name string, stmts []*syntax.Stmt, defs map[string]*syntax.Stmt) bool {
	all := append([]*syntax.Stmt(nil), stmts...)
	for _, b := range defs {
		all = append(all, b)
	}
	if sc != nil {
		for _, b := range sc.funcs {
			all = append(all, b)
		}
	}
	for _, bs := range w.may.bodies {
		all = append(all, bs...)
	}
	return namesWord(all, name)
}

// namesWord reports whether name is a word of its own in some literal
// text of stmts.
func namesWord(stmts []*syntax.Stmt, name string) bool {
	named := false
	params := map[*syntax.Lit]bool{} // $NAME reads it
	for _, st := range stmts {
		syntax.Walk(st, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.ParamExp:
				params[n.Param] = true
			case *syntax.Lit:
				named = named || !params[n] && hasIdent(n.Value, name)
			}
			return !named
		})
	}
	return named
}

// hasIdent reports whether name is one of the identifiers in s.
func hasIdent(s, name string) bool {
	for _, id := range strings.FieldsFunc(s, func(r rune) bool {
		return !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) {
		if id == name {
			return true
		}
	}
	return false
}

// shellNames are the shells whose code a loop's flood is read from.
var shellNames = map[string]bool{"bash": true, "sh": true, "dash": true, "ksh": true, "zsh": true, "ash": true,
	"mksh": true, "yash": true, "posh": true, "rbash": true, "lksh": true, "pdksh": true}

const (
	holdMay = iota
	holdNever
	holdCertain
	holdForks
)

// holdOf says whether a command in a loop holds it: never (builtins that
// return at once, sleep under a second, wait for a pid, read -t 0),
// certainly (wait for the jobs, sleep of a second or more, break, exit,
// return), forks (setsid -f starts its command and returns), or may (any
// other program: it may wait for something).
func holdOf(args []string) int {
	if len(args) == 0 {
		return holdMay // not literal
	}
	switch args[0] {
	case ":", "true", "false", "echo", "printf", "test", "[", "let", "export", "local", "declare",
		"typeset", "shift", "unset", "cd", "pwd", "kill", "continue", "disown":
		return holdNever
	case "break", "exit", "return":
		return holdCertain
	case "wait":
		// wait -n returns when any job ends (true & wait -n at once).
		if len(args) == 1 {
			return holdCertain
		}
	case "sleep":
		total, ok := 0.0, len(args) > 1
		for _, a := range args[1:] {
			unit := 1.0
			switch {
			case strings.HasSuffix(a, "s"):
				a = a[:len(a)-1]
			case strings.HasSuffix(a, "m"):
				a, unit = a[:len(a)-1], 60
			case strings.HasSuffix(a, "h"):
				a, unit = a[:len(a)-1], 3600
			case strings.HasSuffix(a, "d"):
				a, unit = a[:len(a)-1], 86400
			}
			v, err := strconv.ParseFloat(a, 64)
			if err != nil || v < 0 || strings.ContainsAny(a, "xXpPeEiInN") {
				ok = false
				break
			}
			total += v * unit
		}
		switch {
		case ok && total >= 1:
			return holdCertain
		case ok:
			return holdNever
		}
	case "read":
		for i, a := range args[1:] {
			if a == "-t" && i+2 < len(args) && strings.Trim(args[i+2], "0.") == "" || a == "-t0" {
				return holdNever
			}
		}
	case "setsid":
		for _, a := range args[1:] {
			if a == "-f" || a == "--fork" {
				return holdForks
			}
			if !strings.HasPrefix(a, "-") {
				break
			}
		}
	}
	return holdMay
}

// unwrapped is args without the wrappers that run the rest (env, nice,
// timeout, setsid, sudo …: the catalogue's, argspec.Wrapped), nil when
// not literal. It stops at xargs (what the flood checks look for), at
// setsid -f (a job of its own, holdOf) and at a wrapper whose command
// is shell code or not known.
func unwrapped(args []string) []string {
	for len(args) > 0 {
		prog := path.Base(args[0])
		if prog == "xargs" || prog == "setsid" && len(args) > 1 && (args[1] == "-f" || args[1] == "--fork") {
			return args
		}
		words := make([]word.Word, len(args))
		for i, a := range args {
			words[i] = word.FromLit(a)
		}
		in, reason, ok := argspec.Wrapped(prog, words)
		if !ok || reason != "" || in == nil || in.Code != nil {
			return args
		}
		inner, ok := staticArgs(in.Argv)
		if !ok {
			return args
		}
		args = inner
	}
	return args
}

// funcBodies returns the bodies a call of name may run: the function the
// scope defines, or those it may define.
func (w *walker) funcBodies(sc *scope, name string) []*syntax.Stmt {
	if sc == nil {
		return nil
	}
	if b, ok := sc.funcs[name]; ok {
		return []*syntax.Stmt{b}
	}
	return w.may.bodies[name]
}

// endlessOutput reports a pipeline element that prints without end: yes,
// cat of /dev/zero or /dev/urandom (od, base64, xxd of them), seq to inf,
// an endless loop nothing in which ends (break, exit, return), in { } or
// ( ), or such output through tr or cat. Maybe through a filter that may
// pass it on (grep, sed, awk, tee, dd, head -c …).
func endlessOutput(st *syntax.Stmt) word.Tri {
	if st == nil || st.Background {
		return word.No
	}
	for _, r := range st.Redirs {
		if r.N == nil && r.Op != syntax.RdrIn || r.N != nil && r.N.Value == "1" {
			return word.No // its output goes elsewhere
		}
	}
	switch c := st.Cmd.(type) {
	case *syntax.Block:
		if len(c.Stmts) == 1 {
			return endlessOutput(c.Stmts[0])
		}
		return word.No
	case *syntax.Subshell:
		if len(c.Stmts) == 1 {
			return endlessOutput(c.Stmts[0])
		}
		return word.No
	case *syntax.BinaryCmd:
		if c.Op != syntax.Pipe && c.Op != syntax.PipeAll {
			return word.No
		}
		in := endlessOutput(c.X)
		if in == word.No {
			return word.No
		}
		args, ok := litArgs(c.Y)
		if !ok || len(args) == 0 {
			return word.No
		}
		switch path.Base(args[0]) {
		case "tr":
			if len(args) == 3 && !strings.HasPrefix(args[1], "-") {
				return in
			}
			return min(in, word.Maybe)
		case "cat":
			if len(args) == 1 {
				return in
			}
		case "grep", "egrep", "fgrep", "sed", "awk", "gawk", "mawk", "tee", "dd", "cut", "nl", "rev", "od", "base64", "xxd", "hexdump", "stdbuf", "uniq", "fold", "paste", "perl", "python3", "python":
			return word.Maybe
		}
		return word.No
	case *syntax.WhileClause:
		if !endless(c.Cond, c.Until) || loopEnds(c.Do) {
			return word.No
		}
		return word.Yes
	case *syntax.ForClause:
		if l, ok := c.Loop.(*syntax.CStyleLoop); ok && endlessArith(l.Cond) && !loopEnds(c.Do) {
			return word.Yes
		}
		return word.No
	}
	args, ok := litArgs(st)
	if !ok || len(args) == 0 {
		return word.No
	}
	args = unwrapped(args)
	if len(args) == 0 {
		return word.No
	}
	endlessFile := func(a string) bool { return a == "/dev/zero" || a == "/dev/urandom" || a == "/dev/random" }
	endlessIn := false // < /dev/zero
	for _, r := range st.Redirs {
		if r.Op == syntax.RdrIn && (r.N == nil || r.N.Value == "0") {
			f, ok := litText(r.Word)
			endlessIn = ok && endlessFile(f)
		}
	}
	switch path.Base(args[0]) {
	case "yes":
		return word.Yes
	case "tr":
		if endlessIn {
			return word.Maybe // tr -d may leave nothing
		}
	case "dd":
		in, counted := endlessIn, false
		for _, a := range args[1:] {
			if v, ok := strings.CutPrefix(a, "if="); ok {
				in = endlessFile(v)
			}
			counted = counted || strings.HasPrefix(a, "count=")
		}
		if in && !counted {
			return word.Yes
		}
	case "strings":
		for _, a := range args[1:] {
			if endlessFile(a) {
				return word.Maybe
			}
		}
	case "cat", "od", "base64", "xxd", "hexdump":
		if endlessIn && len(args) == 1 {
			return word.Yes
		}
		files := 0
		for _, a := range args[1:] {
			if strings.HasPrefix(a, "-") {
				if args[0] == "cat" {
					return word.No
				}
				continue
			}
			if !endlessFile(a) {
				return word.No
			}
			files++
		}
		if files > 0 {
			return word.Yes
		}
	case "seq":
		if len(args) > 1 {
			last := strings.ToLower(args[len(args)-1])
			if last == "inf" || last == "infinity" || last == "+inf" {
				return word.Yes
			}
			if f, err := strconv.ParseFloat(last, 64); err == nil && f >= 1e9 {
				return word.Maybe // a billion lines: as good as endless
			}
		}
	}
	return word.No
}

// loopEnds reports a loop body with something that ends the loop.
func loopEnds(body []*syntax.Stmt) bool {
	ends := false
	for _, s := range body {
		syntax.Walk(s, func(n syntax.Node) bool {
			if ce, ok := n.(*syntax.CallExpr); ok && len(ce.Args) > 0 {
				switch name, _ := litText(ce.Args[0]); name {
				case "break", "exit", "return", "kill":
					ends = true
				}
			}
			return !ends
		})
	}
	return ends
}

// litArgs is a simple command's words, when all are literal.
func litArgs(st *syntax.Stmt) ([]string, bool) {
	ce, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Assigns) > 0 {
		return nil, false
	}
	var out []string
	for _, a := range ce.Args {
		s, ok := litText(a)
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// xargsFlood reports an xargs that starts a process for every item of
// endless input, all at once (xargsUnbounded): a fork bomb, or, with a
// -P known only at run time, a question.
func (w *walker) xargsFlood(st *syntax.Stmt, piped word.Tri) {
	w.xargsFloodIn(st, piped, 0)
}

// xargsFloodIn looks for the xargs in ( ), { }, literal shell -c and eval
// code, and functions, which read the same input, to a depth.
func (w *walker) xargsFloodIn(st *syntax.Stmt, piped word.Tri, depth int) {
	if depth > 8 || st == nil {
		return
	}
	var inner []*syntax.Stmt
	switch c := st.Cmd.(type) {
	case *syntax.CallExpr:
		if piped == word.No {
			// Input not from a pipe: only this command's own (-a FILE,
			// < FILE) counts, and the walk checks each command of the
			// code it reads (bash -c, functions) as it reaches it.
			break
		}
		if code, _, ok := carriedCode(c.Args); ok {
			if f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(newDepthReader(code), ""); err == nil {
				inner = f.Stmts
			}
		} else if len(c.Args) > 0 {
			if name, ok := litText(c.Args[0]); ok {
				if bodies := w.funcBodies(w.curScope, name); len(bodies) > 0 {
					inner = bodies
				}
			}
		}
	case *syntax.Block:
		inner = c.Stmts
	case *syntax.Subshell:
		inner = c.Stmts
	}
	for _, s := range inner {
		w.xargsFloodIn(s, piped, depth+1)
	}
	if inner != nil {
		return
	}
	switch xargsUnbounded(st, piped) {
	case word.Yes:
		// yes | xargs -P0 -n1 sleep: a new process for every line, all
		// at once, without end.
		w.emit(&Cmd{Argv: []word.Word{word.FromLit("xargs")}, Special: "fork-bomb"})
	case word.Maybe:
		w.emit(&Cmd{Argv: []word.Word{word.FromLit("xargs")}, CodeArg: -1,
			Opaque: "xargs starting as many processes at once as it can (-P 0, or a -P known only at run time) may be fed without end (endless output through a filter, a count of a billion): it may start processes without bound"})
	}
}

// xargsUnbounded reports an xargs that starts as many processes at once
// as it can, -P 0 (or a number no machine runs at once, ≥ 1024) as GNU
// xargs's getopt reads its options, and reads input that has no end:
// endless output piped to it (piped), or a file without end (-a
// /dev/zero, < /dev/urandom). Maybe for a -P, or options, not literal.
func xargsUnbounded(st *syntax.Stmt, piped word.Tri) word.Tri {
	ce, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 {
		return word.No
	}
	// Most commands name no xargs at all: settled without reading them.
	named := false
	for _, a := range ce.Args {
		named = named || strings.Contains(a.Lit(), "xargs") || a.Lit() == ""
	}
	if !named {
		return word.No
	}
	// nice xargs …, env xargs …: the wrappers' words, while literal.
	var lead []string
	for _, a := range ce.Args {
		t, ok := litText(a)
		if !ok {
			break
		}
		lead = append(lead, t)
	}
	prog := unwrapped(lead)
	if len(prog) == 0 || path.Base(prog[0]) != "xargs" {
		return word.No
	}
	skip := len(lead) - len(prog)
	endlessFile := func(f string) bool { return f == "/dev/zero" || f == "/dev/urandom" || f == "/dev/random" }
	procs, argFile, fromFile := word.No, false, false
	setProcs := func(v string, known bool) {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		switch {
		case !known:
			procs = word.Maybe
		case err == nil && (n == 0 || n >= 1024):
			procs = word.Yes
		default:
			procs = word.No // the last -P is the one that holds
		}
	}
	setFile := func(v string, known bool) { fromFile, argFile = true, known && endlessFile(v) }
	// Read as the catalogue's xargs reads them (getopt: unique long
	// prefixes, values attached or next).
	sp := argspec.Lookup("xargs")
	arity := func(canon string) argspec.Arity {
		for _, o := range sp.Options() {
			if o.Canon == canon {
				return o.Arity
			}
		}
		return argspec.NoArg
	}
	set := func(canon, v string, known bool) {
		switch canon {
		case "--max-procs":
			setProcs(v, known)
		case "--arg-file":
			setFile(v, known)
		}
	}
	args := ce.Args[skip+1:]
options:
	for i := 0; i < len(args); i++ {
		a, known := litText(args[i])
		if !known {
			procs = max(procs, word.Maybe) // an option or the command: not read further
			break
		}
		if a == "--" || !strings.HasPrefix(a, "-") || a == "-" {
			break
		}
		if strings.HasPrefix(a, "--") {
			name, v, attached := strings.Cut(a, "=")
			canon := sp.Opt(name)
			vk := true
			if !attached && arity(canon) == argspec.ReqArg && i+1 < len(args) {
				i++
				v, vk = litText(args[i])
			}
			set(canon, v, vk)
			continue
		}
		for j := 1; j < len(a); j++ {
			canon := sp.Opt("-" + string(a[j]))
			switch arity(canon) {
			case argspec.ReqArg:
				v, vk := a[j+1:], true
				if v == "" && i+1 < len(args) {
					i++
					v, vk = litText(args[i])
				}
				set(canon, v, vk)
				continue options
			case argspec.OptArg:
				continue options // an optional value, attached
			}
		}
	}
	input := piped
	for _, r := range st.Redirs {
		if r.Op == syntax.RdrIn && (r.N == nil || r.N.Value == "0") {
			input = word.No // the last one is what it reads
			if f, ok := litText(r.Word); ok && endlessFile(f) {
				input = word.Yes
			}
			if len(r.Word.Parts) == 1 {
				if ps, ok := r.Word.Parts[0].(*syntax.ProcSubst); ok && ps.Op == syntax.CmdIn && len(ps.Stmts) == 1 {
					input = endlessOutput(ps.Stmts[0]) // < <(yes)
				}
			}
		}
	}
	if fromFile {
		input = word.No // -a: the file, not its standard input
		if argFile {
			input = word.Yes
		}
	}
	return min(input, procs)
}

// fewItems reports a for loop over at most 256 literal words (no
// expansion, brace or glob that may make more of them): its jobs are as
// many.
func fewItems(l *syntax.WordIter) bool {
	if !l.InPos.IsValid() || len(l.Items) > 256 {
		return false // for x; do …: the arguments
	}
	for _, it := range l.Items {
		t, ok := litText(it)
		if !ok || strings.ContainsAny(t, "{*?[") {
			return false
		}
	}
	return true
}

// boundedCStyle reports a for ((…)) loop seen to end: a condition i < N
// or i <= N (or N > i …) with N a literal number, a step that only
// raises i (i++, ++i, i+=K with K > 0), and a body that never names i
// (so never sets it).
func boundedCStyle(l *syntax.CStyleLoop, body []*syntax.Stmt) bool {
	cond, ok := l.Cond.(*syntax.BinaryArithm)
	if !ok {
		return false
	}
	name, limit := "", ""
	wordOf := func(e syntax.ArithmExpr) string {
		if wd, ok := e.(*syntax.Word); ok {
			return wd.Lit()
		}
		return ""
	}
	switch cond.Op {
	case syntax.Lss, syntax.Leq:
		name, limit = wordOf(cond.X), wordOf(cond.Y)
	case syntax.Gtr, syntax.Geq:
		name, limit = wordOf(cond.Y), wordOf(cond.X)
	default:
		return false
	}
	if !word.IsName(name) {
		return false
	}
	if n, err := strconv.ParseInt(limit, 0, 64); err != nil || n > 1024 {
		return false // a million jobs are a flood too
	}
	switch p := l.Post.(type) {
	case *syntax.UnaryArithm:
		if p.Op != syntax.Inc || wordOf(p.X) != name {
			return false
		}
	case *syntax.BinaryArithm:
		k, err := strconv.ParseInt(wordOf(p.Y), 0, 64)
		if p.Op != syntax.AddAssgn || wordOf(p.X) != name || err != nil || k <= 0 {
			return false
		}
	default:
		return false
	}
	named := false
	for _, st := range body {
		syntax.Walk(st, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.Lit:
				// i=1, read i, ((i--)), let i++: the name as a word of
				// its own in any literal text.
				named = named || hasIdent(n.Value, name)
			case *syntax.ParamExp:
				named = named || n.Param.Value == name
			}
			return !named
		})
	}
	return !named
}

// carriedCode is the code a literal eval or shell -c call runs: eval's
// words joined, or the word after -c of bash, sh, dash, ksh or zsh; shell
// says it runs in a new shell.
func carriedCode(args []*syntax.Word) (code string, shell, ok bool) {
	var words []string
	for _, a := range args {
		s, ok := litText(a)
		if !ok {
			return "", false, false
		}
		words = append(words, s)
	}
	words = unwrapped(words) // env bash -c …, nice eval …
	switch {
	case len(words) > 1 && words[0] == "eval":
		return strings.Join(words[1:], " "), false, true
	case len(words) > 2 && shellNames[path.Base(words[0])]:
		// bash -ec CODE, bash --norc -c CODE: the first operand after
		// the options is the code when one of them was -c.
		sawC := false
		for i := 1; i < len(words); i++ {
			a := words[i]
			switch {
			case a == "-o" || a == "+o" || a == "-O" || a == "+O":
				i++
			case strings.HasPrefix(a, "--"):
			case len(a) > 1 && (a[0] == '-' || a[0] == '+'):
				sawC = sawC || a[0] == '-' && strings.Contains(a, "c")
			default:
				return a, true, sawC
			}
		}
	}
	return "", false, false
}

// litText is a word's text when it is all literal (quoted or not).
func litText(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(strings.ReplaceAll(p.Value, "\\", ""))
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				b.WriteString(l.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// arith walks an arithmetic expression: its substitutions run, and names
// of variables whose values are not known could run code.
func (w *walker) arith(sc *scope, e syntax.ArithmExpr) {
	switch e := e.(type) {
	case *syntax.BinaryArithm:
		if isAssignOp(e.Op) {
			w.arith(sc, e.Y)
			if wd, ok := e.X.(*syntax.Word); ok {
				w.arithLvalue(sc, wd)
				if name := wd.Lit(); word.IsName(name) {
					sc.setNumeric(name)
					if specialVar(name) && (w.storing || w.assigning > 0 || w.checking) {
						// Arithmetic inside a value being judged (declare
						// -i x; x=GUARD_EXEC_MODE=1) assigns too: the
						// hook that judges stores is busy with x.
						w.checkAssigns(sc, []Assign{{Name: name, Value: word.Unknown("$((…))")}}, true)
					}
				}
			} else {
				w.arith(sc, e.X)
			}
			return
		}
		w.arith(sc, e.X)
		w.arith(sc, e.Y)
	case *syntax.UnaryArithm:
		if wd, ok := e.X.(*syntax.Word); ok && (e.Op == syntax.Inc || e.Op == syntax.Dec) {
			w.arithLvalue(sc, wd)
			if !sc.numeric(w, wd.Lit()) {
				w.arithName(sc, wd.Lit())
			}
			if word.IsName(wd.Lit()) {
				sc.setNumeric(wd.Lit())
			}
			return
		}
		w.arith(sc, e.X)
	case *syntax.ParenArithm:
		w.arith(sc, e.X)
	case *syntax.Word:
		if len(e.Parts) == 1 {
			if l, ok := e.Parts[0].(*syntax.Lit); ok {
				if word.IsName(l.Value) {
					w.arithName(sc, l.Value)
					return
				}
				if !strings.ContainsAny(l.Value, "$`[") {
					return // a number
				}
			}
		}
		v := w.value(sc, e, wctx{arith: true})
		w.arithText(sc, v, "arithmetic")
	case *syntax.FlagsArithm:
		if e.X != nil {
			w.arith(sc, e.X)
		}
	}
}

// arithLvalue walks the subscript of an assigned array element.
func (w *walker) arithLvalue(sc *scope, wd *syntax.Word) {
	for _, p := range wd.Parts {
		if pe, ok := p.(*syntax.ParamExp); ok && pe.Index != nil {
			w.arith(sc, pe.Index)
			if pe.Param != nil {
				sc.setUnknown(pe.Param.Value) // one element of an array changes
			}
		}
	}
}

// arithName checks a bare variable name in arithmetic.
func (w *walker) arithName(sc *scope, name string) {
	if sc.numeric(w, name) {
		return
	}
	// A value naming another variable is evaluated in turn; bash stops at
	// a recursion limit, so does the guard. Each name is evaluated once in
	// one arithmetic: a=a==a (or a=b+b, b=c+c, …) named it 2^depth times.
	if w.arithDepth == 0 {
		clear(w.arithNames)
	}
	if active, seen := w.arithNames[name]; seen {
		if active {
			w.dataAsCode("arithmetic on $" + name + " refers to variables in a loop")
		}
		return // evaluated already: nothing new to find in its value
	}
	if w.arithDepth++; w.arithDepth > 32 {
		w.arithDepth--
		w.dataAsCode("arithmetic on $" + name + " refers to variables in a loop")
		return
	}
	if w.arithNames == nil {
		w.arithNames = map[string]bool{}
	}
	w.arithNames[name] = true
	defer func() { w.arithDepth--; w.arithNames[name] = false }()
	v, known := sc.get(w, name)
	if s, ok := v.Static(); known && ok {
		if word.IsInteger(s) || s == "" {
			return
		}
		w.arithText(sc, v, "arithmetic")
		return
	}
	w.dataAsCode("arithmetic on $" + name + ", whose value is not known here; bash evaluates such a value as an expression, and an array subscript in it can run a command")
}

// varNameArg checks a word that a builtin takes as a variable name (read,
// printf -v, declare, [[ -v ]]): a subscript in it is evaluated as
// arithmetic, which can run commands.
func (w *walker) varNameArg(sc *scope, v word.Word, where string) {
	s, ok := v.Static()
	if !ok {
		w.dataAsCode(where + " takes a variable name that is not known here; a subscript in it would be evaluated and could run commands")
		return
	}
	name, _, _ := strings.Cut(s, "=")
	if i := strings.IndexByte(name, '['); i >= 0 {
		sub := strings.TrimSuffix(name[i+1:], "]")
		w.arithText(sc, word.FromLit(sub), where+" subscript")
	}
}

// subst walks a command or process substitution: a subshell.
func (w *walker) subst(sc *scope, stmts []*syntax.Stmt, kind string) {
	if w.tooDeep(nil) {
		return
	}
	w.via = append(w.via, Step{Kind: kind})
	was := w.inPipe
	if strings.HasPrefix(kind, "<(") || strings.HasPrefix(kind, ">(") {
		w.inPipe = true // runs alongside the command
	}
	w.stmts(sc.clone(), stmts)
	w.inPipe = was
	w.via = w.via[:len(w.via)-1]
}
