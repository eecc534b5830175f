package policy

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/guard-exec/guard-exec/argspec"
	"github.com/guard-exec/guard-exec/word"
)

// Policy is a compiled set of rules.
type Policy struct {
	Env *Env
	// rules are the configured command and path rules of every layer; nil
	// where lazy holds a simple rule of a file not yet made a Rule (rule).
	rules    []*Rule
	lazy     []lazyRule // nil, or as long as rules
	absolute []*Rule
	builtin  *builtins
	idx      index
	candMu   sync.Mutex
	cands    map[candKey]ruleSet
	// Settings from the config files.
	Settings Settings
	Files    []string // config files in force, lowest layer first
	Notices  []string // things a person should know (ignored untrusted rules)
}

// A lazyRule is a configured rule that is made a Rule when a part may
// match it: the i-th of f's simple rules.
type lazyRule struct {
	f *File
	i int32
}

// add adds a configured rule.
func (p *Policy) add(r *Rule) {
	p.rules = append(p.rules, r)
	if p.lazy != nil {
		p.lazy = append(p.lazy, lazyRule{})
	}
}

// rule returns the i-th configured rule, made from its file's simple rule
// the first time. The caller holds candMu, or is the only user.
func (p *Policy) rule(i int) *Rule {
	if r := p.rules[i]; r != nil {
		return r
	}
	l := p.lazy[i]
	r := l.f.rule(int(l.i))
	r.lazy, r.env = true, p.Env // checked by Build; no examples
	p.rules[i] = r
	return r
}

// plain is the simple rule l stands for.
func (l lazyRule) plain() *plainRule { return &l.f.simple[l.i] }

// pathOf and accessOf are the i-th configured rule's path and access, read
// without making it.
func (p *Policy) pathOf(i int) string {
	if r := p.rules[i]; r != nil {
		return r.Path
	}
	return p.lazy[i].plain().Path
}

func (p *Policy) decisionOf(i int) Decision {
	if r := p.rules[i]; r != nil {
		return r.Decision
	}
	return p.lazy[i].plain().Decision
}

func (p *Policy) accessOf(i int) string {
	if r := p.rules[i]; r != nil {
		return r.Access
	}
	return p.lazy[i].plain().Access
}

// configured returns every configured rule, each made.
func (p *Policy) configured() []*Rule {
	if p.lazy != nil {
		for i := range p.rules {
			p.rule(i)
		}
	}
	return p.rules
}

// Rules returns every rule, absolute ones first.
func (p *Policy) Rules() []*Rule {
	br, ba := p.builtin.all()
	p.candMu.Lock()
	configured := p.configured()
	p.candMu.Unlock()
	all := append(append(append(append([]*Rule(nil), ba...), p.absolute...), br...), configured...)
	for _, r := range all {
		r.ready()
	}
	return all
}

// index finds the rules that can match a part without trying them all.
// A program's rules are gathered the first time a part names it: a guard
// process judges a few programs, and a map of every program of thousands
// of rules cost more than its lookups.
type index struct {
	keys []string // each configured rule's progKey
	// any are the configured command rules of no one program, made Rules
	// when first needed (anyRules); paths the path rules, each made when
	// an effect's path may be one it matches (pathRules).
	any      []int
	anyMade  []*Rule
	paths    []int
	prefixes []string // of paths: the literal prefix of each one's pattern
	// folds: the rule protects (ask, deny), and its pattern matches every
	// spelling (compileProtective): its prefix is folded, and compared
	// with the folded paths.
	folds  []bool
	byProg map[string]*progRules
}

// progRules are the configured rules of one program (their indexes in
// Policy.rules), with each one's subWord; subbed is set when some have
// one, so that a part naming it may be judged by fewer. They are made
// Rules when a part may match them (rules).
type progRules struct {
	idx    []int
	subs   []string
	subbed bool
	all    []*Rule // made by rules(…, nil)
}

// rules returns the program's rules that have no subWord or one of keys
// (all of them when keys is nil), in order, making each.
func (pr *progRules) rules(pol *Policy, keys []string) []*Rule {
	if keys == nil && pr.all != nil {
		return pr.all
	}
	var out []*Rule
	for j, i := range pr.idx {
		if keys == nil || pr.subs[j] == "" || slices.Contains(keys, pr.subs[j]) {
			out = append(out, pol.rule(i))
		}
	}
	if keys == nil {
		pr.all = out
	}
	return out
}

func newIndex(pol *Policy) index {
	ix := index{keys: make([]string, len(pol.rules))}
	for i, r := range pol.rules {
		path := false
		if r != nil {
			ix.keys[i], path = r.progKey(), r.isPath()
		} else if s := pol.lazy[i].plain(); s.Path != "" {
			path = true
		} else {
			ix.keys[i] = commandKey(s.Command)
		}
		switch {
		case path:
			ix.paths = append(ix.paths, i)
		case ix.keys[i] == "":
			ix.any = append(ix.any, i)
		}
	}
	return ix
}

