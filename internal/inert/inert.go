// Package inert renders untrusted text so that a terminal shows it and
// does nothing else.
//
// Command text reaches a person through the guard's refusals, prompts,
// explanations, log listings and CI annotations. A command is written by
// whoever the guard judges, so its bytes must never act on the terminal
// that shows them: an escape sequence could move the cursor, erase the
// refusal, rewrite the question or retitle the window, and a bidirectional
// override could make the text read differently from what runs. [String]
// and [Line] replace every byte and character that a terminal may act on
// with a visible escape, and leave ordinary text, UTF-8 included, as it is.
package inert

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// String returns s with control characters shown as escapes (\x1b, \r, \x07,
// \u202e, …); newlines and tabs stay, so a multi-line command keeps its
// shape. Invalid UTF-8 bytes are shown as \xHH.
func String(s string) string { return render(s, false) }

// Line is String for a one-line context: newlines become \n too.
func Line(s string) string { return render(s, true) }

func render(s string, oneLine bool) string {
	if clean(s, oneLine) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n' && !oneLine, r == '\t':
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\\':
			// Kept as is: escapes are shown only for what was not there.
			b.WriteByte('\\')
		case acts(r):
			if r < 0x100 {
				fmt.Fprintf(&b, `\x%02x`, r)
			} else {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
		default:
			b.WriteRune(r)
		}
		i += size
	}
	return b.String()
}

// acts reports whether a terminal may act on r rather than show it: C0 and
// C1 controls, DEL, and format characters (bidirectional overrides and
// isolates, zero-width characters).
func acts(r rune) bool {
	return r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || unicode.Is(unicode.Cf, r) ||
		r == '\u2028' || r == '\u2029'
}

// clean reports whether s needs no change (the common case: no copy).
func clean(s string, oneLine bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			return !slowNeeds(s[i:], oneLine)
		}
		if c < 0x20 && c != '\t' && (c != '\n' || oneLine) || c == 0x7f {
			return false
		}
	}
	return true
}

func slowNeeds(s string, oneLine bool) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r == '\n' && oneLine || r != '\n' && r != '\t' && acts(r) {
			return true
		}
		i += size
	}
	return false
}
