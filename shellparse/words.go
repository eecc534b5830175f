package shellparse

import (
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"mvdan.cc/sh/v3/pattern"
	"mvdan.cc/sh/v3/syntax"

	"github.com/guard-exec/guard-exec/argspec"
	"github.com/guard-exec/guard-exec/word"
)

// wctx is the quoting context a word part is evaluated in.
type wctx struct {
	dq      bool // inside "…" (or an unquoted heredoc body)
	hdoc    bool // inside an unquoted heredoc body
	arith   bool // inside an arithmetic context
	param   bool // inside the operand of ${…}
	noSplit bool // no field splitting or globbing: assignments, [[ ]], case, redirections
	assign  bool // an assignment value: ~ also expands after ':'
	pattern bool // a pattern (case, [[ == ]]): globs stay patterns, never expanded
	// arg: a word of a simple command. One that looks like an assignment
	// (NAME=…, unquoted) has its value's ~ expanded as an assignment's
	// is, outside POSIX mode: dd of=~/x writes to $HOME/x.
	arg bool
}

// fieldBuilder accumulates the fields one word expands to.
type fieldBuilder struct {
	fields []word.Word
	cur    word.Word
	has    bool // cur holds something, even an empty quoted string
	// lit holds the text of cur's last segment when addLit made it, so
	// that the next piece is appended in place. word.AddLit copies the
	// whole segment each time, which made a word of many pieces (a long
	// "$HOME …" string, an unquoted here-document) quadratic. The bytes
	// of lit are only ever appended to, never rewritten, so the strings
	// made from it stay valid; a segment lit did not make gets a new lit.
	lit []byte
	// segs, when set, is the walker's block that cur's first segment is
	// cut from (first).
	segs *[]word.Seg
}

// segBlock is how many first segments are cut from one allocation.
const segBlock = 128

// first makes s cur's only segment. Most words are one segment, and a
// list of one allocated for each was an eighth of a long script's walk's
// allocations; cut from a block, each list has capacity 1, so that
// appending to it copies it and nothing else in the block is written.
func (b *fieldBuilder) first(s word.Seg) {
	if b.segs == nil {
		b.cur.Segs = append(b.cur.Segs, s)
		return
	}
	if len(*b.segs) == 0 {
		*b.segs = make([]word.Seg, segBlock)
	}
	one := (*b.segs)[:1:1]
	*b.segs = (*b.segs)[1:]
	one[0] = s
	b.cur.Segs = one
}

func (b *fieldBuilder) end() {
	if b.has {
		b.fields = append(b.fields, b.cur)
	}
	b.cur, b.has, b.lit = word.Word{}, false, nil
}

// addLit appends literal text to cur, as cur.AddLit does, in time
// proportional to len(s).
func (b *fieldBuilder) addLit(s string) {
	n := len(b.cur.Segs)
	if n == 0 {
		b.first(word.Seg{Kind: word.Lit, Text: s})
		return
	}
	if b.cur.Segs[n-1].Kind != word.Lit || s == "" {
		b.cur.AddLit(s)
		return
	}
	last := &b.cur.Segs[n-1]
	if len(last.Text) != len(b.lit) || len(b.lit) == 0 || unsafe.StringData(last.Text) != &b.lit[0] {
		// Not lit's text (an earlier segment, or one added whole):
		// start a new lit, never reusing the old one's bytes.
		b.lit = append(make([]byte, 0, 2*(len(last.Text)+len(s))), last.Text...)
	}
	b.lit = append(b.lit, s...)
	last.Text = unsafe.String(&b.lit[0], len(b.lit))
}

// add appends a segment, as cur.Add does.
func (b *fieldBuilder) add(s word.Seg) {
	if s.Kind == word.Lit {
		b.addLit(s.Text)
		return
	}
	if len(b.cur.Segs) == 0 {
		b.first(s)
		return
	}
	b.cur.Add(s)
}

// addWord appends all segments of v, as cur.AddWord does.
func (b *fieldBuilder) addWord(v word.Word) {
	for _, s := range v.Segs {
		b.add(s)
	}
	b.cur.Split = b.cur.Split || v.Split
	b.cur.Multi = b.cur.Multi || v.Multi
}

// appendFields appends the fields of wd to out, expanded the way bash
// expands a command's arguments: brace expansion, then the word's parts,
// field splitting and globbing.
func (w *walker) appendFields(out []word.Word, sc *scope, wd *syntax.Word) []word.Word {
	if w.fatal != nil {
		return out // the walk is void (appendExpanded)
	}
	if !hasBrace(wd) || w.lang == syntax.LangPOSIX { // most words: no slice of one word to make; dash has no brace expansion
		return w.appendExpanded(out, sc, wd)
	}
	for _, bw := range w.braces(wd) {
		out = w.appendExpanded(out, sc, bw)
	}
	return out
}

// appendExpanded appends the fields of a word after brace expansion.
func (w *walker) appendExpanded(out []word.Word, sc *scope, wd *syntax.Word) []word.Word {
	if w.fatal != nil {
		return out // the walk is void: expand nothing more
	}
	if len(out) > maxWords {
		// Brace expansions multiply words: 4 MiB of "{1..4096} " is a
		// billion of them, which took minutes and gigabytes to expand
		// before emit refused the command for its words. Refuse it now.
		w.fatal = &ParseError{Reason: fmt.Sprintf("the command expands to more than %d words, the most the guard judges one by one", maxWords), TooLarge: true}
		return out
	}
	start := len(out)
	b := fieldBuilder{fields: out, segs: &w.segs} // the fields land in out directly
	parts, unread := bracketsAcrossQuotes(wd.Parts)
	if unread {
		w.parts(sc, &b, wd.Parts, wctx{arg: true}, true) // walked for what it runs
		b.end()
		return append(out[:start], word.UnknownData("a bracket expression with an expansion or a newline quoted inside ([\"$x\"])"))
	}
	w.parts(sc, &b, parts, wctx{arg: true}, true)
	b.end()
	out = b.fields
	for i := start; i < len(out); i++ {
		out[i] = w.globbed(sc, out[i])
	}
	return out
}

// bracketsAcrossQuotes rewrites a word whose bracket expression has
// quoted text inside (["s"], [!'x'], [$'k']): bash globs it, the quoted
// characters members of the set, but the parser ends the unquoted text
// at the quote. The run from the [ to the ] becomes one unquoted literal,
// its quoted characters escaped with \, which is what they are there.
// unread: a quoted part inside holds an expansion or a newline.
func bracketsAcrossQuotes(parts []syntax.WordPart) (out []syntax.WordPart, unread bool) {
	open := -1 // the part with an unclosed [
	for i, p := range parts {
		l, ok := p.(*syntax.Lit)
		switch {
		case ok && open < 0:
			if j := strings.LastIndexByte(l.Value, '['); j >= 0 && classClose(l.Value, j) < 0 && !strings.ContainsAny(l.Value[j:], "/") {
				open = i
			}
		case ok && open >= 0:
			if strings.IndexByte(l.Value, ']') < 0 {
				continue
			}
			merged, bad := mergeEscaped(parts[open : i+1])
			if bad {
				return parts, true
			}
			rest, bad := bracketsAcrossQuotes(parts[i+1:])
			out = append(append(append([]syntax.WordPart(nil), parts[:open]...), merged), rest...)
			return out, bad
		case open >= 0:
			switch p.(type) {
			case *syntax.SglQuoted, *syntax.DblQuoted:
			default:
				open = -1 // an expansion: bash ends no bracket across it here
			}
		}
	}
	return parts, false
}