// anyRules returns the configured command rules of no one program. The
// caller holds Policy.candMu.
func (ix *index) anyRules(pol *Policy) []*Rule {
	if ix.anyMade == nil && len(ix.any) > 0 {
		ix.anyMade = make([]*Rule, len(ix.any))
		for j, i := range ix.any {
			ix.anyMade[j] = pol.rule(i)
		}
	}
	return ix.anyMade
}

// pathRules returns the configured path rules that may match effect e
// (matchEffect may say other than No), in order. A pattern's matches all
// start with its literal prefix (word.PathPrefix): the path, or a path
// a glob in it matched, or the known start of a path known only in part,
// must start with that prefix, or be the start of it (a tree read or
// written whole holds what is below it). Rules whose access cannot be
// e's are left out too (accessMay). The caller holds Policy.candMu.
func (ix *index) pathRules(pol *Policy, e Effect) []*Rule {
	if len(ix.paths) == 0 {
		return nil
	}
	if ix.prefixes == nil {
		ix.prefixes, ix.folds = make([]string, len(ix.paths)), make([]bool, len(ix.paths))
		for j, i := range ix.paths {
			if r := pol.rules[i]; r == nil || r.predEffect == nil {
				ix.prefixes[j] = word.PathPrefix(absPattern(pol.pathOf(i), pol.Env))
				if pol.decisionOf(i) != Allow {
					ix.prefixes[j], ix.folds[j] = word.FoldCase(ix.prefixes[j]), true
				}
			}
		}
	}
	// Whole paths: the path, or what a glob in it matched; a tree holds
	// what is below it as a directory (secrets.go's covers, writesBelow).
	paths := e.Path.Matches
	start, static := e.Path.Static()
	if static {
		paths = append([]string{start}, paths...)
	}
	var folded []string // paths, folded when a rule that folds needs them
	wordPrefix, foldedPrefix := e.Path.Prefix(), ""
	var out []*Rule
	for j, i := range ix.paths {
		if r := pol.rules[i]; r != nil && r.predEffect != nil {
			out = append(out, r)
			continue
		}
		if !accessMay(pol.accessOf(i), e.Access) {
			continue
		}
		pre, paths, wp := ix.prefixes[j], paths, wordPrefix
		if ix.folds[j] {
			if folded == nil {
				folded, foldedPrefix = make([]string, len(paths)), word.FoldCase(wordPrefix)
				for k, p := range paths {
					folded[k] = word.FoldCase(p)
				}
			}
			paths, wp = folded, foldedPrefix
		}
		may := !usePathIndex || !static && (strings.HasPrefix(wp, pre) || strings.HasPrefix(pre, wp))
		for _, p := range paths {
			may = may || strings.HasPrefix(p, pre) || strings.HasPrefix(pre, strings.TrimSuffix(p, "/")+"/")
		}
		if may {
			out = append(out, pol.rule(i))
		}
	}
	return out
}

// forProg returns the rules of prog. The caller holds Policy.candMu.
func (ix *index) forProg(pol *Policy, prog string) *progRules {
	if pr, ok := ix.byProg[prog]; ok {
		return pr
	}
	pr := &progRules{}
	if prog != "" {
		for i, k := range ix.keys {
			if k == prog {
				sub := ""
				if r := pol.rules[i]; r != nil {
					sub = r.subWord()
				} else {
					sub = commandSub(pol.lazy[i].plain().Command)
				}
				pr.idx = append(pr.idx, i)
				pr.subs = append(pr.subs, sub)
				pr.subbed = pr.subbed || sub != ""
			}
		}
	}
	if ix.byProg == nil {
		ix.byProg = map[string]*progRules{}
	}
	ix.byProg[prog] = pr
	return pr
}

// useSubIndex: tests turn it off to compare with judging by every rule
// of a program.
var useSubIndex = true

// usePathIndex: tests turn it off to compare with trying every configured
// path rule on every effect.
var usePathIndex = true

// lazyPaths: tests turn it off to compare with trying the built-in rules
// about paths on every part.
var lazyPaths = true

// subWord is the word after the program in a command rule, when the rule
// can match only a part that has that word itself: the rule is words of
// ordinary characters (plainCommand, so splitRule's words are its blank
// separated fields, all literal) and its second word is no option. Read
// the way the program reads it, such a word is a subcommand or the first
// operand, never an option's value; either way it is matched, literally,
// against a word of the part's argv (or of its subcommand chain): see
// subKeys for when that holds. "" when the rule has no such word.
func (r *Rule) subWord() string {
	if r.pred != nil || r.predEffect != nil || r.isPath() {
		return ""
	}
	return commandSub(r.Command)
}

