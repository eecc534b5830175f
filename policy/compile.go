package policy

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/guard-exec/guard-exec/argspec"
	"github.com/guard-exec/guard-exec/word"
)

// compile prepares a rule for matching.
func (r *Rule) compile(env *Env) error { return r.build(env, true) }

// check finds the errors compile would, without reading the command the
// way its program reads argv (argspec.Normalize, the costly part: git's
// option tables, say): configuration loading checks every rule so, and
// each is compiled the first time a command could match it. A rule whose
// compile fails after all never allows (see Rule.ready).
func (r *Rule) check(env *Env) error { return r.build(env, false) }

// build compiles the rule (full) or only checks it.
func (r *Rule) build(env *Env, full bool) error {
	if r.pred != nil || r.predEffect != nil {
		return nil
	}
	if r.Command == "" && r.Path == "" && len(r.Flags) == 0 {
		return fmt.Errorf("a rule needs command, flags or path")
	}
	if r.Exact && (r.Command == "" || r.Path != "" || len(r.Flags) > 0 || r.Decision != Allow) {
		return fmt.Errorf("exact is for allow rules with a command (a person's approval), without flags or path")
	}
	if r.Project != "" && !filepath.IsAbs(r.Project) {
		return fmt.Errorf("project must be an absolute path (the project's root), not %q", r.Project)
	}
	spec := 0
	if !full && len(r.Flags) == 0 && plainCommand(r.Command) {
		// Nothing in it can fail to compile: no quotes, escapes, wildcards
		// or program path (the common rule, checked on every call).
	} else if r.Command != "" || len(r.Flags) > 0 {
		cp, s, err := compileCommand(r.Command, r.Flags, env.Project, env.Home, full)
		if err != nil {
			return fmt.Errorf("command %q: %v", r.Command, err)
		}
		if r.Exact && strings.ContainsAny(r.Command, "*?[") && hasGlob(r.Command) {
			return fmt.Errorf("command %q: an exact rule names literal words only (quote * ? [ to make them literal)", r.Command)
		}
		if full {
			r.cmd, spec = cp, s
			cp.exact = r.Exact
		}
	}
	if r.Path != "" {
		// Checking a plain path needs no absolute pattern: Join, Clean and
		// "/**" add no byte a pattern can fail on to plain paths.
		if full || !plainPath(r.Path) || !plainPath(env.Project) || !plainPath(env.Home) {
			abs := absPattern(r.Path, env)
			var p *word.Pattern
			var err error
			if full {
				p, err = compileProtective(abs, r.Decision)
			} else {
				err = word.CheckPath(abs)
			}
			if err != nil {
				return fmt.Errorf("path %q: %v", r.Path, err)
			}
			if full {
				r.path = p
				spec += pathSpec(abs)
			}
		}
		var acc Access
		switch r.Access {
		case "", "any":
			acc = argspec.Read | argspec.Write
		case "read":
			acc, spec = argspec.Read, spec+1
		case "write":
			acc, spec = argspec.Write, spec+1
		default:
			return fmt.Errorf("access must be \"read\", \"write\" or \"any\", not %q", r.Access)
		}
		if full {
			r.acc = acc
		}
	} else if r.Access != "" {
		return fmt.Errorf("access is only meaningful with path")
	}
	if full {
		r.spec = spec
	}
	return nil
}

// absPattern is a path rule's pattern made absolute: ~/ in the home
// directory, a relative one in the project.
func absPattern(path string, env *Env) string {
	abs := path
	switch {
	// The home's and the project's own names are literal text in the
	// pattern, whatever bytes they hold.
	case abs == "~" || strings.HasPrefix(abs, "~/"):
		abs = filepath.Join(word.EscapePath(env.Home), strings.TrimPrefix(abs, "~"))
		if strings.HasSuffix(path, "/") {
			abs += "/"
		}
	case !filepath.IsAbs(abs):
		abs = filepath.Join(word.EscapePath(env.Project), abs)
	}
	if strings.HasSuffix(path, "/**") && !strings.HasSuffix(abs, "/**") {
		abs += "/**"
	}
	abs = strings.TrimSuffix(abs, "/")
	if abs == "" {
		abs = "/"
	}
	return abs
}

// plainPath reports whether a path holds none of the bytes that can make
// a doublestar pattern invalid (a backslash, brackets, braces).
func plainPath(p string) bool {
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\', '[', ']', '{', '}':
			return false
		}
	}
	return true
}

// hasGlob reports whether a rule's command has an unquoted wildcard.
func hasGlob(command string) bool {
	words, err := splitRule(command)
	if err != nil {
		return false
	}
	for _, w := range words {
		if !w.IsStatic() {
			return true
		}
	}
	return false
}

// plainCommand reports whether a rule's command is words of ordinary
// characters, which compileCommand cannot refuse: at least one character
// that is not a blank, and none of the quotes, escapes, wildcards and
// brackets its syntax gives meaning to, nor a '/' (a program path, which
// is compiled as a path pattern).
func plainCommand(command string) bool {
	words := false
	for i := 0; i < len(command); i++ {
		switch commandClass[command[i]] {
		case special:
			return false
		case ordinary:
			words = true
		}
	}
	return words
}

const (
	ordinary = iota
	blank
	special
)

// commandClass sorts the bytes of a rule's command for plainCommand.
var commandClass = func() (t [256]uint8) {
	for _, c := range []byte(" \t\n") {
		t[c] = blank
	}
	for _, c := range []byte("'\"\\*?[]{}/") {
		t[c] = special
	}
	return t
}()
