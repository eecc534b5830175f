package word

import "strings"

// IsName reports whether s is a shell variable name: a letter or
// underscore, then letters, digits and underscores.
func IsName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9' {
			continue
		}
		return false
	}
	return true
}

// IsInteger reports whether s is a decimal integer with an optional sign.
func IsInteger(s string) bool {
	return IsDigits(strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+"))
}

// IsDigits reports whether s is one or more decimal digits.
func IsDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// ShellQuote quotes s for a shell in single quotes.
func ShellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// Join joins words with sep between them, in time linear in their size
// (AddLit copies the literal so far each time). The result's Split and
// Multi are those of any of the words.
func Join(ws []Word, sep string) Word {
	var out Word
	var lit []byte
	inLit := false
	flush := func() {
		if inLit {
			out.Segs = append(out.Segs, Seg{Kind: Lit, Text: string(lit)})
			lit, inLit = lit[:0], false
		}
	}
	for i, w := range ws {
		if i > 0 && sep != "" {
			lit, inLit = append(lit, sep...), true
		}
		for _, s := range w.Segs {
			if s.Kind == Lit {
				lit, inLit = append(lit, s.Text...), true
				continue
			}
			flush()
			out.Segs = append(out.Segs, s)
		}
		out.Split = out.Split || w.Split
		out.Multi = out.Multi || w.Multi
	}
	flush()
	return out
}