// commandSub is the subWord of a command rule's command c.
func commandSub(c string) string {
	if !plainCommand(c) {
		return ""
	}
	// The second of the blank-separated fields (commandClass's blanks).
	i := 0
	for field := 0; ; field++ {
		for i < len(c) && commandClass[c[i]] == blank {
			i++
		}
		start := i
		for i < len(c) && commandClass[c[i]] != blank {
			i++
		}
		if field == 1 {
			w := c[start:i]
			if w == "" || w[0] == '-' {
				return ""
			}
			return w
		}
		if i == len(c) {
			return ""
		}
	}
}

// subKeys returns the words a rule's subWord must be for the rule to
// match p (Yes or Maybe): every static word after the program, and the
// subcommands as the program reads them. ok is false when any rule of
// the program may match whatever its subWord: a word known only at run
// time, a reading that is open, or a program read by its own code
// (argspec's Custom and Fixup may make operands of other text).
func subKeys(p *Part, prog string) (keys []string, ok bool) {
	if p.Norm != nil && p.Norm.Open {
		return nil, false
	}
	if sp := argspec.Lookup(prog); sp != nil && (sp.Custom != nil || sp.Fixup != nil) {
		return nil, false
	}
	for _, w := range p.Argv[1:] {
		s, static := w.Static()
		if !static || w.Multi || w.Split && w.HasHole() {
			return nil, false
		}
		keys = append(keys, s)
	}
	if p.Norm != nil {
		keys = append(keys, p.Norm.Sub...)
	}
	return keys, true
}

// ruleSet is the rules that may match parts naming one program, split
// by kind: about the argv, or about a path.
type ruleSet struct{ cmd, path []*Rule }

// add adds rules to the set, each to its kind, in order.
func (set *ruleSet) add(rules []*Rule) {
	for _, r := range rules {
		if r.isPath() {
			set.path = append(set.path, r)
		} else {
			set.cmd = append(set.cmd, r)
		}
	}
}

// appendShared appends more to rules; when rules is empty the result is
// more itself, capped so that no append to it writes into more.
func appendShared(rules, more []*Rule) []*Rule {
	if len(rules) == 0 {
		return more[:len(more):len(more)]
	}
	return append(rules, more...)
}

// candidates returns every rule that may match p: the absolute ones when
// abs is set, the others when not. The sets are made once per program and
// shared: a long script names the same few programs many times.
func (pol *Policy) candidates(p *Part, abs, paths, writes bool) ruleSet {
	prog, dynamic := "", false
	if len(p.Argv) > 0 {
		if s, ok := p.Argv[0].Static(); ok {
			prog = argspec.ProgName(s)
		} else {
			dynamic = true // any rule could match a program named at run time
		}
	}
	// A program with many rules (git push origin feature-1, feature-2,
	// …) is judged by those of its rules that name a word the part has:
	// a guard process compiles each rule it tries.
	pol.candMu.Lock()
	defer pol.candMu.Unlock()
	var user *progRules
	var keys []string
	filter := false
	if !dynamic && !abs {
		user = pol.idx.forProg(pol, prog)
		if useSubIndex && user.subbed {
			keys, filter = subKeys(p, prog)
		}
	}
	key := candKey{prog: prog, dynamic: dynamic, abs: abs, filtered: filter, paths: paths && !dynamic, writes: writes && !dynamic}
	if filter {
		key.keys = strings.Join(keys, "\x00")
	}
	if c, ok := pol.cands[key]; ok {
		return c
	}
	var set ruleSet
	switch {
	case dynamic:
		br, ba := pol.builtin.all()
		if abs {
			set.add(ba)
			set.add(pol.absolute)
		} else {
			set.add(br)
			// The configured path rules are added for each effect
			// (index.pathRules).
			for _, r := range pol.configured() {
				if !r.isPath() {
					set.cmd = append(set.cmd, r)
				}
			}
		}
	case abs:
		if prog != "" {
			_, ba := pol.builtin.forProg(prog)
			set.add(ba)
		}
		set.add(pol.builtin.absHead)
		if writes {
			set.add(pol.builtin.writes().abs)
		}
	default:
		if !filter {
			keys = nil
		} else if keys == nil {
			keys = []string{} // a part with no word after the program
		}
		set.add(user.rules(pol, keys))
		set.cmd = append(set.cmd, pol.idx.anyRules(pol)...)
		if prog != "" {
			br, _ := pol.builtin.forProg(prog)
			set.add(br)
		}
		// The rules about any program, split once: most programs add
		// no path rule of their own, and share the built-in ones.
		set.cmd = appendShared(set.cmd, pol.builtin.anyCmd)
		if paths {
			if writes {
				set.path = append(set.path, pol.builtin.writes().any...)
			}
			set.path = appendShared(set.path, pol.builtin.reads())
		}
	}
	if pol.cands == nil {
		pol.cands = map[candKey]ruleSet{}
	}
	pol.cands[key] = set
	return set
}

type candKey struct {
	prog         string
	dynamic, abs bool
	// filtered: the user rules of prog are those with no subWord or one
	// of keys (the subKeys, joined by NUL).
	filtered bool
	keys     string
	// paths: with the built-in rules about paths (builtins.reads), and
	// writes: with those about writes (builtins.writes) among them.
	paths, writes bool
}

