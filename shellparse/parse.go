package shellparse

import (
	"errors"
	"fmt"
	"github.com/guard-exec/guard-exec/internal/physpath"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/guard-exec/guard-exec/argspec"
	"github.com/guard-exec/guard-exec/word"
)

// walker walks a program in execution order.
type walker struct {
	opts        Options
	globIgnore  bool // GLOBIGNORE (or BASHOPTS dotglob) is in the environment (Cmd.DotGlob)
	nocaseEnv   bool // BASHOPTS in the environment turns nocaseglob on
	globstarEnv bool // and globstar
	tracedEnv   bool // the shell starts with xtrace on (Options.Traced, SHELLOPTS)
	tracedShown bool // sawSecret reported the traced secret
	res         *Result
	via         []Step
	pos         Pos
	nested      int // > 0 inside code found in a string: positions stay the carrier's
	steps       int
	bytes       int
	calls       []string // functions being walked, innermost last
	inPipe      bool     // walking an element of a pipeline or a background job
	fatal       *ParseError
	curScope    *scope
	checking    bool // walking only to find differentials (uncalled functions)
	// rereading: expanding words the walk has walked already, for their
	// values only (literalOutput). Substitutions in them are not walked
	// again: each layer re-read would double the work of the layers below.
	rereading  bool
	arithDepth int
	// arithNames are the names the current arithmetic (arithDepth > 0)
	// has evaluated: true while one is being evaluated, false once done.
	arithNames map[string]bool
	depth      int             // statements being walked, one within another
	words      int             // in the commands reported
	aliases    bool            // an alias was defined: a command word may not be what it reads
	expanding  map[string]bool // the aliases being expanded (bash expands a name once)
	plainOnce  bool            // the next run is of the command as written, not an alias
	stdinCode  int             // > 0 while walking code a shell reads from its standard input
	// localOnPath: the inherited PATH has a local directory (the
	// project's, a temporary one, a relative one): names are looked up.
	localOnPath bool
	localScript bool                // execScript is reading a program file of the project
	pathLooks   map[string]pathLook // onLocalPath's look-ups, for this walk
	reals       map[string]string   // program paths with their links resolved, for this walk ("": not known)
	pathDirReal map[string]dirReal  // PATH directories with their links resolved, for this walk
	phys        physpath.Resolver   // for paths with "..", for this walk
	// cmdReopened: what the redirections of the commands being walked
	// (and of those they are run by) make of fds 1 and 2 (Cmd.Reopened),
	// for every part found in them: python's own effects, a wrapper's
	// command, a function's body.
	cmdReopened uint8
	called      map[*syntax.Stmt]bool
	top         *scope    // the top level's state
	may         *mayState // what bash may do anywhere (may.go)
	// lang is the dialect the code being walked is read in (0: bash): the
	// other shell's inside code another shell runs (codeFor), and the
	// dialect a sourced file is read in.
	lang syntax.LangVariant
	// storing: storedHook is judging a write (its checks write nothing
	// that needs judging again).
	storing bool
	// assigning > 0: an assignment word is being recorded, which
	// checkAssigns judges itself.
	assigning int
	// locals are the function calls being walked, innermost last: the
	// state each local variable had before it, restored at return.
	locals []map[string]*varState
	// pathTouched: a text read so far names PATH or sourcepath, so the
	// inherited PATH may not be the one a name is looked up in.
	pathTouched bool
	scripts     *scripts // script files read (script.go), when any
	committed   bool     // commit handed commands to Options.Committed
	// released counts the commands handed over with Options.Release (nil
	// in res.Cmds since), and releasedOpaque says whether one was opaque.
	released       int
	releasedOpaque bool
	// segs is what is left of a block that words' first segments are cut
	// from (fieldBuilder.first).
	segs []word.Seg
	// classes are the catalogue's classes of the programs named (is).
	classes map[string]argspec.Class
	// exportAttr, allexportNow and exportedNow are what the text has
	// exported so far, in walk order (exportWrite); loopDepth counts the
	// loop bodies being walked.
	exportAttr   map[string]bool
	allexportNow bool
	exportedNow  []Assign
	loopDepth    int
	posixNow     bool // POSIX mode may be on here (posixOn)
	// histList, histExpand: set -o history, set -H may be on (histOption).
	histList, histExpand, histAsked bool
}

// Parse reads src and returns every command that would run.
func Parse(src string, opts Options) (*Result, error) {
	if opts.Cwd == "" {
		opts.Cwd = "/"
	}
	res, may, err := parseOnce(src, opts, nil)
	if err != nil || may == nil {
		return res, err
	}
	// What the first walk saw of the text as a whole changes what it may
	// do: walk it again, knowing that (may.go). Commands committed by the
	// first walk are void.
	second := opts
	second.Committed = nil
	res, _, err = parseOnce(src, second, may)
	if res != nil {
		res.Rewalked = true
	}
	return res, err
}

// parseOnce walks src once; with may nil it is the first walk, and it
// returns what a second walk must know (nil: none is needed).
func parseOnce(src string, opts Options, may *mayState) (*Result, *mayState, error) {
	first := may == nil
	if first {
		may = newMayState()
	}
	res, err := parseWith(src, opts, may)
	if err != nil || !first {
		return res, nil, err
	}
	return res, may.decide(opts.Getenv), nil
}

