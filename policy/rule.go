package policy

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/guard-exec/guard-exec/argspec"
	"github.com/guard-exec/guard-exec/word"
)

// Decision is allow, ask or deny, ordered by strictness.
type Decision int

const (
	Allow Decision = iota
	Ask
	Deny
)

func (d Decision) String() string { return [...]string{"allow", "ask", "deny"}[d] }

// ParseDecision reads "allow", "ask" or "deny".
func ParseDecision(s string) (Decision, bool) {
	switch s {
	case "allow":
		return Allow, true
	case "ask":
		return Ask, true
	case "deny":
		return Deny, true
	}
	return 0, false
}

// Layer says where a rule comes from.
type Layer int

const (
	Builtin Layer = iota
	User
	Project
	Session
)

func (l Layer) String() string { return [...]string{"built-in", "user", "project", "session"}[l] }

// Access is what a path rule is about.
type Access = argspec.Access

// Rule is one rule.
type Rule struct {
	Decision Decision
	Command  string   // words matched against argv: a prefix match, each word a glob
	Flags    []string // any of these options, anywhere in the command
	Path     string   // doublestar pattern, relative to the project root, ~/ or absolute
	Access   string   // "read", "write", "any" (path rules)
	Why      string
	Instead  string
	Match    []string // example commands the rule must match
	NotMatch []string // example commands it must not match
	// Project, when set, limits the rule to commands judged in that
	// project (its root, absolute): an approval of a project's own command
	// (./scripts/check.sh, npm run build) is not one for every project.
	Project string

	Source string // "file:line", or "built-in: name"
	Layer  Layer
	// Exact: the command must be the rule's words exactly, no more
	// operands or options (a person's approval of one command). An exact
	// allow is an approval: it outranks every ask rule that matches the
	// same command, and loses to every deny rule (see Policy.aspect).
	// (The booleans sit together, and acc and lazy by once: a config may
	// hold thousands of rules, and padding is pages.)
	Exact    bool
	Absolute bool // part of the absolute denylist
	Name     string

	// Built-in rules may judge what the schema cannot express.
	pred func(p *Part) word.Tri
	// predPath: a built-in rule about effects (recursive delete of /).
	predEffect func(p *Part, e Effect) word.Tri
	// detail says, for an effect the rule matched, what it found there
	// (the secret file below a tree), to follow the reason.
	detail func(p *Part, e Effect) string

	cmd  *cmdPattern
	path *word.Pattern
	spec int

	env  *Env
	cerr error
	once sync.Once
	acc  Access
	// Built-in rules compile on first use: a guard process judges one
	// command and needs only the rules for its programs.
	lazy bool
	// preset: a preset made the rule (coversGuesses).
	preset bool
}

// ready compiles a lazily compiled rule; false means it cannot be used.
func (r *Rule) ready() bool {
	if r.lazy {
		r.once.Do(func() { r.cerr = r.compile(r.env) })
	}
	return r.cerr == nil
}

// isPath reports whether the rule is about paths rather than argv.
func (r *Rule) isPath() bool { return r.Path != "" || r.predEffect != nil }

// progKey is the program a command rule is about, for indexing; "" when
// it could be any program.
func (r *Rule) progKey() string {
	if r.isPath() || r.pred != nil {
		return ""
	}
	return commandKey(r.Command)
}

// commandKey is the program a rule's command names, for indexing; "" when
// it could be any program.
func commandKey(command string) string {
	if command == "" {
		return ""
	}
	first := firstField(command)
	if inner, ok := strings.CutPrefix(first, "'"); ok && len(inner) > 0 && inner[len(inner)-1] == '\'' {
		// 'touch' is touch; 'tou''ch' and '/usr/bin/tou'ch are other
		// spellings that splitRule reads, of any program here.
		if inner = inner[:len(inner)-1]; !strings.ContainsAny(inner, "'/") {
			return inner
		}
		return ""
	}
	for i := 0; i < len(first); i++ {
		switch first[i] {
		case '*', '?', '[', ']', '\\', '\'', '"', '/':
			return ""
		}
	}
	return first
}

