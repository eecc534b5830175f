package word

import (
	"math/rand"
	"strings"
	"testing"
	"unicode"
)

func TestFoldRune(t *testing.T) {
	// Every member of an orbit folds to the same representative, and so
	// does its upper case (NTFS's comparison), and folding is idempotent.
	for r := rune(0); r < 0x20000; r++ {
		f := foldRune(r)
		for o := unicode.SimpleFold(r); o != r; o = unicode.SimpleFold(o) {
			if foldRune(o) != f {
				t.Fatalf("%U folds to %U, its orbit's %U to %U", r, f, o, foldRune(o))
			}
		}
		if u := unicode.ToUpper(r); foldRune(u) != f {
			t.Fatalf("%U folds to %U, its upper case %U to %U", r, f, u, foldRune(u))
		}
		if f >= 0 && foldRune(f) != f {
			t.Fatalf("%U folds to %U, which folds to %U", r, f, foldRune(f))
		}
	}
	for in, want := range map[string]string{
		"/Users/Chris/.SSH/ID_RSA": "/users/chris/.ssh/id_rsa",
		"/home/u/.ſsh":             "/home/u/.ssh", // ſ (long s) is an s
		"\u212Aube":                "kube",         // the Kelvin sign is a k
		"plain/lower":              "plain/lower",
		"àé/ß/ẞ":                   "ÀÉ/ß/ß",      // no ASCII: the orbit's smallest
		".gıt/ıd_rsa":              ".git/id_rsa", // NTFS upper-cases the dotless ı to I
		".g\u200cit/\ufeffx\u202e": ".git/x",      // HFS+ ignores these
	} {
		if got := FoldCase(in); got != want {
			t.Errorf("FoldCase(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPathMatchFold(t *testing.T) {
	tests := []struct {
		pat  string
		word Word
		want Tri
	}{
		{"/h/.ssh/**", FromLit("/h/.SSH/ID_RSA"), Yes},
		{"/h/.ssh/**", FromLit("/H/.Ssh"), Yes},
		{"/h/.ssh/**", FromLit("/h/.ſsh/id"), Yes},
		{"/h/.ssh/**", FromLit("/h/.sshx/id"), No},
		{"/h/.kube/config", FromLit("/h/.\u212Aube/CONFIG"), Yes},
		{"/h/.ssh/*.pub", FromLit("/h/.ssh/ID.PUB"), Yes},
		{"**/.env", FromLit("/p/.ENV"), Yes},
		{"**/.env", w(hole(), l("/.Env")), Yes},
		{"/h/.ssh/**", w(l("/H/.SSH/"), hole()), Yes},
		{"/h/.ssh/**", w(l("/H/"), hole()), Maybe},
		{"/h/.ssh/**", w(l("/x/"), hole()), No},
		{"/h/.aws/credentials", w(l("/h/.AWS/"), Seg{Kind: Star}), Maybe},
		{"/h/.aws/credentials", w(l("/h/.AWS/C"), Seg{Kind: Star}), Maybe},
		{"/h/.aws/credentials", w(l("/h/.AWS/x"), Seg{Kind: Star}), No},
		{"/h/.{aws,ssh}/**", FromLit("/h/.AWS/x"), Yes},
		{"/dev/sd[a-z]*", FromLit("/dev/SDA1"), Yes},
		{"/dev/sd[a-z]*", FromLit("/dev/sd1"), No},
		{"/dev/sd[!a-z]", FromLit("/dev/sdA"), Yes}, // A itself is not in a-z
		{"/dev/sd[!a-zA-Z]", FromLit("/dev/sda"), No},
		{"/dev/sd[!A-Z]", FromLit("/dev/sdA"), Yes}, // a is not in A-Z
		{"/h/id_rsa", w(l("/h/ID_"), Seg{Kind: Class, Text: "[R]"}, l("sa")), Maybe},
		{"/h/id_rsa", w(l("/h/x"), Seg{Kind: Class, Text: "[R]"}, l("sa")), No},
		{"/h/.ssh/**", w(l("/h/.ssh/"), Seg{Kind: Class, Text: "[a-z]"}), Yes},
		// A class without letters folds to itself: answered exactly.
		{"**/.git/**", w(l("/p/tests/t[1]"), Seg{Kind: Class, Text: "1"}), No},
		{"**/.git/**", w(l("/p/.GIT/t"), Seg{Kind: Class, Text: "0-9"}), Yes},
		{"**/.git/**", w(l("/p/"), Seg{Kind: Class, Text: "0-9"}, l(".GIT/x")), No},
		{"**/.git/**", w(l("/p/.gi"), Seg{Kind: Class, Text: "0-9"}, l("/x")), No},
		{"**/.git/**", w(l("/p/.gi"), Seg{Kind: Class, Text: "a-z"}, l("/x")), Maybe},
		// ASCII letters fold member by member: [dev] is never .guard-exec.toml.
		{"/p/.guard-exec.toml", w(l("/p/."), Seg{Kind: Class, Text: "dev"}), No},
		{"/p/.g", w(l("/p/."), Seg{Kind: Class, Text: "dev"}), No},
		{"/p/.e", w(l("/p/."), Seg{Kind: Class, Text: "DEV"}), Maybe},
		{"/p/.e", w(l("/p/."), Seg{Kind: Class, Text: "E"}), Yes},
		{"/p/.]", w(l("/p/."), Seg{Kind: Class, Text: `\]`}), Yes},
		{"/p/.e", w(l("/p/."), Seg{Kind: Class, Text: "!E"}), Maybe},
	}
	for _, tt := range tests {
		p, err := CompilePathFold(tt.pat)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Match(tt.word); got != tt.want {
			t.Errorf("fold %q ~ %q = %v, want %v", tt.pat, tt.word.String(), got, tt.want)
		}
	}
	// Literal() and String() are the pattern as written.
	p, _ := CompilePathFold("/Users/C/.ssh")
	if s, ok := p.Literal(); !ok || s != "/Users/C/.ssh" || p.String() != "/Users/C/.ssh" {
		t.Errorf("Literal() = %q, %v; String() = %q", s, ok, p.String())
	}
}

// caseVariants returns every spelling of s that differs in the case of
// its ASCII letters (at most 2^10 of them).
func caseVariants(s string) []string {
	out := []string{""}
	for _, r := range s {
		alts := []rune{r}
		if unicode.IsLetter(r) && r < 0x80 {
			alts = []rune{unicode.ToLower(r), unicode.ToUpper(r)}
		}
		var next []string
		for _, o := range out {
			for _, a := range alts {
				next = append(next, o+string(a))
			}
		}
		out = next
	}
	return out
}

// The definition: a folding pattern matches a path when some spelling of
// the path that differs only in case matches the pattern exactly. Words
// with unknown parts: never a No where some spelling might match, never
// less than the exact answer.
func TestPathMatchFoldIsSomeSpelling(t *testing.T) {
	pats := []string{"/h/.ssh/**", "**/.env", "/a/*/C", "/A/**/c", "a/**", "*.Go", "/x/[a-c]?/y", "/x/[!a]*",
		"/{a,B}/**/z", "/h/.aws/credentials", "/p/**/.env.*", "/x/[A-C]b"}
	alpha := []string{"/", "a", "A", "b", "B", "c", "C", ".", "x", "y", "Z", "e", "h", "env", "ENV", "ssh", "SSH", "go"}
	r := rand.New(rand.NewSource(2))
	for _, ps := range pats {
		fp, err := CompilePathFold(ps)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 400; i++ {
			n := r.Intn(7)
			s := ""
			for j := 0; j < n; j++ {
				s += alpha[r.Intn(len(alpha))]
			}
			if len(caseVariantsLetters(s)) > 6 {
				continue
			}
			ex, _ := CompilePath(ps)
			want := false
			for _, v := range caseVariants(s) {
				if ex.MatchString(v) {
					want = true
					break
				}
			}
			if got := fp.MatchString(s); got != want {
				t.Fatalf("fold %q, path %q: %v, some spelling matches: %v", ps, s, got, want)
			}
			if got := fp.Match(FromLit(s)); got != map[bool]Tri{true: Yes, false: No}[want] {
				t.Fatalf("fold %q, word %q: %v, want %v", ps, s, got, want)
			}
			// A hole at a random place: some spelling of a value that
			// matches means not No; the exact answer is a floor.
			k := r.Intn(len(s) + 1)
			hw := w(l(s[:k]), hole(), l(s[k:]))
			got := fp.Match(hw)
			if exact := ex.Match(hw); got < exact {
				t.Fatalf("fold %q, word %q: %v, exact %v", ps, hw.String(), got, exact)
			}
			for _, v := range caseVariants(s[:k] + s[k:]) {
				vw := w(l(v[:k]), hole(), l(v[k:]))
				if ex.Match(vw) != No && got == No {
					t.Fatalf("fold %q, word %q: no, but %q may match", ps, hw.String(), vw.String())
				}
				if ex.Match(vw) == Yes && got != Yes {
					t.Fatalf("fold %q, word %q: %v, but %q matches certainly", ps, hw.String(), got, vw.String())
				}
			}
		}
	}
}

func FuzzPathMatchFold(f *testing.F) {
	f.Add("/h/.ssh/**", "/H/.SSH/id")
	f.Add("/x/[!a]*", "/x/A")
	f.Add("**/.env.*", "/p/.ENV.local")
	f.Fuzz(func(t *testing.T, ps, s string) {
		if len(s) > 24 || strings.Count(s, "") > 25 {
			return
		}
		fp, err := CompilePathFold(ps)
		if err != nil {
			return
		}
		if len(caseVariantsLetters(s)) > 8 {
			return
		}
		ex, _ := CompilePath(ps)
		want := false
		for _, v := range caseVariants(s) {
			if ex.MatchString(v) {
				want = true
				break
			}
		}
		if got := fp.MatchString(s); got && !want && strings.IndexFunc(ps+s, func(r rune) bool { return r >= 0x80 }) < 0 {
			t.Fatalf("fold %q, path %q: matches, but no ASCII spelling does", ps, s)
		} else if !got && want {
			t.Fatalf("fold %q, path %q: no match, but a spelling does", ps, s)
		}
	})
}

func caseVariantsLetters(s string) []rune {
	var out []rune
	for _, r := range s {
		if unicode.IsLetter(r) && r < 0x80 {
			out = append(out, r)
		}
	}
	return out
}