func parseWith(src string, opts Options, may *mayState) (res *Result, err error) {
	voided := false
	defer func() {
		if res != nil && voided {
			res.Rewalked = true
		}
	}()
	if streamable(src) && !may.second {
		w := newWalker(opts)
		w.may, may.src = may, src
		may.stored, may.exportHook, may.refHook = w.storedHook, w.exportWrite, w.refBound
		if ok := w.walkStream(src); ok {
			return w.finish()
		}
		// The text does not parse as it streams: read it the usual way,
		// which says why (or reads it after all), from the start. What the
		// stream committed is void (Result.Rewalked), and this reading
		// commits nothing.
		if w.committed {
			opts.Committed = nil
			voided = true
		}
	}
	*may = mayState{second: may.second, written: may.written, ambiguous: may.ambiguous, numeric: may.numeric, bodies: may.bodies,
		unsetNow: may.unsetNow, intDef: may.intDef, refDef: may.refDef,
		keyword: may.keyword && may.second, nullglob: may.nullglob && may.second, dotglob: may.dotglob && may.second, nocase: may.nocase && may.second, exportF: may.exportF && may.second,
		lastpipe: may.lastpipe && may.second, paramsDeferred: may.paramsDeferred && may.second, physical: may.physical && may.second, globstar: may.globstar && may.second, xtrace: may.xtrace && may.second, secret: may.secret && may.second,
		localeRanges: may.localeRanges && may.second, noglob: may.noglob && may.second, nocaseMatch: may.nocaseMatch && may.second,
		exportedEnv: may.exportedEnv, posix: may.posix && may.second,
		vars: map[string]*mayVar{}, funcs: map[string]*mayFunc{}, unsetF: map[string]bool{}}
	if !may.second {
		may.intDef = map[string]bool{}
	}
	w := newWalker(opts)
	w.may, may.src = may, src
	w.posixNow = w.posixNow || may.posix
	if !may.second {
		may.keyword = may.keyword || w.startOption("keyword")
		may.physical = may.physical || w.startOption("physical")
	}
	may.stored, may.exportHook, may.refHook = w.storedHook, w.exportWrite, w.refBound
	f, perr := w.parse(src, syntax.LangBash)
	if perr != nil {
		return nil, perr
	}
	sc := w.topScope()
	if opts.Committed == nil {
		w.stmts(sc, f.Stmts)
	} else {
		for _, st := range f.Stmts {
			if !w.topStmt(sc, st) {
				break
			}
			w.commit()
		}
	}
	return w.finish()
}

// startOption reports whether the shell starts with the set -o option
// name on (Options.SetOn, SHELLOPTS).
func (w *walker) startOption(name string) bool {
	return slices.Contains(w.opts.SetOn, name) || slices.Contains(strings.Split(w.getenv("SHELLOPTS"), ":"), name)
}

func newWalker(opts Options) *walker {
	w := &walker{opts: opts, res: &Result{}, called: map[*syntax.Stmt]bool{}, may: newMayState()}
	w.globIgnore = w.getenv("GLOBIGNORE") != "" || strings.Contains(w.getenv("BASHOPTS"), "dotglob")
	w.nocaseEnv = strings.Contains(w.getenv("BASHOPTS"), "nocaseglob")
	w.globstarEnv = strings.Contains(w.getenv("BASHOPTS"), "globstar")
	w.tracedEnv = opts.Traced || w.startOption("xtrace")
	w.allexportNow = w.startOption("allexport")
	w.posixNow = w.startOption("posix") || w.getenv("POSIXLY_CORRECT") != ""
	for _, d := range strings.Split(w.getenv("PATH"), ":") {
		if !filepath.IsAbs(d) {
			w.localOnPath = true // "", ".", bin: the working directory's
			break
		}
		d = filepath.Clean(d)
		for _, r := range append([]string{opts.Cwd}, opts.Local...) {
			if r != "/" && r != "" && (d == r || strings.HasPrefix(d, r+"/")) {
				w.localOnPath = true
			}
		}
	}
	return w
}

// refBound judges the value that binds a name reference declared without
// one (scope.put): a name whose subscript bash evaluates as arithmetic
// wherever the reference is used (a red team's declare -n r;
// r='a[$(cmd)]'; echo $r).
func (w *walker) refBound(sc *scope, name string, value word.Word) {
	if w.checking {
		return
	}
	w.varNameArg(sc, value, "the name reference "+name)
}

// storedHook is the walker's part of scope.store: whatever wrote a
// variable, its value may be code (PS4, BASH_ENV, LESSOPEN, an integer
// variable's arithmetic): checkAssigns judges it as an assignment word's.
func (w *walker) storedHook(sc *scope, name string, st varState, via bool) {
	if w.storing || w.assigning > 0 && !via || w.checking || st.ref {
		return
	}
	w.storing = true
	defer func() { w.storing = false }()
	val := st.val
	if st.unknown || len(st.elems) > 1 {
		// Not "$NAME": that is the value the guard was started with
		// (untrustedPath keeps an inherited $PATH), which read PATH,
		// printf -v PATH or ((PATH=11)) does not give (a red team's).
		val = word.Unknown("(a value of " + name + " the text gives)")
	}
	if st.integer && !st.unset {
		for _, e := range append([]word.Word{val}, st.elems...) {
			if st.unknown && st.numeric {
				break // an arithmetic result: a number
			}
			w.arithText(sc, e, "assigning to integer variable "+name)
		}
	}
	if st.unset || isWordEmpty(val) {
		return
	}
	w.checkAssigns(sc, []Assign{{Name: name, Value: val}}, true)
}

