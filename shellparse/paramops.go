package shellparse

import (
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/pattern"
	"mvdan.cc/sh/v3/syntax"
)

// maxParamOpValue bounds the values paramOp works out (its suffix and
// prefix searches try each cut).
const maxParamOpValue = 4096

// paramOp works out ${x%pat}, ${x%%pat}, ${x#pat}, ${x##pat}, ${x:off:len},
// ${x/pat/rep} (and //, /#, /%), ${x,,}, ${x^^}, ${x,} and ${x^} on a
// value known here, as bash 5.2 does; false when the expansion is one it
// does not work out (a pattern or number that is not literal text, an
// extended pattern, a case change with a pattern) or bash would fail.
func paramOp(p *syntax.ParamExp, val string) (string, bool) {
	if len(val) > maxParamOpValue || p.Index != nil || p.Excl || p.Length || p.Width || p.Names != 0 {
		return "", false
	}
	for i := 0; i < len(val); i++ {
		if val[i] >= utf8.RuneSelf {
			return "", false // patterns match characters; the values here are paths
		}
	}
	switch {
	case p.Slice != nil && p.Exp == nil && p.Repl == nil:
		return sliceOp(p.Slice, val)
	case p.Repl != nil && p.Exp == nil && p.Slice == nil:
		orig, ok := patternText(p.Repl.Orig)
		if !ok {
			return "", false
		}
		with := ""
		if p.Repl.With != nil {
			var lit bool
			if with, lit = replText(p.Repl.With); !lit {
				return "", false
			}
		}
		return replOp(val, orig, with, p.Repl.All)
	case p.Exp != nil && p.Slice == nil && p.Repl == nil:
		switch p.Exp.Op {
		case syntax.UpperFirst, syntax.UpperAll, syntax.LowerFirst, syntax.LowerAll:
			if p.Exp.Word != nil && p.Exp.Word.Lit() != "" {
				return "", false // a pattern of the letters to change
			}
			return caseOp(p.Exp.Op, val), true
		case syntax.ErrorUnset:
			return val, true // ${x?}: set, so its value
		case syntax.ErrorUnsetOrNull:
			return val, val != "" // ${x:?}: an empty value fails, and nothing runs
		case syntax.OtherParamOps:
			op := ""
			if p.Exp.Word != nil {
				op = p.Exp.Word.Lit()
			}
			switch op {
			case "L":
				return strings.ToLower(val), true
			case "U":
				return strings.ToUpper(val), true
			case "u":
				return caseOp(syntax.UpperFirst, val), true
			case "E", "P":
				// Escapes (and a prompt's expansions) change nothing in a
				// value without them.
				return val, !strings.ContainsAny(val, "\\$`!")
			case "Q":
				return "'" + strings.ReplaceAll(val, "'", `'\''`) + "'", true
			}
		case syntax.RemSmallPrefix, syntax.RemLargePrefix, syntax.RemSmallSuffix, syntax.RemLargeSuffix:
			pat := ""
			if p.Exp.Word != nil {
				var ok bool
				if pat, ok = patternText(p.Exp.Word); !ok {
					return "", false
				}
			}
			return trimOp(p.Exp.Op, val, pat)
		}
	}
	return "", false
}

