package shellparse

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Bash expands a prompt (PS0, PS1, PS2, PS4, ${x@P}) in two steps
// (parse.y, decode_prompt_string, then expand_prompt_string): it first
// replaces the backslash escapes, and then expands the result as the
// text of a double-quoted word, where command substitutions run. The
// first step makes characters of its own: \044 and \444 are $ (octal, to
// a byte), \[ \] and \000 are nothing (so $\[( is $( ), \\ is one
// backslash (so \\\$ is \ and \$: a $ unquoted where the uid is not 0),
// and \w \W \s \h \H \D{…} are text bash fills in, quoted for double
// quotes. Checked against bash 5.2 with recording witnesses
// (TestPromptDecodeBash).

// promptHole stands in for text bash fills in (\w, \u, \t, …): plain
// letters, which are inert where decodePrompt lets one stand.
const promptHole, promptUser = "PROMPTTEXT", "PROMPTUSER"

// decodePrompt returns the text bash expands for the prompt s, with
// promptHole where bash puts text of its own, as a uid that is 0 (root)
// or not decodes it. It reports false when a filled-in text could join
// the text around it into an expansion or code: after a $ or a
// backslash, inside an expansion (holesOutside), \u (a user name, which
// bash does not quote) before ( { or [; and for \001 and \177, which
// bash quotes in a way the walk does not follow.
func decodePrompt(s string, root bool) (string, bool) {
	var b strings.Builder
	holes := false
	hole := func(quoted bool) bool {
		t := b.String()
		if strings.HasSuffix(t, "$") || strings.HasSuffix(t, `\`) {
			return false
		}
		holes = true
		if quoted {
			b.WriteString(promptHole)
		} else {
			b.WriteString(promptUser)
		}
		return true
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case '0', '1', '2', '3', '4', '5', '6', '7':
			// The next three characters (fewer at the end) all octal
			// digits, the value cut to a byte; otherwise the backslash
			// alone, and the digits as they are.
			n, j := 0, i
			for ; j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7'; j++ {
				n = n*8 + int(s[j]-'0')
			}
			if j < len(s) && j < i+3 {
				b.WriteByte('\\')
				i--
				break
			}
			i = j - 1
			switch ch := byte(n); ch {
			case 0:
			case 1, 0x7f:
				return "", false
			default:
				b.WriteByte(ch)
			}
		case '[', ']':
			// Dropped when bash edits no lines (a script, ${x@P}).
		case '\\':
			b.WriteByte('\\')
		case '$':
			if root {
				b.WriteByte('#')
			} else {
				b.WriteString(`\$`)
			}
		case 'a':
			b.WriteByte(7)
		case 'e':
			b.WriteByte(033)
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 'D':
			end := strings.IndexByte(s[i:], '}')
			if i+1 < len(s) && s[i+1] == '{' {
				if end < 0 {
					return "", false
				}
				i += end
				if !hole(true) {
					return "", false
				}
				break
			}
			b.WriteString(`\D`)
		case 'w', 'W', 's', 'h', 'H', 'd', 't', 'T', '@', 'A', 'v', 'V', 'j', 'l', '#', '!':
			// Quoted by bash, or digits, names of days and versions.
			if !hole(true) {
				return "", false
			}
		case 'u':
			if !hole(false) {
				return "", false
			}
		default:
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	t := b.String()
	for i := strings.Index(t, promptUser); i >= 0; {
		// A user name may end in $ (useradd allows it): not before ( { [.
		if j := i + len(promptUser); j < len(t) && strings.IndexByte("({[", t[j]) >= 0 {
			return "", false
		}
		k := strings.Index(t[i+1:], promptUser)
		if k < 0 {
			break
		}
		i += 1 + k
	}
	t = strings.ReplaceAll(t, promptUser, promptHole)
	if holes && strings.ContainsAny(t, "$`") && !holesOutside(t) {
		return "", false
	}
	return t, true
}

// holesOutside reports whether every promptHole of t stands in the plain
// text of the double-quoted word (promptWord), outside every expansion:
// inside $(…) a directory's name would be code, inside ${…} a name.
func holesOutside(t string) bool {
	src := "echo " + promptWord(t)
	f, err := syntax.NewParser().Parse(strings.NewReader(src), "")
	if err != nil || len(f.Stmts) != 1 {
		return false
	}
	call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) != 2 || len(call.Args[1].Parts) != 1 {
		return false
	}
	dq, ok := call.Args[1].Parts[0].(*syntax.DblQuoted)
	if !ok {
		return false
	}
	for _, p := range dq.Parts {
		if _, lit := p.(*syntax.Lit); lit {
			continue
		}
		if strings.Contains(src[p.Pos().Offset():p.End().Offset()], promptHole) {
			return false
		}
	}
	return true
}

// promptWord returns a shell word, double-quoted, whose expansion bash
// makes as it makes the expansion of the decoded prompt t: a " of t is
// a plain character there, a backslash escapes as in double quotes.
func promptWord(t string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(t); i++ {
		switch c := t[i]; {
		case c == '\\' && i+1 < len(t):
			b.WriteByte(c)
			b.WriteByte(t[i+1])
			i++
		case c == '\\':
			b.WriteString(`\\`)
		case c == '"':
			b.WriteString(`\"`)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}