func isWordEmpty(v word.Word) bool { s, ok := v.Static(); return ok && s == "" }

// topScope is the state the top level starts in.
func (w *walker) topScope() *scope {
	w.top = &scope{
		funcs:         map[string]*syntax.Stmt{},
		cwd:           Cwd{Dirs: []string{filepath.Clean(w.opts.Cwd)}},
		params:        w.opts.Params,
		paramsUnknown: w.opts.ParamsUnknown,
		may:           w.may,
	}
	if w.may != nil && w.may.second {
		// Attributes that deferred code gives (declare -i in a trap) may
		// hold anywhere; a name reference made there may redirect any write.
		for name := range w.may.intDef {
			w.top.vars.put(name, varState{unknown: true, integer: true})
		}
		if w.may.refDef {
			w.top.havoc = true
		}
		if w.may.paramsDeferred {
			w.top.paramsUnknown = true // a trap handler may set them at any time
		}
	}
	w.curScope = w.top
	return w.top
}

// topStmt walks one top-level statement as w.stmts does; false: stop.
func (w *walker) topStmt(sc *scope, st *syntax.Stmt) bool {
	if !w.step() {
		return false
	}
	settle(sc)
	w.stmt(sc, st, nil)
	return true
}

// commit hands the commands reported so far to Options.Committed:
// everything a top-level statement reports is settled once its walk ends
// (commands are built, changed and dropped only while their statement is
// walked).
func (w *walker) commit() {
	if w.opts.Committed != nil && w.fatal == nil {
		w.committed = true
		n := len(w.res.Cmds)
		if !w.opts.Release {
			w.opts.Committed(w.res.Cmds[:n:n])
			return
		}
		fresh := w.res.Cmds[w.released:n:n]
		w.opts.Committed(fresh)
		for i, c := range fresh {
			w.releasedOpaque = w.releasedOpaque || c.Opaque != ""
			fresh[i] = nil
		}
		w.released = n
	}
}

// finish walks the functions never called and returns the result.
func (w *walker) finish() (*Result, error) {
	w.checkUncalled(w.top)
	if w.may.aliasAny {
		// An alias defined through BASH_ALIASES (or under a name not
		// known here) may be named after a reserved word, which bash
		// expands before it reads the syntax (BASH_ALIASES["[["]=eval):
		// no construct of the text is then what it seems.
		w.emit(&Cmd{Argv: []word.Word{word.FromLit("BASH_ALIASES")}, CodeArg: -1,
			Opaque: "an alias is defined through BASH_ALIASES or under a name not known here: it may be a reserved word ([[, {, if), which bash expands before it reads the syntax"})
	}
	if w.fatal != nil {
		return nil, w.fatal
	}
	return w.res, nil
}

// parse parses one unit of text: the top level, or code found in a string.
func (w *walker) parse(src string, lang syntax.LangVariant) (*syntax.File, *ParseError) {
	w.bytes += len(src)
	if w.opts.ReadScript != nil && !w.pathTouched && (strings.Contains(src, "PATH") || strings.Contains(src, "sourcepath")) {
		w.pathTouched = true
	}
	if w.bytes > MaxBytes {
		return nil, &ParseError{Reason: fmt.Sprintf("the command is larger than %d bytes, the most the guard reads part by part", MaxBytes), TooLarge: true}
	}
	if i := strings.IndexByte(src, 0); i >= 0 {
		// Both bash and the parser skip NUL bytes, but the checks for
		// the constructs they read differently look for their text
		// ("<<"), which a NUL can split: "<\x00<EOF" is a here-document
		// to both, and escaped the check that bash ends some of them
		// earlier. No shell text needs a NUL byte.
		return nil, &ParseError{Pos: posAt(src, i), Differential: true,
			Reason: "the text has a NUL byte: bash skips it, and the guard does not read such text"}
	}
	if i := strings.Index(src, "\r\n"); i >= 0 {
		return nil, &ParseError{Pos: posAt(src, i), Differential: true,
			Reason: `the text has a carriage return before a newline (\r\n): bash keeps the \r as part of the text while the parser drops it, so the two would read different commands`}
	}
	if i := strings.IndexByte(src, '\r'); i >= 0 {
		// "ls\rrm -rf x" is one word to bash, a program named "ls\rrm";
		// the parser splits words at \r as at a space, and would judge ls.
		return nil, &ParseError{Pos: posAt(src, i), Differential: true,
			Reason: `the text has a carriage return (\r): bash keeps it as part of a word while the parser reads it as a space, so the two would read different commands`}
	}
	p := syntax.NewParser(syntax.Variant(lang))
	f, err := p.Parse(newDepthReader(src), w.opts.Name)
	for tries := 0; err != nil && tries < 16; tries++ {
		if delim, ok := unclosedHeredoc(err); ok {
			// bash ends a here-document at the end of the input when its
			// delimiter never comes (with a warning); the parser refuses.
			// Supplying the delimiter reads the text as bash does.
			if !strings.HasSuffix(src, "\n") {
				src += "\n"
			}
			src += delim + "\n"
		} else if fixed, ok := subshellNotArith(src, err); ok {
			src = fixed
		} else {
			break
		}
		f, err = syntax.NewParser(syntax.Variant(lang)).Parse(newDepthReader(src), w.opts.Name)
	}
	if errors.Is(err, errTooDeep) {
		return nil, &ParseError{Reason: fmt.Sprintf("the command is nested too deeply to judge part by part (the parser needs more than %d stack frames)", maxParseFrames), TooLarge: true}
	}
	if err != nil {
		pe := &ParseError{Reason: "bash syntax error: " + err.Error()}
		var se syntax.ParseError
		if errors.As(err, &se) {
			pe.Pos = Pos{int(se.Pos.Line()), int(se.Pos.Col())}
			pe.Reason = "bash syntax error: " + se.Text
		}
		var le syntax.LangError
		if errors.As(err, &le) {
			pe.Pos = Pos{int(le.Pos.Line()), int(le.Pos.Col())}
			pe.Reason = "not bash syntax: " + le.Error()
		}
		return nil, pe
	}
	if mayContinueComment(src) {
		if pe := commentContinued(src, lang); pe != nil {
			return nil, pe
		}
	}
	if !strings.Contains(src, "<<") {
		return f, nil
	}
	if d := heredocSplit(f, src); d != nil {
		return nil, d
	}
	return f, nil
}

