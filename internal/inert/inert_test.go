package inert

import (
	"testing"
	"unicode/utf8"
)

func TestInert(t *testing.T) {
	for _, c := range []struct{ in, str, line string }{
		{"echo hi", "echo hi", "echo hi"},
		{"a\nb\tc", "a\nb\tc", `a\nb` + "\tc"},
		{"rm -rf ~\x1b[2K\x1b[1A", `rm -rf ~\x1b[2K\x1b[1A`, `rm -rf ~\x1b[2K\x1b[1A`},
		{"x\x1b]0;title\x07", `x\x1b]0;title\x07`, `x\x1b]0;title\x07`},
		{"ok\rfake", `ok\rfake`, `ok\rfake`},
		{"del\x7f", `del\x7f`, `del\x7f`},
		{"c1 \u009b2J", `c1 \x9b2J`, `c1 \x9b2J`},
		{"bidi \u202eevil", `bidi \u202eevil`, `bidi \u202eevil`},
		{"zw\u200bsp", `zw\u200bsp`, `zw\u200bsp`},
		{"bad \xff\xfe", `bad \xff\xfe`, `bad \xff\xfe`},
		{"café ünïcode 日本", "café ünïcode 日本", "café ünïcode 日本"},
		{`back\slash`, `back\slash`, `back\slash`},
	} {
		if got := String(c.in); got != c.str {
			t.Errorf("String(%q) = %q, want %q", c.in, got, c.str)
		}
		if got := Line(c.in); got != c.line {
			t.Errorf("Line(%q) = %q, want %q", c.in, got, c.line)
		}
	}
}

// FuzzInert: whatever the input, the output holds no byte or character a
// terminal acts on (newlines and tabs aside), and is valid UTF-8.
func FuzzInert(f *testing.F) {
	for _, s := range []string{"\x1b[31m", "a\nb", "\u202e", "\xff", "\u0085", "plain"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, out := range []string{String(s), Line(s)} {
			if !utf8.ValidString(out) {
				t.Fatalf("invalid UTF-8 out of %q: %q", s, out)
			}
			for _, r := range out {
				if r != '\n' && r != '\t' && acts(r) {
					t.Fatalf("%q left %U in %q", s, r, out)
				}
			}
		}
		for _, r := range Line(s) {
			if r == '\n' {
				t.Fatalf("Line(%q) kept a newline", s)
			}
		}
	})
}
