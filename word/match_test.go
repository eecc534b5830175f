package word

import (
	"math/rand"
	"testing"
)

func hole() Seg { return Seg{Kind: Hole, Text: "$x"} }

func w(segs ...Seg) Word { return Word{Segs: segs} }
func l(s string) Seg     { return Seg{Kind: Lit, Text: s} }

func TestPathMatch(t *testing.T) {
	tests := []struct {
		pat  string
		word Word
		want Tri
	}{
		{"/etc/**", FromLit("/etc/passwd"), Yes},
		{"/etc/**", FromLit("/etc"), Yes},
		{"/etc/**", FromLit("/etcx"), No},
		{"/etc/**", w(l("/etc/"), hole()), Yes},
		{"/etc/**", w(l("/"), hole()), Maybe},
		{"/etc/**", w(l("/tmp/"), hole()), No},
		{"/home/u/p/**", w(l("/home/u/p/build/"), hole()), Yes},
		{"**/.env", w(hole(), l("/.env")), Yes},
		{"**/.env", w(hole(), l(".env")), Maybe},
		{"/a/*/c", w(l("/a/"), hole(), l("/c")), Maybe},
		{"/a/*/c", w(l("/a/"), Seg{Kind: Star}, l("/c")), Yes},
		{"/a/**/c", FromLit("/a/c"), Yes},
		{"/a/**/c", FromLit("/a/b/d/c"), Yes},
		{"/a/{b,c}/d", FromLit("/a/c/d"), Yes},
		{"/a/{b,c}/d", w(l("/a/"), hole(), l("/d")), Maybe},
		{"/dev/sd[a-z]*", FromLit("/dev/sda1"), Yes},
		{"/dev/sd[a-z]*", w(l("/dev/sd"), hole()), Maybe},
		{"/*", w(l("/"), Seg{Kind: Star}), Yes},
		{"/", w(l("/"), Seg{Kind: Star}), Maybe},
		// bash's collating symbols and equivalence classes: any character.
		{"**/id_rsa", w(l("/h/id"), Seg{Kind: Class, Text: "[.underscore.]"}, l("rsa")), Maybe},
		{"**/id_rsa", w(l("/h/i"), Seg{Kind: Class, Text: "[=d=]"}, l("_rsa")), Maybe},
		{"**/id_rsa", w(l("/h/i"), Seg{Kind: Class, Text: "[:digit:]"}, l("_rsa")), No},
		{"**/id_rsa", w(l("/h/"), Seg{Kind: Class, Text: "[:alpha:]"}, l("d_rsa")), Maybe},
	}
	for _, tt := range tests {
		p, err := CompilePath(tt.pat)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Match(tt.word); got != tt.want {
			t.Errorf("%q ~ %q = %v, want %v", tt.pat, tt.word.String(), got, tt.want)
		}
	}
}

func TestCommandMatch(t *testing.T) {
	star := Seg{Kind: Star}
	tests := []struct {
		pat  []Seg
		word Word
		want Tri
	}{
		{[]Seg{star}, w(hole()), Yes},
		{[]Seg{l("--force")}, w(hole()), Maybe},
		{[]Seg{l("--force")}, w(l("--f"), hole()), Maybe},
		{[]Seg{l("--force")}, w(l("x"), hole()), No},
		{[]Seg{l("+"), star}, FromLit("+main"), Yes},
		{[]Seg{l("+"), star}, FromLit("main"), No},
		{[]Seg{star, l("rm -rf"), star}, FromLit("a/b rm -rf c"), Yes},
		{[]Seg{l("a"), star}, w(l("a"), hole()), Yes},
	}
	for _, tt := range tests {
		p, err := CompileSegs(tt.pat)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Match(tt.word); got != tt.want {
			t.Errorf("%q ~ %q = %v, want %v", p, tt.word.String(), got, tt.want)
		}
	}
}

// The automaton used for dynamic words must agree with doublestar on
// static strings, or a Maybe could hide a Yes.
func TestPathNFAAgreesWithDoublestar(t *testing.T) {
	pats := []string{"/etc/**", "**/.env", "/a/*/c", "/a/**/c", "a/**", "**", "*.go", "src/**.go",
		"/x/[a-c]?/y", "/x/[!a]*", "/{a,b}/**/z", "/a/**/b/**/c", "/**/x"}
	alpha := []string{"/", "a", "b", "c", ".", "x", "y", "z", "e", "t", "n", "v", "go", "**"}
	r := rand.New(rand.NewSource(1))
	for _, ps := range pats {
		p, err := CompilePath(ps)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 3000; i++ {
			n := r.Intn(8)
			s := ""
			for j := 0; j < n; j++ {
				s += alpha[r.Intn(len(alpha))]
			}
			want := p.MatchString(s)
			if got := p.automaton().accepts(s); got != want {
				t.Fatalf("pattern %q, path %q: nfa %v, doublestar %v", ps, s, got, want)
			}
		}
	}
}

// Join is AddLit and AddWord folded, in linear time.
func TestJoin(t *testing.T) {
	lit := func(s string) Word { return FromLit(s) }
	hole := Word{Segs: []Seg{{Kind: Hole, Text: "$x"}}, Split: true}
	multi := Word{Segs: []Seg{{Kind: Hole, Text: "$@"}}, Multi: true}
	empty := Word{Segs: []Seg{{Kind: Lit, Text: ""}}}
	for _, ws := range [][]Word{
		nil, {lit("a")}, {lit("a"), lit("b")}, {lit("a"), hole, lit("c")}, {hole, hole},
		{multi, lit("x")}, {empty}, {empty, empty}, {lit("a"), {}, lit("b")},
	} {
		var want Word
		for i, w := range ws {
			if i > 0 {
				want.AddLit(" ")
			}
			want.AddWord(w)
		}
		got := Join(ws, " ")
		if got.String() != want.String() || got.Split != want.Split || got.Multi != want.Multi || len(got.Segs) != len(want.Segs) {
			t.Errorf("Join(%v) = %#v, want %#v", ws, got, want)
		}
	}
}
