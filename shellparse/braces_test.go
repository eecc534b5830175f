package shellparse

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// TestBracesAsExpand: the adapted brace expansion gives the words the
// upstream one gives.
func TestBracesAsExpand(t *testing.T) {
	words := []string{
		"a{b,c}d", "{1..5}", "{5..1}", "{01..10}", "{-3..3..2}", "{a..e}", "{e..a..2}",
		"x{1..3}{a,b}y", "{a,{b,c}}", "{,x}", "pre{}post", "{1..10..0}", "{a,b", "{1..3}'{q,r}'",
		"{z..a..-3}", "{-01..3}", `"{a,b}"{c,d}`, "$x{a,b}", "{1..2}{3..4}{5..6}",
	}
	p := syntax.NewParser()
	for _, src := range words {
		f, err := p.Parse(strings.NewReader("echo "+src), "")
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		wd := f.Stmts[0].Cmd.(*syntax.CallExpr).Args[1]
		syntax.SplitBraces(wd)
		var want, got []string
		for w, err := range expand.BracesSeq(nil, wd) {
			if err != nil {
				t.Fatalf("%s: %v", src, err)
			}
			want = append(want, printWord(w))
		}
		if !expandBraces(wd, func(w *syntax.Word) bool { got = append(got, printWord(w)); return true }) {
			t.Fatalf("%s: over the limit", src)
		}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("%s: got %q, expand.BracesSeq gives %q", src, got, want)
		}
	}
	// Past the limit: reported, not listed.
	f, _ := p.Parse(strings.NewReader("echo {1..100}{1..100}{1..100}"), "")
	wd := f.Stmts[0].Cmd.(*syntax.CallExpr).Args[1]
	syntax.SplitBraces(wd)
	n := 0
	if expandBraces(wd, func(*syntax.Word) bool { n++; return true }) || n != braceLimit {
		t.Errorf("a million words: %d yielded, want the limit %d and a failure", n, braceLimit)
	}
}

func printWord(w *syntax.Word) string {
	var sb strings.Builder
	syntax.NewPrinter().Print(&sb, w)
	return sb.String()
}

// TestBraceWords: the count made before spelling out an expansion is the
// number of words it spells out, and past the limits it is too many.
func TestBraceWords(t *testing.T) {
	p := syntax.NewParser()
	for _, src := range []string{
		"a{b,c}d", "{1..5}", "{5..1}", "{01..10}", "{-3..3..2}", "{a..e}", "{e..a..2}",
		"x{1..3}{a,b}y", "{a,{b,c}}", "{,x}", "{1..10..0}", "{z..a..-3}", "{-01..3}",
		"{1..2}{3..4}{5..6}", "{a,b{1..3},c{x,y}}", "{1..4096}", "{1..4097}", "{a,b}{1..2048}", "{a,b}{1..2049}",
		strings.Repeat("{a,b}", 12), strings.Repeat("{a,b}", 13), strings.Repeat("{1..1}", 32), strings.Repeat("{1..1}", 33),
	} {
		f, err := p.Parse(strings.NewReader("echo "+src), "")
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		wd := f.Stmts[0].Cmd.(*syntax.CallExpr).Args[1]
		syntax.SplitBraces(wd)
		n, braces := 0, 0
		expandBraces(wd, func(*syntax.Word) bool { n++; return true })
		var count func(parts []syntax.WordPart)
		count = func(parts []syntax.WordPart) {
			for _, p := range parts {
				if br, ok := p.(*syntax.BraceExp); ok {
					braces++
					for _, e := range br.Elems {
						count(e.Parts)
					}
				}
			}
		}
		count(wd.Parts)
		want := n
		if n > maxBraceWords || braces > maxBraces {
			want = maxBraceWords + 1
		}
		if got := braceWords(wd.Parts, 0); got != want {
			t.Errorf("%.30s: %d words counted, %d spelled out (%d braces)", src, got, n, braces)
		}
	}
}