// mergeEscaped joins literal and quoted parts into one unquoted literal,
// the quoted text escaped character by character.
func mergeEscaped(parts []syntax.WordPart) (*syntax.Lit, bool) {
	var b strings.Builder
	esc := func(s string) bool {
		for _, r := range s {
			if r == '\n' {
				return false
			}
			b.WriteByte('\\')
			b.WriteRune(r)
		}
		return true
	}
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			v := p.Value
			if p.Dollar {
				d, ok := ansiC(v)
				if !ok {
					return nil, true
				}
				v = d
			}
			if !esc(v) {
				return nil, true
			}
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok || !esc(unescapeDQ(l.Value)) {
					return nil, true
				}
			}
		default:
			return nil, true
		}
	}
	return &syntax.Lit{ValuePos: parts[0].Pos(), ValueEnd: parts[len(parts)-1].End(), Value: b.String()}, false
}

// hasBrace reports whether a word may hold a brace expansion: only
// unquoted text can.
func hasBrace(wd *syntax.Word) bool {
	for _, p := range wd.Parts {
		if l, ok := p.(*syntax.Lit); ok && strings.IndexByte(l.Value, '{') >= 0 {
			return true
		}
	}
	return false
}

// value expands a word without field splitting (assignment values,
// redirection targets, [[ ]] operands, case words).
func (w *walker) value(sc *scope, wd *syntax.Word, ctx wctx) word.Word {
	if wd == nil {
		return word.FromLit("")
	}
	ctx.noSplit = true
	b := &fieldBuilder{segs: &w.segs}
	w.parts(sc, b, wd.Parts, ctx, true)
	if len(b.fields) == 0 && b.has {
		// One field (most values): no list of fields to make for it.
		v := b.cur
		v.Split = false
		return v
	}
	b.end()
	if len(b.fields) == 0 {
		return word.FromLit("")
	}
	if len(b.fields) == 1 {
		b.fields[0].Split = false
		return b.fields[0]
	}
	jb := fieldBuilder{cur: b.fields[0]}
	for _, f := range b.fields[1:] {
		jb.addLit(" ")
		jb.addWord(f)
	}
	jb.cur.Split = false
	return jb.cur
}

// braces performs brace expansion. An expansion too large to list is one
// unknown word.
func (w *walker) braces(orig *syntax.Word) []*syntax.Word {
	if !hasBrace(orig) {
		return []*syntax.Word{orig}
	}
	// SplitBraces rewrites the word in place; the AST is walked again
	// (loops are pre-scanned, functions called twice), so work on a copy.
	wd := &syntax.Word{Parts: append([]syntax.WordPart(nil), orig.Parts...)}
	syntax.SplitBraces(wd)
	has := false
	for _, p := range wd.Parts {
		if _, ok := p.(*syntax.BraceExp); ok {
			has = true
		}
	}
	if !has {
		return []*syntax.Word{wd}
	}
	if braceWords(wd.Parts, 0) > maxBraceWords {
		// Counted first: spelling out {a,b}{a,b}… up to the limit costs
		// the limit × the number of braces squared.
		return []*syntax.Word{{Parts: []syntax.WordPart{&syntax.CmdSubst{}}}}
	}
	var out []*syntax.Word
	ok := expandBraces(wd, func(bw *syntax.Word) bool {
		out = append(out, bw)
		return len(out) <= maxBraceWords
	})
	if !ok || len(out) > maxBraceWords {
		return []*syntax.Word{{Parts: []syntax.WordPart{&syntax.CmdSubst{}}}}
	}
	return out
}

// maxBraceWords is the most words a brace expansion is spelled out to,
// and maxBraces the most brace expressions in one word.
const (
	maxBraceWords = 4096
	maxBraces     = 32
)

// braceWords returns how many words parts (split by syntax.SplitBraces)
// expand to, as bracesRec spells them out, or more than maxBraceWords
// when that is more, or when one word spelled out goes through more than
// maxBraces brace expressions (n counts those seen so far), each a level
// of bracesRec's recursion.
func braceWords(parts []syntax.WordPart, n int) int {
	const tooMany = maxBraceWords + 1
	words := 1
	for _, p := range parts {
		br, ok := p.(*syntax.BraceExp)
		if !ok {
			continue
		}
		if n++; n > maxBraces {
			return tooMany
		}
		m := 0
		if br.Sequence {
			m = sequenceLen(br)
		} else {
			for _, e := range br.Elems {
				if m += braceWords(e.Parts, n); m > maxBraceWords {
					return tooMany
				}
			}
		}
		if m > 0 && words > maxBraceWords/m {
			return tooMany
		}
		words *= m
	}
	return min(words, tooMany)
}

// sequenceLen is the number of words {from..to[..incr]} makes, as
// bracesRec counts them, at most maxBraceWords+1.
func sequenceLen(br *syntax.BraceExp) int {
	fromLit, toLit := br.Elems[0].Lit(), br.Elems[1].Lit()
	from, err1 := strconv.ParseInt(fromLit, 10, 64)
	to, err2 := strconv.ParseInt(toLit, 10, 64)
	if err1 != nil || err2 != nil {
		if fromLit == "" || toLit == "" {
			return maxBraceWords + 1
		}
		from, to = int64(fromLit[0]), int64(toLit[0])
	}
	incr := int64(1)
	if len(br.Elems) > 2 {
		if n, _ := strconv.ParseInt(br.Elems[2].Lit(), 10, 64); n != 0 {
			incr = max(n, -n)
		}
	}
	span := to - from
	if span < 0 {
		span = -span
	}
	if span < 0 || span/incr >= maxBraceWords { // (span < 0: overflow)
		return maxBraceWords + 1
	}
	return int(span/incr) + 1
}

