package argspec

import (
	"slices"
	"strings"
	"testing"

	"github.com/guard-exec/guard-exec/word"
)

func TestClassOf(t *testing.T) {
	for _, c := range []struct {
		prog  string
		want  Class
		exact bool // RememberExactly
	}{
		{"ls", ReadOnly, false},
		{"rm", Writer, false},
		{"gofmt", Writer, false},
		{"git", BuildTool, false},
		{"make", BuildTool, false},
		{"env", ReadOnly | Wrapper | Carrier, true},
		{"xargs", ReadOnly | Wrapper | Carrier, true},
		{"nice", Wrapper | Carrier, true},
		{"timeout", Wrapper | Carrier, true},
		// They change who or where the command runs: never allowed for
		// running another command.
		{"sudo", Wrapper, true},
		{"doas", Wrapper, true},
		{"su", Wrapper, true},
		{"runuser", Wrapper, true},
		{"chroot", Wrapper, true},
		{"ssh", Wrapper, true},
		{"bash", Shell, true},
		{"sh", Shell, true},
		{"rbash", Shell, true},
		{"zsh", Shell, true},
		{"fish", ForeignShell, true},
		{"pwsh", ForeignShell | Interpreter, true},
		{"python", Interpreter, true},
		{"python3.12", Interpreter, true},
		{"pypy3", Interpreter, true},
		{"perl5.36", Interpreter, true},
		{"awk", ReadOnly | Interpreter, true},
		{"node", Interpreter, true},
		{"eval", ReadOnly | Exact, true},
		{"source", Exact, true},
		{".", Exact, true},
		{"find", ReadOnly | Exact, true},
		{"npx", Exact | BuildTool, true},
		{"pythonista", 0, false},
		{"python3-config", 0, false},
		{"", 0, false},
	} {
		if got := ClassOf(c.prog); got != c.want {
			t.Errorf("ClassOf(%q) = %b, want %b", c.prog, got, c.want)
		}
		if got := RememberExactly(c.prog); got != c.exact {
			t.Errorf("RememberExactly(%q) = %v, want %v", c.prog, got, c.exact)
		}
	}
}

// Every name Names lists has the class it was listed for, no list names a
// program twice, and every wrapper, shell and interpreter is remembered
// exactly.
func TestClassListsConsistent(t *testing.T) {
	for _, l := range classLists {
		seen := map[string]bool{}
		for _, n := range l.names {
			if seen[n] {
				t.Errorf("class %b lists %q twice", l.class, n)
			}
			seen[n] = true
		}
	}
	for _, c := range []Class{ReadOnly, Writer, Wrapper, Carrier, Shell, ForeignShell, Interpreter, Exact, BuildTool} {
		names := Names(c)
		if len(names) == 0 {
			t.Errorf("no program of class %b", c)
		}
		for _, n := range names {
			if ClassOf(n)&c == 0 {
				t.Errorf("Names(%b) lists %q, whose class is %b", c, n, ClassOf(n))
			}
			if c&(Wrapper|Shell|ForeignShell|Interpreter|Exact) != 0 && !RememberExactly(n) {
				t.Errorf("%q of class %b is not remembered exactly", n, c)
			}
		}
	}
	for _, n := range notCarriers {
		if _, ok := wrappers()[n]; !ok {
			t.Errorf("notCarriers names %q, which is no wrapper", n)
		}
	}
	if slices.Contains(Names(Carrier), "sudo") {
		t.Error("sudo is a carrier")
	}
}

// Is looks at fewer lists than ClassOf, never with another answer.
func TestIsAgreesWithClassOf(t *testing.T) {
	classes := []Class{ReadOnly, Writer, Wrapper, Carrier, Shell, ForeignShell, Interpreter, Exact, BuildTool}
	for _, n := range append(Names(^Class(0)), "python3.12", "perl5.36", "git", "") {
		for _, c := range classes {
			for _, d := range classes {
				if got, want := Is(n, c|d), ClassOf(n)&(c|d) != 0; got != want {
					t.Errorf("Is(%q, %b) = %v, ClassOf says %v", n, c|d, got, want)
				}
			}
		}
	}
}

func TestOptionValues(t *testing.T) {
	words := func(s string) []word.Word {
		var out []word.Word
		for _, f := range strings.Fields(s) {
			out = append(out, word.FromLit(f))
		}
		return out
	}
	for _, c := range []struct {
		argv   string
		abbrev bool
		want   string
	}{
		{"--out=a x --out b -ob -o c", false, "a b b c"},
		{"--ou=a --out", false, ""},
		{"--ou=a --outp b", true, "b"}, // --ou is too short a prefix
		{"--outpu=a x -- --out=b", true, "a"},
		{"-x -oq", false, "q"},
	} {
		var got []string
		vals := OptionValues(words(c.argv), "--out", "-o")
		if c.abbrev {
			vals = AbbrevValues(words(c.argv), "--output")
		}
		for _, v := range vals {
			s, _ := v.Static()
			got = append(got, s)
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("%q (abbrev %v): %q, want %q", c.argv, c.abbrev, got, c.want)
		}
	}
}