// firstField is strings.Fields(s)[0] without making the slice: indexing
// takes it from every rule.
func firstField(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return strings.Fields(s)[0] // Unicode blanks: as Fields has them
		}
		if asciiSpace(s[i]) {
			continue
		}
		j := i + 1
		for j < len(s) && s[j] < utf8.RuneSelf && !asciiSpace(s[j]) {
			j++
		}
		if j < len(s) && s[j] >= utf8.RuneSelf {
			return strings.Fields(s)[0]
		}
		return s[i:j]
	}
	return strings.Fields(s)[0]
}

func asciiSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// Key is a rule's precedence: compare Spec, then Configured, then Strict.
type Key struct {
	Spec       int
	Configured bool
	Strict     Decision
}

// Less reports whether k loses to o.
func (k Key) Less(o Key) bool {
	if k.Spec != o.Spec {
		return k.Spec < o.Spec
	}
	if k.Configured != o.Configured {
		return !k.Configured
	}
	return k.Strict < o.Strict
}

// Key returns the rule's precedence key.
func (r *Rule) Key() Key {
	r.ready()
	return Key{Spec: r.spec, Configured: r.Layer != Builtin, Strict: r.Decision}
}

// Specificity returns how specific the rule is (see README: precedence).
func (r *Rule) Specificity() int { r.ready(); return r.spec }

// String renders the rule as TOML-ish text for messages.
func (r *Rule) String() string {
	var parts []string
	if r.Command != "" {
		parts = append(parts, fmt.Sprintf("command = %q", r.Command))
	}
	if len(r.Flags) > 0 {
		parts = append(parts, fmt.Sprintf("flags = %q", r.Flags))
	}
	if r.Path != "" {
		parts = append(parts, fmt.Sprintf("path = %q", r.Path))
		if r.Access != "" {
			parts = append(parts, fmt.Sprintf("access = %q", r.Access))
		}
	}
	if len(parts) == 0 {
		return r.Name
	}
	return r.Decision.String() + " " + strings.Join(parts, " ")
}

// Label names the rule for people: its source and a short description.
func (r *Rule) Label() string {
	if r.Name != "" {
		return r.Name
	}
	return r.String()
}

// cmdPattern is a compiled command (and flags) pattern.
type cmdPattern struct {
	words    []word.Word
	progPath *word.Pattern // when the program word has a '/': matched against the absolute path
	prog     *word.Pattern
	progLit  string
	norm     *argspec.Cmd
	subs     []string
	opts     []optPattern
	args     []*word.Pattern
	rawArgs  []*word.Pattern
	flags    []string // canonical names
	rawFlags []string
	exact    bool // words match one for one (Rule.Exact)
}

// matchExact matches operand patterns against every word after the
// program, one for one: an exact rule covers that command and nothing
// longer, nothing with a word known only at run time.
func matchExact(pats []*word.Pattern, args []word.Word) word.Tri {
	if len(pats) != len(args) {
		return word.No
	}
	for i, p := range pats {
		if !args[i].IsStatic() || p.Match(args[i]) != word.Yes {
			return word.No
		}
	}
	return word.Yes
}

type optPattern struct {
	name  string
	value *word.Pattern
}

