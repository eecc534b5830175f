package policy

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/guard-exec/guard-exec/argspec"
	"github.com/guard-exec/guard-exec/atomicfile"
	"github.com/guard-exec/guard-exec/word"
)

var subWord = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z][a-z0-9_:-]*$`) })

// Remembered is a rule a person's approval would add.
type Remembered struct {
	Command string // a command rule, or
	Path    string // a path rule,
	Access  string // with its access
	// Exact: the approval covers this one command (Rule.Exact), which
	// then does not ask again even where an ask rule asked about it.
	Exact bool
	// Project limits the rule to one project (Rule.Project); set for
	// approvals remembered for good (w) in a project.
	Project string
}

// TOML renders the rule as config text, with an optional comment.
func (r Remembered) TOML(comment string) string {
	var b strings.Builder
	if comment != "" {
		for _, l := range strings.Split(comment, "\n") {
			b.WriteString("# " + l + "\n")
		}
	}
	b.WriteString("[[rule]]\ndecision = \"allow\"\n")
	if r.Path != "" {
		b.WriteString("path = " + tomlString(r.Path) + "\n")
		b.WriteString("access = " + tomlString(r.Access) + "\n")
	} else {
		b.WriteString("command = " + tomlString(r.Command) + "\n")
		if r.Exact {
			b.WriteString("exact = true\n")
		}
	}
	if r.Project != "" {
		b.WriteString("project = " + tomlString(r.Project) + "\n")
	}
	return b.String()
}

// InProject returns the rule limited to the project root (see
// Remembered.Project).
func (r Remembered) InProject(root string) Remembered { r.Project = root; return r }

// Remember returns the rules a person's approval of a part would add, one
// for each aspect that was not allowed: for the command, the program and
// its subcommand words with the rest wildcarded, or the exact argv for
// shells, interpreters and wrappers; for a path, that path. ok is false
// when the part cannot be remembered safely (a dynamic word, opaque code
// without a script name, the absolute denylist, a construct rather than a
// command). Remembered rules are matched like any rule, so a more specific
// deny or the absolute denylist still wins over them.
func Remember(p *Part, v *Verdict) (rules []Remembered, ok bool) {
	for _, a := range v.Asking {
		if a.Absolute || a.Decision == Deny {
			return nil, false
		}
		if a.Effect != nil {
			path, static := a.Effect.Path.Static()
			if !static {
				return nil, false
			}
			rules = append(rules, Remembered{Path: path, Access: a.Effect.Access.String()})
			continue
		}
		// The built-in question about a program file of the project is
		// not a rule of the person's that asked.
		specific := a.Rule != nil && !(p.Local && a.Rule.Layer == Builtin)
		cmd, exact, ok := rememberCommand(p, specific)
		if !ok {
			return nil, false
		}
		rules = append(rules, Remembered{Command: cmd, Exact: exact})
	}
	return rules, len(rules) > 0
}

// rememberCommand generalises the command a person approved, never to
// anything riskier than what they saw. When a rule asked (rm -r, git reset
// --hard, a configured ask), or the program runs code (shells,
// interpreters, wrappers), the exact command is remembered, as an exact
// rule: approving one recursive delete is not approving them all, nor
// rm -r build with more operands after it. Otherwise the program and its
// subcommand words and options are kept, and the operands after them
// wildcarded: npm run test remembers npm run test *, but npm publish
// --dry-run remembers npm publish --dry-run, which does not cover the
// real publish.
func rememberCommand(p *Part, specific bool) (command string, exact, ok bool) {
	if len(p.Argv) == 0 || p.Special != "" {
		return "", false, false
	}
	words, static := staticStrings(p.Argv)
	if !static {
		return "", false, false
	}
	prog := argspec.ProgName(words[0])
	// A program file of the project (Local) is remembered as the program
	// it is named like would be: the part that asks for it is the same
	// command's.
	opaque := p.Opaque != "" && !p.Local
	if opaque || argspec.RememberExactly(prog) || specific {
		if opaque && p.CodeArg < 1 {
			return "", false, false
		}
		if strings.Contains(words[0], "/") && !strings.HasPrefix(words[0], "/") {
			// ./scripts/check.sh as it resolves where it ran: a rule's
			// relative program path is read from the project root.
			paths := p.ProgPaths()
			abs, ok := "", len(paths) == 1
			if ok {
				abs, ok = paths[0].Static()
			}
			if !ok {
				return "", false, false
			}
			words = append([]string{abs}, words[1:]...)
		}
		return quoteAll(words), true, true
	}
	// By name, as the issue of remembering "the program": a path would
	// also make the rule more specific than the user's own rules for it.
	out := []string{quoteRuleWord(prog)}
	subs := 0
	for _, w := range words[1:] {
		isOpt := strings.HasPrefix(w, "-") && w != "-" && w != "--"
		if !isOpt && (subs >= 3 || !subWord().MatchString(w)) || len(out) >= 8 {
			break
		}
		if !isOpt {
			subs++
		}
		out = append(out, quoteRuleWord(w))
	}
	if len(out) < len(words) {
		out = append(out, "*")
	}
	return strings.Join(out, " "), false, true
}

func staticStrings(ws []word.Word) ([]string, bool) {
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

// quoteAll renders words so that each is matched literally.
func quoteAll(words []string) string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = quoteRuleWord(w)
	}
	return strings.Join(out, " ")
}

func quoteRuleWord(w string) string {
	if w != "" && !strings.ContainsAny(w, " \t\n'\"\\*?[]") {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}

// RuleTOML renders an allow rule for a command as config text.
func RuleTOML(command, comment string) string { return Remembered{Command: command}.TOML(comment) }

func tomlString(s string) string {
	if !strings.ContainsAny(s, "'\n") {
		return "'" + s + "'"
	}
	return fmt.Sprintf("%q", s)
}

// ParseRuleText reads one rule written as TOML (a session approval).
func ParseRuleText(text, source string) (*Rule, error) {
	f, err := ParseFile(source, []byte(text), Session)
	if err != nil {
		return nil, err
	}
	rules := f.Rules()
	if len(rules) != 1 {
		return nil, fmt.Errorf("%s: expected one rule, found %d", source, len(rules))
	}
	r := rules[0]
	r.Source = source
	return r, nil
}

// ParseRuleTexts reads many rules written as TOML, each text one rule (a
// session's approvals), as ParseRuleText reads each: rules[i] is nil where
// errs[i] says why. Texts in the form the guard writes them
// (Remembered.TOML) are read without the TOML decoder (simpleRule): a
// session gathers approvals, and one decode each cost more than the rest
// of starting the guard. Anything else, edited by hand, is decoded.
func ParseRuleTexts(texts, sources []string) (rules []*Rule, errs []error) {
	rules, errs = make([]*Rule, len(texts)), make([]error, len(texts))
	for i, t := range texts {
		if r, ok := simpleRule(t); ok {
			r.Source = sources[i]
			rules[i] = r
		} else {
			rules[i], errs[i] = ParseRuleText(t, sources[i])
		}
	}
	return rules, errs
}

// simpleRule reads a rule in the form Remembered.TOML writes: a [[rule]]
// header, then only decision, command, path, access and project, each
// once, as key = 'literal' or key = "basic" with no escapes, and exact =
// true, and no comments. It
// reports false for anything else, which the TOML decoder then reads; what
// it reads, it reads as the decoder would (TestSimpleRule, FuzzSimpleRule).
func simpleRule(text string) (*Rule, bool) {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if len(lines) < 2 || lines[0] != "[[rule]]" {
		return nil, false
	}
	r := &Rule{Layer: Session}
	var decided, command, path, access, exact, project bool
	for _, l := range lines[1:] {
		key, val, ok := strings.Cut(l, " = ")
		if !ok {
			return nil, false
		}
		if key == "exact" && val == "true" {
			if exact {
				return nil, false
			}
			r.Exact, exact = true, true
			continue
		}
		v, ok := simpleString(val)
		if !ok {
			return nil, false
		}
		var seen *bool
		switch key {
		case "project":
			r.Project, seen = v, &project
		case "decision":
			d, ok := ParseDecision(v)
			if !ok {
				return nil, false
			}
			r.Decision, seen = d, &decided
		case "command":
			r.Command, seen = v, &command
		case "path":
			r.Path, seen = v, &path
		case "access":
			r.Access, seen = v, &access
		default:
			return nil, false
		}
		if *seen {
			return nil, false // defined twice: the decoder's error to give
		}
		*seen = true
	}
	return r, decided
}

// simpleString reads a TOML string that is all of val: 'literal' or
// "basic" without escapes, and no control characters but tab.
func simpleString(val string) (string, bool) {
	if len(val) < 2 || (val[0] != '\'' && val[0] != '"') || val[len(val)-1] != val[0] {
		return "", false
	}
	s := val[1 : len(val)-1]
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == val[0] || c == '\\' && val[0] == '"' || c < 0x20 && c != '\t' || c == 0x7f {
			return "", false
		}
	}
	if !utf8.ValidString(s) {
		return "", false
	}
	return s, true
}

// AppendRule appends rule text to a config file, keeping everything else
// in it byte for byte, writes it atomically, and checks that the result
// still loads. On failure the file is left as it was. A config that is a
// symbolic link (a dotfiles repository) stays one: its target is rewritten.
func AppendRule(path, ruleText string, check func(text []byte) error) error {
	unlock, err := atomicfile.Lock(path)
	if err != nil {
		return fmt.Errorf("cannot lock %s: %v", path, err)
	}
	defer unlock()
	old, err := ReadConfig(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	text := append([]byte(nil), old...)
	if len(text) > 0 && text[len(text)-1] != '\n' {
		text = append(text, '\n')
	}
	if len(text) > 0 {
		text = append(text, '\n')
	}
	text = append(text, ruleText...)
	if check != nil {
		if err := check(text); err != nil {
			return fmt.Errorf("the rule would make %s invalid, so it was not written: %v", path, err)
		}
	}
	if err := atomicfile.Write(path, text, 0o600); err != nil {
		return fmt.Errorf("cannot write %s: %v", path, err)
	}
	return nil
}

// ApprovalComment describes when and for what a rule was remembered.
func ApprovalComment(command string, now time.Time) string {
	first, _, _ := strings.Cut(command, "\n")
	if len(first) > 80 {
		first = first[:80] + "…"
	}
	return fmt.Sprintf("added by guard-exec on %s, approving: %s", now.Format("2006-01-02"), first)
}
