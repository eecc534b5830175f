package policy

import (
	"fmt"
	"strings"
	"testing"
)

// scaleConfig is a config of n rules in the mix tools/bench -scale uses:
// command rules of many programs, deny rules with a reason, path rules,
// and many rules of one program (git).
func scaleConfig(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		switch i % 4 {
		case 0:
			fmt.Fprintf(&b, "[[rule]]\ndecision = \"allow\"\ncommand = \"tool%d build\"\n\n", i)
		case 1:
			fmt.Fprintf(&b, "[[rule]]\ndecision = \"deny\"\ncommand = \"tool%d deploy --prod\"\nwhy = \"releases go through the pipeline\"\n\n", i)
		case 2:
			fmt.Fprintf(&b, "[[rule]]\ndecision = \"ask\"\npath = \"area%d/**\"\naccess = \"write\"\n\n", i)
		default:
			fmt.Fprintf(&b, "[[rule]]\ndecision = \"allow\"\ncommand = \"git push origin feature-%d\"\n\n", i)
		}
	}
	return b.String()
}

// BenchmarkLoadRules measures reading and checking a config of 10 and of
// 10,000 rules: the cost of a call should hardly grow with the rules
// (issue 15).
func BenchmarkLoadRules(b *testing.B) {
	env := &Env{Home: "/home/u", Project: "/home/u/proj"}
	for _, n := range []int{10, 10000} {
		text := []byte(scaleConfig(n))
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				f, err := ParseFile("rules.toml", text, User)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := Build(Sources{Env: env, User: f}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkBuildDefaults is what every command pays to build the built-in
// rules (and the secret rules) before judging.
func BenchmarkBuildDefaults(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Build(Sources{Env: &Env{Project: "/p", Home: "/h", Temp: []string{"/tmp"}}}); err != nil {
			b.Fatal(err)
		}
	}
}