// compileCommand compiles the command and flags of a rule. base resolves a
// program path written in the rule ("./scripts/ci.sh").
// compileCommand compiles a command pattern; without full it only checks
// it (every error, none of the normalising) and returns no pattern.
func compileCommand(command string, flags []string, base, home string, full bool) (*cmdPattern, int, error) {
	words, err := splitRule(command)
	if err != nil {
		return nil, 0, err
	}
	if len(words) == 0 {
		if len(flags) == 0 {
			return nil, 0, fmt.Errorf("command is empty")
		}
		words = []word.Word{{Segs: []word.Seg{{Kind: word.Star}}}}
	}
	cp := &cmdPattern{words: words}
	spec := 0
	// A trailing * is "and anything after": the prefix match already says
	// that, so it is dropped for matching (it still names opaque code, as
	// in python -c *).
	for len(words) > 1 && isStar(words[len(words)-1]) {
		words = words[:len(words)-1]
		spec++
	}
	progText := words[0].String()
	if strings.Contains(progText, "/") && words[0].IsStatic() {
		p := progText
		if strings.HasPrefix(p, "~/") {
			p = filepath.Join(home, p[2:])
		} else if !filepath.IsAbs(p) {
			p = filepath.Join(base, p)
		}
		cp.progPath, err = word.CompilePath(filepath.Clean(p))
		if err != nil {
			return nil, 0, err
		}
		spec += 20
	} else if full || hasClass(words[0]) {
		cp.prog, err = word.CompileSegs(words[0].Segs)
		if err != nil {
			return nil, 0, err
		}
		spec += wordSpec(words[0])
		if s, ok := words[0].Static(); ok {
			cp.progLit = s
		}
	}
	if !full {
		// Only a character class can make a word fail to compile (splitRule
		// makes no other special segment): checking compiles only those.
		for _, w := range words[1:] {
			if hasClass(w) {
				if _, err := word.CompileSegs(w.Segs); err != nil {
					return nil, 0, err
				}
			}
		}
		for _, f := range flags {
			if !strings.HasPrefix(f, "-") {
				return nil, 0, fmt.Errorf("flag %q does not start with '-'", f)
			}
		}
		return nil, 0, nil
	}
	for _, w := range words[1:] {
		p, err := word.CompileSegs(w.Segs)
		if err != nil {
			return nil, 0, err
		}
		cp.rawArgs = append(cp.rawArgs, p)
	}
	if cp.progLit != "" {
		cp.norm = argspec.Normalize(append([]word.Word{word.FromLit(cp.progLit)}, words[1:]...), true)
		if !cp.norm.Raw {
			cp.subs = cp.norm.Sub
			spec += 10 * len(cp.subs)
			for _, o := range cp.norm.Opts {
				op := optPattern{name: o.Name}
				// An option says more about what a command does than an
				// operand: "git push --force" outranks "git push origin
				// main" for git push --force origin main.
				spec += optionSpec
				if o.Value != nil {
					op.value, err = word.CompileSegs(o.Value.Segs)
					if err != nil {
						return nil, 0, err
					}
					spec += wordSpec(*o.Value) / 2
				}
				cp.opts = append(cp.opts, op)
			}
			for _, a := range cp.norm.Args {
				p, err := word.CompileSegs(a.Segs)
				if err != nil {
					return nil, 0, err
				}
				cp.args = append(cp.args, p)
				spec += wordSpec(a)
			}
		} else {
			cp.norm = nil
		}
	}
	if cp.norm == nil {
		for _, w := range words[1:] {
			spec += wordSpec(w)
		}
	}
	for _, f := range flags {
		if !strings.HasPrefix(f, "-") {
			return nil, 0, fmt.Errorf("flag %q does not start with '-'", f)
		}
		cp.rawFlags = append(cp.rawFlags, f)
		canon := f
		sp := argspec.Lookup(cp.progLit)
		if cp.norm != nil && cp.norm.Spec != nil {
			sp = cp.norm.Spec // the subcommand's options (git clean -f)
		}
		if sp != nil {
			if c := sp.Opt(f); c != "" {
				canon = c
			}
		}
		cp.flags = append(cp.flags, canon)
	}
	if len(flags) > 0 {
		spec += optionSpec
	}
	return cp, spec, nil
}

// hasClass reports whether a rule's word has a character class, the only
// segment of splitRule's that can fail to compile.
func hasClass(w word.Word) bool {
	for _, s := range w.Segs {
		if s.Kind == word.Class {
			return true
		}
	}
	return false
}

