package shellparse_test

import (
	"errors"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/guard-exec/guard-exec/shellparse"
)

// allocated parses src and returns the bytes that took.
func allocated(src string) (uint64, *shellparse.Result, error) {
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	res, err := parse(src)
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc, res, err
}

var r = strings.Repeat

// Nesting of every kind the parser recurses on is refused as too large,
// in little memory, instead of overflowing the stack (a fatal error) or
// costing gigabytes.
func TestDeepNestingRefused(t *testing.T) {
	const n = 50000
	for name, src := range map[string]string{
		"$(":          "echo " + r("$(", 5000) + "x" + r(")", 5000), // old: quadratic, accepted
		"subshell":    r("(", n) + "x" + r(")", n),
		"group":       r("{ ", n) + "x" + r(";}", n),
		"if":          r("if ", n) + "x" + r(";then y;fi", n),
		"arithmetic":  "echo $((" + r("(", n) + "1" + r(")", n) + "))",
		"not":         "echo $((" + r("!", n) + "1))",
		"ternary":     "echo $((" + r("a?b:", n) + "1))",
		"[[ && ]]":    "[[ " + r("x && ", n) + "x ]]",
		"[[ ! ]]":     "[[ " + r("! ", n) + "x ]]",
		"quoted $(":   "echo " + r(`"$(`, n) + "x" + r(`)"`, n),
		"${a[":        "echo " + r("${a[", n) + "1" + r("]}", n),
		"${x:-":       "echo " + r("${x:-", n) + "1" + r("}", n),
		"time":        r("time ", n) + "x",
		"coproc":      r("coproc ", n) + "x",
		"function":    r("f() ", n) + "x",
		"here-string": r("cat <<<$(", n) + r(")", n),
		"pipeline":    r("x | ", n) + "x", // parsed without recursion, walked with
		"&& list":     r("x && ", n) + "x",
	} {
		n, res, err := allocated(src)
		var pe *shellparse.ParseError
		if !errors.As(err, &pe) || !pe.TooLarge || res != nil {
			t.Errorf("%s: got %v; want a TooLarge *ParseError", name, err)
		}
		if n > 64<<20 {
			t.Errorf("%s: %d MiB allocated", name, n>>20)
		}
	}
	// Ordinary depths still parse.
	for _, src := range []string{
		"echo " + r("$(", 40) + "x" + r(")", 40),
		r("(", 200) + "x" + r(")", 200),
		"[[ " + r("x && ", 500) + "x ]]",
		r("if x; then ", 100) + "y" + r("; fi", 100),
	} {
		if _, err := parse(src); err != nil {
			t.Errorf("%.40s…: %v", src, err)
		}
	}
}

// Substitutions and wrappers nested past MaxDepth are opaque commands (so
// never allowed); each command carries its layers, so their cost is no
// longer depth × commands.
func TestDeepLayers(t *testing.T) {
	for _, src := range []string{
		"echo " + r("$(", shellparse.MaxDepth+1) + "x" + r(")", shellparse.MaxDepth+1),
		r("env ", 3000) + "rm -rf /",
		r("nice -n 1 ", 1000) + "rm -rf /",
	} {
		res, err := parse(src)
		if err != nil {
			t.Fatalf("%.20s…: %v", src, err)
		}
		opaque := false
		for _, c := range res.Cmds {
			opaque = opaque || strings.Contains(c.Opaque, "nested more than")
			if len(c.Via) > shellparse.MaxDepth {
				t.Errorf("%.20s…: %d layers", src, len(c.Via))
				break
			}
		}
		if !opaque {
			t.Errorf("%.20s…: no opaque command", src)
		}
	}
	cmds := func(depth int) string { return "echo " + r("$(", depth) + r("x;", 20000) + r(")", depth) }
	shallow, _, err1 := allocated(cmds(1))
	deep, _, err2 := allocated(cmds(60))
	if err1 != nil || err2 != nil || deep > 2*shallow {
		t.Errorf("20,000 commands 60 substitutions deep take %d KiB, 1 deep %d KiB (%v, %v); want about the same", deep>>10, shallow>>10, err1, err2)
	}
}

// A substitution's words are read again for what it prints ($(echo …),
// $(find …) feeding a reader): the layers inside are not walked again.
// Each layer re-read walked the ones below twice, so 24 layers took 2^24
// steps and ended in "too much work"; now 60 cost a few times 30.
func TestRereadSubstitutionsLinear(t *testing.T) {
	for _, layer := range []string{
		"$(find X)", `"$(find X)"`, "$(find X | xargs cat)", "${v:-$(find X)}", "a=$(find X)",
		"$(find . -name X -exec cat {} +)", "$(echo X)", "$(printf %s X)", "$(cat <<E\n$(echo X)\nE\n)",
	} {
		nest := func(depth int) string {
			s := "x"
			for i := range depth {
				// A heredoc's delimiter of its own at each depth: bash
				// ends an outer body at the first line that is its
				// delimiter, an inner one's too.
				s = strings.ReplaceAll(strings.ReplaceAll(layer, "E", "E"+strconv.Itoa(i)), "X", s)
			}
			return "cat " + s
		}
		half, _, err1 := allocated(nest(30))
		full, res, err2 := allocated(nest(60))
		if err1 != nil || err2 != nil {
			t.Errorf("%s 60 deep: %v, %v", layer, err1, err2)
			continue
		}
		if full > 6*half {
			t.Errorf("%s: 60 layers take %.1f times the memory of 30 (%d KiB)", layer, float64(full)/float64(half), full>>10)
		}
		if strings.HasPrefix(layer, "$(echo") || strings.HasPrefix(layer, "$(printf") {
			if got := res.Cmds[len(res.Cmds)-1].Argv; len(got) != 2 || got[1].String() != "x" {
				t.Errorf("%s 60 deep: cat's words %v; want its value, x", layer, got)
			}
		}
	}
}

