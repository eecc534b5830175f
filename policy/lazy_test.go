package policy

import (
	"regexp"
	"strings"
	"testing"
)

// TestPresetsCompile: preset rules are compiled on first use, so every one
// must compile.
func TestPresetsCompile(t *testing.T) {
	env := &Env{Home: "/home/u", Project: "/home/u/proj"}
	n := 0
	for name, p := range Presets() {
		for _, r := range p.rules() {
			if err := r.compile(env); err != nil {
				t.Errorf("preset %s: rule %q: %v", name, r.Command, err)
			}
			n++
		}
	}
	if n < 50 {
		t.Fatalf("only %d preset rules", n)
	}
}

// TestCheckFindsCompileErrors: what loading checks (check) refuses every
// rule compiling refuses, and accepts every rule it accepts.
func TestCheckFindsCompileErrors(t *testing.T) {
	env := &Env{Home: "/home/u", Project: "/home/u/proj"}
	type spec struct {
		Command string
		Flags   []string
		Path    string
		Access  string
	}
	for _, r := range []spec{
		{Command: "git push --force"}, {Command: "git push --force origin *"}, {Command: "rm -[rR]*"},
		{Command: "ls ["}, {Command: "'unterminated"}, {Command: ""}, {Flags: []string{"force"}}, {Flags: []string{"--force"}},
		{Command: "git commit --message=[x"}, {Command: "git commit -m [x"}, {Command: "kubectl delete --namespace=prod *"},
		{Path: "src/**", Access: "write"}, {Path: "src/[", Access: "write"}, {Path: "x", Access: "sideways"},
		{Command: "ls", Access: "read"}, {Command: "./bin/[x"}, {Command: "~/bin/tool --flag"}, {Command: "docker run --rm=*"},
	} {
		a := &Rule{Command: r.Command, Flags: r.Flags, Path: r.Path, Access: r.Access}
		b := &Rule{Command: r.Command, Flags: r.Flags, Path: r.Path, Access: r.Access}
		errCheck, errCompile := a.check(env), b.compile(env)
		if (errCheck == nil) != (errCompile == nil) {
			t.Errorf("rule %+v: check says %v, compile says %v", r, errCheck, errCompile)
		}
	}
}

func TestIsRuleHeader(t *testing.T) {
	re := regexp.MustCompile(`^\s*\[\[\s*rule\s*\]\]`)
	for _, l := range []string{"[[rule]]", "  [[ rule ]]  # x", "\t[[rule]]x", "[rule]", "[[rules]]", "[[ rule", "x [[rule]]",
		"[[\trule\t]]", "", "[[", "[[rule]", "\f\r[[ rule]]"} {
		if got, want := isRuleHeader(l), re.MatchString(l); got != want {
			t.Errorf("%q: %v, the regexp says %v", l, got, want)
		}
	}
}

// TestParseRuleTexts: reading approvals together gives what reading each
// alone gives, malformed ones included.
func TestParseRuleTexts(t *testing.T) {
	ok := func(cmd string) string { return "[[rule]]\ndecision = \"allow\"\ncommand = '" + cmd + "'\n" }
	sets := [][]string{
		{ok("make a"), ok("make b"), "[[rule]]\ndecision = \"allow\"\npath = \"/tmp/x/**\"\naccess = \"write\"\n", "# c\n[[rule]]\ndecision = \"deny\"\ncommand = \"x\""},
		{ok("a"), "[[rule]]\ndecision = \"allow\"\nwhy = \"\"\"open", ok("b")},
		{ok("a"), "decision = \"allow\"\n[[rule]]\ncommand = \"x\"", ok("b")},
		{ok("a"), "[[rule]]\ndecision = \"allow\"\ncommand = \"x\"\n[[rule]]\ndecision = \"deny\"\ncommand = \"y\"", ok("b")},
		{ok("a"), "[[rule]]\ndecision = \"allow\"\nbogus = 1\ncommand = \"x\"", ok("b")},
		{ok("a"), "[[rule]]\ndecision = \"allow\"\ncommand = \"x\"\n[other]\nk = 1", ok("b")},
		{ok("only")},
		{},
	}
	for _, texts := range sets {
		sources := make([]string, len(texts))
		for i := range texts {
			sources[i] = "approval " + string(rune('1'+i))
		}
		rules, errs := ParseRuleTexts(texts, sources)
		for i, text := range texts {
			want, wantErr := ParseRuleText(text, sources[i])
			if (errs[i] == nil) != (wantErr == nil) || (rules[i] == nil) != (want == nil) {
				t.Fatalf("%q: together %v %v, alone %v %v", text, rules[i], errs[i], want, wantErr)
			}
			if want != nil && (rules[i].Command != want.Command || rules[i].Path != want.Path || rules[i].Decision != want.Decision || rules[i].Source != want.Source || rules[i].Access != want.Access) {
				t.Errorf("%q: together %+v, alone %+v", text, rules[i], want)
			}
		}
	}
}