func isStar(w word.Word) bool {
	for _, s := range w.Segs {
		if s.Kind != word.Star {
			return false
		}
	}
	return len(w.Segs) > 0
}

// optionSpec is what an option (or a flags clause) adds to specificity.
const optionSpec = 25

// wordSpec scores one word of a rule: literal 10, partly literal 5, a bare
// wildcard 1.
func wordSpec(w word.Word) int {
	if w.IsStatic() {
		return 10
	}
	for _, s := range w.Segs {
		if s.Kind == word.Lit && s.Text != "" {
			return 5
		}
	}
	return 1
}

// pathSpec scores a path pattern by its segments: literal 10, partly
// literal 5, * 1, ** 0.
func pathSpec(p string) int {
	spec := 0
	for rest := p; ; {
		seg, more, found := strings.Cut(rest, "/")
		rest = more
		switch {
		case seg == "":
		case seg == "**":
		case seg == "*":
			spec++
		case strings.ContainsAny(seg, "*?[{"):
			spec += 5
		default:
			spec += 10
		}
		if !found {
			return spec
		}
	}
}

// splitRule splits a rule's command into words: whitespace separates,
// quotes and backslashes make characters literal, unquoted * ? [...] are
// wildcards. There are no expansions: $ is an ordinary character.
func splitRule(s string) ([]word.Word, error) {
	var out []word.Word
	var cur word.Word
	has := false
	flush := func() {
		if has {
			out = append(out, cur)
		}
		cur, has = word.Word{}, false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			flush()
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unclosed ' in %q", s)
			}
			cur.AddLit(s[i+1 : i+1+j])
			i += j + 1
			has = true
		case c == '"':
			j := i + 1
			var b strings.Builder
			for ; j < len(s) && s[j] != '"'; j++ {
				if s[j] == '\\' && j+1 < len(s) && strings.IndexByte(`"\$`+"`", s[j+1]) >= 0 {
					j++
				}
				b.WriteByte(s[j])
			}
			if j >= len(s) {
				return nil, fmt.Errorf("unclosed \" in %q", s)
			}
			cur.AddLit(b.String())
			i = j
			has = true
		case c == '\\' && i+1 < len(s):
			i++
			cur.AddLit(s[i : i+1])
			has = true
		case c == '*':
			cur.Add(word.Seg{Kind: word.Star})
			has = true
		case c == '?':
			cur.Add(word.Seg{Kind: word.Quest})
			has = true
		case c == '[':
			j := strings.IndexByte(s[i+1:], ']')
			if j < 0 {
				cur.AddLit("[")
			} else {
				if j == 0 && i+2 < len(s) {
					j = strings.IndexByte(s[i+2:], ']') + 1
				}
				cur.Add(word.Seg{Kind: word.Class, Text: s[i+1 : i+1+j]})
				i += j + 1
			}
			has = true
		default:
			// A run of ordinary characters at once: one literal, not one
			// concatenation a byte (loading checks every rule's command).
			j := i + 1
			for j < len(s) && strings.IndexByte(" \t\n'\"\\*?[", s[j]) < 0 {
				j++
			}
			cur.AddLit(s[i:j])
			i = j - 1
			has = true
		}
	}
	flush()
	return out, nil
}

// andTri combines the answers of two conditions that must both hold.
func andTri(a, b word.Tri) word.Tri {
	if a < b {
		return a
	}
	return b
}

func orTri(a, b word.Tri) word.Tri {
	if a > b {
		return a
	}
	return b
}

