package argspec

import (
	"path"
	"strings"

	"github.com/guard-exec/guard-exec/word"
)

type wordT = word.Word

// Opt is one option as the program reads it.
type Opt struct {
	Name  string     // canonical name ("--recursive"), or the name as written when unknown
	Value *word.Word // nil when the option has no value
	Known bool       // the spec knows this option
	// After is how many operands came before it, where the generic
	// reader read it (tar's --exclude applies to the operands after it).
	After int
}

// Cmd is an argv read the way its program reads it.
type Cmd struct {
	Prog string   // base name of argv[0]
	Sub  []string // subcommand chain ("push"; "stash", "drop")
	Opts []Opt
	Args []word.Word // operands, in order
	// Raw is set when the program (or its subcommand) has no spec: Args then
	// holds every word after the program name in order, options included.
	Raw bool
	// Open is set when some word could not be read statically: a dynamic
	// word where an option may stand, or an expansion that may become any
	// number of words. The command may then carry options or operands that
	// Opts and Args do not show.
	Open bool
	// Spec is the spec that read the last part of the argv, nil when Raw.
	Spec *Spec
	// DashDash is the index in Args of the first operand after "--", or
	// -1 (git checkout -- FILE: the operands are paths, not a branch).
	DashDash int
}

func (c *Cmd) addOpt(o Opt) {
	o.After = len(c.Args)
	c.Opts = append(c.Opts, o)
}

// Has reports whether the command certainly has the option with canonical
// name canon.
func (c *Cmd) Has(canon string) bool {
	for _, o := range c.Opts {
		if o.Name == canon {
			return true
		}
	}
	return false
}

// Value returns the values given to an option.
func (c *Cmd) Values(canon string) []word.Word {
	var out []word.Word
	for _, o := range c.Opts {
		if o.Name == canon && o.Value != nil {
			out = append(out, *o.Value)
		}
	}
	return out
}

// HasAny reports whether the command has any of the options.
func (c *Cmd) HasAny(canon ...string) bool {
	for _, n := range canon {
		if c.Has(n) {
			return true
		}
	}
	return false
}

// String renders the normalised command.
func (c *Cmd) String() string {
	parts := []string{c.Prog}
	parts = append(parts, c.Sub...)
	for _, o := range c.Opts {
		s := o.Name
		if o.Value != nil {
			s += "=" + o.Value.String()
		}
		parts = append(parts, s)
	}
	args := word.Strings(c.Args)
	switch {
	case c.Raw:
	case c.DashDash >= 0 && c.DashDash <= len(args):
		args = append(append(append([]string(nil), args[:c.DashDash]...), "--"), args[c.DashDash:]...)
	case len(args) > 0 && strings.HasPrefix(args[0], "-"):
		args = append([]string{"--"}, args...)
	}
	parts = append(parts, args...)
	if c.Open {
		parts = append(parts, "…")
	}
	return strings.Join(parts, " ")
}

// ProgName returns the base name of a program word ("/usr/bin/rm" → "rm").
func ProgName(argv0 string) string {
	if i := strings.LastIndexByte(argv0, '/'); i >= 0 {
		return path.Base(argv0)
	}
	return argv0
}

// Normalize reads argv (argv[0] included) the way the program would.
// In pattern mode the words are a rule's: glob words are operands unless
// they start with a literal '-'.
func Normalize(argv []word.Word, pattern bool) *Cmd {
	if len(argv) == 0 {
		return &Cmd{Raw: true, DashDash: -1}
	}
	name, _ := argv[0].Static()
	prog := ProgName(name)
	s := Lookup(prog)
	if s == nil {
		c := &Cmd{Prog: prog, Raw: true, Args: argv[1:], DashDash: -1}
		for _, w := range argv[1:] {
			if isOpen(w, pattern) {
				c.Open = true
			}
		}
		return c
	}
	return s.Normalize(argv[1:], pattern)
}

// isOpen reports whether a word may stand for several words.
func isOpen(w word.Word, pattern bool) bool {
	return !pattern && (w.Multi || (w.Split && w.HasHole()))
}

// text returns the static text of w, or for patterns the literal prefix
// when the word is a glob; ok is false for words that can't be read here.
func text(w word.Word, pattern bool) (string, bool) {
	if s, ok := w.Static(); ok {
		return s, true
	}
	if pattern && !w.HasHole() {
		p := w.Prefix()
		if strings.HasPrefix(p, "-") {
			return w.String(), true
		}
	}
	return "", false
}

// Normalize reads args (without the program name) with this spec.
func (s *Spec) Normalize(args []word.Word, pattern bool) *Cmd {
	if s.Custom != nil {
		c := s.Custom(s, args, pattern)
		c.Prog = s.Name
		if s.Fixup != nil {
			s.Fixup(c)
		}
		return c
	}
	c := &Cmd{Prog: s.Name, Spec: s, DashDash: -1}
	s.read(c, args, pattern)
	return c
}