// mayContinueComment reports a line with a # on it that ends in a
// backslash-newline: only such text can hold a comment the parser
// continues, and only it pays commentContinued's second reading (scripts
// with continued lines and comments elsewhere are common).
func mayContinueComment(src string) bool {
	for rest := src; ; {
		i := strings.Index(rest, "\\\n")
		if i < 0 {
			return false
		}
		start := strings.LastIndexByte(rest[:i], '\n') + 1
		if strings.IndexByte(rest[start:i], '#') >= 0 {
			return true
		}
		rest = rest[i+2:]
	}
}

// commentContinued refuses a comment that ends in a backslash inside a
// simple command: bash ends a comment at the newline whatever comes
// before it, and the newline ends the command, while the parser reads
// the backslash and newline as a continued line, so that "echo a #\"
// and "cmd" on the next line were one command, echo a cmd, to it and two
// to bash (a red team's). A comment alone on its line, or after a ; or
// |, is read alike by both (scripts have them). Read again keeping
// comments, only for text that has both.
func commentContinued(src string, lang syntax.LangVariant) *ParseError {
	f, err := syntax.NewParser(syntax.Variant(lang), syntax.KeepComments(true)).Parse(newDepthReader(src), "")
	if err != nil {
		return nil // the first reading succeeded; this one adds nothing
	}
	var joined []syntax.Pos // comments whose text runs past a newline
	var cmds [][]syntax.Node
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Comment:
			if strings.Contains(n.Text, "\n") {
				joined = append(joined, n.Pos())
			}
		case *syntax.Stmt:
			var parts []syntax.Node
			switch c := n.Cmd.(type) {
			case *syntax.CallExpr:
				for _, a := range c.Assigns {
					parts = append(parts, a)
				}
				for _, a := range c.Args {
					parts = append(parts, a)
				}
			case *syntax.DeclClause:
				parts = append(parts, c.Variant)
				for _, a := range c.Args {
					parts = append(parts, a)
				}
			}
			for _, r := range n.Redirs {
				parts = append(parts, r)
			}
			cmds = append(cmds, parts)
		}
		return true
	})
	for _, c := range f.Last {
		if strings.Contains(c.Text, "\n") {
			joined = append(joined, c.Pos())
		}
	}
	// A comment within a simple command's span (between its words, or
	// inside one: echo "a" #\ joins the next line to "a") is one the
	// parser continued; one alone on its line is outside every span.
	for _, at := range joined {
		for _, parts := range cmds {
			if len(parts) == 0 {
				continue
			}
			lo, hi := parts[0].Pos().Offset(), parts[0].End().Offset()
			for _, p := range parts[1:] {
				lo, hi = min(lo, p.Pos().Offset()), max(hi, p.End().Offset())
			}
			if lo <= at.Offset() && at.Offset() < hi {
				return &ParseError{Pos: Pos{int(at.Line()), int(at.Col())}, Differential: true,
					Reason: "a comment ends in a backslash: bash ends the comment and the command at the newline and runs the next line on its own, while the parser reads that line as more of the command"}
			}
		}
	}
	return nil
}

