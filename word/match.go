package word

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"
)

// Tri is a three-valued answer.
type Tri uint8

const (
	No Tri = iota
	Maybe
	Yes
)

func (t Tri) String() string { return [...]string{"no", "maybe", "yes"}[t] }

// Pattern is a compiled glob pattern. Its automaton is built on first use:
// most matches are of static words against literal patterns, and the guard
// compiles many patterns it never needs in a short-lived process.
type Pattern struct {
	src   string
	path  bool
	lit   string // the pattern's text when it has no metacharacters
	isLit bool
	segs  []Seg
	// prefix is literal text every match starts with: most matches are
	// settled by comparing it, without the automaton or doublestar.
	prefix string
	// fold: the pattern matches without regard to case (CompilePathFold);
	// fsrc is then its folded text, prefix and a literal's text folded
	// too. fsrc is src otherwise.
	fold     bool
	fsrc     string
	hasClass bool
	exact    *Pattern // the pattern without folding
	once     sync.Once
	auto     *nfa
	err      error
}

func (p *Pattern) automaton() *nfa {
	p.once.Do(func() {
		if p.path {
			p.auto, p.err = pathNFA(p.src, p.fold)
		} else {
			p.auto, p.err = segsNFA(p.segs)
		}
	})
	return p.auto
}

// String returns the pattern as written.
func (p *Pattern) String() string { return p.src }

// Literal returns the text a pattern without metacharacters matches.
func (p *Pattern) Literal() (string, bool) { return p.lit, p.isLit }

// CompileSegs compiles a command pattern from the segments of a rule word:
// literal segments match themselves, Star/Quest/Class are wildcards that
// match any character including '/'.
func CompileSegs(segs []Seg) (*Pattern, error) {
	w := Word{Segs: segs}
	p := &Pattern{src: w.String(), segs: segs, prefix: w.Prefix()}
	if s, ok := w.Static(); ok {
		p.lit, p.isLit = s, true
	}
	for _, s := range segs {
		switch s.Kind {
		case Class:
			if _, err := parseClass(s.Text, false); err != nil {
				return nil, err
			}
		case Hole, Digits:
			return nil, fmt.Errorf("a pattern cannot contain %s", s.Text)
		}
	}
	return p, nil
}

func segsNFA(segs []Seg) (*nfa, error) {
	b := &builder{}
	start := b.state()
	cur := start
	for _, s := range segs {
		switch s.Kind {
		case Lit:
			for _, r := range s.Text {
				cur = b.step(cur, pred{kind: pChar, c: r})
			}
		case Star:
			cur = b.loop(cur, pred{kind: pAny})
		case Quest:
			cur = b.step(cur, pred{kind: pAny})
		case Class:
			c, err := parseClass(s.Text, false)
			if err != nil {
				return nil, err
			}
			cur = b.step(cur, pred{kind: pClass, cls: c})
		}
	}
	b.n.accept[cur] = true
	return b.n, nil
}

// CheckPath reports the error CompilePath would give for pattern, without
// compiling it: loading a config checks every path rule, and compiles
// only those a command could match.
func CheckPath(pattern string) error {
	if !doublestar.ValidatePattern(pattern) {
		return fmt.Errorf("invalid path pattern %q", pattern)
	}
	return nil
}

// CompilePath compiles a doublestar path pattern.
func CompilePath(pattern string) (*Pattern, error) {
	if err := CheckPath(pattern); err != nil {
		return nil, err
	}
	p := &Pattern{src: pattern, fsrc: pattern, path: true, prefix: PathPrefix(pattern)}
	if p.prefix == pattern {
		p.lit, p.isLit = pattern, true
	}
	return p, nil
}

// CompilePathFold compiles a doublestar path pattern that matches a path
// when some spelling of it that differs only in case does: how a
// case-insensitive file system looks the path up (see fold.go).
func CompilePathFold(pattern string) (*Pattern, error) {
	exact, err := CompilePath(pattern)
	if err != nil {
		return nil, err
	}
	p := &Pattern{src: pattern, fsrc: FoldCase(pattern), path: true, prefix: FoldCase(exact.prefix),
		lit: exact.lit, isLit: exact.isLit, fold: true, exact: exact}
	p.hasClass = strings.Contains(pattern, "[")
	return p, nil
}

// Fold reports whether the pattern matches without regard to case.
func (p *Pattern) Fold() bool { return p.fold }