// globbed records what a glob word matches in the file system now.
func (w *walker) globbed(sc *scope, f word.Word) word.Word {
	noglob := sc.noglob
	if w.may.noglob {
		noglob = noglobMaybe
	}
	if noglob == noglobOn {
		return literalGlob(f) // set -f: k* names the file k*
	}
	written := f
	if f.HasGlob() && (w.may.nocase || w.nocaseEnv) {
		f = caseless(f)
	}
	if f.HasGlob() && w.may.localeRanges {
		f = anyRanges(f)
	}
	if !f.HasGlob() || f.HasHole() || w.opts.Glob == nil {
		return f
	}
	mode := GlobMode{Hidden: w.may.dotglob || w.globIgnore, Globstar: w.may.globstar || w.globstarEnv}
	for _, s := range f.Segs {
		// An extended pattern may match a leading dot: @(.env).
		mode.Hidden = mode.Hidden || s.Kind == word.Star && s.Text != ""
	}
	pat := globPattern(f)
	complete := true
	glob := func(p string) []string {
		m, all := w.opts.Glob(p, mode)
		complete = complete && all
		return m
	}
	f = w.matchGlob(sc, f, pat, glob)
	if !complete {
		return word.UnknownData("a glob the guard could not read in full (more than " + strconv.Itoa(maxGlobEntries) + " directory entries, or a bracket expression bash reads otherwise)")
	}
	if noglob == noglobMaybe {
		// With set -f the word is itself: that name, if it is there.
		lit := literalGlob(written).String()
		var dirs []string
		if strings.HasPrefix(lit, "/") {
			dirs = []string{""}
		} else if !sc.cwd.Unknown {
			dirs = sc.cwd.Dirs
		}
		for _, d := range dirs {
			p := lit
			if d != "" {
				p = d + "/" + lit
			}
			if _, err := os.Lstat(p); err == nil && !slices.Contains(f.Matches, p) {
				f.Matches = append(f.Matches, p)
			}
		}
	}
	return f
}

// matchGlob sets what glob matches of pat (f's pattern) where the
// command may run.
func (w *walker) matchGlob(sc *scope, f word.Word, pat string, glob func(string) []string) word.Word {
	if strings.HasPrefix(pat, "/") {
		f.Matches = glob(pat)
	} else {
		if len(sc.cwd.Dirs) == 0 || sc.cwd.Unknown {
			return f
		}
		// In each directory the command may run in (cd x; cat *: x or
		// here, if cd failed), what the glob matches there.
		f.Matches = nil
		for _, d := range sc.cwd.Dirs {
			f.Matches = append(f.Matches, glob(pattern.QuoteMeta(strings.TrimSuffix(d, "/"), 0)+"/"+pat)...)
		}
	}
	if len(f.Matches) == 0 && w.may.nullglob {
		// With nullglob somewhere in the text, a glob that matches
		// nothing may be no word at all: what follows it shifts.
		f.Multi = true
	}
	return f
}

// caseless is a glob word as nocaseglob reads it: each letter of its
// literal text either case (.EN[V] matches .env).
func caseless(f word.Word) word.Word {
	out := word.Word{Split: f.Split, Multi: f.Multi, Matches: f.Matches}
	for _, s := range f.Segs {
		if s.Kind == word.Class {
			// [V] is [Vv]; a [:class:] inside is any character here.
			if strings.Contains(s.Text, "[:") || strings.Contains(s.Text, "[=") || strings.Contains(s.Text, "[.") {
				s = word.Seg{Kind: word.Quest}
			} else {
				neg := ""
				if strings.HasPrefix(s.Text, "!") || strings.HasPrefix(s.Text, "^") {
					neg, s.Text = s.Text[:1], s.Text[1:]
				}
				// A ] first is a member, not the end: []k] is []kK],
				// never []k]K].
				s.Text = neg + s.Text + swapCase(strings.TrimPrefix(s.Text, "]"))
			}
		}
		if s.Kind != word.Lit {
			out.Segs = append(out.Segs, s)
			continue
		}
		for _, r := range s.Text {
			if l, u := unicode.ToLower(r), unicode.ToUpper(r); l != u && r < utf8.RuneSelf {
				out.Segs = append(out.Segs, word.Seg{Kind: word.Class, Text: string(l) + string(u)})
				continue
			}
			out.AddLit(string(r))
		}
	}
	return out
}

// literalGlob is a word as set -f leaves it: its wildcards are text.
func literalGlob(f word.Word) word.Word {
	if !f.HasGlob() {
		return f
	}
	out := word.Word{Split: f.Split, Multi: f.Multi}
	for _, s := range f.Segs {
		switch s.Kind {
		case word.Star:
			if s.Text != "" {
				out.AddLit(s.Text) // an extended pattern, as written
			} else {
				out.AddLit("*")
			}
		case word.Quest:
			out.AddLit("?")
		case word.Class:
			out.AddLit("[" + s.Text + "]")
		default:
			out.Segs = append(out.Segs, s)
		}
	}
	return out
}

// anyRanges is a glob word with each bracket expression that holds a
// range read as any character: outside globasciiranges, where a range
// ends is the locale's collation, not known here.
func anyRanges(f word.Word) word.Word {
	out := f
	out.Segs = slices.Clone(f.Segs)
	for i, s := range out.Segs {
		if s.Kind == word.Class && strings.Contains(strings.TrimSuffix(strings.TrimLeft(s.Text, "!^"), "-"), "-") {
			out.Segs[i] = word.Seg{Kind: word.Quest}
		}
	}
	return out
}

// swapCase is s with each ASCII letter of the other case.
func swapCase(s string) string {
	b := []byte(s)
	for i, c := range b {
		switch {
		case 'a' <= c && c <= 'z':
			b[i] = c - 'a' + 'A'
		case 'A' <= c && c <= 'Z':
			b[i] = c - 'A' + 'a'
		}
	}
	return string(b)
}

// globPattern renders a word as a bash pattern (see Globber).
func globPattern(f word.Word) string {
	var b strings.Builder
	for _, s := range f.Segs {
		switch s.Kind {
		case word.Lit:
			b.WriteString(pattern.QuoteMeta(s.Text, 0))
		case word.Star:
			b.WriteByte('*')
		case word.Quest:
			b.WriteByte('?')
		case word.Class:
			b.WriteString("[" + s.Text + "]")
		}
	}
	return b.String()
}

func (w *walker) parts(sc *scope, b *fieldBuilder, parts []syntax.WordPart, ctx wctx, first bool) {
	for i, p := range parts {
		if i > 0 && dollarSplit(parts[i-1], p) {
			// "$\⏎(cmd)", $\⏎'\x2f': bash removes the backslash-newline
			// first and expands; the parser keeps $ and what follows as
			// two texts.
			w.differential(p.Pos(), "a $ split by a backslash-newline from what follows (bash joins them into an expansion; the parser reads text)")
		}
		w.part(sc, b, p, ctx, first && i == 0)
	}
}

// dollarSplit reports a literal ending in an unescaped $ that the parser
// cut from the next part of the word at a backslash-newline it dropped
// (the literal's text is longer than its value), which bash removes
// before it reads $( $' ${.
func dollarSplit(a, b syntax.WordPart) bool {
	l, ok := a.(*syntax.Lit)
	if !ok || !strings.HasSuffix(l.Value, "$") || int(l.End().Offset()-l.Pos().Offset()) <= len(l.Value) {
		return false
	}
	n := 0
	for i := len(l.Value) - 2; i >= 0 && l.Value[i] == '\\'; i-- {
		n++
	}
	return n%2 == 0
}

