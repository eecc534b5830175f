package policy

import (
	"strings"
	"unicode/utf8"
)

// readSimpleConfig reads a config file made only of [[rule]] tables of
// plain string keys, without the TOML decoder: a file of many rules (a
// team's policy, years of remembered approvals) cost about 10 µs a rule to
// decode, on every command. What it accepts, line by line:
//
//   - blank lines and comments (# ...);
//   - a [[rule]] header, with spaces or tabs around it;
//   - in a rule, decision, command, path, access, why, instead or project
//     = a 'literal' or "basic" string without escapes, or exact = true or
//     false, each at most once, optionally followed by a comment.
//
// Anything else (settings, arrays, escapes, a carriage return, a key
// before the first header, a byte it is unsure of) makes it report false,
// and the file is decoded as always: it never guesses, and what it reads
// it reads as the decoder does (FuzzSimpleConfig holds it to that). A rule
// without a valid decision is left to the decoder too, for ParseFile's
// message about it. Each rule's Line is that of its [[rule]] header,
// 1-based, as isRuleHeader finds it.
func readSimpleConfig(text string) (rules []plainRule, ok bool) {
	if strings.IndexByte(text, '\r') >= 0 || strings.HasPrefix(text, "\ufeff") {
		return nil, false
	}
	// One allocation for all the rules.
	n := strings.Count(text, "[")/2 + 1 // a byte's count is the fast one
	rules = make([]plainRule, 0, n)
	var seen uint8 // the keys the current rule has, one bit each
	line := 0
	for len(text) > 0 {
		var l string
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			l, text = text[:i], text[i+1:]
		} else {
			l, text = text, ""
		}
		line++
		l = trimBlanks(l)
		switch {
		case l == "":
			continue
		case l[0] == '#':
			if !plainComment(l) {
				return nil, false
			}
			continue
		case l == "[[rule]]":
			if len(rules) > 0 && seen&1 == 0 {
				return nil, false // no decision
			}
			if len(rules) < cap(rules) {
				rules = rules[:len(rules)+1] // zeroed by make: not zeroed again
			} else {
				rules = append(rules, plainRule{})
			}
			rules[len(rules)-1].Line = int32(line)
			seen = 0
			continue
		case len(rules) == 0:
			return nil, false // a setting, or a table: the decoder's
		}
		key, val, found := strings.Cut(l, "=")
		if !found {
			return nil, false
		}
		key, val = trimBlanks(key), trimBlanks(val)
		r := &rules[len(rules)-1]
		var bit uint8
		var dst *string
		var decision string
		switch key {
		case "decision":
			bit, dst = 1, &decision
		case "command":
			bit, dst = 2, &r.Command
		case "path":
			bit, dst = 4, &r.Path
		case "access":
			bit, dst = 8, &r.Access
		case "why":
			bit, dst = 16, &r.Why
		case "instead":
			bit, dst = 32, &r.Instead
		case "project":
			bit, dst = 64, &r.Project
		case "exact":
			bit = 128
		default:
			return nil, false // flags, match…, an unknown key: the decoder says
		}
		if seen&bit != 0 {
			return nil, false // defined twice: the decoder's error to give
		}
		seen |= bit
		var rest string
		if dst == nil {
			switch {
			case strings.HasPrefix(val, "true"):
				r.Exact, rest = true, val[len("true"):]
			case strings.HasPrefix(val, "false"):
				rest = val[len("false"):]
			default:
				return nil, false
			}
		} else {
			s, after, ok := plainString(val)
			if !ok {
				return nil, false
			}
			*dst, rest = s, after
			if bit == 1 {
				if r.Decision, ok = ParseDecision(s); !ok {
					return nil, false
				}
			}
		}
		if !plainTail(rest) {
			return nil, false
		}
	}
	if len(rules) > 0 && seen&1 == 0 {
		return nil, false
	}
	return rules, true
}

// A plainRule is a rule as readSimpleConfig reads it, its strings cut
// from the file's text: a tenth of a Rule's size. A configuration may hold
// thousands of rules and a command needs the few of its programs, so a
// Rule is made of one only when it is needed (File.rule).
type plainRule struct {
	Command, Path, Access, Why, Instead, Project string
	Line                                         int32
	Decision                                     Decision
	Exact                                        bool
}

// fill sets r's configured fields to those of s.
func (s *plainRule) fill(r *Rule) {
	r.Decision, r.Command, r.Path, r.Access, r.Why, r.Instead, r.Project, r.Exact =
		s.Decision, s.Command, s.Path, s.Access, s.Why, s.Instead, s.Project, s.Exact
}

// trimBlanks removes spaces and tabs at both ends (strings.Trim with a
// cutset of two builds a set on every call: this is most of the work).
func trimBlanks(s string) string {
	i, j := 0, len(s)
	for i < j && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	for j > i && (s[j-1] == ' ' || s[j-1] == '\t') {
		j--
	}
	return s[i:j]
}

// plainString reads a string at the start of val: 'literal', or "basic"
// without escapes, holding no control character but tab. Anything else,
// multi-line strings included, is not plain.
func plainString(val string) (s, rest string, ok bool) {
	if len(val) < 2 || (val[0] != '\'' && val[0] != '"') {
		return "", "", false
	}
	q := val[0]
	stop := &literalStop
	if q == '"' {
		stop = &basicStop
	}
	ascii := true
	for i := 1; i < len(val); i++ {
		c := val[i]
		if !stop[c] {
			continue
		}
		switch {
		case c == q:
			s = val[1:i]
			if i == 1 && len(val) > 2 && val[2] == q {
				return "", "", false // ''' or """: a multi-line string
			}
			if !ascii && !utf8.ValidString(s) {
				return "", "", false
			}
			return s, val[i+1:], true
		case c >= 0x80:
			ascii = false
		default:
			return "", "", false // a control character, or an escape
		}
	}
	return "", "", false
}

// literalStop and basicStop are the bytes plainString stops at in a
// 'literal' and a "basic" string: its quote, control characters but tab,
// DEL, bytes of characters outside ASCII, and in a basic string '\\'.
var literalStop, basicStop = stopTables()

func stopTables() (literal, basic [256]bool) {
	for c := range 256 {
		stop := c < 0x20 && c != '\t' || c >= 0x7f
		literal[c] = stop || c == '\''
		basic[c] = stop || c == '"' || c == '\\'
	}
	return literal, basic
}

// plainTail reports whether what follows a value is nothing, or blanks and
// a comment. A value must be followed by a blank before its comment or the
// end: exact = trueish is not exact = true.
func plainTail(rest string) bool {
	if rest == "" {
		return true
	}
	t := trimBlanks(rest)
	if t == "" {
		return true
	}
	return (rest[0] == ' ' || rest[0] == '\t') && t[0] == '#' && plainComment(t)
}

// plainComment reports whether a comment holds only what TOML allows
// there: no control character but tab, and valid UTF-8.
func plainComment(c string) bool {
	ascii := true
	for i := 0; i < len(c); i++ {
		switch b := c[i]; {
		case b < 0x20 && b != '\t', b == 0x7f:
			return false
		case b >= 0x80:
			ascii = false
		}
	}
	return ascii || utf8.ValidString(c)
}