// Match is one rule that matched a part, for explanations.
type Match struct {
	Rule   *Rule
	Tri    word.Tri
	Aspect string // "absolute", "command", or the effect ("write /etc/passwd")
	Won    bool
	Note   string // why it won or lost
}

// Verdict is the decision on one part.
type Verdict struct {
	Decision Decision
	Rule     *Rule // the rule that decided, nil when no rule matched
	Aspect   string
	Reason   string
	Instead  string
	Matches  []Match
	// Asking lists every aspect that was not allowed: the command itself
	// (Effect nil) or a path it touches. An approval must cover them all.
	Asking []Aspect
	// AbsoluteDeny says whether a deny rule of the absolute denylist
	// matched (Yes) or might match once run-time values are known (Maybe).
	// No mode and no approval runs such a part.
	AbsoluteDeny word.Tri
}

// Aspect is one aspect of a part that was not allowed.
type Aspect struct {
	Decision Decision
	Effect   *Effect // nil for the command itself
	Absolute bool    // decided by the absolute denylist: nothing can allow it
	Rule     *Rule   // the rule that asked, nil when no rule matched
}

// Decide decides one part. With explain, the verdict records every rule
// that matched and how it fared (Verdict.Matches); the guarded shell does
// without, being in a hurry.
func (pol *Policy) Decide(p *Part, explain bool) *Verdict {
	v := &Verdict{Decision: Allow}
	// The built-in rules about paths are made, and tried, only for a part
	// that touches one (only the effects below are matched against them),
	// those about writes only for a part that writes: they match nothing
	// else.
	writes := false
	for _, e := range p.Effects {
		writes = writes || e.Access&argspec.Write != 0
	}
	paths, withWrites := len(p.Effects) > 0 || !lazyPaths, writes || !lazyPaths
	// The command aspect is decided first (its matches are listed after
	// the absolute ones): whether a configured allow covers the command
	// decides which of its guessed effects are judged at all.
	set := pol.candidates(p, false, paths, withWrites)
	cmdMatches := &Verdict{}
	cv := pol.aspect(p, set.cmd, cmdMatches, explain, func() string { return "command" }, func(r *Rule) (word.Tri, bool) {
		if r.isPath() {
			return word.No, false
		}
		return r.matchCommandAspect(p), true
	})
	covered := coversGuesses(p, cv)
	// 1. The absolute denylist: nothing overrides it.
	floor := Allow
	floorReason, floorInstead := "", ""
	var floorRule *Rule
	floorMaybe := false
	absSet := pol.candidates(p, true, paths, withWrites)
	abs, absPath := absSet.cmd, []*Rule(nil)
	if writes {
		// Absolute path rules are all about writes.
		absPath = absSet.path
	}
	for i := 0; i < len(abs)+len(absPath); i++ {
		r := pick(abs, absPath, i)
		if !r.ready() {
			continue
		}
		t, ei, acc := r.matchPart(p, covered)
		if t != word.Yes && r.path != nil {
			for i, e := range p.Effects {
				if removesBelow(p, r, e) {
					t, ei, acc = word.Yes, i, argspec.Write // rm -rf .claude deletes .claude/settings.json
					break
				}
			}
		}
		if t == word.No {
			continue
		}
		if t == word.Yes {
			aspect := aspectName(p, ei, acc)
			if explain {
				v.Matches = append(v.Matches, Match{Rule: r, Tri: t, Aspect: "absolute: " + aspect,
					Won: true, Note: "absolute rule: nothing can override it"})
			}
			v.Decision, v.Rule, v.Aspect = r.Decision, r, aspect
			v.Reason, v.Instead = r.Why, r.Instead
			if r.Decision == Deny {
				v.AbsoluteDeny = word.Yes
				return v
			}
			floor, floorReason, floorInstead, floorRule, floorMaybe = r.Decision, r.Why, r.Instead, r, false
			continue
		}
		if explain {
			v.Matches = append(v.Matches, Match{Rule: r, Tri: t, Aspect: "absolute: " + aspectName(p, ei, acc),
				Note: "might match, depending on values known only at run time"})
		}
		if r.Decision == Deny {
			v.AbsoluteDeny = word.Maybe
		}
		if floor < Ask || floor == Ask && floorMaybe && floorRule != nil && floorRule.Decision < r.Decision {
			floor, floorRule, floorInstead, floorMaybe = Ask, r, r.Instead, true
			floorReason = r.Why + " (this might be the case: part of the command is known only at run time)"
			if ei >= 0 && treeReaches(r, p.Effects[ei], acc) {
				// Said as what it is: the names the tree holds are unknown,
				// not part of the command.
				floorReason = "a tree written into " + p.Effects[ei].Path.String() + " may overwrite " + literalDir(r.path.String()) + ": " + r.Why
				floorInstead = "write it into a directory that holds nothing protected (tar -C DIR, unzip -d DIR, wget -P DIR), or ask the person"
			}
		}
	}
	// 2. The command aspect.
	v.Matches = append(v.Matches, cmdMatches.Matches...)
	if cv.rule == nil && cv.decision == Allow && len(p.Argv) > 0 && !cv.matched {
		cv.decision = Ask
		cv.reason = "no rule matched; this needs confirmation"
		if p.Opaque != "" {
			cv.reason = p.Opaque
		}
	}
	// A built-in allow was made for the program's arguments; what it does
	// with a variable nothing here knows is not known (asked below, when
	// nothing else asks).
	unreviewed := cv.decision == Allow && cv.rule != nil && cv.rule.Layer == Builtin && len(p.Unreviewed) > 0
	best := cv
	best.aspect = "command"
	if cv.decision > Allow {
		v.Asking = append(v.Asking, Aspect{Decision: cv.decision, Rule: cv.rule})
	}
	// 3. Each path the part touches.
	for _, e := range p.Effects {
		// A guess covered by the person's allow is judged only by the
		// person's own path rules, where they certainly match (a literal
		// operand under a configured deny): no built-in rule second-guesses
		// the allow, and a value known only at run time counts for nothing.
		onlyOwn := covered.covers(e)
		for _, acc := range []Access{Read, argspec.Write} {
			// A move or a link gives what the file holds another name,
			// which a later read reads (mv id_rsa y.txt; cat y.txt): the
			// rules about reads judge it too.
			if e.Access&acc == 0 && !(acc == Read && (e.Op == "move" || e.Op == "link")) {
				continue
			}
			eff := e
			eff.Access = acc
			paths := set.path
			if len(pol.idx.paths) > 0 { // set by Build, never changed: no lock to read
				pol.candMu.Lock()
				if own := pol.idx.pathRules(pol, eff); len(own) > 0 {
					paths = append(own, set.path...)
				}
				pol.candMu.Unlock()
			}
			ev := pol.aspect(p, paths, v, explain, eff.String, func(r *Rule) (word.Tri, bool) {
				if !r.isPath() || onlyOwn && r.Layer == Builtin {
					return word.No, false
				}
				t := r.matchEffect(p, eff)
				if onlyOwn && t != word.Yes {
					return word.No, false
				}
				return t, true
			})
			if ev.decision > Allow && ev.rule != nil {
				// Which file: the reason is the rule's, said of any.
				d := eff.String()
				if ev.rule.detail != nil {
					d = ev.rule.detail(p, eff)
				}
				if d != "" {
					ev.reason += " (" + d + ")"
				}
			}
			if ev.decision > best.decision || explain {
				ev.aspect = eff.String()
			}
			if ev.decision > Allow {
				e2 := eff
				v.Asking = append(v.Asking, Aspect{Decision: ev.decision, Effect: &e2})
			}
			if ev.decision > best.decision {
				best = ev
			}
		}
	}
	v.Decision, v.Rule, v.Aspect, v.Reason, v.Instead = best.decision, best.rule, best.aspect, best.reason, best.instead
	if unreviewed && v.Decision == Allow {
		names := strings.Join(p.Unreviewed, ", ")
		v.Decision, v.Aspect = Ask, "command"
		v.Reason = "the command line gives " + p.Argv[0].String() + " the variable " + names +
			" (set before it, or exported), and the guard does not know what the program does with it (programs read variables as options, files to load, places to write and code to run)"
		v.Instead = "run it without " + names + ", or ask the person (an allow rule of theirs for the command covers it)"
		v.Asking = append(v.Asking, Aspect{Decision: Ask, Rule: cv.rule})
	}
	if floor > v.Decision || floor == v.Decision && floor > Allow && (best.rule == nil || !best.matched) {
		// The absolute denylist explains best what it may be about to
		// stop (a dynamic program name, a path that may be the guard's
		// own config).
		v.Decision, v.Rule, v.Reason, v.Instead = floor, floorRule, floorReason, floorInstead
		v.Aspect = "absolute"
	}
	if floor > Allow {
		v.Asking = append(v.Asking, Aspect{Decision: floor, Absolute: true})
	}
	return v
}