func (w *walker) part(sc *scope, b *fieldBuilder, p syntax.WordPart, ctx wctx, atStart bool) {
	switch p := p.(type) {
	case *syntax.Lit:
		// bash runs a process substitution in a ${…} operand (in double
		// quotes too: x=a; echo "${x/a/<(cmd)}") and in a [[ ]] pattern
		// or regular expression; the parser keeps its text (a red team's).
		if (ctx.param || ctx.pattern && !ctx.dq) && (strings.Contains(p.Value, "<(") || strings.Contains(p.Value, ">(")) {
			w.differential(p.Pos(), "a process substitution inside ${…} or a pattern (bash runs it; the parser reads it as text)")
		}
		w.lit(sc, b, p.Value, ctx, atStart)
	case *syntax.SglQuoted:
		if (ctx.arith || (ctx.param && ctx.dq)) && strings.ContainsAny(p.Value, "$`") {
			w.differential(p.Pos(), "single quotes inside "+map[bool]string{true: "arithmetic", false: "a double-quoted ${…}"}[ctx.arith]+" (bash does not treat them as quotes there, so the text inside is expanded)")
		}
		v, known := p.Value, true
		if p.Dollar {
			v, known = ansiC(v)
		}
		if known {
			b.addLit(v)
		} else {
			b.add(word.Seg{Kind: word.Hole, Text: "$'" + p.Value + "' (its text depends on the locale)"})
		}
		b.has = true
	case *syntax.DblQuoted:
		in := ctx
		in.dq = true
		b.has = true
		w.parts(sc, b, p.Parts, in, false)
	case *syntax.ParamExp:
		w.paramPart(sc, b, p, ctx)
	case *syntax.CmdSubst:
		if !w.rereading {
			w.subst(sc, p.Stmts, "$(…)")
		}
		out := w.substOutput(sc, p.Stmts)
		if out.Known {
			// Expanded like a variable's value: split and globbed unquoted.
			w.addValue(sc, b, word.FromLit(strings.TrimRight(out.Text, "\n")), ctx)
			break
		}
		// The output of a find whose words are known: paths below its
		// starting points (policy judges them by where find looks).
		w.addDynamic(b, word.Seg{Kind: word.Hole, Data: true, Text: "$(…)", Found: out.Found}, ctx)
	case *syntax.ProcSubst:
		if !w.rereading {
			w.subst(sc, p.Stmts, p.Op.String()+"…)")
		}
		b.add(word.Seg{Kind: word.Hole, Text: p.Op.String() + "…)"})
		b.has = true
	case *syntax.ArithmExp:
		w.arith(sc, p.X)
		b.add(word.Seg{Kind: word.Hole, Text: "$((…))"})
		b.has = true
	case *syntax.ExtGlob:
		if strings.ContainsAny(p.Pattern.Value, "$`") || strings.Contains(p.Pattern.Value, "<(") || strings.Contains(p.Pattern.Value, ">(") {
			// bash expands parameters and runs substitutions in an
			// extended pattern; the parser keeps its text as a literal.
			w.differential(p.Pos(), "an expansion or process substitution inside an extended glob pattern such as !(…) (bash runs it; the parser reads it as text)")
		}
		w.lit(sc, &fieldBuilder{}, p.Pattern.Value, ctx, false)
		if ctx.dq || ctx.noSplit && !ctx.pattern {
			b.addLit(p.Op.String() + p.Pattern.Value + ")")
		} else {
			b.add(word.Seg{Kind: word.Star, Text: p.Op.String() + p.Pattern.Value + ")"})
		}
		b.has = true
	case *syntax.BraceExp:
		// Only reachable when expansion was too large to list.
		b.add(word.Seg{Kind: word.Hole, Data: true, Text: "{…}"}) // words the text made
		b.cur.Split = true
		b.has = true
	default:
		b.add(word.Seg{Kind: word.Hole, Data: true, Text: "?"})
		b.has = true
	}
}

// substOutput is what a command substitution prints, when it is known
// here: the text of $(pwd) in a known directory, of $(echo WORDS), $(printf
// …) and $(cat <<'EOF' …) of literal text, or the argv of a find that
// prints paths below its starting points (literalOutput reads them; the
// caller removes trailing newlines, as bash does). A function or alias of
// that name (or any alias at all, which may be expanded) leaves it
// unknown, and so does any redirection but of its input: $(echo x
// >/dev/null) is empty. Re-read words (w.rereading) get no find output:
// it is not a value, and reading it would re-read the layers below.
func (w *walker) substOutput(sc *scope, stmts []*syntax.Stmt) *Input {
	unknown := &Input{}
	st, call, name, ok := w.simpleSubst(sc, stmts)
	if !ok || name == "find" && w.rereading {
		return unknown
	}
	for _, r := range st.Redirs {
		if r.Op != syntax.Hdoc && r.Op != syntax.DashHdoc && r.Op != syntax.WordHdoc || r.N != nil {
			return unknown
		}
	}
	if name != "pwd" {
		return w.literalOutput(sc, st)
	}
	var args []string
	for _, a := range call.Args {
		t, ok := staticWord(a)
		if !ok {
			return unknown
		}
		args = append(args, t)
	}
	if len(args) > 1 && !(len(args) == 2 && (args[1] == "-L" || args[1] == "-P")) {
		return unknown
	}
	if sc.cwd.Unknown || len(sc.cwd.Dirs) != 1 {
		return unknown
	}
	if len(args) == 2 && args[1] == "-P" {
		return unknown // symlinks resolved: not known here
	}
	return &Input{Text: sc.cwd.Dirs[0], Known: true}
}

// simpleSubst returns the one simple command a substitution runs, when it
// is that (no assignments, not negated or in the background) and names a
// program with a known word that no alias or function may take the place of.
func (w *walker) simpleSubst(sc *scope, stmts []*syntax.Stmt) (*syntax.Stmt, *syntax.CallExpr, string, bool) {
	if len(stmts) != 1 || w.aliases {
		return nil, nil, "", false
	}
	st := stmts[0]
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || st.Negated || st.Background || st.Coprocess || len(call.Assigns) > 0 || len(call.Args) == 0 {
		return nil, nil, "", false
	}
	name, ok := staticWord(call.Args[0])
	if !ok || w.mayBeFunc(sc, name) {
		return nil, nil, "", false
	}
	return st, call, name, true
}

// mayBeFunc reports whether a command name may call a shell function:
// one defined now, or anywhere in the text with several bodies.
func (w *walker) mayBeFunc(sc *scope, name string) bool {
	_, ok := sc.funcs[name]
	return ok || len(w.may.bodies[name]) > 0
}

// addDynamic adds an unknown value, which splits unless quoted.
func (w *walker) addDynamic(b *fieldBuilder, s word.Seg, ctx wctx) {
	b.add(s)
	b.has = true
	if !ctx.dq && !ctx.noSplit {
		b.cur.Split = true
	}
}

