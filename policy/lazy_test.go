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