type aspectResult struct {
	decision Decision
	rule     *Rule
	reason   string
	instead  string
	aspect   string
	matched  bool
}

// aspect finds the winning rule of one aspect, with Maybe matches raising
// the result to ask when they would have won.
func (pol *Policy) aspect(p *Part, rules []*Rule, v *Verdict, explain bool, labelOf func() string, match func(*Rule) (word.Tri, bool)) aspectResult {
	var yes, maybe []*Rule // yes only when explaining: the winner is all that counts otherwise
	var win, approved, denied *Rule
	for _, r := range rules {
		t, applies := match(r)
		if !applies || t == word.No {
			continue
		}
		if !r.ready() {
			if r.Decision != Allow {
				maybe = append(maybe, r) // a broken rule never allows
			}
			continue
		}
		if t == word.Yes {
			if win == nil || win.Key().Less(r.Key()) {
				win = r
			}
			if r.approval() && approved == nil {
				approved = r
			}
			if r.Decision == Deny && (denied == nil || denied.Key().Less(r.Key())) {
				denied = r
			}
			if explain {
				yes = append(yes, r)
			}
		} else {
			maybe = append(maybe, r)
		}
	}
	var maybeDeny *Rule
	if approved != nil {
		for _, r := range maybe {
			if r.Decision == Deny {
				maybeDeny = r
			}
		}
		// A person approved this very command: what asked about it does
		// not ask again. A deny still wins, whatever its specificity.
		switch {
		case denied != nil:
			win = denied
		case maybeDeny == nil:
			win = approved
		}
	}
	res := aspectResult{decision: Allow}
	label := ""
	if explain {
		label = labelOf()
		sort.SliceStable(yes, func(i, j int) bool { return yes[j].Key().Less(yes[i].Key()) })
	}
	for _, r := range yes {
		m := Match{Rule: r, Tri: word.Yes, Aspect: label}
		if r == win {
			m.Won = true
			m.Note = winNote(r, yes)
			if r.approval() && len(yes) > 1 {
				m.Note = "won: a person approved this exact command, which outranks the ask rules about it (a deny would still win)"
			}
		} else {
			m.Note = loseNote(r, win)
		}
		v.Matches = append(v.Matches, m)
	}
	if win != nil {
		res.decision, res.rule, res.reason, res.instead, res.matched = win.Decision, win, win.Why, win.Instead, true
		if win.pred != nil && p.Opaque != "" && win.Decision != Allow {
			res.reason = p.Opaque
		}
		if res.reason == "" {
			res.reason = win.Decision.String() + " by rule " + win.Source
		}
	}
	for _, r := range maybe {
		m := Match{Rule: r, Tri: word.Maybe, Aspect: label}
		switch {
		case r == maybeDeny && win != nil && win.approval():
			// An approval never stands against a deny that may apply.
			m.Note = "might match: an approval does not outrank a deny, so at least ask"
			res.decision, res.rule, res.matched = Ask, r, false
			res.reason = r.Why + " (part of the command is known only at run time, and could make this rule apply)"
			res.instead = r.Instead
		case r.Decision == Allow:
			m.Note = "might match, but an allow rule only counts when it certainly matches"
		case win != nil && !win.Key().Less(r.Key()):
			m.Note = "might match, but " + win.Source + " wins anyway"
		default:
			m.Note = "might match, depending on values known only at run time: at least ask"
			if res.decision < Ask || res.decision == Ask && !res.matched && res.rule != nil && moreTelling(r, res.rule) {
				res.decision, res.rule = Ask, r
				res.reason = r.Why
				if res.reason == "" {
					res.reason = r.Decision.String() + " rule " + r.Source
				}
				res.reason += " (part of the command is known only at run time, and could make this rule apply)"
				res.instead = r.Instead
			}
		}
		if explain {
			v.Matches = append(v.Matches, m)
		}
	}
	return res
}