// lit adds literal source text, doing what bash does to it in ctx.
func (w *walker) lit(sc *scope, b *fieldBuilder, v string, ctx wctx, atStart bool) {
	if v == "" {
		return
	}
	if !ctx.dq && atStart && ctx.arg {
		if n := assignPrefix(v); n > 0 {
			b.addLit(v[:n])
			b.has = true
			val := ctx
			val.arg, val.assign = false, true
			w.lit(sc, b, v[n:], val, true)
			return
		}
	}
	if !ctx.dq && atStart && strings.HasPrefix(v, "~") {
		v = w.tilde(sc, b, v, ctx)
	}
	glob := !ctx.dq && !(ctx.noSplit && !ctx.pattern)
	for i := 0; i < len(v); {
		c := v[i]
		switch {
		case c == '\\' && i+1 < len(v):
			n := v[i+1]
			if !ctx.dq || n == '$' || n == '`' || n == '\\' || n == '\n' || (n == '"' && !ctx.hdoc) {
				if n != '\n' {
					r, size := utf8.DecodeRuneInString(v[i+1:])
					b.addLit(string(r))
					i += 1 + size
				} else {
					i += 2
				}
				b.has = true
				continue
			}
			b.addLit("\\")
		case glob && c == '*':
			b.add(word.Seg{Kind: word.Star})
		case glob && c == '?':
			b.add(word.Seg{Kind: word.Quest})
		case glob && c == '[':
			if j := classClose(v, i); j > 0 {
				b.add(word.Seg{Kind: word.Class, Text: v[i+1 : j]})
				i = j + 1
				b.has = true
				continue
			}
			b.addLit("[")
		case ctx.assign && c == ':' && i+1 < len(v) && v[i+1] == '~':
			b.addLit(":")
			i++
			rest := w.tilde(sc, b, v[i:], ctx)
			v = v[:i] + rest
			continue
		default:
			// A run of ordinary characters is added at once.
			j := i + 1
			for j < len(v) && !special(v[j], glob, ctx.assign) {
				j++
			}
			b.addLit(v[i:j])
			i = j
			b.has = true
			continue
		}
		i++
		b.has = true
	}
}

// assignPrefix returns the length of a leading "NAME=" (a valid shell
// name), or 0.
func assignPrefix(v string) int {
	i := strings.IndexByte(v, '=')
	if i <= 0 || !word.IsName(v[:i]) {
		return 0
	}
	return i + 1
}

// special reports whether a byte of literal text needs lit's attention.
func special(c byte, glob, assign bool) bool {
	switch c {
	case '\\':
		return true
	case '*', '?', '[':
		return glob
	case ':':
		return assign
	}
	return false
}

// classClose finds the ']' closing a bracket expression that opens at i.
func classClose(v string, i int) int {
	j := i + 1
	if j < len(v) && (v[j] == '!' || v[j] == '^') {
		j++
	}
	if j < len(v) && v[j] == ']' {
		j++
	}
	for ; j < len(v); j++ {
		switch v[j] {
		case '\\':
			j++
		case '/':
			return -1
		case '[':
			// [:lower:], [=e=], [.hyphen.] inside the brackets run to
			// their own :], =] or .] (bash's brackmatch).
			if j+1 < len(v) && (v[j+1] == ':' || v[j+1] == '=' || v[j+1] == '.') {
				if k := strings.Index(v[j+2:], string(v[j+1])+"]"); k >= 0 && !strings.Contains(v[j+2:j+2+k], "/") {
					j += 2 + k + 1
				}
			}
		case ']':
			return j
		}
	}
	return -1
}

// tilde expands a leading ~ prefix and returns the rest of v.
func (w *walker) tilde(sc *scope, b *fieldBuilder, v string, ctx wctx) string {
	end := strings.IndexAny(v, "/")
	if ctx.assign {
		if i := strings.IndexAny(v, "/:"); i >= 0 {
			end = i
		}
	}
	if end < 0 {
		end = len(v)
	}
	name := v[1:end]
	if strings.ContainsAny(name, `\'"$`) {
		return v
	}
	switch name {
	case "":
		b.addWord(sc.lookup(w, "HOME", "~"))
	case "+":
		b.addWord(sc.lookup(w, "PWD", "~+"))
	case "-":
		b.addWord(sc.lookup(w, "OLDPWD", "~-"))
	default:
		// ~name is that user's home, from the user database as bash's
		// getpwnam gives it (~bin is /bin, ~root /root: rm -rf ~bin is
		// rm -rf /bin, a red team's); one not found here stays a place
		// not known.
		if u, err := user.Lookup(name); err == nil && filepath.IsAbs(u.HomeDir) {
			b.add(word.Seg{Kind: word.Lit, Text: filepath.Clean(u.HomeDir)})
		} else {
			b.add(word.Seg{Kind: word.Hole, Text: "~" + name})
		}
	}
	b.has = true
	return v[end:]
}