// EscapePath makes a literal path a path pattern that matches only it:
// a directory named pj[1] holds a class, not those bytes, otherwise.
func EscapePath(p string) string {
	if !strings.ContainsAny(p, `*?[]{}\`) {
		return p
	}
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '*', '?', '[', ']', '{', '}', '\\':
			b.WriteByte('\\')
		}
		b.WriteByte(p[i])
	}
	return b.String()
}

// PathPrefix is the literal text every path a path pattern matches
// starts with: the pattern itself when it has no wildcard.
func PathPrefix(pattern string) string {
	i := strings.IndexAny(pattern, `*?[{\`)
	if i < 0 {
		return pattern
	}
	prefix := pattern[:i]
	if pattern[i:] == "**" && strings.HasSuffix(prefix, "/") {
		// "a/**" also matches "a" itself.
		prefix = strings.TrimSuffix(prefix, "/")
	}
	return prefix
}

func pathNFA(pattern string, fold bool) (*nfa, error) {
	alts, err := expandAlternatives(pattern)
	if err != nil {
		return nil, err
	}
	b := &builder{fold: fold}
	start := b.state()
	for _, alt := range alts {
		s := b.state()
		b.eps(start, s)
		end, err := b.path(s, alt)
		if err != nil {
			return nil, err
		}
		b.n.accept[end] = true
	}
	return b.n, nil
}

// matchesAll reports whether the pattern matches every string.
func (p *Pattern) matchesAll() bool {
	if p.path {
		return p.src == "**"
	}
	if len(p.segs) == 0 {
		return false
	}
	for _, s := range p.segs {
		if s.Kind != Star {
			return false
		}
	}
	return true
}

// MatchString matches a plain string.
func (p *Pattern) MatchString(s string) bool {
	if p.fold {
		s = FoldCase(s)
		if p.isLit {
			return s == p.fsrc
		}
	} else if p.isLit {
		return s == p.lit
	}
	if !strings.HasPrefix(s, p.prefix) {
		return false
	}
	if p.path && !p.hasClass {
		// Folded text is a pattern of the same meaning when it has no
		// class: * ? ** { , } and escapes are no letters.
		ok, _ := doublestar.Match(p.fsrc, s)
		return ok
	}
	if p.fold && p.exact.MatchString(s) {
		// The automaton's class never matches '/', doublestar's negated
		// one does: never less than the exact answer.
		return true
	}
	if n := p.automaton(); n != nil {
		return n.accepts(s)
	}
	return false
}

// Match matches a word: Yes when every value of w matches, No when none
// does, Maybe otherwise.
func (p *Pattern) Match(w Word) Tri {
	if s, ok := w.Static(); ok {
		if p.MatchString(s) {
			return Yes
		}
		return No
	}
	if p.fold {
		fw, classes := foldWord(w)
		if classes || p.hasClass {
			// A character class folds member by member, which the
			// automata's alphabet does not follow (see alphabet): the
			// exact answer where it is yes, maybe otherwise, unless no
			// spelling can reach the pattern's literal start.
			if sp := fw.Prefix(); !strings.HasPrefix(sp, p.prefix) && !strings.HasPrefix(p.prefix, sp) {
				return No
			}
			if p.exact.Match(w) == Yes {
				return Yes
			}
			return Maybe
		}
		w = fw
	}
	if sp := w.Prefix(); !strings.HasPrefix(sp, p.prefix) && !strings.HasPrefix(p.prefix, sp) {
		return No
	}
	if p.path && strings.HasSuffix(p.fsrc, "/**") && p.fsrc[:len(p.fsrc)-3] == p.prefix && !w.HasHole() &&
		strings.HasPrefix(w.Prefix(), p.prefix+"/") && !strings.Contains(w.String(), "/.") {
		// Everything under a directory, and a word whose unknown parts are
		// globs (which never cross '/') below it: certainly a match. A
		// "/." anywhere (.., or a glob .* that may match ..) takes the
		// long way.
		return Yes
	}
	if len(w.Segs) == 1 && w.Segs[0].Kind == Hole || w.Multi && len(w.Segs) == 0 {
		// Any text at all: only a pattern that matches everything matches
		// it certainly.
		if p.matchesAll() {
			return Yes
		}
		return Maybe
	}
	auto := p.automaton()
	if auto == nil {
		return Maybe // an unusable pattern never answers no
	}
	subj := subjectNFA(w, p.path)
	alpha := alphabet(auto, subj)
	if !intersects(auto, subj, alpha) {
		return No
	}
	if subset(subj, auto, alpha) {
		return Yes
	}
	return Maybe
}

// ---- NFA ----

type predKind uint8

const (
	pChar       predKind = iota
	pAny                 // any character
	pAnyNoSlash          // any character but '/'
	pClass
)

type pred struct {
	kind predKind
	c    rune
	cls  *class
}

func (p pred) has(r rune) bool {
	switch p.kind {
	case pChar:
		return r == p.c
	case pAny:
		return true
	case pAnyNoSlash:
		return r != '/'
	default:
		return p.cls.has(r)
	}
}

type edge struct {
	p  pred
	to int
}

type nfa struct {
	edges  [][]edge
	eps    [][]int
	accept map[int]bool
}

// builder builds an automaton; fold makes its characters their folded
// representatives (foldRune) and its classes match by case-folding orbit.
type builder struct {
	n    *nfa
	fold bool
}

func (b *builder) state() int {
	if b.n == nil {
		b.n = &nfa{accept: map[int]bool{}}
	}
	b.n.edges = append(b.n.edges, nil)
	b.n.eps = append(b.n.eps, nil)
	return len(b.n.edges) - 1
}

func (b *builder) eps(from, to int) { b.n.eps[from] = append(b.n.eps[from], to) }

func (b *builder) step(from int, p pred) int {
	to := b.state()
	b.n.edges[from] = append(b.n.edges[from], edge{p, to})
	return to
}

// loop makes from repeat p any number of times, then continue.
func (b *builder) loop(from int, p pred) int {
	s := b.state()
	b.eps(from, s)
	b.n.edges[s] = append(b.n.edges[s], edge{p, s})
	return s
}

// path adds a doublestar pattern without alternatives, returning its end.
func (b *builder) path(cur int, pat string) (int, error) {
	segs := strings.Split(pat, "/")
	needSep := false
	for i, seg := range segs {
		first, last := i == 0, i == len(segs)-1
		if seg == "**" {
			end := b.state()
			switch {
			case first && last:
				end = b.loop(cur, pred{kind: pAny})
			case last:
				// "a/**" matches "a", "a/" and "a/x/y".
				b.eps(cur, end)
				s := b.step(cur, pred{kind: pChar, c: '/'})
				b.eps(b.loop(s, pred{kind: pAny}), end)
			default:
				// "a/**/b" matches "a/b" and "a/x/y/b".
				if needSep {
					cur = b.step(cur, pred{kind: pChar, c: '/'})
				}
				b.eps(cur, end)
				s := b.loop(cur, pred{kind: pAny})
				b.eps(b.step(s, pred{kind: pChar, c: '/'}), end)
			}
			cur, needSep = end, false
			continue
		}
		if needSep {
			cur = b.step(cur, pred{kind: pChar, c: '/'})
		}
		var err error
		if cur, err = b.segment(cur, seg); err != nil {
			return 0, err
		}
		needSep = true
	}
	return cur, nil
}

func (b *builder) segment(cur int, seg string) (int, error) {
	for i := 0; i < len(seg); {
		c := seg[i]
		switch c {
		case '*':
			for i < len(seg) && seg[i] == '*' {
				i++
			}
			cur = b.loop(cur, pred{kind: pAnyNoSlash})
			continue
		case '?':
			cur = b.step(cur, pred{kind: pAnyNoSlash})
		case '[':
			j := classEnd(seg, i)
			if j < 0 {
				return 0, fmt.Errorf("unclosed [ in %q", seg)
			}
			cl, err := parseClass(seg[i+1:j], true)
			if err != nil {
				return 0, err
			}
			cl.fold = b.fold
			cur = b.step(cur, pred{kind: pClass, cls: cl})
			i = j + 1
			continue
		case '\\':
			i++
			if i >= len(seg) {
				cur = b.step(cur, pred{kind: pChar, c: '\\'})
				continue
			}
			fallthrough
		default:
			r, size := utf8.DecodeRuneInString(seg[i:])
			if b.fold {
				r = foldRune(r)
			}
			cur = b.step(cur, pred{kind: pChar, c: r})
			i += size
			continue
		}
		i++
	}
	return cur, nil
}

func classEnd(s string, open int) int {
	i := open + 1
	if i < len(s) && (s[i] == '!' || s[i] == '^') {
		i++
	}
	if i < len(s) && s[i] == ']' {
		i++
	}
	for ; i < len(s); i++ {
		if s[i] == '\\' {
			i++
			continue
		}
		if s[i] == ']' {
			return i
		}
	}
	return -1
}

// expandAlternatives expands doublestar's {a,b} alternatives.
func expandAlternatives(p string) ([]string, error) {
	depth, start := 0, -1
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '[':
			if j := classEnd(p, i); j > 0 {
				i = j
			}
		case '{':
			if depth == 0 {
				start = i
			}
			depth++
		case '}':
			if depth == 0 {
				continue
			}
			depth--
			if depth > 0 {
				continue
			}
			var out []string
			for _, alt := range splitTop(p[start+1 : i]) {
				rest, err := expandAlternatives(p[:start] + alt + p[i+1:])
				if err != nil {
					return nil, err
				}
				out = append(out, rest...)
				if len(out) > 4096 {
					return nil, fmt.Errorf("pattern %q has too many alternatives", p)
				}
			}
			return out, nil
		}
	}
	return []string{p}, nil
}

func splitTop(s string) []string {
	var out []string
	depth, last := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '{':
			depth++
		case '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[last:i])
				last = i + 1
			}
		}
	}
	return append(out, s[last:])
}

type rng struct{ lo, hi rune }

var digits = &class{ranges: []rng{{'0', '9'}}}

type class struct {
	neg     bool
	noSlash bool
	fold    bool // matches by case-folding orbit (CompilePathFold)
	ranges  []rng
}

func (c *class) has(r rune) bool {
	if c.fold {
		// Some spelling of r is in the class.
		if c.hasExact(r) {
			return true
		}
		for o := unicode.SimpleFold(r); o != r; o = unicode.SimpleFold(o) {
			if c.hasExact(o) {
				return true
			}
		}
		return false
	}
	return c.hasExact(r)
}

func (c *class) hasExact(r rune) bool {
	if c.noSlash && r == '/' {
		return false
	}
	in := false
	for _, g := range c.ranges {
		if g.lo <= r && r <= g.hi {
			in = true
			break
		}
	}
	return in != c.neg
}

// posixClasses is made on first use: most commands have no [[:class:]].
var posixClasses = sync.OnceValue(func() map[string][]rng {
	return map[string][]rng{
		"alpha":  {{'a', 'z'}, {'A', 'Z'}},
		"digit":  {{'0', '9'}},
		"alnum":  {{'a', 'z'}, {'A', 'Z'}, {'0', '9'}},
		"upper":  {{'A', 'Z'}},
		"lower":  {{'a', 'z'}},
		"space":  {{' ', ' '}, {'\t', '\r'}},
		"blank":  {{' ', ' '}, {'\t', '\t'}},
		"punct":  {{'!', '/'}, {':', '@'}, {'[', '`'}, {'{', '~'}},
		"xdigit": {{'0', '9'}, {'a', 'f'}, {'A', 'F'}},
		"word":   {{'a', 'z'}, {'A', 'Z'}, {'0', '9'}, {'_', '_'}},
		"print":  {{' ', '~'}},
		"graph":  {{'!', '~'}},
		"cntrl":  {{0, 31}, {127, 127}},
	}
})

func parseClass(body string, noSlash bool) (*class, error) {
	c := &class{noSlash: noSlash}
	if strings.HasPrefix(body, "!") || strings.HasPrefix(body, "^") {
		c.neg = true
		body = body[1:]
	}
	rs := []rune(body)
	for i := 0; i < len(rs); {
		if rs[i] == '[' && i+1 < len(rs) && rs[i+1] == ':' {
			rest := string(rs[i+2:])
			if end := strings.Index(rest, ":]"); end >= 0 {
				if g, ok := posixClasses()[rest[:end]]; ok {
					c.ranges = append(c.ranges, g...)
					i += 2 + len([]rune(rest[:end])) + 2
					continue
				}
			}
		}
		lo := rs[i]
		if lo == '\\' && i+1 < len(rs) {
			i++
			lo = rs[i]
		}
		i++
		if i+1 < len(rs) && rs[i] == '-' {
			hi := rs[i+1]
			i += 2
			if hi == '\\' && i < len(rs) {
				hi = rs[i]
				i++
			}
			if hi < lo {
				return nil, fmt.Errorf("bad range %c-%c in [%s]", lo, hi, body)
			}
			c.ranges = append(c.ranges, rng{lo, hi})
			continue
		}
		c.ranges = append(c.ranges, rng{lo, lo})
	}
	return c, nil
}

// subjectNFA builds the language of values a word can take. In path
// context, a glob segment never yields '/'.
func subjectNFA(w Word, path bool) *nfa {
	b := &builder{}
	cur := b.state()
	globAny := pred{kind: pAnyNoSlash}
	for _, s := range w.Segs {
		switch s.Kind {
		case Lit:
			for _, r := range s.Text {
				cur = b.step(cur, pred{kind: pChar, c: r})
			}
		case Star:
			cur = b.loop(cur, globAny)
		case Quest:
			cur = b.step(cur, globAny)
		case Class:
			cl, err := parseClass(s.Text, true)
			if err != nil || strings.Contains(s.Text, "[=") || strings.Contains(s.Text, "[.") {
				// bash reads [[=a=]] and [[.underscore.]] by its own
				// tables: any character here.
				cur = b.step(cur, globAny)
				continue
			}
			cur = b.step(cur, pred{kind: pClass, cls: cl})
		case Hole:
			cur = b.loop(cur, pred{kind: pAny})
		case Digits:
			cur = b.step(cur, pred{kind: pClass, cls: digits})
			cur = b.loop(cur, pred{kind: pClass, cls: digits})
		}
	}
	if w.Multi && len(w.Segs) == 0 {
		cur = b.loop(cur, pred{kind: pAny})
	}
	b.n.accept[cur] = true
	return b.n
}

// alphabet returns characters that represent every distinction the two
// automata can make: each character they name, the ends of their ranges
// and their neighbours, and one character none of them mentions.
func alphabet(ns ...*nfa) []rune {
	set := map[rune]bool{'/': true, 'a': true, '-': true, '.': true, 0x10FFFD: true}
	for _, n := range ns {
		for _, es := range n.edges {
			for _, e := range es {
				switch e.p.kind {
				case pChar:
					set[e.p.c] = true
				case pClass:
					for _, g := range e.p.cls.ranges {
						for _, r := range []rune{g.lo - 1, g.lo, g.hi, g.hi + 1} {
							if r >= 0 {
								set[r] = true
							}
						}
					}
				}
			}
		}
	}
	out := make([]rune, 0, len(set))
	for r := range set {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

func (n *nfa) closure(states []int) []int {
	seen := make([]bool, len(n.edges))
	out := make([]int, 0, len(states)+4)
	stack := append([]int(nil), states...)
	for len(stack) > 0 {
		st := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[st] {
			continue
		}
		seen[st] = true
		out = append(out, st)
		stack = append(stack, n.eps[st]...)
	}
	sort.Ints(out)
	return out
}

func (n *nfa) next(states []int, r rune) []int {
	var out []int
	for _, s := range states {
		for _, e := range n.edges[s] {
			if e.p.has(r) {
				out = append(out, e.to)
			}
		}
	}
	return n.closure(out)
}

func (n *nfa) accepting(states []int) bool {
	for _, s := range states {
		if n.accept[s] {
			return true
		}
	}
	return false
}

func (n *nfa) accepts(s string) bool {
	cur := n.closure([]int{0})
	for _, r := range s {
		cur = n.next(cur, r)
		if len(cur) == 0 {
			return false
		}
	}
	return n.accepting(cur)
}

func key(a []int) string {
	b := make([]byte, 0, len(a)*3)
	for _, s := range a {
		b = strconv.AppendInt(b, int64(s), 36)
		b = append(b, ',')
	}
	return string(b)
}

// intersects reports whether some string is accepted by both automata.
func intersects(a, b *nfa, alpha []rune) bool {
	type pair struct{ a, b []int }
	start := pair{a.closure([]int{0}), b.closure([]int{0})}
	seen := map[string]bool{key(start.a) + "|" + key(start.b): true}
	queue := []pair{start}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if a.accepting(p.a) && b.accepting(p.b) {
			return true
		}
		for _, r := range alpha {
			na, nb := a.next(p.a, r), b.next(p.b, r)
			if len(na) == 0 || len(nb) == 0 {
				continue
			}
			k := key(na) + "|" + key(nb)
			if !seen[k] {
				seen[k] = true
				queue = append(queue, pair{na, nb})
			}
		}
		if len(seen) > maxStates {
			return true // too costly to rule out: it may intersect
		}
	}
	return false
}

// maxStates bounds the work of comparing two patterns; past it the answer
// is the cautious one.
const maxStates = 4000

// subset reports whether every string accepted by a is accepted by b.
func subset(a, b *nfa, alpha []rune) bool {
	type pair struct{ a, b []int }
	start := pair{a.closure([]int{0}), b.closure([]int{0})}
	seen := map[string]bool{key(start.a) + "|" + key(start.b): true}
	queue := []pair{start}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if a.accepting(p.a) && !b.accepting(p.b) {
			return false
		}
		for _, r := range alpha {
			na := a.next(p.a, r)
			if len(na) == 0 {
				continue
			}
			nb := b.next(p.b, r)
			k := key(na) + "|" + key(nb)
			if !seen[k] {
				seen[k] = true
				queue = append(queue, pair{na, nb})
			}
		}
		if len(seen) > maxStates {
			return false // too costly to prove: not certain
		}
	}
	return true
}