// matchCommand matches the command pattern against a part.
func (cp *cmdPattern) match(p *Part) word.Tri {
	if len(p.Argv) == 0 {
		return word.No
	}
	var res word.Tri
	if cp.progPath != nil {
		res = word.No
		for _, path := range p.ProgPaths() {
			res = orTri(res, cp.progPath.Match(path))
		}
	} else {
		prog := p.Argv[0]
		if s, ok := prog.Static(); ok {
			prog = word.FromLit(argspec.ProgName(s))
		}
		res = cp.prog.Match(prog)
	}
	if res == word.No {
		return res
	}
	if cp.exact {
		return andTri(res, matchExact(cp.rawArgs, p.Argv[1:]))
	}
	if cp.norm != nil && p.Norm != nil && !p.Norm.Raw && p.Norm.Prog == cp.progLit {
		res = andTri(res, cp.matchNorm(p.Norm))
	} else {
		res = andTri(res, matchRaw(cp.rawArgs, p.Argv[1:]))
	}
	if res == word.No || len(cp.flags) == 0 {
		return res
	}
	return andTri(res, cp.matchFlags(p))
}

func (cp *cmdPattern) matchFlags(p *Part) word.Tri {
	f := word.No
	if p.Norm != nil && !p.Norm.Raw {
		for i, name := range cp.flags {
			if p.Norm.Has(name) {
				return word.Yes
			}
			// A rule about any program names flags as the program it
			// meets spells them (-f is rm's --force).
			if p.Norm.Spec != nil {
				if canon := p.Norm.Spec.Opt(cp.rawFlags[i]); canon != "" && p.Norm.Has(canon) {
					return word.Yes
				}
			}
		}
		if p.Norm.Open {
			f = word.Maybe
		}
		return f
	}
	for _, a := range p.Argv[1:] {
		for _, name := range cp.rawFlags {
			t, ok := a.Static()
			switch {
			case ok && (t == name || strings.HasPrefix(t, name+"=")):
				return word.Yes
			case ok && len(name) == 2 && name[0] == '-' && len(t) > 2 && t[0] == '-' && t[1] != '-' && strings.Contains(t[1:], name[1:]):
				// -qm may be -q -m: without the program's options known,
				// a maybe (enough to ask, never to allow).
				f = word.Maybe
			case !ok && a.CouldStartWith('-'):
				f = word.Maybe
			}
		}
	}
	return f
}

func (cp *cmdPattern) matchNorm(c *argspec.Cmd) word.Tri {
	res := word.Yes
	for i, s := range cp.subs {
		if i >= len(c.Sub) || c.Sub[i] != s {
			if c.Open && i >= len(c.Sub) {
				res = andTri(res, word.Maybe)
				continue
			}
			return word.No
		}
	}
	for _, op := range cp.opts {
		found := word.No
		for _, o := range c.Opts {
			if o.Name != op.name {
				continue
			}
			if op.value == nil {
				found = word.Yes
				break
			}
			if o.Value != nil {
				found = orTri(found, op.value.Match(*o.Value))
			}
		}
		if found != word.Yes && c.Open {
			found = orTri(found, word.Maybe)
		}
		res = andTri(res, found)
		if res == word.No {
			return res
		}
	}
	return andTri(res, matchArgs(cp.args, c.Args, c.Open))
}

// matchArgs matches operand patterns as a prefix of the operands.
func matchArgs(pats []*word.Pattern, args []word.Word, open bool) word.Tri {
	res := word.Yes
	shifted := false
	for i, p := range pats {
		if i >= len(args) {
			if open || shifted {
				res = andTri(res, word.Maybe)
				continue
			}
			return word.No
		}
		m := p.Match(args[i])
		if shifted && m != word.Yes {
			m = word.Maybe
		} else if shifted {
			m = word.Maybe
		}
		if args[i].Multi || args[i].Split && args[i].HasHole() {
			// This word may be several words, or none: later positions shift.
			shifted = true
			if m == word.No {
				m = word.Maybe
			}
		}
		res = andTri(res, m)
		if res == word.No {
			return res
		}
	}
	return res
}

func matchRaw(pats []*word.Pattern, args []word.Word) word.Tri {
	open := false
	for _, a := range args {
		if a.Multi || a.Split && a.HasHole() {
			open = true
		}
	}
	return matchArgs(pats, args, open)
}