// paramPart expands ${…} and $name.
func (w *walker) paramPart(sc *scope, b *fieldBuilder, p *syntax.ParamExp, ctx wctx) {
	in := ctx
	in.param = true
	// Operands are expanded (and may run substitutions) whatever the value.
	keySecret := false
	if p.Index != nil && p.Param != nil {
		keySecret = w.subscript(sc, p.Index, sc.varState(p.Param.Value).assoc)
	} else if p.Index != nil {
		w.arith(sc, p.Index)
	}
	if p.Slice != nil {
		if p.Slice.Offset != nil {
			w.arith(sc, p.Slice.Offset)
		}
		if p.Slice.Length != nil {
			w.arith(sc, p.Slice.Length)
		}
	}
	var opVal word.Word
	if p.Exp != nil && p.Exp.Word != nil {
		inOp := in
		inOp.noSplit = true
		opVal = w.value(sc, p.Exp.Word, inOp)
	}
	replSecret := false
	if p.Repl != nil {
		inOp := in
		inOp.noSplit = true
		inOp.pattern = true
		w.value(sc, p.Repl.Orig, inOp)
		replSecret = w.value(sc, p.Repl.With, inOp).HasSecret()
	}
	name := ""
	if p.Param != nil {
		name = p.Param.Value
	}
	// A default, alternate or assigned word is a value the text gives
	// the expansion ("${x:-.env}" is .env when x is unset): data.
	hole := word.Seg{Kind: word.Hole, Text: "$" + name, Data: sc.textValue(name) || opVal.HasData() || p.Exp != nil && textAlternative(p.Exp.Op) && !isEmpty(opVal)}
	// What of a secret variable's value the expansion may give
	// (word.Seg.Secret): the value itself, but not with ${X:+w}, which is
	// w or nothing, nor ${!X*}, which are names; a word that may stand
	// for the value (${x:-$TOKEN}, ${x:?$TOKEN}, ${x/a/$TOKEN}).
	opSecret := p.Exp != nil && (textAlternative(p.Exp.Op) || p.Exp.Op == syntax.ErrorUnset || p.Exp.Op == syntax.ErrorUnsetOrNull) && opVal.HasSecret()
	alternate := p.Exp != nil && (p.Exp.Op == syntax.AlternateUnset || p.Exp.Op == syntax.AlternateUnsetOrNull)
	hole.Secret = !p.Length && p.Names == 0 && !alternate && w.secretVar(name) || opSecret || replSecret
	if p.Exp != nil && (p.Exp.Op == syntax.AssignUnset || p.Exp.Op == syntax.AssignUnsetOrNull) && !argspec.SecretName(name) {
		switch {
		case opSecret:
			w.secretCopy(name, opVal) // ${x:=$TOKEN} copies it into x
		case keySecret:
			w.secretCopy(name, secretKey) // ${m[$TOKEN]:=1}
		}
	}
	if opSecret && (p.Exp.Op == syntax.ErrorUnset || p.Exp.Op == syntax.ErrorUnsetOrNull) {
		w.secretShown("${" + name + p.Exp.Op.String() + opVal.String() + "}: bash prints the word, a secret variable's value, when " + name + " is unset")
	}
	if hole.Secret {
		w.sawSecret()
	}
	if !p.Short {
		hole.Text = "${" + name + "…}"
		if p.Exp == nil && p.Repl == nil && p.Slice == nil && p.Index == nil && !p.Excl && !p.Length && p.Names == 0 {
			hole.Text = "${" + name + "}" // the value as it is (argspec.DerivedSecret)
		}
	}
	if p.Index != nil && !isAllIndex(p.Index) && p.Exp == nil && p.Repl == nil && p.Slice == nil && !p.Excl && !p.Length && p.Names == 0 && word.IsName(name) {
		// a[i] (in arithmetic, short): any element, not element 0.
		hole.Text = "${" + name + "[…]}"
	}
	if p.Excl && p.Names == 0 && p.Index == nil && p.Exp != nil && (p.Exp.Op == syntax.AssignUnset || p.Exp.Op == syntax.AssignUnsetOrNull) {
		// ${!v:=word} assigns word to the variable v names (when that is
		// unset or empty): judged as ${NAME:=word} of that name, so that
		// an export of it, or set -a, is seen (a red team's).
		v, known := sc.get(w, name)
		t, ok := v.Static()
		if !known || !ok || !word.IsName(t) {
			w.dataAsCode("${!" + name + p.Exp.Op.String() + "…} assigns to a variable named by a value not known here")
			sc.havocVars()
			hole.Secret = true
			w.addDynamic(b, hole, ctx)
			return
		}
		q := *p
		q.Excl, q.Param = false, &syntax.Lit{ValuePos: p.Param.ValuePos, ValueEnd: p.Param.ValueEnd, Value: t}
		p, name = &q, t
		hole.Text, hole.Secret = "${"+t+"…}", w.secretVar(t) || opSecret
	}
	switch {
	case p.Excl && p.Names == 0 && p.Index != nil && !isAllIndex(p.Index):
		// ${!a[i]…}: the variable an element's value names (a scalar's
		// too: ${!x[0]}). Followed only to plain names with no operator.
		vals, known := w.elementValues(sc, name, p.Index)
		for _, v := range vals {
			t, ok := v.Static()
			if known && ok && (t == "" || word.IsName(t)) && p.Exp == nil && p.Repl == nil && p.Slice == nil && !p.Length && !p.Width {
				hole.Secret = hole.Secret || t != "" && w.secretVar(t)
				continue
			}
			w.dataAsCode("${!" + name + "[…]…} names a variable by an element's value, which the guard does not follow (a subscript in that name runs as arithmetic)")
			hole.Secret = true
			break
		}
		if hole.Secret {
			w.sawSecret()
		}
		w.addDynamic(b, hole, ctx)
		return
	case p.Excl && p.Names == 0 && p.Index == nil && p.Exp != nil && p.Exp.Op == syntax.OtherParamOps:
		// ${!r@P}: the operator applies to the value r names, which the
		// shortcut below would drop (a red team's prompt expansion of a
		// line read, through r=y).
		w.dataAsCode("${!" + name + "@…}: bash applies the operator to the variable " + name + " names, which the guard does not follow")
		hole.Secret = true
		w.addDynamic(b, hole, ctx)
		return
	case p.Excl && p.Names == 0 && p.Index == nil:
		// ${!x}: the value of the variable x names. Its name may carry a
		// subscript, which bash evaluates as arithmetic.
		v, known := sc.get(w, name)
		if s, ok := v.Static(); known && ok && word.IsName(s) {
			// The hole is named for the variable it is (${!x} with x=TOKEN
			// prints $TOKEN), so that what reads holes sees which.
			w.addValue(sc, b, sc.lookup(w, s, "$"+s), ctx)
			return
		}
		w.dataAsCode("${!" + name + "} names a variable by a value not known here; bash evaluates a subscript in it as arithmetic, which can run commands")
		hole.Secret = true // any variable's value
		w.addDynamic(b, hole, ctx)
		return
	case p.Length:
		b.add(word.Seg{Kind: word.Digits, Text: "${#" + name + "}"})
		b.has = true
		return
	}
	if p.Exp != nil && p.Exp.Op == syntax.OtherParamOps {
		if s, _ := opVal.Static(); s == "P" {
			// Prompt expansion runs command substitutions in the value:
			// in each element a subscript may pick.
			vals, known := w.elementValues(sc, name, p.Index)
			for _, v := range vals {
				t, ok := v.Static()
				if !ok {
					known = false
					break
				}
				w.promptString(sc, t, "${"+name+"@P}", false)
			}
			if !known {
				w.dataAsCode("${" + name + "@P} expands a value not known here as a prompt, which can run commands")
			}
		}
		if v, known := sc.get(w, name); known && !v.HasSecret() && p.Index == nil && !p.Excl && !sc.isUnset(name) {
			if s, ok := v.Static(); ok {
				if out, ok := paramOp(p, s); ok {
					w.addValue(sc, b, word.FromLit(out), ctx) // ${HOME@L}
					return
				}
			}
		}
		w.addDynamic(b, hole, ctx)
		return
	}
	if p.Index != nil && name != "" && p.Exp == nil && p.Repl == nil && p.Slice == nil && !p.Excl && p.Names == 0 && !p.Length && !p.Width {
		if st, ok := sc.vars.lookup(name); ok && st.elems != nil && !st.unknown && !st.unset {
			if w.arrayPart(sc, b, st.elems, p.Index, ctx) {
				return
			}
		}
	}
	if name == "@" || name == "*" || (p.Index != nil && isAllIndex(p.Index)) {
		if p.Index == nil && !sc.paramsUnknown && p.Exp == nil && p.Repl == nil && p.Slice == nil {
			args := sc.params
			if len(args) > 0 {
				args = args[1:]
			}
			if name == "@" && ctx.dq {
				for i, a := range args {
					if i > 0 {
						b.end()
						b.has = true
					}
					b.addLit(a)
				}
				if len(args) == 0 && len(b.cur.Segs) == 0 {
					b.has = false
				}
				return
			}
			lits := make([]word.Word, len(args))
			for i, a := range args {
				lits[i] = word.FromLit(a)
			}
			if !w.addAll(sc, b, lits, name == "*", ctx) {
				w.addDynamic(b, hole, ctx)
			}
			return
		}
		b.add(hole)
		b.has = true
		if ctx.dq {
			b.cur.Multi = true
		} else if !ctx.noSplit {
			b.cur.Split = true
		}
		return
	}
	if p.Exp == nil && p.Repl == nil && p.Slice == nil && p.Index == nil && !p.Excl {
		w.addValue(sc, b, sc.lookup(w, name, hole.Text), ctx)
		return
	}
	if p.Exp != nil && p.Index != nil && name != "" {
		switch p.Exp.Op {
		case syntax.AssignUnsetOrNull, syntax.AssignUnset:
			sc.setUnknown(name) // ${a[1]:=v} may set one element
		}
	}
	if word.IsName(name) && !sc.isUnset(name) && !w.may.nocaseMatch && !strings.Contains(w.getenv("BASHOPTS"), "nocasematch") {
		// ${HOME%/*}, ${HOME::1}, ${x/a/b} of a value known here: the
		// value bash makes of it (rm -rf "${HOME%/*}" names /home).
		if v, known := sc.get(w, name); known && !v.HasSecret() {
			if s, ok := v.Static(); ok {
				if out, ok := paramOp(p, s); ok {
					w.addValue(sc, b, word.FromLit(out), ctx)
					return
				}
			}
		}
	}
	if p.Exp != nil && p.Index == nil && !p.Excl {
		v, known := sc.get(w, name)
		set := known && !sc.isUnset(name)
		empty := set && isEmpty(v)
		switch p.Exp.Op {
		case syntax.DefaultUnsetOrNull, syntax.DefaultUnset, syntax.AssignUnsetOrNull, syntax.AssignUnset:
			if (p.Exp.Op == syntax.AssignUnsetOrNull || p.Exp.Op == syntax.AssignUnset) && sc.isInteger(name) {
				// ${x=v} of an integer x evaluates v as arithmetic when it
				// assigns, which declare -i x (set? unset?) leaves open.
				w.arithText(sc, opVal, "assigning to integer variable "+name)
			}
			useDefault := !set || (empty && (p.Exp.Op == syntax.DefaultUnsetOrNull || p.Exp.Op == syntax.AssignUnsetOrNull))
			if known || sc.isUnset(name) {
				if useDefault || sc.isUnset(name) {
					if p.Exp.Op == syntax.AssignUnsetOrNull || p.Exp.Op == syntax.AssignUnset {
						sc.set(name, opVal)
					}
					w.addValue(sc, b, opVal, ctx)
					return
				}
				w.addValue(sc, b, v, ctx)
				return
			}
			if p.Exp.Op == syntax.AssignUnsetOrNull || p.Exp.Op == syntax.AssignUnset {
				sc.setUnknown(name)
			}
		case syntax.AlternateUnsetOrNull, syntax.AlternateUnset:
			if known || sc.isUnset(name) {
				if !set || (empty && p.Exp.Op == syntax.AlternateUnsetOrNull) {
					return
				}
				w.addValue(sc, b, opVal, ctx)
				return
			}
			if !opVal.HasHole() {
				// ${X:+set} is the word or nothing, never X's value: the
				// hole says so (a secret-named X is not printed by it).
				hole.Text = "${" + name + p.Exp.Op.String() + "…}"
			}
		}
	}
	w.addDynamic(b, hole, ctx)
}

