package policy

import (
	"fmt"
	"strings"
	"testing"

	"github.com/guard-exec/guard-exec/shellparse"
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

// TestRulesMadeWhenNeeded: of a configuration read without the decoder, a
// command makes Rules only of the rules that may match it, and decides as
// if every rule were made (the decoder's reading, which makes them all).
func TestRulesMadeWhenNeeded(t *testing.T) {
	env := &Env{Home: "/home/u", Project: "/home/u/proj"}
	text := []byte(scaleConfig(10000))
	for _, c := range []struct {
		cmd  string
		want string
		most int // Rules made, at most
	}{
		{"git --version", "allow", 0},
		// Every git rule is "git push origin …": all may match.
		{"git push origin feature-7", "allow", 2500},
		{"git push origin feature-8", "ask", 2500},
		{"tool1 deploy --prod", "deny", 1},
		{"tool4 build --fast", "allow", 1},
		{"ls -la", "allow", 0},
		{"touch area2/x", "ask", 1},
		{"touch area2/x/y area6", "ask", 2},
		{"touch area2*", "ask", 2500}, // area2/ … area2999/
		{"cat area2/x", "allow", 0},
		{"cp -r area2 area6/x", "ask", 2},
		{"touch area2/../x", "allow", 0},
		{"touch area2/x/../../area6", "ask", 1},
		{"touch $X/x", "ask", 2500},
	} {
		lazy, err := parseFile("rules.toml", text, User, true)
		if err != nil {
			t.Fatal(err)
		}
		eager, err := parseFile("rules.toml", text, User, false)
		if err != nil {
			t.Fatal(err)
		}
		var got [2]string
		made := 0
		for j, f := range []*File{lazy, eager} {
			pol, err := Build(Sources{Env: env, User: f})
			if err != nil {
				t.Fatal(err)
			}
			res, err := shellparse.Parse(c.cmd, shellparse.Options{Cwd: env.Project})
			if err != nil {
				t.Fatal(err)
			}
			d := Allow
			for _, cmd := range res.Cmds {
				d = max(d, pol.Decide(NewPart(cmd, env), false).Decision)
			}
			got[j] = d.String()
			if j == 0 {
				for _, r := range pol.rules {
					if r != nil {
						made++
					}
				}
			}
		}
		if got[0] != c.want || got[1] != c.want {
			t.Errorf("%q: %s read without the decoder, %s decoded, want %s", c.cmd, got[0], got[1], c.want)
		}
		if made > c.most {
			t.Errorf("%q: %d rules made, want at most %d", c.cmd, made, c.most)
		}
	}
}