// subshellNotArith handles "$((cmd) | x)" and "((cmd) > f)": bash reads
// "((" as arithmetic, and when that fails, as two opening parentheses of
// nested subshells. The parser only tries arithmetic. When the parse error
// lies inside the last "((" before it, that "((" is split and the text
// parsed again.
func subshellNotArith(src string, err error) (string, bool) {
	var se syntax.ParseError
	if !errors.As(err, &se) {
		return "", false
	}
	off := offsetOf(src, int(se.Pos.Line()), int(se.Pos.Col()))
	if off < 0 {
		return "", false
	}
	// The error may point at the "((" or "$((" itself.
	i := strings.LastIndex(src[:min(off+3, len(src))], "((")
	if i < 0 || arithCloses(src[i+2:]) {
		// bash too reads arithmetic there: a real syntax error.
		return "", false
	}
	return src[:i+1] + " " + src[i+1:], true
}

// arithCloses reports whether bash reads the text after "((" as
// arithmetic: the parenthesis that closes the second "(" (counting nested
// ones, skipping quoted text) is followed at once by a ")". "$((a); (b))"
// and "$((1) + (2))" are command substitutions; "$((1 +))" is arithmetic,
// with a syntax error.
func arithCloses(rest string) bool {
	depth := 0
	for i := 0; i < len(rest); i++ {
		switch rest[i] {
		case '\\':
			i++
		case '\'', '"':
			j := strings.IndexByte(rest[i+1:], rest[i])
			if j < 0 {
				return true
			}
			i += j + 1
		case '(':
			depth++
		case ')':
			if depth > 0 {
				depth--
				continue
			}
			return i+1 < len(rest) && rest[i+1] == ')'
		}
	}
	return true // unclosed: bash reports it as it is
}

// offsetOf converts a 1-based line and column to a byte offset.
func offsetOf(src string, line, col int) int {
	off := 0
	for l := 1; l < line; l++ {
		j := strings.IndexByte(src[off:], '\n')
		if j < 0 {
			return -1
		}
		off += j + 1
	}
	if off+col-1 > len(src) || col < 1 {
		return -1
	}
	return off + col - 1
}

// unclosedHeredoc returns the delimiter of a here-document the parser
// found unclosed at the end of the input.
func unclosedHeredoc(err error) (string, bool) {
	var se syntax.ParseError
	if !errors.As(err, &se) || !strings.HasPrefix(se.Text, "unclosed here-document `") {
		return "", false
	}
	d := strings.TrimSuffix(strings.TrimPrefix(se.Text, "unclosed here-document `"), "`")
	if d == "" || strings.ContainsAny(d, "\n`") {
		return "", false
	}
	return d, true
}

func posAt(src string, off int) Pos {
	line := 1 + strings.Count(src[:off], "\n")
	col := off - strings.LastIndex(src[:off], "\n")
	return Pos{line, col}
}

