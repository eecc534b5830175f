package word

import "strings"

// SegKind says what a segment of a word is.
type SegKind uint8

const (
	Lit    SegKind = iota // literal text
	Star                  // unquoted *: any run of characters (in a glob word: not '/')
	Quest                 // unquoted ?: one character
	Class                 // unquoted [...]: one character of a set; Text is the body without brackets
	Hole                  // anything at all, unknown until run time; Text describes it ("$x", "$(…)")
	Digits                // a non-negative decimal number not known until run time ($$, ${#x})
)

// Seg is one segment of a word.
type Seg struct {
	Kind SegKind
	// Data marks a Hole that stands for data the command reads or makes
	// at run time (a command's output, a line read, a value the text
	// computes from such): it may be anything, the path of a secret
	// included. A Hole without it is a value from outside the text (the
	// environment, the arguments), which the command cannot choose.
	Data bool
	// Secret marks a Hole that may hold the value of a variable whose
	// name says it is a secret (argspec.SecretName): $GITHUB_TOKEN,
	// ${API_KEY:0:4}, ${x:-$NPM_TOKEN}. Where such a value goes is judged
	// (a read is a send); ${#TOKEN} and ${TOKEN:+set} are not marked.
	Secret bool
	Text   string
	// Found, for a Data Hole that is the output of a find whose words are
	// known ($(find src -name '*.go')), is that find's argv: paths below
	// its starting points, as far as file names without blanks go.
	Found []string
}

// Word is a bash word as far as it is known statically.
type Word struct {
	Segs []Seg
	// Split is set when an unquoted expansion in the word undergoes word
	// splitting: at run time the word may become several words or none.
	Split bool
	// Multi is set for "$@"-like expansions: any number of words, each of any value.
	Multi bool
	// Matches lists the absolute paths a glob word matched in the file
	// system when it was judged (bash would pass these instead of the word).
	Matches []string
}

// FromLit returns the static word s.
func FromLit(s string) Word {
	if s == "" {
		return Word{Segs: []Seg{{Kind: Lit}}}
	}
	return Word{Segs: []Seg{{Kind: Lit, Text: s}}}
}

// Unknown returns a word that could be anything; desc says where it came from.
func Unknown(desc string) Word { return Word{Segs: []Seg{{Kind: Hole, Text: desc}}} }

// UnknownData is Unknown for data the command reads or makes at run time
// (Seg.Data).
func UnknownData(desc string) Word { return Word{Segs: []Seg{{Kind: Hole, Data: true, Text: desc}}} }

// HasData reports whether a part of the word is data the command reads or
// makes at run time (Seg.Data).
func (w Word) HasData() bool {
	for _, s := range w.Segs {
		if s.Data {
			return true
		}
	}
	return false
}

// HasSecret reports whether a part of the word may hold a secret
// variable's value (Seg.Secret).
func (w Word) HasSecret() bool {
	for _, s := range w.Segs {
		if s.Secret {
			return true
		}
	}
	return false
}

// AddLit appends literal text, merging it with a preceding literal.
func (w *Word) AddLit(s string) {
	if n := len(w.Segs); n > 0 && w.Segs[n-1].Kind == Lit {
		w.Segs[n-1].Text += s
		return
	}
	w.Segs = append(w.Segs, Seg{Kind: Lit, Text: s})
}

// Add appends a segment.
func (w *Word) Add(s Seg) {
	if s.Kind == Lit {
		w.AddLit(s.Text)
		return
	}
	w.Segs = append(w.Segs, s)
}

// AddWord appends all segments of v.
func (w *Word) AddWord(v Word) {
	for _, s := range v.Segs {
		w.Add(s)
	}
	w.Split = w.Split || v.Split
	w.Multi = w.Multi || v.Multi
}

