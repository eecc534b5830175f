package argspec

import (
	"fmt"
	"strings"
	"sync"
)

// Arity says whether an option takes a value.
type Arity uint8

const (
	NoArg  Arity = iota
	ReqArg       // the value is attached (--o=v, -ov) or the next word
	OptArg       // the value can only be attached (--o=v, -ov)
)

// OptSpec is one option of a program, under all its names.
type OptSpec struct {
	Canon  string   // canonical name: the first long name ("--recursive"), else "-r"
	Shorts []rune   // single-letter names
	Longs  []string // long names without dashes
	Arity  Arity
}

// Spec describes how a program reads its argv.
type Spec struct {
	Name string
	// Notation lists the options (see opts); it is parsed on first use,
	// since a guard process reads only a few programs' options.
	Notation string
	// GNU: options may follow operands (getopt_long permutation) and long
	// options may be abbreviated to any unambiguous prefix.
	GNU bool
	// Abbrev: long options may be abbreviated (git's parse-options) even
	// though operands are not permuted.
	Abbrev bool
	// Complete: Notation lists every option the program has, so an option
	// it does not list is one the catalogue cannot vouch for (Effects then
	// reports the command's effects unknown). Specs that list only the
	// options that matter to the guard (git log: --output) leave it unset.
	Complete bool
	// Subs are subcommands chosen by the first operand; nil when the program
	// has none. A subcommand's spec also accepts its parent's options when
	// Persistent is set (cobra-style CLIs: kubectl, docker, helm).
	Subs       map[string]*Spec
	Persistent bool
	// SingleDash: long options take one dash (-chdir=dir), as with Go's
	// flag package (terraform).
	SingleDash bool
	// NumericOpt accepts -N (a number) as the option of that canonical name,
	// as in head -5 or kill -9.
	NumericOpt string
	// Custom replaces the generic reader (find, tar, dd, chmod modes).
	Custom func(s *Spec, args []wordT, pattern bool) *Cmd
	// Fixup adjusts a reading after the generic reader (kill's signal names).
	Fixup func(c *Cmd)

	opts  []*OptSpec
	once  sync.Once
	short map[rune]*OptSpec
	long  map[string]*OptSpec
}

// Options returns the program's options.
func (s *Spec) Options() []*OptSpec {
	s.index()
	return s.opts
}

// opts parses the compact option notation: entries separated by spaces,
// each entry a comma-separated list of names (one letter = short, longer =
// long), ending in "=" when the option requires a value or "?=" when the
// value is optional and can only be attached. The canonical name is the
// first long name, else the first short one.
//
//	opts("f,force i I r,R,recursive interactive?= t,target-directory=")
func opts(notation string) []*OptSpec {
	var out []*OptSpec
	for _, entry := range strings.Fields(notation) {
		o := &OptSpec{}
		switch {
		case strings.HasSuffix(entry, "?="):
			o.Arity, entry = OptArg, strings.TrimSuffix(entry, "?=")
		case strings.HasSuffix(entry, "="):
			o.Arity, entry = ReqArg, strings.TrimSuffix(entry, "=")
		}
		for _, name := range strings.Split(entry, ",") {
			if len([]rune(name)) == 1 {
				o.Shorts = append(o.Shorts, []rune(name)[0])
			} else {
				o.Longs = append(o.Longs, name)
			}
		}
		if len(o.Longs) > 0 {
			o.Canon = "--" + o.Longs[0]
		} else {
			o.Canon = "-" + string(o.Shorts[0])
		}
		out = append(out, o)
	}
	return out
}

func (s *Spec) index() {
	s.once.Do(s.build)
}

func (s *Spec) build() {
	if s.opts == nil {
		s.opts = opts(s.Notation)
	}
	s.short = map[rune]*OptSpec{}
	s.long = map[string]*OptSpec{}
	for _, o := range s.opts {
		// The first spec of a name wins: a subcommand's own option shadows
		// its parent's.
		for _, r := range o.Shorts {
			if s.short[r] == nil {
				s.short[r] = o
			}
		}
		for _, l := range o.Longs {
			if s.long[l] == nil {
				s.long[l] = o
			}
		}
	}
}

// lookupLong finds a long option by name or unambiguous prefix.
func (s *Spec) lookupLong(name string) (*OptSpec, error) {
	s.index()
	if o, ok := s.long[name]; ok {
		return o, nil
	}
	if !s.GNU && !s.Abbrev {
		return nil, nil
	}
	var found *OptSpec
	for l, o := range s.long {
		if strings.HasPrefix(l, name) {
			if found != nil && found != o {
				return nil, fmt.Errorf("option --%s is ambiguous", name)
			}
			found = o
		}
	}
	return found, nil
}

// Opt returns the canonical name of an option as written ("-r", "--recur"),
// or "" when the program has no such option.
func (s *Spec) Opt(name string) string {
	s.index()
	switch {
	case strings.HasPrefix(name, "--"):
		o, _ := s.lookupLong(strings.TrimPrefix(name, "--"))
		if o != nil {
			return o.Canon
		}
	case strings.HasPrefix(name, "-") && len([]rune(name)) == 2:
		if o := s.short[[]rune(name)[1]]; o != nil {
			return o.Canon
		}
	}
	return ""
}

// specs caches the specs built so far, so that each program has one.
var specs struct {
	sync.Mutex
	m map[string]*Spec
}

// Lookup returns the spec of a program by its base name, or nil.
func Lookup(prog string) *Spec {
	specs.Lock()
	defer specs.Unlock()
	if s := specs.m[prog]; s != nil {
		return s
	}
	s := catalogSpec(prog)
	if s == nil {
		if build := builtOnUse()[prog]; build != nil {
			s = build()
		}
	}
	if s != nil {
		if specs.m == nil {
			specs.m = map[string]*Spec{}
		}
		specs.m[prog] = s
	}
	return s
}

// builtOnUse are the specs with large subcommand tables, built the first
// time a command names the program: most guard processes never see them.
var builtOnUse = sync.OnceValue(func() map[string]func() *Spec {
	return map[string]func() *Spec{
		"git": sync.OnceValue(gitSpec), "kubectl": sync.OnceValue(kubectlSpec), "docker": sync.OnceValue(dockerSpec),
		"docker-compose": sync.OnceValue(func() *Spec { return composeSpec("docker-compose") }),
		"helm":           sync.OnceValue(helmSpec), "terraform": sync.OnceValue(terraformSpec),
	}
})

// sub builds a subcommand table.
func subs(specs ...*Spec) map[string]*Spec {
	m := map[string]*Spec{}
	for _, s := range specs {
		for _, name := range strings.Split(s.Name, ",") {
			m[name] = s
		}
		s.Name = strings.Split(s.Name, ",")[0]
	}
	return m
}