// addAll adds $@ or $* (star), or an array's ${a[@]} or ${a[*]}, of known
// words, outside "$@": where no word splitting happens (quoted, an
// assignment's value, case, [[ ]]) bash joins them with IFS's first
// character for *, a space for @; elsewhere each is a word of its own,
// split on IFS. false: IFS is not known here, so neither is the result.
func (w *walker) addAll(sc *scope, b *fieldBuilder, ws []word.Word, star bool, ctx wctx) bool {
	ifs := " \t\n"
	if !sc.isUnset("IFS") {
		v, known := sc.get(w, "IFS")
		s, ok := v.Static()
		if !known || !ok {
			return false
		}
		ifs = s
	}
	if ctx.dq || ctx.noSplit || strings.Contains(ifs, " ") {
		sep := " "
		if star && (ctx.dq || ctx.noSplit) {
			sep = ""
			if r, size := utf8.DecodeRuneInString(ifs); size > 0 {
				sep = string(r)
			}
		}
		var jb fieldBuilder
		for i, e := range ws {
			if i > 0 {
				jb.addLit(sep)
			}
			jb.addWord(e)
		}
		w.addValue(sc, b, jb.cur, ctx)
		return true
	}
	// Split on an IFS without a space: each word on its own.
	for i, e := range ws {
		if i > 0 {
			b.end()
			b.has = true
		}
		w.addValue(sc, b, e, ctx)
	}
	return true
}

// textAlternative reports whether an expansion may give its word instead of
// the variable's value (${x:-w}, ${x-w}, ${x:=w}, ${x=w}, ${x:+w}, ${x+w}).
func textAlternative(op syntax.ParExpOperator) bool {
	switch op {
	case syntax.DefaultUnsetOrNull, syntax.DefaultUnset, syntax.AssignUnsetOrNull, syntax.AssignUnset,
		syntax.AlternateUnsetOrNull, syntax.AlternateUnset:
		return true
	}
	return false
}

// arrayPart expands ${a[@]}, ${a[*]} or ${a[N]} of an array whose
// elements are known: "${a[@]}" is one field per element, as "$@" is; the
// others are the joined text, expanded like a variable's value.
func (w *walker) arrayPart(sc *scope, b *fieldBuilder, elems []word.Word, idx syntax.ArithmExpr, ctx wctx) bool {
	wd, ok := idx.(*syntax.Word)
	if !ok {
		return false
	}
	switch l := wd.Lit(); {
	case l == "@" && ctx.dq:
		for i, e := range elems {
			if i > 0 {
				b.end()
				b.has = true
			}
			w.addValue(sc, b, e, ctx)
		}
		if len(elems) == 0 && len(b.cur.Segs) == 0 {
			b.has = false
		}
		return true
	case l == "@" || l == "*":
		return w.addAll(sc, b, elems, l == "*", ctx)
	case word.IsInteger(l):
		n, err := strconv.Atoi(l)
		if err != nil || n < 0 {
			return false // negative: from the end; not worth following
		}
		if n >= len(elems) {
			w.addValue(sc, b, word.FromLit(""), ctx)
			return true
		}
		w.addValue(sc, b, elems[n], ctx)
		return true
	}
	return false
}