// A word built of many pieces costs memory in proportion to its length:
// eight times the text, about eight times the memory (it was 64 times:
// each piece copied the text so far).
func TestLongWordsLinear(t *testing.T) {
	for name, gen := range map[string]func(n int) string{
		`"$HOME …"`:        func(n int) string { return `echo "` + r("$HOME ", n) + `"` },
		"here-document":    func(n int) string { return "cat <<EOF\n" + r("line $HOME x\n", n) + "EOF\n" },
		"assignment":       func(n int) string { return "x=" + r("$HOME", n) + "; echo $x" },
		"eval's arguments": func(n int) string { return "eval echo " + r("$HOME ", n) },
	} {
		small, _, err1 := allocated(gen(2000))
		large, _, err2 := allocated(gen(16000))
		if err1 != nil || err2 != nil || large > 20*small {
			t.Errorf("%s: 8 times the text takes %.1f times the memory (%d KiB; %v, %v)", name, float64(large)/float64(small), large>>10, err1, err2)
		}
	}
}

// A brace expansion too large to spell out is an unknown word, found so
// by counting: spelling out {a,b}{a,b}… up to the limit cost the limit ×
// the number of braces squared (100 of them: 350 MB).
func TestLargeBracesCounted(t *testing.T) {
	n, res, err := allocated("rm " + r("{a,b}", 100))
	if err != nil || len(res.Cmds) != 1 || !res.Cmds[0].Argv[1].HasHole() {
		t.Fatalf("got %v, %v; want one command with an unknown argument", res, err)
	}
	if n > 16<<20 {
		t.Errorf("%d MiB allocated", n>>20)
	}
}

// The words of all commands reported are bounded, not only the text:
// brace expansions multiply words, and wrappers report the rest of their
// words again at each level.
func TestWordsBounded(t *testing.T) {
	for _, src := range []string{
		"echo " + r("{1..4096} ", 300),
		r("env ", 100000) + "x",
		// Refused once the words pass the bound, not after spelling out
		// all 12 million (4 MiB of them took 24 GB and 11 minutes).
		"echo " + r("{1..4096} ", 3000),
		"a=(" + r("{1..4096} ", 3000) + ")",
	} {
		n, res, err := allocated(src)
		var pe *shellparse.ParseError
		if !errors.As(err, &pe) || !pe.TooLarge || res != nil {
			t.Errorf("%.20s…: got %v; want a TooLarge *ParseError", src, err)
		}
		if n > 768<<20 { // about 600 bytes a word
			t.Errorf("%.20s…: %d MiB allocated", src, n>>20)
		}
	}
}

// Arithmetic evaluates a variable's value as an expression, and each name
// in it in turn: each name once in one arithmetic, so a value naming
// another twice (a=a==a, a0=a1+a1, a1=a2+a2, …) is not evaluated 2^depth
// times (a=a==a;$((a)) ran forever).
func TestArithmeticNamesOnce(t *testing.T) {
	var chain strings.Builder
	for i := range 30 {
		chain.WriteString("a" + strconv.Itoa(i) + "=a" + strconv.Itoa(i+1) + "+a" + strconv.Itoa(i+1) + "; ")
	}
	for name, src := range map[string]string{
		"self, twice": "a=a==a; echo $((a))",
		"a chain":     chain.String() + "a30=1; echo $((a0))",
	} {
		done := make(chan error, 1)
		go func() { _, err := parse(src); done <- err }()
		select {
		case <-done:
		case <-time.After(time.Minute):
			t.Fatalf("%s: not judged in a minute", name)
		}
	}
}

// A variable's known value is bounded: a=$a$a forty times was a value of
// a terabyte, built by the walk.
func TestValuesBounded(t *testing.T) {
	for name, step := range map[string]string{
		"a=$a$a":          "a=$a$a",
		`a="$a $a"`:       `a="$a $a"`,
		"a+=$a":           "a+=$a",
		`a=("${a[@]}"…)`:  `a=("${a[@]}" "${a[@]}")`,
		"export a=$a$a$a": "export a=$a$a$a",
	} {
		src := "a=x; " + strings.Repeat(step+"; ", 40) + "echo $a \"${a[@]}\""
		done := make(chan error, 1)
		go func() { _, err := parse(src); done <- err }()
		select {
		case <-done:
		case <-time.After(time.Minute):
			t.Fatalf("%s: not judged in a minute", name)
		}
	}
}