// sameRule compares what a rule's text says.
func sameRule(a, b *Rule) bool {
	return a.Decision == b.Decision && a.Command == b.Command && a.Path == b.Path && a.Access == b.Access &&
		a.Layer == b.Layer && len(a.Flags) == 0 && len(b.Flags) == 0 && a.Why == b.Why && a.Instead == b.Instead &&
		len(a.Match) == len(b.Match) && len(a.NotMatch) == len(b.NotMatch) && a.Exact == b.Exact && a.Project == b.Project
}

// TestSimpleRule: the approvals the guard writes are read without the
// TOML decoder, as the decoder reads them; anything else is left to it.
func TestSimpleRule(t *testing.T) {
	for _, r := range []Remembered{{Command: "make test"}, {Command: "it's \"quoted\""}, {Command: "tab\there"},
		{Command: "é漢字"}, {Path: "/tmp/x/**", Access: "write"}, {Command: "line\nbreak"}, {Command: `back\slash`},
		{Command: "npm publish --dry-run", Exact: true}, {Command: "make test", Exact: true, Project: "/src/app"},
		{Path: "/src/app/x", Access: "write", Project: "/src/app"}} {
		text := r.TOML("")
		got, ok := simpleRule(text)
		want, err := ParseRuleText(text, "x")
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		if ok && !sameRule(got, want) {
			t.Errorf("%q: read %+v, the decoder %+v", text, got, want)
		}
		if !ok && !strings.Contains(text, `\`) { // escapes are the decoder's
			t.Errorf("%q: the form the guard writes is not read without the decoder", text)
		}
	}
	for _, text := range []string{"[[rule]]\ncommand = 'x'", "[[rule]]\ndecision = \"allow\"\ndecision = \"deny\"",
		"[[rule]]\ndecision = \"allow\"\ncommand = 'x' # c", "[[rule]]\ndecision = \"allow\"\nwhy = 'x'",
		"[[rule]] \ndecision = \"allow\"", "[[rule]]\ndecision = \"maybe\"", "[[rule]]\ndecision = \"allow\"\ncommand = 'a\x01'"} {
		if _, ok := simpleRule(text); ok {
			t.Errorf("%q: read without the decoder", text)
		}
	}
}

func FuzzSimpleRule(f *testing.F) {
	f.Add("[[rule]]\ndecision = \"allow\"\ncommand = 'make test'\n")
	f.Add("[[rule]]\ndecision = \"ask\"\npath = \"/x\"\naccess = 'read'")
	f.Add("[[rule]]\ndecision = \"allow\"\ncommand = 'make test'\nexact = true\nproject = '/p'\n")
	f.Fuzz(func(t *testing.T, text string) {
		got, ok := simpleRule(text)
		if !ok {
			return
		}
		want, err := ParseRuleText(text, "x")
		if err != nil {
			t.Fatalf("%q: read without the decoder, but the decoder says %v", text, err)
		}
		if !sameRule(got, want) {
			t.Fatalf("%q: read %+v, the decoder %+v", text, got, want)
		}
	})
}