// elementValues returns the values ${name[idx]} may have: the value
// without a subscript, one element for a number, and otherwise any
// element of an array whose elements are known. known is false when they
// are not known here.
func (w *walker) elementValues(sc *scope, name string, idx syntax.ArithmExpr) (vals []word.Word, known bool) {
	st, ok := sc.vars.lookup(name)
	if idx == nil || !ok || st.elems == nil {
		if wd, isWord := idx.(*syntax.Word); idx != nil && (!isWord || wd.Lit() != "0") && ok && st.elems == nil && !st.unknown {
			// A scalar's other elements are empty; its own is element 0.
			v, known := sc.get(w, name)
			return []word.Word{v, word.FromLit("")}, known
		}
		v, known := sc.get(w, name)
		return []word.Word{v}, known
	}
	if st.unknown || st.unset {
		return nil, st.unset
	}
	if wd, isWord := idx.(*syntax.Word); isWord {
		if n, err := strconv.Atoi(wd.Lit()); err == nil && n >= 0 {
			if n < len(st.elems) {
				return st.elems[n : n+1], true
			}
			return []word.Word{word.FromLit("")}, true
		}
	}
	return st.elems, true
}

func isEmpty(v word.Word) bool { s, ok := v.Static(); return ok && s == "" }

func isAllIndex(e syntax.ArithmExpr) bool {
	wd, ok := e.(*syntax.Word)
	if !ok {
		return false
	}
	l := wd.Lit()
	return l == "@" || l == "*"
}

// addValue adds a variable's value: quoted as is, unquoted split on IFS
// and subject to globbing.
func (w *walker) addValue(sc *scope, b *fieldBuilder, v word.Word, ctx wctx) {
	if ctx.dq || ctx.noSplit {
		for _, s := range v.Segs {
			if s.Kind == word.Star || s.Kind == word.Quest || s.Kind == word.Class {
				// A quoted value is literal text, never a pattern.
				b.addLit(word.Word{Segs: []word.Seg{s}}.String())
				continue
			}
			b.add(s)
		}
		b.cur.Multi = b.cur.Multi || v.Multi
		b.has = true
		return
	}
	ifsW, known := sc.get(w, "IFS")
	ifs, ok := ifsW.Static()
	ifsKnown := known && ok
	for _, s := range v.Segs {
		if s.Kind != word.Lit {
			b.add(s)
			b.has = true
			if s.Kind == word.Hole {
				b.cur.Split = true
			}
			continue
		}
		if !ifsKnown {
			// The text's value, split where IFS says: pieces of it.
			b.add(word.Seg{Kind: word.Hole, Data: true, Text: s.Text})
			b.cur.Split = true
			b.has = true
			continue
		}
		text := s.Text
		for len(text) > 0 {
			i := strings.IndexFunc(text, func(r rune) bool { return r == '*' || r == '?' || strings.ContainsRune(ifs, r) })
			if i < 0 {
				b.addLit(text)
				b.has = true
				break
			}
			if i > 0 {
				b.addLit(text[:i])
				b.has = true
			}
			r, size := utf8.DecodeRuneInString(text[i:])
			switch {
			case r == '*' && !strings.ContainsRune(ifs, r):
				b.add(word.Seg{Kind: word.Star})
				b.has = true
			case r == '?' && !strings.ContainsRune(ifs, r):
				b.add(word.Seg{Kind: word.Quest})
				b.has = true
			default:
				// One delimiter: IFS white space around at most one other
				// IFS character. That other character ends the field even
				// when it is empty (IFS=/ and a//c are "a" "" "c"); white
				// space alone ends only a field that has something.
				size = ifsDelimiter(text[i:], ifs)
				if ifsOther(text[i:i+size], ifs) {
					if len(b.cur.Segs) == 0 {
						b.addLit("")
					}
					b.has = true
				}
				b.end()
			}
			text = text[i+size:]
		}
	}
	if v.Multi {
		b.cur.Multi = true
		b.has = true
	}
}

// ifsWhite reports whether r is IFS white space: a space, tab or newline
// that is in IFS.
func ifsWhite(r rune, ifs string) bool {
	return (r == ' ' || r == '\t' || r == '\n') && strings.ContainsRune(ifs, r)
}

// ifsDelimiter returns the length of the field delimiter text starts with
// (text starts with an IFS character): IFS white space, at most one other
// IFS character, and IFS white space.
func ifsDelimiter(text, ifs string) int {
	n := 0
	skipWhite := func() {
		for n < len(text) {
			r, size := utf8.DecodeRuneInString(text[n:])
			if !ifsWhite(r, ifs) {
				return
			}
			n += size
		}
	}
	skipWhite()
	if n < len(text) {
		if r, size := utf8.DecodeRuneInString(text[n:]); strings.ContainsRune(ifs, r) && !ifsWhite(r, ifs) {
			n += size
			skipWhite()
		}
	}
	return n
}

// ifsOther reports whether a delimiter holds an IFS character that is not
// white space.
func ifsOther(delim, ifs string) bool {
	for _, r := range delim {
		if !ifsWhite(r, ifs) {
			return true
		}
	}
	return false
}

// ansiC decodes the body of $'…' as bash does, stopping at a NUL. known
// is false when the text depends on bash's locale: a \u or \U escape of a
// character outside ASCII becomes its UTF-8 bytes in a UTF-8 locale and
// stays the text "\u00E9" in the C locale.
func ansiC(s string) (text string, known bool) {
	known = true
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case 'a':
			b.WriteByte(7)
		case 'b':
			b.WriteByte(8)
		case 'e', 'E':
			b.WriteByte(27)
		case 'f':
			b.WriteByte(12)
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte(11)
		case '\\', '\'', '"', '?':
			b.WriteByte(e)
		case 'c':
			if i+1 < len(s) {
				i++
				ch := s[i]
				if ch == '\\' && i+1 < len(s) && s[i+1] == '\\' {
					i++
				}
				if ch == '?' {
					b.WriteByte(0x7f)
				} else {
					b.WriteByte(ch & 0x1f)
				}
			} else {
				b.WriteString(`\c`)
			}
		case 'x':
			// \xHH, or \x{H…} (bash 5.2: any number of digits, then an
			// optional "}"; the value's low byte, NUL when there are none).
			j, braced := i+1, i+1 < len(s) && s[i+1] == '{'
			if braced {
				j++
			}
			start := j
			for j < len(s) && (braced || j < start+2) && isHex(s[j]) {
				j++
			}
			if !braced && j == start {
				b.WriteString(`\x`)
				continue
			}
			var n uint64
			for _, d := range s[start:j] {
				n = n<<4 | uint64(hexValue(byte(d)))
			}
			if braced && j < len(s) && s[j] == '}' {
				j++
			}
			b.WriteByte(byte(n))
			i = j - 1
		case 'u', 'U':
			max := map[byte]int{'u': 4, 'U': 8}[e]
			j := i + 1
			for j < len(s) && j < i+1+max && isHex(s[j]) {
				j++
			}
			if j == i+1 {
				b.WriteByte('\\')
				b.WriteByte(e)
				continue
			}
			n, _ := strconv.ParseUint(s[i+1:j], 16, 32)
			if n >= 0x80 {
				known = false // see above
			}
			b.WriteRune(rune(n))
			i = j - 1
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			n, _ := strconv.ParseUint(s[i:j], 8, 16)
			b.WriteByte(byte(n))
			i = j - 1
		default:
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	out := b.String()
	if i := strings.IndexByte(out, 0); i >= 0 {
		out = out[:i]
	}
	return out, known
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func hexValue(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}
