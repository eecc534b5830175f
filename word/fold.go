package word

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Case-insensitive file systems (macOS's APFS and HFS+ as formatted by
// default, NTFS and FAT under WSL's /mnt/c) look a name up without regard
// to case: ~/.SSH/ID_RSA opens ~/.ssh/id_rsa, and a write to
// ~/.Claude/Settings.json changes ~/.claude/settings.json. A pattern
// compiled with CompilePathFold matches a path when some spelling of it
// that differs only in case matches (Unicode simple case folding, the
// orbits of unicode.SimpleFold). The policy compiles the patterns of the
// rules that protect (deny, ask) that way, and keeps an allow exact: a
// spelling that differs is then asked about, never allowed by the rule
// for another.

// foldRune is the representative of r's case-folding orbit: the lower
// case ASCII letter when the orbit holds an ASCII letter (k for K, k
// and the Kelvin sign; s for S, s and ſ), otherwise its smallest member.
// Lower case, so that the common path (a lower-case file name) is its
// own folding. A character is first put in upper case, as NTFS compares
// names (its table upper-cases the dotless ı to I, which simple folding
// leaves alone); -1 for a character HFS+ ignores in names (zero-width
// joiners, direction marks, the byte-order mark).
func foldRune(r rune) rune {
	if r < utf8.RuneSelf {
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}
	if ignorable(r) {
		return -1
	}
	if u := unicode.ToUpper(r); u < utf8.RuneSelf {
		return foldRune(u)
	} else {
		r = u
	}
	min := r
	for o := unicode.SimpleFold(r); o != r; o = unicode.SimpleFold(o) {
		if o < utf8.RuneSelf {
			return foldRune(o)
		}
		if o < min {
			min = o
		}
	}
	return min
}

// FoldCase returns s with every character replaced by the representative
// of its case-folding orbit: two names a case-insensitive file system
// takes for the same fold to the same string.
func FoldCase(s string) string {
	i := 0
	for ; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf || 'A' <= c && c <= 'Z' {
			break
		}
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	for _, r := range s[i:] {
		if f := foldRune(r); f >= 0 {
			b.WriteRune(f)
		}
	}
	return b.String()
}

// ignorable reports the characters HFS+ leaves out of a name when it
// compares names (Apple's TN1150; git's is_hfs_dotgit skips the same):
// .g\u200cit is .git there.
func ignorable(r rune) bool {
	return 0x200C <= r && r <= 0x200F || 0x202A <= r && r <= 0x202E || 0x206A <= r && r <= 0x206F || r == 0xFEFF
}

// foldedClass rewrites a class of ASCII characters (not negated, no
// [:name:]) as the class of their foldings: [dev] and [D-F] match what
// their members fold to. Not ok for any other class.
func foldedClass(body string) (string, bool) {
	if strings.Contains(body, "[") {
		return "", false
	}
	c, err := parseClass(body, true)
	if err != nil || c.neg {
		return "", false
	}
	var members [utf8.RuneSelf]bool
	for _, g := range c.ranges {
		if g.hi >= utf8.RuneSelf {
			return "", false
		}
		for r := g.lo; r <= g.hi; r++ {
			members[foldRune(r)] = true
		}
	}
	var b strings.Builder
	for r, in := range members {
		if in {
			if strings.ContainsRune(`]\-^!`, rune(r)) {
				b.WriteByte('\\')
			}
			b.WriteByte(byte(r))
		}
	}
	if b.Len() == 0 {
		return "", false
	}
	return b.String(), true
}

// casedClass reports whether a glob's class (a Class segment's text,
// what stands between its brackets) may hold a character that has a case.
func casedClass(body string) bool {
	if strings.Contains(body, "[") {
		return true // [:alpha:], [=a=], [.x.]: not looked into
	}
	c, err := parseClass(body, true)
	if err != nil || c.neg {
		return true
	}
	for _, g := range c.ranges {
		if g.hi >= utf8.RuneSelf || g.lo <= 'z' && g.hi >= 'A' {
			return true
		}
	}
	return false
}

// EqualFold reports whether a and b are the same name on a
// case-insensitive file system.
func EqualFold(a, b string) bool { return FoldCase(a) == FoldCase(b) }

// HasPrefixFold reports whether s starts with prefix on a
// case-insensitive file system.
func HasPrefixFold(s, prefix string) bool {
	return strings.HasPrefix(FoldCase(s), FoldCase(prefix))
}

// foldWord returns w with its literal text folded, and whether w has a
// character class that holds a character with a case (a letter, or
// anything outside ASCII): its members would fold one by one, which
// Pattern.Match does not follow. A class of digits or punctuation
// (test_x[1]) folds to itself.
func foldWord(w Word) (Word, bool) {
	classes := false
	segs := make([]Seg, len(w.Segs))
	for i, s := range w.Segs {
		switch s.Kind {
		case Lit:
			s.Text = FoldCase(s.Text)
		case Class:
			if t, ok := foldedClass(s.Text); ok {
				s.Text = t
			} else {
				classes = classes || casedClass(s.Text)
			}
		}
		segs[i] = s
	}
	w.Segs = segs
	if len(w.Matches) > 0 {
		m := make([]string, len(w.Matches))
		for i, s := range w.Matches {
			m[i] = FoldCase(s)
		}
		w.Matches = m
	}
	return w, classes
}