// moreTelling reports whether r explains a maybe-match better than o: a
// deny over an ask, then the more specific.
func moreTelling(r, o *Rule) bool {
	if r.Decision != o.Decision {
		return r.Decision > o.Decision
	}
	return o.Key().Less(r.Key())
}

func winNote(r *Rule, all []*Rule) string {
	if len(all) == 1 {
		return "the only rule that matched"
	}
	var other *Rule
	for _, o := range all {
		if o != r {
			other = o
			break
		}
	}
	return "won: " + tiebreak(r, other)
}

func loseNote(r, win *Rule) string { return "lost: " + tiebreak(win, r) }

// tiebreak says why a beats b.
func tiebreak(a, b *Rule) string {
	ka, kb := a.Key(), b.Key()
	switch {
	case ka.Spec != kb.Spec:
		return fmt.Sprintf("%s is more specific (%d > %d)", a.Source, ka.Spec, kb.Spec)
	case ka.Configured != kb.Configured:
		return fmt.Sprintf("equally specific (%d); %s is configured, %s is a built-in default", ka.Spec, a.Source, b.Source)
	case ka.Strict != kb.Strict:
		return fmt.Sprintf("equally specific (%d); %s is stricter (%s over %s)", ka.Spec, a.Source, ka.Strict, kb.Strict)
	}
	return fmt.Sprintf("same specificity and decision as %s", b.Source)
}

// pick indexes the concatenation of a and b without building it.
func pick(a, b []*Rule, i int) *Rule {
	if i < len(a) {
		return a[i]
	}
	return b[i-len(a)]
}