func (s *Spec) read(c *Cmd, args []word.Word, pattern bool) {
	s.index()
	c.Spec = s
	endOpts := false
	for i := 0; i < len(args); i++ {
		w := args[i]
		if isOpen(w, pattern) {
			c.Open = true
		}
		t, static := text(w, pattern)
		if !static && !endOpts {
			// --include=*.go, --opt="$x": a known option whose value is
			// not known here (a glob bash leaves as it is, or expands to
			// names that start the same).
			if pre := w.Prefix(); strings.HasPrefix(pre, "--") && strings.Contains(pre, "=") {
				name, _, _ := strings.Cut(pre[2:], "=")
				if o, _ := s.lookupLong(name); o != nil && o.Arity != NoArg {
					v := afterEq(w)
					c.addOpt(Opt{Name: o.Canon, Known: true, Value: &v})
					continue
				}
			}
		}
		if !static || endOpts || t == "-" || !strings.HasPrefix(t, "-") {
			if !static && !endOpts && w.CouldStartWith('-') {
				c.Open = true
			}
			if s.Subs != nil && len(c.Args) == 0 {
				if !static {
					// The subcommand is not known: anything may follow.
					c.Open, c.Raw = true, true
					c.Args = append(c.Args, args[i:]...)
					return
				}
				if sub, ok := s.Subs[t]; ok {
					c.Sub = append(c.Sub, t) // as typed: a spec may serve several subcommands
					if s.Persistent {
						sub = withParent(sub, s)
					}
					sub.read(c, args[i+1:], pattern)
					return
				}
				// An unknown subcommand: read the rest raw.
				c.Sub = append(c.Sub, t)
				c.Raw, c.Spec = true, nil
				for _, w := range args[i+1:] {
					if isOpen(w, pattern) {
						c.Open = true
					}
				}
				c.Args = append(c.Args, args[i+1:]...)
				return
			}
			c.Args = append(c.Args, w)
			if !s.GNU {
				endOpts = true
			}
			continue
		}
		if t == "--" {
			endOpts = true
			if c.DashDash < 0 {
				c.DashDash = len(c.Args)
			}
			continue
		}
		if s.SingleDash && !strings.HasPrefix(t, "--") && len(t) > 2 {
			t = "-" + t
		}
		if strings.HasPrefix(t, "--") {
			name, val, hasVal := strings.Cut(t[2:], "=")
			o, _ := s.lookupLong(name)
			if o == nil {
				opt := Opt{Name: "--" + name}
				if hasVal {
					v := afterEq(w)
					opt.Value = &v
				}
				c.addOpt(opt)
				continue
			}
			opt := Opt{Name: o.Canon, Known: true}
			switch {
			case hasVal:
				v := afterEq(w)
				opt.Value = &v
			case o.Arity == ReqArg && i+1 < len(args):
				i++
				v := args[i]
				opt.Value = &v
			}
			_ = val
			c.addOpt(opt)
			continue
		}
		// A cluster of short options.
		if s.NumericOpt != "" && word.IsDigits(t[1:]) {
			v := word.FromLit(t[1:])
			c.addOpt(Opt{Name: s.NumericOpt, Value: &v, Known: true})
			continue
		}
		rs := []rune(t[1:])
		for j := 0; j < len(rs); j++ {
			o := s.short[rs[j]]
			if o == nil {
				c.addOpt(Opt{Name: "-" + string(rs[j])})
				continue
			}
			opt := Opt{Name: o.Canon, Known: true}
			if o.Arity != NoArg {
				rest := string(rs[j+1:])
				switch {
				case rest != "":
					v := word.FromLit(rest)
					opt.Value = &v
				case o.Arity == ReqArg && i+1 < len(args):
					i++
					v := args[i]
					opt.Value = &v
				}
				c.addOpt(opt)
				break
			}
			c.addOpt(opt)
		}
	}
}

// afterEq returns the part of an --opt=value word after the first '='.
func afterEq(w word.Word) word.Word {
	_, rest, ok := w.Cut("=")
	if !ok {
		return word.FromLit("")
	}
	return rest
}

// withParent returns a copy of sub that also accepts parent's options.
func withParent(sub, parent *Spec) *Spec {
	cp := &Spec{Name: sub.Name, GNU: sub.GNU, Abbrev: sub.Abbrev, Subs: sub.Subs, NumericOpt: sub.NumericOpt,
		Custom: sub.Custom, Fixup: sub.Fixup}
	cp.opts = append(append([]*OptSpec{}, sub.Options()...), parent.Options()...)
	if cp.Subs != nil {
		cp.Persistent = true
	}
	return cp
}