// Static returns the word's text when it has only literal segments.
func (w Word) Static() (string, bool) {
	switch len(w.Segs) {
	case 0:
		return "", !w.Multi
	case 1:
		if w.Segs[0].Kind == Lit && !w.Multi {
			return w.Segs[0].Text, true
		}
		return "", false
	}
	var b strings.Builder
	for _, s := range w.Segs {
		if s.Kind != Lit {
			return "", false
		}
		b.WriteString(s.Text)
	}
	return b.String(), !w.Multi
}

// IsStatic reports whether the word has only literal segments.
func (w Word) IsStatic() bool { _, ok := w.Static(); return ok }

// HasHole reports whether part of the word is unknown until run time.
func (w Word) HasHole() bool {
	if w.Multi {
		return true
	}
	for _, s := range w.Segs {
		if s.Kind == Hole || s.Kind == Digits {
			return true
		}
	}
	return false
}

// HasGlob reports whether the word has unquoted pattern characters.
func (w Word) HasGlob() bool {
	for _, s := range w.Segs {
		if s.Kind == Star || s.Kind == Quest || s.Kind == Class {
			return true
		}
	}
	return false
}

// Prefix returns the literal text the word certainly starts with.
func (w Word) Prefix() string {
	if len(w.Segs) == 0 || w.Segs[0].Kind != Lit {
		return ""
	}
	return w.Segs[0].Text
}

// CouldStartWith reports whether some value of the word starts with c.
func (w Word) CouldStartWith(c byte) bool {
	for _, s := range w.Segs {
		switch s.Kind {
		case Lit:
			if s.Text == "" {
				continue
			}
			return s.Text[0] == c
		case Quest, Class:
			return c != '/' // a glob never yields '/' here; be generous otherwise
		case Digits:
			return c >= '0' && c <= '9'
		default:
			// Star and Hole may be empty: the next segment may decide, but a
			// non-empty value may start with anything.
			return true
		}
	}
	return false
}

// String renders the word for people: literal text as is, other segments
// by their source ("*", "$x", "$(…)").
func (w Word) String() string {
	if len(w.Segs) == 1 {
		// Most words: the text as it is, without a copy.
		switch s := w.Segs[0]; s.Kind {
		case Lit:
			return s.Text
		case Hole, Digits:
			if s.Text != "" {
				return s.Text
			}
			return "…"
		}
	}
	var b strings.Builder
	for _, s := range w.Segs {
		switch s.Kind {
		case Lit:
			b.WriteString(s.Text)
		case Star:
			b.WriteByte('*')
		case Quest:
			b.WriteByte('?')
		case Class:
			b.WriteString("[" + s.Text + "]")
		case Hole, Digits:
			if s.Text == "" {
				b.WriteString("…")
			} else {
				b.WriteString(s.Text)
			}
		}
	}
	return b.String()
}

// Words renders a list of words, one string each.
func Strings(ws []Word) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.String()
	}
	return out
}

// Lits returns static words for each string.
func Lits(ss ...string) []Word {
	out := make([]Word, len(ss))
	for i, s := range ss {
		out[i] = FromLit(s)
	}
	return out
}

// TrimPrefix returns the word without the literal prefix p, and whether
// the word started with p.
func (w Word) TrimPrefix(p string) (Word, bool) {
	if !strings.HasPrefix(w.Prefix(), p) {
		return w, false
	}
	out := Word{Split: w.Split, Multi: w.Multi}
	out.AddLit(w.Segs[0].Text[len(p):])
	for _, s := range w.Segs[1:] {
		out.Add(s)
	}
	return out, true
}

// Cut splits the word at the first literal occurrence of sep, if the
// part before it is fully literal (as in --opt=value or of=/dev/sda).
func (w Word) Cut(sep string) (before string, after Word, ok bool) {
	p := w.Prefix()
	i := strings.Index(p, sep)
	if i < 0 {
		return "", w, false
	}
	rest, _ := w.TrimPrefix(p[:i+len(sep)])
	return p[:i], rest, true
}