// coversGuesses reports whether a configured allow rule won the command
// aspect of a program the catalogue does not know: the person allowed the
// program, so what its operands might be is its business. Only the
// guesses are covered: redirections and what the catalogue knows a
// program writes are judged as always, and a built-in allow (a read-only
// command) covers nothing. Nor does a preset's: naming the python preset
// allows everyday pytest, not whatever its options may write (pytest
// --basetemp, go build -o /usr/local/bin/go, cargo --target-dir): the
// person never saw those operands, so they are judged as any program's.
//
// A preset's allow covers only the guesses whose place is known only at
// run time (go test -run "$T", cd "$(git rev-parse --show-toplevel)" &&
// npm test): nothing tells a word that is a path from one that is not,
// and asking for every such word asked for everyday commands.
func coversGuesses(p *Part, cv aspectResult) guessCover {
	if p.Known || !cv.matched || cv.decision != Allow || cv.rule == nil || cv.rule.Layer == Builtin {
		return coverNone
	}
	if cv.rule.preset {
		return coverUnknown
	}
	return coverAll
}

// guessCover is which guessed effects an allow covers (coversGuesses).
type guessCover uint8

const (
	coverNone    guessCover = iota
	coverUnknown            // those whose path is known only at run time
	coverAll
)

// covers reports whether g covers the effect.
func (g guessCover) covers(e Effect) bool {
	return e.Guessed && (g == coverAll || g == coverUnknown && bareHole(e.Path))
}

// matchPart matches an absolute rule against any aspect of a part: the
// command (index -1), or effect index with one access. The aspect's name (aspectName) is built
// only when needed: most matches are "maybe"s that end up unused. With
// covered (see coversGuesses), a guessed effect counts only for a deny
// that certainly matches: a literal operand naming what nothing may
// write (the guard's own configuration) is still refused.
func (r *Rule) matchPart(p *Part, covered guessCover) (word.Tri, int, Access) {
	if !r.isPath() {
		return r.matchCommandAspect(p), -1, 0
	}
	best, bestI, bestAcc := word.No, -1, Access(0)
	for i, e := range p.Effects {
		for _, acc := range []Access{Read, argspec.Write} {
			if e.Access&acc == 0 {
				continue
			}
			eff := e
			eff.Access = acc
			t := r.matchEffect(p, eff)
			if covered.covers(e) && (t != word.Yes || r.Decision != Deny) {
				continue
			}
			if t > best {
				best, bestI, bestAcc = t, i, acc
			}
		}
	}
	return best, bestI, bestAcc
}

// aspectName names what matchPart matched: the command, or effect i of p
// with access acc.
func aspectName(p *Part, i int, acc Access) string {
	if i < 0 {
		return "command"
	}
	eff := p.Effects[i]
	eff.Access = acc
	return eff.String()
}

// matchCommandAspect matches a command rule, respecting that opaque code
// is allowed only by a rule that names it.
func (r *Rule) matchCommandAspect(p *Part) word.Tri {
	if !r.ready() || !r.inProject() {
		return word.No
	}
	if r.pred != nil {
		return r.pred(p)
	}
	if r.cmd == nil {
		return word.No
	}
	if p.Special != "" || len(p.Argv) == 0 {
		return word.No
	}
	if p.Opaque != "" {
		if !r.explicitFor(p) {
			return word.No
		}
	}
	return r.cmd.match(p)
}

// explicitFor reports whether a rule names the code an opaque part runs:
// the word in the code's position has literal text, or follows a literal
// option (python -c *).
func (r *Rule) explicitFor(p *Part) bool {
	i := p.CodeArg
	if i < 1 || r.cmd == nil || len(r.cmd.words) <= i {
		return false
	}
	if wordSpec(r.cmd.words[i]) >= 5 {
		return true
	}
	prev, ok := r.cmd.words[i-1].Static()
	return ok && strings.HasPrefix(prev, "-")
}

// matchEffect matches a path rule (or a built-in effect rule) against one
// effect with one access.
func (r *Rule) matchEffect(p *Part, e Effect) word.Tri {
	if r.predEffect == nil && !accessMay(r.Access, e.Access) {
		// Told without compiling the rule, as compiling would tell (r.acc):
		// a write judged under thousands of read rules compiles none.
		return word.No
	}
	if !r.ready() || !r.inProject() {
		return word.No
	}
	if r.predEffect != nil {
		return r.predEffect(p, e)
	}
	if r.path == nil || r.acc&e.Access == 0 {
		return word.No
	}
	t := matchPathWord(r.path, e.Path)
	if e.Recursive && e.Access == Read && r.Decision != Allow && !r.Absolute && t != word.Yes {
		// A recursive read of a directory reads everything under it: a
		// rule on ~/.ssh/** is about grep -r . ~ too. (An allow rule
		// still has to cover the operand itself.)
		prefix := literalDir(r.path.String())
		t = orTri(t, covers(r.path, e, func(root string) bool { return existsBelow(root, prefix) }))
	}
	if t == word.No && e.Recursive && e.Access == argspec.Write && e.Op != "format" && r.Decision != Allow && writesBelow(r.path, e) {
		// A recursive write into a directory (cp -r, tar x, unzip, mv
		// of a tree) may write anything under it: a deny or ask rule on
		// a path below is about it too. Only "may": what it writes there
		// is not known, so an absolute deny makes it ask, not refuse. A
		// formatter (gofmt -w .) rewrites the files it finds in place
		// without changing what they mean: not such a write.
		t = word.Maybe
	}
	if t == word.No || r.cmd == nil {
		return t
	}
	return andTri(t, r.cmd.match(p))
}