// heredocSplit finds heredocs whose closing line bash would see earlier
// than the parser: in an unquoted heredoc, bash joins a backslash-newline
// before comparing a line with the delimiter.
func heredocSplit(f *syntax.File, src string) *ParseError {
	var found *ParseError
	// Inside $(…), <(…) and `…`, bash finds the closing parenthesis in the
	// text first: a body line "EOF)" ends the substitution there, and what
	// follows runs (bash 5.2), where the parser reads on to a line "EOF".
	type span struct{ from, to uint }
	var substs []span
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			substs = append(substs, span{n.Pos().Offset(), n.End().Offset()})
		}
		return true
	})
	syntax.Walk(f, func(n syntax.Node) bool {
		r, ok := n.(*syntax.Redirect)
		if !ok || found != nil || (r.Op != syntax.Hdoc && r.Op != syntax.DashHdoc) || r.Hdoc == nil || r.Word == nil {
			return found == nil
		}
		if r.Op == syntax.Hdoc {
			// <<\⏎-EOF is <<-EOF to bash, which removes the
			// backslash-newline first; the parser reads << and -EOF.
			i := int(r.OpPos.Offset()) + 2
			for i+1 < len(src) && src[i] == '\\' && src[i+1] == '\n' {
				i += 2
			}
			if i > int(r.OpPos.Offset())+2 && i < len(src) && src[i] == '-' {
				found = &ParseError{Pos: Pos{int(r.Pos().Line()), int(r.Pos().Col())}, Differential: true,
					Reason: "<< and - split by a backslash-newline: bash reads <<-, the parser a delimiter starting with -"}
				return false
			}
		}
		delim, quoted := r.Word.Lit(), false
		for _, p := range r.Word.Parts {
			if _, ok := p.(*syntax.Lit); !ok {
				quoted = true
			}
			if sq, ok := p.(*syntax.SglQuoted); ok && sq.Dollar && strings.Contains(sq.Value, `\`) {
				// <<$'\x41': bash's delimiter is A, the parser's the
				// text as written; the heredocs end on different lines.
				found = &ParseError{Pos: Pos{int(r.Pos().Line()), int(r.Pos().Col())}, Differential: true,
					Reason: "a heredoc delimiter with $'…' escapes: bash ends the heredoc on another line than the parser"}
				return false
			}
		}
		if bd, ok := bashDelimiter(r.Word); r.Hdoc != nil && (ok || delim != "") {
			if !ok {
				bd = delim
			}
			for _, sp := range substs {
				if r.Pos().Offset() < sp.from || r.Pos().Offset() >= sp.to {
					continue
				}
				start, end := int(r.Hdoc.Pos().Offset()), int(r.Hdoc.End().Offset())
				if start < 0 || end > len(src) || start > end {
					break
				}
				for i, l := range strings.Split(src[start:end], "\n") {
					if r.Op == syntax.DashHdoc {
						l = strings.TrimLeft(l, "\t")
					}
					// (EOFX) ends it too; EOF is here does not)
					if bd != "" && strings.HasPrefix(l, bd) && strings.Contains(l[len(bd):], ")") {
						found = &ParseError{Pos: Pos{int(r.Hdoc.Pos().Line()) + i, 1}, Differential: true,
							Reason: "a heredoc inside $(…) with a line that starts with its delimiter and has a ')': bash ends the substitution there and runs the lines after it, the parser does not"}
						return false
					}
				}
				break
			}
		}
		if quoted && !parserQuoted(r.Word) {
			// bash takes a delimiter quoted in any part (<<E'O'F, <<'E'OF)
			// as quoted: the body as written, no backslash-newline joined.
			// The parser (mvdan.cc/sh v3.14) looks at the last part only:
			// it joins lines, which can move the heredoc's end and hide
			// the commands after it, and it expands the body. Where both
			// end on the same line, the body is put back as bash reads it;
			// elsewhere the text is not read.
			if !quotedBodyAsBash(r, src) {
				found = &ParseError{Pos: Pos{int(r.Pos().Line()), int(r.Pos().Col())}, Differential: true,
					Reason: "a heredoc delimiter quoted only in part, and a body that bash ends on another line than the parser"}
				return false
			}
			return true
		}
		if quoted || strings.Contains(delim, `\`) {
			return true
		}
		start, end := int(r.Hdoc.Pos().Offset()), int(r.Hdoc.End().Offset())
		if start < 0 || end > len(src) || start > end {
			return true
		}
		back := 0
		for start >= 2 && src[start-2:start] == "\\\n" && start-2 > int(r.Word.End().Offset()) {
			// The parser's body begins after a backslash-newline that
			// opens it (\⏎EOF is the delimiter to bash): scan from it.
			start -= 2
			back++
		}
		lines := strings.Split(src[start:end], "\n")
		for i := 0; i < len(lines); i++ {
			joined, j := lines[i], i
			for strings.HasSuffix(joined, `\`) && oddBackslashes(joined) && j+1 < len(lines) {
				j++
				joined = joined[:len(joined)-1] + lines[j]
			}
			cmp := joined
			if r.Op == syntax.DashHdoc {
				cmp = strings.TrimLeft(cmp, "\t")
			}
			if j > i && cmp == delim {
				found = &ParseError{Pos: Pos{int(r.Hdoc.Pos().Line()) - back + i, 1}, Differential: true,
					Reason: "a heredoc delimiter split by a backslash-newline: bash ends the heredoc there and runs the lines after it, the parser does not"}
				return false
			}
			if cmp == delim && j < len(lines)-1 {
				// A line of the body as the parser read it (before the
				// last, the parser's own delimiter line) is the
				// delimiter: an expansion in the body (${x:-, $(echo ",
				// a heredoc inside $(…)) ran on past it for the parser;
				// bash ends the body at that line, whatever is open (a
				// red team's).
				found = &ParseError{Pos: Pos{int(r.Hdoc.Pos().Line()) - back + i, 1}, Differential: true,
					Reason: "a heredoc's body holds its delimiter inside an expansion that goes on past it: bash ends the heredoc at that line and runs the lines after it, the parser does not"}
				return false
			}
			i = j
		}
		return true
	})
	return found
}

// quotedBodyAsBash makes r's body what bash reads for a quoted delimiter
// the parser took as unquoted: the lines as written, up to the first that
// is the delimiter. It reports false when the parser ended the body on
// another line (a joined backslash-newline, a construct spanning lines).
func quotedBodyAsBash(r *syntax.Redirect, src string) bool {
	if r.Hdoc == nil {
		return true // the delimiter right after: an empty body to both
	}
	delim, ok := bashDelimiter(r.Word)
	if !ok {
		return false
	}
	start, end := int(r.Hdoc.Pos().Offset()), int(r.Hdoc.End().Offset())
	if start < 0 || end > len(src) || start > end {
		return false
	}
	// The span runs from the body's first byte to the end of the line the
	// parser took for the delimiter's.
	lines := strings.Split(src[start:end], "\n")
	for i, l := range lines {
		if r.Op == syntax.DashHdoc {
			l = strings.TrimLeft(l, "\t")
		}
		if l != delim {
			continue
		}
		if i != len(lines)-1 {
			return false
		}
		body := ""
		if i > 0 {
			body = strings.Join(lines[:i], "\n") + "\n"
		}
		r.Hdoc = &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{ValuePos: r.Hdoc.Pos(), ValueEnd: r.Hdoc.End(), Value: body}}}
		return true
	}
	return false
}

// bashDelimiter is a heredoc delimiter after quote removal, as bash makes
// it; ok is false for parts it does not take apart here.
func bashDelimiter(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			for i := 0; i < len(p.Value); i++ {
				if p.Value[i] == '\\' && i+1 < len(p.Value) {
					i++
				}
				b.WriteByte(p.Value[i])
			}
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
				for i := 0; i < len(l.Value); i++ {
					if l.Value[i] == '\\' && i+1 < len(l.Value) && strings.IndexByte("$`\"\\\n", l.Value[i+1]) >= 0 {
						i++
					}
					b.WriteByte(l.Value[i])
				}
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// parserQuoted is whether mvdan.cc/sh takes a heredoc's delimiter as
// quoted: by its last part alone (Parser.unquotedWordBytes keeps only the
// last part's answer).
func parserQuoted(w *syntax.Word) bool {
	if len(w.Parts) == 0 {
		return false
	}
	switch p := w.Parts[len(w.Parts)-1].(type) {
	case *syntax.Lit:
		return strings.Contains(p.Value, `\`)
	case *syntax.SglQuoted, *syntax.DblQuoted:
		return true
	}
	return false
}

func oddBackslashes(s string) bool {
	n := 0
	for i := len(s) - 1; i >= 0 && s[i] == '\\'; i-- {
		n++
	}
	return n%2 == 1
}

// differential records a construct bash reads differently from the parser.
func (w *walker) differential(p syntax.Pos, reason string) {
	if w.nested > 0 {
		// Inside code found in a string: that code is unreadable, the rest
		// of the command is not. The part asks.
		w.emit(&Cmd{Opaque: "code that cannot be read reliably: " + reason, CodeArg: -1})
		return
	}
	if w.fatal == nil {
		w.fatal = &ParseError{Pos: Pos{int(p.Line()), int(p.Col())}, Differential: true, Reason: reason}
	}
}

// dataAsCode records text that bash would evaluate as code at run time,
// whose content is not known here.
func (w *walker) dataAsCode(reason string) {
	w.emit(&Cmd{Opaque: reason, CodeArg: -1})
}

// maxWords bounds the words of all commands reported.
const maxWords = 1 << 20

// emit reports a command.
func (w *walker) emit(c *Cmd) {
	if w.checking {
		return
	}
	if len(w.res.Cmds) >= MaxParts {
		if w.fatal == nil {
			w.fatal = &ParseError{Reason: fmt.Sprintf("the command has more than %d parts, the most the guard judges one by one", MaxParts), TooLarge: true}
		}
		return
	}
	if w.words += len(c.Argv); w.words > maxWords {
		// Wrappers report the rest of their words again at each level
		// (env env …), brace expansions multiply them: the text's size
		// alone does not bound the words to judge.
		if w.fatal == nil {
			w.fatal = &ParseError{Reason: fmt.Sprintf("the command expands to more than %d words, the most the guard judges one by one", maxWords), TooLarge: true}
		}
		return
	}
	if c.Cwd.Dirs == nil && !c.Cwd.Unknown && w.curScope != nil {
		// Dirs slices are replaced, never changed in place: shared.
		c.Cwd = Cwd{Dirs: slices.Clip(w.curScope.cwd.Dirs), Unknown: w.curScope.cwd.Unknown, Data: w.curScope.cwd.Data, Written: slices.Clip(w.curScope.cwd.Written)}
	}
	if c.Pos.Line == 0 {
		c.Pos = w.pos
	}
	if len(c.Argv) > 0 && c.Exported == nil && !shellBuiltin(c.Name()) {
		// A builtin reads its shell's variables, not an environment: the
		// programs it runs (exec, command, eval) are commands of their own.
		c.Exported = slices.Clip(w.exportedNow) // appended to, never changed
		if len(w.may.exportedEnv) > 0 {
			c.Exported = w.may.exportedEnv
		}
	}
	before := w.cmdReopened
	if w.curScope != nil {
		before |= w.curScope.reopened
	}
	c.Reopened = reopens(c.Redirs, before)
	c.DotGlob = w.may.dotglob || w.globIgnore
	c.Traced = w.may.xtrace || w.tracedEnv
	if n := len(w.res.Cmds); n > 0 && len(w.via) > 0 && w.res.Cmds[n-1] != nil && slices.EqualFunc(w.res.Cmds[n-1].Via, w.via, sameLayer) {
		// Commands in one substitution share its layers: a copy each
		// costs depth × commands.
		c.Via = w.res.Cmds[n-1].Via
	} else {
		c.Via = append([]Step(nil), w.via...)
	}
	if len(w.calls) > 0 {
		c.Func = w.calls[len(w.calls)-1]
	}
	w.res.Cmds = append(w.res.Cmds, c)
}

// tooDeep reports, as an opaque command, a layer of code (a substitution,
// a wrapper's command) nested MaxDepth layers deep, where the walk stops:
// every command reported carries its layers, so past a fixed depth their
// cost, depth × commands, would grow with the square of the text.
func (w *walker) tooDeep(argv []word.Word) bool {
	if len(w.via) < MaxDepth {
		return false
	}
	w.emit(&Cmd{Argv: argv, Opaque: fmt.Sprintf("code nested more than %d levels deep", MaxDepth), CodeArg: -1})
	return true
}

func sameLayer(a, b Step) bool { return a.Kind == b.Kind && slices.Equal(a.Argv, b.Argv) }

// step counts work and stops the walk past the limit.
func (w *walker) step() bool {
	w.steps++
	if w.steps > maxSteps {
		if w.fatal == nil {
			w.fatal = &ParseError{Reason: "the command expands to too much work to judge part by part (deep function calls or loops)", TooLarge: true}
		}
		return false
	}
	return w.fatal == nil
}

// code walks code found in a string (eval, bash -c, trap, …) in scope sc.
func (w *walker) code(sc *scope, src string, layer Step) {
	// Code in a string is read by the shell that runs it: within code
	// for dash, an eval or a trap handler is dash's too.
	w.codeIn(sc, src, layer, w.lang)
}

// codeFor walks code a shell of another kind will run. A name like sh may
// be bash or dash, which read some text differently ($'…' is a quote to
// one, a dollar and a string to the other): the code is read in every
// dialect the program may be, and every command either reading finds is
// judged.
func (w *walker) codeFor(sc *scope, prog, src string, layer Step) {
	langs := dialects(prog)
	start := len(w.res.Cmds)
	for i, lang := range langs {
		s := sc
		if i < len(langs)-1 {
			s = sc.clone()
		}
		mark := len(w.res.Cmds)
		w.codeIn(s, src, layer, lang)
		if i > 0 && reflect.DeepEqual(w.res.Cmds[start:mark], w.res.Cmds[mark:]) {
			// Both readings agree (the usual case): report it once.
			w.res.Cmds = w.res.Cmds[:mark]
		}
	}
}

// dialects are the ways a shell named prog may read its code (the
// catalogue's grammars); a name the catalogue does not know is read as a
// POSIX shell or bash in disguise.
func dialects(prog string) []syntax.LangVariant {
	gs := argspec.ShellGrammars(prog)
	if gs == nil {
		return []syntax.LangVariant{syntax.LangPOSIX, syntax.LangBash}
	}
	out := make([]syntax.LangVariant, len(gs))
	for i, g := range gs {
		switch g {
		case argspec.GrammarBash:
			out[i] = syntax.LangBash
		case argspec.GrammarPOSIX:
			out[i] = syntax.LangPOSIX
		case argspec.GrammarKorn:
			out[i] = syntax.LangMirBSDKorn
		case argspec.GrammarZsh:
			out[i] = syntax.LangZsh
		}
	}
	return out
}

func (w *walker) codeIn(sc *scope, src string, layer Step, lang syntax.LangVariant) {
	if len(w.via) >= MaxDepth {
		w.emit(&Cmd{Opaque: fmt.Sprintf("code nested more than %d levels deep", MaxDepth), CodeArg: -1})
		return
	}
	w.via = append(w.via, layer)
	w.nested++
	defer func() {
		w.via = w.via[:len(w.via)-1]
		w.nested--
	}()
	f, perr := w.parse(src, lang)
	outerLang := w.lang
	w.lang = lang
	defer func() { w.lang = outerLang }()
	if w.may != nil {
		outer := w.may.src
		w.may.src = src
		defer func() { w.may.src = outer }()
	}
	if perr != nil {
		if perr.TooLarge {
			if w.fatal == nil {
				w.fatal = perr
			}
			return
		}
		w.emit(&Cmd{Opaque: "code that cannot be read reliably (" + perr.Reason + ")", CodeArg: -1})
		return
	}
	old, oldLang := w.curScope, w.lang
	w.curScope, w.lang = sc, lang
	w.stmts(sc, f.Stmts)
	w.curScope, w.lang = old, oldLang
}

// promptString walks the command substitutions a prompt (PS4, ${x@P})
// runs when bash expands it (prompt.go), as decoded for root and for
// any other user. The expansion runs in the shell itself: its
// assignments (${V:=w}) stay, at once for ${x@P}, and for PS0–PS4
// (later) whenever bash shows the prompt: as a trap handler's do
// (a red team's PS4='${V:=…}'; set -x; export V).
func (w *walker) promptString(sc *scope, s, what string, later bool) {
	if !strings.ContainsAny(s, "$`\\") {
		return
	}
	var walked string
	for _, root := range []bool{false, true} {
		t, ok := decodePrompt(s, root)
		if !ok {
			w.dataAsCode(what + " is expanded as a prompt, where text bash fills in (a directory's or user's name) or a character its escapes make may join the text around it into a command")
			return
		}
		if !strings.ContainsAny(t, "$`") || t == walked {
			continue
		}
		walked = t
		if !later {
			w.code(sc, "echo "+promptWord(t), Step{Kind: "prompt expansion of " + what})
			continue
		}
		w.anyTimeCode(sc, "echo "+promptWord(t), Step{Kind: "prompt expansion of " + what})
	}
}

// checkUncalled reads the bodies of functions that are never called, only
// to refuse text that bash would read differently.
func (w *walker) checkUncalled(sc *scope) {
	w.checking = true
	defer func() { w.checking = false }()
	for _, body := range sc.funcs {
		if !w.called[body] {
			w.called[body] = true
			w.stmt(sc.clone(), body, nil)
		}
	}
}

// staticArgs returns the static text of words, or false.
func staticArgs(ws []word.Word) ([]string, bool) {
	out := make([]string, len(ws))
	for i, w := range ws {
		s, ok := w.Static()
		if !ok {
			return nil, false
		}
		out[i] = s
	}
	return out, true
}
