package policy

import (
	"regexp"
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
