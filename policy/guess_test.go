package policy_test

import (
	"testing"

	"github.com/guard-exec/guard-exec/judge"
	"github.com/guard-exec/guard-exec/policy"
	"github.com/guard-exec/guard-exec/shellparse"
)

// A configured allow of a program the catalogue does not know covers what
// its operands might be; what is known about the command is still judged.
func TestConfiguredAllowCoversGuesses(t *testing.T) {
	shapes := []string{
		`mytool $(date +%s)`,
		`v=$(date); mytool "$v"`,
		`mytool <(ls)`,
		`ls | xargs mytool`,
		`find . -name '*.c' -exec mytool {} +`,
		`mytool --out "$F" x`,
		`mytool /etc/hosts`,
	}
	check(t, build(t, "", "", false), "defaults", wants(shapes, "ask"))
	allow := rule("allow", "mytool")
	check(t, build(t, allow, "", false), "allow mytool", wants(shapes, "allow"))
	// An untrusted project's allow is ignored: nothing is covered.
	check(t, build(t, "", allow, false), "untrusted project", wants(shapes, "ask"))
	check(t, build(t, "", allow, true), "trusted project", wants(shapes, "allow"))

	pol := build(t, allow+rule("allow", "rm")+rule("allow", "cp")+
		rule("deny", "", `path = "secret/**"`, `why = "secrets"`), "", false)
	check(t, pol, "still judged", []want{
		// Redirections are known effects.
		{`mytool $(date) > ~/.bashrc`, "ask"},
		{`mytool x > "$OUT"`, "ask"},
		{`mytool x > out.txt`, "allow"},
		// The person's own path rules hold for a literal operand, not for
		// a value known only at run time.
		{`mytool secret/key`, "deny"},
		{`mytool "$v"`, "allow"},
		// A catalogued program's writes are not guesses: allow rm covers
		// its argv, not where it deletes.
		{`rm -rf "$x"`, "ask"},
		{`rm -rf ~`, "deny"},
		{`rm secret/key`, "deny"},
		{`cp a "$x"`, "ask"},
		// Only the allowed program.
		{`othertool $(date)`, "ask"},
		{`mytool $(othertool)`, "ask"},
		// An allow that may not match covers nothing.
		{`$T $(date)`, "ask"},
	})
	r := decide(pol, `rm -rf "$x"`)
	if len(r.Commands) == 0 || r.Commands[0].Verdict.AbsoluteDeny == 0 {
		t.Errorf(`rm -rf "$x" with allow rm: the absolute denylist must still say it might match: %+v`, r.Commands)
	}
	// A narrower allow covers only what it matches.
	check(t, build(t, rule("allow", "mytool build"), "", false), "allow mytool build", []want{
		{`mytool build $(date)`, "allow"},
		{`mytool clean $(date)`, "ask"},
	})
}

// The absolute denylist is never covered: a literal operand naming the
// guard's own configuration is refused whatever the person allowed.
func TestConfiguredAllowNeverCoversAbsolute(t *testing.T) {
	env := newEnv()
	env.Protect = []string{home + "/.config/guard-exec"}
	f, err := policy.ParseFile("user.toml", []byte(rule("allow", "mytool")), policy.User)
	if err != nil {
		t.Fatal(err)
	}
	pol, err := policy.Build(policy.Sources{Env: env, User: f})
	if err != nil {
		t.Fatal(err)
	}
	for c, d := range map[string]string{
		`mytool ~/.config/guard-exec/config.toml`: "deny",
		`mytool "$x"`: "allow",
		`mytool x > ~/.config/guard-exec/conf.toml`: "deny",
	} {
		r := judge.Judge(pol, judge.Request{Source: c, Cwd: proj, Getenv: getenv, Glob: shellparse.NoGlob})
		if r.Decision != d {
			t.Errorf("%q → %s (%s), want %s", c, r.Decision, r.Reason, d)
		}
	}
}

func wants(cmds []string, d string) []want {
	out := make([]want, len(cmds))
	for i, c := range cmds {
		out[i] = want{c, d}
	}
	return out
}
