package policy

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/guard-exec/guard-exec/word"
)

// splitRuleByByte is splitRule as it was, adding one literal byte at a
// time (as a byte: it once converted each to a rune, which turned every
// character outside ASCII into others): the oracle for the faster one.
func splitRuleByByte(s string) ([]word.Word, error) {
	var out []word.Word
	var cur word.Word
	has := false
	flush := func() {
		if has {
			out = append(out, cur)
		}
		cur, has = word.Word{}, false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			flush()
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unclosed ' in %q", s)
			}
			cur.AddLit(s[i+1 : i+1+j])
			i += j + 1
			has = true
		case c == '"':
			j := i + 1
			var b strings.Builder
			for ; j < len(s) && s[j] != '"'; j++ {
				if s[j] == '\\' && j+1 < len(s) && strings.IndexByte(`"\$`+"`", s[j+1]) >= 0 {
					j++
				}
				b.WriteByte(s[j])
			}
			if j >= len(s) {
				return nil, fmt.Errorf("unclosed \" in %q", s)
			}
			cur.AddLit(b.String())
			i = j
			has = true
		case c == '\\' && i+1 < len(s):
			i++
			cur.AddLit(s[i : i+1])
			has = true
		case c == '*':
			cur.Add(word.Seg{Kind: word.Star})
			has = true
		case c == '?':
			cur.Add(word.Seg{Kind: word.Quest})
			has = true
		case c == '[':
			j := strings.IndexByte(s[i+1:], ']')
			if j < 0 {
				cur.AddLit("[")
			} else {
				if j == 0 && i+2 < len(s) {
					j = strings.IndexByte(s[i+2:], ']') + 1
				}
				cur.Add(word.Seg{Kind: word.Class, Text: s[i+1 : i+1+j]})
				i += j + 1
			}
			has = true
		default:
			cur.AddLit(s[i : i+1])
			has = true
		}
	}
	flush()
	return out, nil
}

func FuzzSplitRule(f *testing.F) {
	for _, s := range []string{"git push origin feature-1", "rm -[rR]*", "'a b'\"c\\$d\" e\\ f", "x [ab] [!a] []] [", "é漢字 ?*", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, gotErr := splitRule(s)
		want, wantErr := splitRuleByByte(s)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: %#v %v, byte by byte %#v %v", s, got, gotErr, want, wantErr)
		}
	})
}

// TestSplitRuleNonASCII: a rule's words outside ASCII are the characters
// written, quoted, escaped or not.
func TestSplitRuleNonASCII(t *testing.T) {
	words, err := splitRule(`café 'naïve' \é漢字 "ü"`)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range words {
		s, _ := w.Static()
		got = append(got, s)
	}
	if want := []string{"café", "naïve", "é漢字", "ü"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// FuzzCheck: what loading checks (check, with its shortcut for plain
// commands) refuses exactly what compiling refuses.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{"git push origin feature-1", "rm -[rR]*", "ls [", "'unterminated", "", " \t", "./bin/[x", "~/bin/tool", "a{b}", "x ]"} {
		f.Add(s, "")
		f.Add(s, "src/**")
	}
	env := &Env{Home: "/home/u", Project: "/home/u/proj"}
	f.Fuzz(func(t *testing.T, command, path string) {
		a, b := &Rule{Command: command, Path: path}, &Rule{Command: command, Path: path}
		errCheck, errCompile := a.check(env), b.compile(env)
		if (errCheck == nil) != (errCompile == nil) {
			t.Fatalf("command %q path %q: check says %v, compile says %v", command, path, errCheck, errCompile)
		}
	})
}

func TestFirstField(t *testing.T) {
	for _, s := range []string{"git push", "  git\tpush", "x", "\u00a0git push", "gité x", "é", "a\u2003b", "a \u2003b", "\n\vx\f"} {
		if got, want := firstField(s), strings.Fields(s)[0]; got != want {
			t.Errorf("%q: %q, strings.Fields says %q", s, got, want)
		}
	}
}

func TestSubWord(t *testing.T) {
	for _, c := range []struct{ command, path, want string }{
		{"git push origin main", "", "push"}, {" git\tpush", "", "push"}, {"git push ", "", "push"}, {"git", "", ""},
		{"git ", "", ""}, {"git -C x status", "", ""}, {"git 'push'", "", ""}, {"git pu*", "", ""}, {"./x run", "", ""},
		{"npm\nrun test", "", "run"}, {"git push", "src/**", ""}, {"tool1 café", "", "café"},
	} {
		if got := (&Rule{Command: c.command, Path: c.path}).subWord(); got != c.want {
			t.Errorf("%q: subWord %q, want %q", c.command, got, c.want)
		}
	}
}

// TestCheckPathOddHomes: a plain path rule is checked without building
// its absolute pattern only where the project and home are plain too.
func TestCheckPathOddHomes(t *testing.T) {
	for _, env := range []*Env{{Home: "/home/u", Project: "/home/u/proj"}, {Home: "/home/u", Project: "/src/a[1"},
		{Home: "/h{", Project: "/src/p"}, {Home: `/h\`, Project: `/src/p\`}, {Home: "/h", Project: "/src/]x["}} {
		for _, path := range []string{"x", "~/x", "/abs/**", "src/**", "a[b", "~"} {
			a, b := &Rule{Path: path}, &Rule{Path: path}
			if errCheck, errCompile := a.check(env), b.compile(env); (errCheck == nil) != (errCompile == nil) {
				t.Errorf("path %q in %+v: check says %v, compile says %v", path, env, errCheck, errCompile)
			}
		}
	}
}
