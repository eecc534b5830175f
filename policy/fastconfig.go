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
// it reads as the decoder does (FuzzSimpleConfig holds it to that). headers
// are the lines of the [[rule]] headers, 1-based, as isRuleHeader finds
// them.
func readSimpleConfig(text string) (rules []fileRule, headers []int, ok bool) {
	if strings.IndexByte(text, '\r') >= 0 || strings.HasPrefix(text, "\ufeff") {
		return nil, nil, false
	}
	// About four lines a rule: one allocation for the lot.
	rules = make([]fileRule, 0, strings.Count(text, "[[")+1)
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
		l = strings.Trim(l, " \t")
		switch {
		case l == "":
			continue
		case l[0] == '#':
			if !plainComment(l) {
				return nil, nil, false
			}
			continue
		case l == "[[rule]]":
			rules = append(rules, fileRule{})
			headers = append(headers, line)
			seen = 0
			continue
		case len(rules) == 0:
			return nil, nil, false // a setting, or a table: the decoder's
		}
		key, val, found := strings.Cut(l, "=")
		if !found {
			return nil, nil, false
		}
		key = strings.TrimRight(key, " \t")
		val = strings.TrimLeft(val, " \t")
		r := &rules[len(rules)-1]
		var bit uint8
		var dst *string
		switch key {
		case "decision":
			bit, dst = 1, &r.Decision
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
			return nil, nil, false // flags, match…, an unknown key: the decoder says
		}
		if seen&bit != 0 {
			return nil, nil, false // defined twice: the decoder's error to give
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
				return nil, nil, false
			}
		} else {
			s, after, ok := plainString(val)
			if !ok {
				return nil, nil, false
			}
			*dst, rest = s, after
		}
		if !plainTail(rest) {
			return nil, nil, false
		}
	}
	return rules, headers, true
}

// plainString reads a string at the start of val: 'literal', or "basic"
// without escapes, holding no control character but tab. Anything else,
// multi-line strings included, is not plain.
func plainString(val string) (s, rest string, ok bool) {
	if len(val) < 2 || (val[0] != '\'' && val[0] != '"') {
		return "", "", false
	}
	q := val[0]
	ascii := true
	for i := 1; i < len(val); i++ {
		c := val[i]
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
		case c == '\\' && q == '"', c < 0x20 && c != '\t', c == 0x7f:
			return "", "", false
		case c >= 0x80:
			ascii = false
		}
	}
	return "", "", false
}

// plainTail reports whether what follows a value is nothing, or blanks and
// a comment. A value must be followed by a blank before its comment or the
// end: exact = trueish is not exact = true.
func plainTail(rest string) bool {
	if rest == "" {
		return true
	}
	t := strings.TrimLeft(rest, " \t")
	if t == "" {
		return true
	}
	return len(t) < len(rest) && t[0] == '#' && plainComment(t)
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