// accessMay reports whether a path rule with the access written in its
// config can be about an effect with access acc; an access compiling
// refuses may be, for compiling to say so.
func accessMay(access string, acc Access) bool {
	switch access {
	case "read":
		return acc&argspec.Read != 0
	case "write":
		return acc&argspec.Write != 0
	}
	return true
}

// treeReaches reports whether r matches e only as a recursive write into a
// directory above r's path (matchEffect's tree rule).
func treeReaches(r *Rule, e Effect, acc Access) bool {
	return e.Recursive && acc == argspec.Write && r.path != nil && r.predEffect == nil &&
		matchPathWord(r.path, e.Path) == word.No && writesBelow(r.path, e)
}

// removesBelow reports a tree deleted or moved away whole (rm -rf D, mv D
// x, tar --remove-files, a find -delete that filters nothing) with a file
// a rule's path names below it there now: the deletion reaches it.
func removesBelow(p *Part, r *Rule, e Effect) bool {
	if e.Op != "delete" && e.Op != "move" || !e.Recursive || r.path == nil || r.predEffect != nil {
		return false
	}
	roots := e.Path.Matches // a glob's (rm -rf .cl*)
	if s, ok := e.Path.Static(); ok {
		roots = []string{s}
	}
	if p.Norm != nil && p.Norm.Prog == "find" && !argspec.FindDeletesAll(p.Argv) {
		return false // find . -name '*.o' -delete deletes what its tests let through
	}
	dir := literalDir(r.path.String())
	fdir := foldIf(r.path.Fold(), dir)
	if !slices.ContainsFunc(roots, func(root string) bool {
		root = foldIf(r.path.Fold(), strings.TrimSuffix(cleanPath(root), "/"))
		return fdir == root || strings.HasPrefix(fdir, root+"/")
	}) {
		return false
	}
	if _, err := os.Lstat(dir); err != nil {
		return false
	}
	// F/** is F itself too (a file protected whole), which doublestar's
	// glob does not list.
	pat := r.path.String()
	for _, g := range []string{pat, strings.TrimSuffix(pat, "/**")} {
		if m, err := doublestar.FilepathGlob(g); err == nil && len(m) > 0 {
			return true
		}
	}
	return false
}

// writesBelow reports whether the fixed directory part of a rule's path
// lies strictly below a directory e writes recursively. A rule whose
// pattern starts above (/**: outside the project) is not about it.
func writesBelow(pat *word.Pattern, e Effect) bool {
	prefix := foldIf(pat.Fold(), literalDir(pat.String()))
	roots := e.Path.Matches
	if s, ok := e.Path.Static(); ok {
		roots = []string{s}
	}
	for _, root := range roots {
		root = foldIf(pat.Fold(), strings.TrimSuffix(root, "/"))
		if strings.HasPrefix(prefix, root+"/") && len(prefix) > len(root)+1 {
			return true
		}
	}
	return false
}

// inProject reports whether a rule limited to a project (Rule.Project)
// applies to the commands this policy judges.
func (r *Rule) inProject() bool {
	return r.Project == "" || r.env != nil && filepath.Clean(r.env.Project) == filepath.Clean(r.Project)
}

// approval reports whether r is a person's approval of one exact command:
// it outranks the ask rules that match that command and loses to the deny
// rules.
func (r *Rule) approval() bool { return r.Exact && r.Decision == Allow }

// compileProtective compiles the path pattern of a rule with decision d:
// one that protects (ask, deny) matches every spelling of a path that a
// case-insensitive file system takes for it (~/.SSH/ID_RSA is ~/.ssh/id_rsa
// on macOS and under WSL's /mnt/c); an allow matches exactly as written,
// so a spelling that differs is asked about, never allowed by it.
func compileProtective(pattern string, d Decision) (*word.Pattern, error) {
	if d == Allow {
		return word.CompilePath(pattern)
	}
	return word.CompilePathFold(pattern)
}

// foldIf folds s (word.FoldCase) for a pattern that matches every
// spelling: its literal parts are then compared so.
func foldIf(fold bool, s string) string {
	if fold {
		return word.FoldCase(s)
	}
	return s
}

// matchPathWord matches a path pattern, using a glob's current matches.
func matchPathWord(pat *word.Pattern, w word.Word) word.Tri {
	t := pat.Match(w)
	for _, m := range w.Matches {
		if pat.MatchString(m) {
			return word.Yes
		}
	}
	return t
}
