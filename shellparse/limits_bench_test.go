package shellparse_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/guard-exec/guard-exec/shellparse"
)

// worstCases are the inputs that cost the parser and the walk the most
// per byte, found by profiling: each makes its text by repeating a piece
// n times. The README's limits come from BenchmarkWorstCase at
// shellparse.MaxBytes.
var worstCases = []struct {
	name string
	gen  func(n int) string
}{
	{"nested $(", func(n int) string { return "echo " + r("$(", n) + "x" + r(")", n) }},
	{"nested (", func(n int) string { return r("(", n) + "x" + r(")", n) }},
	{"nested if", func(n int) string { return r("if ", n) + "x" + r(";then y;fi", n) }},
	{"[[ && ]]", func(n int) string { return "[[ " + r("x && ", n) + "x ]]" }},
	{"time time", func(n int) string { return r("time ", n) + "x" }},
	{"pipeline", func(n int) string { return r("x | ", n) + "x" }},
	{"&& list", func(n int) string { return r("x && ", n) + "x" }},
	{"env env", func(n int) string { return r("env ", n) + "x" }},
	{"nice nice", func(n int) string { return r("nice -n 1 ", n) + "x" }},
	{"eval eval", func(n int) string { return "eval " + r("eval ", n) + "x" }},
	{"bash -c", func(n int) string { return r("bash -c ", n) + "x" }},
	{`"$HOME …"`, func(n int) string { return `echo "` + r("$HOME ", n) + `"` }},
	{"here-document", func(n int) string { return "cat <<EOF\n" + r("line $HOME x\n", n) + "EOF\n" }},
	{"here-document $(pwd)", func(n int) string { return "cat <<EOF\n" + r("line $(pwd) x\n", n) + "EOF\n" }},
	{"commands", func(n int) string { return r("x;", n) }},
	{"$(x) words", func(n int) string { return "echo " + r("$(x)", n) }},
	{"commands 60 deep", func(n int) string { return "echo " + r("$(", 60) + r("x;", n) + r(")", 60) }},
	{"array join", func(n int) string { return "a=(" + r("x ", n) + `); echo "${a[*]}"` }},
	{"braces", func(n int) string { return "echo " + r("{a,b}", n) }},
	{"brace words", func(n int) string { return "echo " + r("{1..4096} ", n) }},
	{"glob", func(n int) string { return "echo " + r("*", n) }},
	{"words", func(n int) string { return "echo " + r("a ", n) }},
	{"functions calling functions", func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "f%d() { f%d; }\n", i, i+1)
		}
		return b.String() + "f0"
	}},
}

// fit returns gen(n) for the largest n whose text is at most size bytes.
func fit(gen func(int) string, size int) string {
	lo, hi := 1, 2
	for len(gen(hi)) <= size {
		lo, hi = hi, hi*2
	}
	for hi-lo > 1 {
		if mid := (lo + hi) / 2; len(gen(mid)) <= size {
			lo = mid
		} else {
			hi = mid
		}
	}
	return gen(lo)
}

// BenchmarkWorstCase parses each worst case at the size limit; -benchmem
// shows the memory. Run: go test -run '^$' -bench WorstCase -benchmem ./shellparse
func BenchmarkWorstCase(b *testing.B) {
	for _, c := range worstCases {
		src := fit(c.gen, shellparse.MaxBytes-64)
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				parse(src)
			}
		})
	}
}