// patternText is a pattern word as pattern.Regexp reads it: literal text,
// with what is quoted quoted; false for anything else.
func patternText(w *syntax.Word) (string, bool) {
	if w == nil {
		return "", true
	}
	var b strings.Builder
	for _, part := range w.Parts {
		switch part := part.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(part.Value, "()") {
				return "", false // an extended pattern, perhaps
			}
			b.WriteString(part.Value)
		case *syntax.SglQuoted:
			if part.Dollar {
				return "", false
			}
			b.WriteString(pattern.QuoteMeta(part.Value, 0))
		case *syntax.DblQuoted:
			for _, q := range part.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				b.WriteString(pattern.QuoteMeta(unescapeDQ(l.Value), 0))
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// replText is a replacement word's text, and whether it is literal. In
// it, & stands for the match (patsub_replacement) and \& for &: the
// result keeps that notation for replOp, with quoted text's & escaped.
func replText(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, part := range w.Parts {
		switch part := part.(type) {
		case *syntax.Lit:
			b.WriteString(part.Value)
		case *syntax.SglQuoted:
			if part.Dollar {
				return "", false
			}
			b.WriteString(strings.ReplaceAll(strings.ReplaceAll(part.Value, `\`, `\\`), "&", `\&`))
		case *syntax.DblQuoted:
			for _, q := range part.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				s := unescapeDQ(l.Value)
				b.WriteString(strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), "&", `\&`))
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// unescapeDQ is the text of a double-quoted literal: \ quotes only $ ` "
// \ and a newline there.
func unescapeDQ(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// compile is a pattern as an anchored regular expression.
func compile(pat string) (*regexp.Regexp, bool) {
	expr, err := pattern.Regexp(pat, pattern.EntireString)
	if err != nil {
		return nil, false
	}
	rx, err := regexp.Compile(expr)
	return rx, err == nil
}

// trimOp removes the shortest or longest prefix or suffix that matches.
func trimOp(op syntax.ParExpOperator, val, pat string) (string, bool) {
	rx, ok := compile(pat)
	if !ok {
		return "", false
	}
	cuts := make([]int, len(val)+1)
	for i := range cuts {
		cuts[i] = i
	}
	switch op {
	case syntax.RemSmallPrefix:
		for _, i := range cuts {
			if rx.MatchString(val[:i]) {
				return val[i:], true
			}
		}
	case syntax.RemLargePrefix:
		for k := len(cuts) - 1; k >= 0; k-- {
			if rx.MatchString(val[:cuts[k]]) {
				return val[cuts[k]:], true
			}
		}
	case syntax.RemSmallSuffix:
		for k := len(cuts) - 1; k >= 0; k-- {
			if rx.MatchString(val[cuts[k]:]) {
				return val[:cuts[k]], true
			}
		}
	case syntax.RemLargeSuffix:
		for _, i := range cuts {
			if rx.MatchString(val[i:]) {
				return val[:i], true
			}
		}
	}
	return val, true
}

// replOp replaces the first (all: every) longest match of orig; an orig
// starting with # or % is anchored at the start or end.
func replOp(val, orig, with string, all bool) (string, bool) {
	anchor := byte(0)
	if orig != "" && (orig[0] == '#' || orig[0] == '%') && !all {
		anchor, orig = orig[0], orig[1:]
	}
	if orig == "" && anchor == 0 {
		return val, true
	}
	rx, ok := compile(orig)
	if !ok {
		return "", false
	}
	sub := func(m string) string {
		var b strings.Builder
		for i := 0; i < len(with); i++ {
			switch {
			case with[i] == '\\' && i+1 < len(with):
				i++
				b.WriteByte(with[i])
			case with[i] == '&':
				b.WriteString(m)
			default:
				b.WriteByte(with[i])
			}
		}
		return b.String()
	}
	switch anchor {
	case '#':
		for j := len(val); j >= 0; j-- {
			if rx.MatchString(val[:j]) {
				return sub(val[:j]) + val[j:], true
			}
		}
		return val, true
	case '%':
		for i := 0; i <= len(val); i++ {
			if rx.MatchString(val[i:]) {
				return val[:i] + sub(val[i:]), true
			}
		}
		return val, true
	}
	if val == "" {
		if rx.MatchString("") {
			return sub(""), true // ${x/*/z} of an empty x is z
		}
		return "", true
	}
	var b strings.Builder
	for i := 0; i < len(val); {
		// The longest match starting here, if any.
		end := -1
		for j := len(val); j > i; j-- {
			if rx.MatchString(val[i:j]) {
				end = j
				break
			}
		}
		if end < 0 {
			b.WriteByte(val[i])
			i++
			continue
		}
		b.WriteString(sub(val[i:end]))
		i = end
		if !all {
			b.WriteString(val[i:])
			return b.String(), true
		}
	}
	return b.String(), true
}

// sliceOp is ${x:off:len} with literal numbers.
func sliceOp(s *syntax.Slice, val string) (string, bool) {
	num := func(e syntax.ArithmExpr) (int, bool) {
		switch e := e.(type) {
		case *syntax.Word:
			n, err := strconv.Atoi(e.Lit())
			return n, err == nil
		case *syntax.UnaryArithm:
			if w, ok := e.X.(*syntax.Word); ok && (e.Op == syntax.Minus || e.Op == syntax.Plus) && !e.Post {
				n, err := strconv.Atoi(w.Lit())
				if e.Op == syntax.Minus {
					n = -n
				}
				return n, err == nil
			}
		}
		return 0, false
	}
	off := 0
	if s.Offset != nil {
		var ok bool
		if off, ok = num(s.Offset); !ok {
			return "", false
		}
	}
	if off < 0 {
		off += len(val)
	}
	if off < 0 || off > len(val) {
		return "", true
	}
	end := len(val)
	if s.Length != nil {
		n, ok := num(s.Length)
		if !ok {
			return "", false
		}
		if n < 0 {
			end = len(val) + n
			if end < off {
				return "", false // bash: substring expression < 0, and the command does not run
			}
		} else {
			end = min(off+n, len(val))
		}
	}
	return val[off:end], true
}

// caseOp is ${x^}, ${x^^}, ${x,} and ${x,,}.
func caseOp(op syntax.ParExpOperator, val string) string {
	switch op {
	case syntax.UpperAll:
		return strings.ToUpper(val)
	case syntax.LowerAll:
		return strings.ToLower(val)
	}
	if val == "" {
		return val
	}
	r, n := utf8.DecodeRuneInString(val)
	if op == syntax.UpperFirst {
		return strings.ToUpper(string(r)) + val[n:]
	}
	return strings.ToLower(string(r)) + val[n:]
}
