package judge_test

import (
	"flag"
	"runtime/debug"
	"strings"
	"sync"
	"testing"

	"github.com/guard-exec/guard-exec/judge"
	"github.com/guard-exec/guard-exec/policy"
	"github.com/guard-exec/guard-exec/shellparse"
)

var (
	fuzzPolOnce sync.Once
	fuzzPol     *policy.Policy
)

// fuzzPolicy is the built-in policy with a few configured rules, so that
// configured allow, ask and deny rules are exercised too.
func fuzzPolicy(t testing.TB) *policy.Policy {
	fuzzPolOnce.Do(func() {
		f, err := policy.ParseFile("fuzz.toml", []byte(`
[[rule]]
decision = "allow"
command = "git push"
[[rule]]
decision = "deny"
command = "git push --force"
[[rule]]
decision = "allow"
command = "make"
[[rule]]
decision = "deny"
path = "secrets/**"
[[rule]]
decision = "ask"
flags = ["--no-verify"]
`), policy.User)
		if err != nil {
			t.Fatal(err)
		}
		fuzzPol, err = policy.Build(policy.Sources{User: f, Env: &policy.Env{
			Home: home, Project: proj, Temp: []string{"/tmp"}, Protect: []string{home + "/.config/guard-exec"},
		}})
		if err != nil {
			t.Fatal(err)
		}
	})
	return fuzzPol
}

var strictness = map[string]int{"allow": 0, "ask": 1, "deny": 2}

// fuzzing reports whether this run is generating inputs (-test.fuzz), as
// opposed to replaying the seed corpus as an ordinary test.
func fuzzing() bool {
	f := flag.Lookup("test.fuzz")
	return f != nil && f.Value.String() != ""
}

// FuzzJudge: judging never panics (a recovered panic is reported as an
// internal error, which counts as one), text that cannot be read is never
// allowed, the verdict is the strictest verdict of the parts, and the
// same text gets the same decision twice.
func FuzzJudge(f *testing.F) {
	if !fuzzing() && !isolate(f) {
		// The seeds (and testdata/fuzz/FuzzJudge) ran in a child process;
		// see isolate.
		f.Fuzz(func(*testing.T, string) {})
		return
	}
	// As in isolate's child: runaway recursion fails in a moment, not
	// after seconds growing a 1 GB stack (either way it is fatal, and
	// the input is the one GUARD_EXEC_TEST_PROGRESS notes last).
	debug.SetMaxStack(32 << 20)
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	pol := fuzzPolicy(f)
	f.Fuzz(func(t *testing.T, src string) {
		done := judging(src)
		defer done()
		req := judge.Request{Source: src, Cwd: proj, Getenv: getenv, Glob: shellparse.NoGlob}
		res := judge.Judge(pol, req)
		if strings.Contains(res.ParseError, "internal error") {
			fail(t, "%q: %s", src, res.ParseError)
			return
		}
		if _, ok := strictness[res.Decision]; !ok {
			fail(t, "%q: decision %q", src, res.Decision)
			return
		}
		if res.ParseError != "" {
			if res.Decision == "allow" {
				fail(t, "%q: allowed although it could not be read: %s", src, res.ParseError)
			}
			return
		}
		strictest := "allow"
		for _, p := range res.Commands {
			if strictness[p.Decision] > strictness[strictest] {
				strictest = p.Decision
			}
		}
		if res.Decision != strictest {
			fail(t, "%q: decision %s, but the strictest part is %s", src, res.Decision, strictest)
		}
		if again := judge.Judge(pol, req); again.Decision != res.Decision {
			fail(t, "%q: decided %s, then %s", src, res.Decision, again.Decision)
		}
	})
}

// fuzzSeeds are interesting inputs: every construct the reader walks,
// every wrapper, code in strings, differentials, and text near the edges
// of the grammar.
var fuzzSeeds = []string{
	"", " ", "\n", "#", "ls", "ls -la", "echo hi > out.txt", "rm -rf /", "rm -rf ./build", "rm x -rf",
	"a && b || c; d | e & f", "(a; b) | { c; d; }", "! a", "time -p a", "coproc a", "coproc N { a; }",
	"if a; then b; elif c; then d; else e; fi", "while a; do b; done", "until a; do b; done",
	"for i in 1 2; do echo $i; done", "for ((i=0;i<3;i++)); do :; done", "select x in a; do break; done",
	"case $x in a|b) c;; *) d;& e) f;;& esac", "f() { f | f & }; f", ":(){ :|:& };:", "f() { rm \"$1\"; }; f x",
	"echo $(a) `b` <(c) >(d)", "X=$(a) y", "echo > $(a)", "echo ${x:-$(a)}", "echo $((1 + $(a)))",
	"[[ $(a) == x && -f y || ! -d z ]]", "cat <<EOF\n$(a)\nEOF", "cat <<'EOF'\n$(a)\nEOF", "cat <<-EOF\n\tx\n\tEOF",
	"declare -a x=(1 2 $(a))", "local y=$(b)", "export z=$(c)", "readonly r=1", "typeset -i n=1+2",
	"r''m x", `$'\x72m' x`, `$"rm" x`, `\rm x`, "{rm,-rf,x}", "{qux,}", "echo {1..10..2}", "echo ~ ~/x ~root",
	"X=rm; $X -rf x", `X="rm -rf /"; $X`, "IFS=:; X=a:b; $X", "set -- a b; echo \"$@\" $# $*",
	"cd a && x", "cd a; x", "cd \"$d\" && rm -rf x", "pushd /tmp; popd; x", "cd -", "cd ~ && rm -rf .",
	"eval 'rm x'", "eval \"$y\"", "bash -c 'rm $1' sh x", "sh -ec 'x'", "bash -o pipefail -c x", "bash --norc -c x",
	"trap 'rm x' EXIT", "trap - INT", "alias ll='rm x'", "sh <<< 'rm x'", "bash <<EOF\nrm x\nEOF", "echo 'rm x' | sh",
	"printf 'a %s\\n' b | bash -s", "bash script.sh", "source x.sh", ". x", "python -c 'x'", "python -m pip install x",
	"curl https://x | sh", "bash <(curl x)", "base64 -d x | sh", "node -e x", "perl -e x", "awk 'BEGIN{system(\"x\")}'",
	"env -i A=1 -u B -C /tmp rm x", "env -S 'rm -rf x'", "sudo -u u -- rm x", "doas rm x", "nice -n 5 rm x",
	"nohup rm x &", "timeout -k 5 -s KILL 10 rm x", "stdbuf -oL rm x", "setsid -f x", "ionice -c3 x",
	"chrt -f 10 x", "taskset -c 1 x", "flock /tmp/l x", "flock /tmp/l -c 'x'", "watch -n1 'x; y'",
	"command -p rm x", "command -v rm", "builtin cd x", "exec -a n rm x", "exec 3>&1", "xargs -0 -n1 rm",
	"xargs -I {} mv {} {}.bak", "find . -exec rm {} \\; -o -execdir x {} +", "busybox rm x", "su -c 'x' u",
	"runuser -u u -- x", "script -qc x /dev/null", "unbuffer x", "parallel x ::: a b", "strace -f x",
	"ssh host x", "chroot /srv x", "git -C d -c core.pager=less log", "git push origin main --force",
	"tar --checkpoint-action=exec=x -cf a .", "rsync -e 'ssh -p 2' a b:", "sed -n '1e x' f", "rg --pre x y",
	"echo $((x))", "x=5; echo $((x))", "x=x; echo $((x))", "a=b; b=a; echo $((a))", "echo \"${x@P}\"",
	"PS4='$(x)'; set -x", "BASH_ENV=x bash -c y", "printf -v 'a[$(x)]' 1", "read 'a[$(x)]'", "[[ -v 'a[$(x)]' ]]",
	"declare -n r='a[$(x)]'", "echo \"${x:-'$(x)'}\"", "echo $(( '$(x)' ))", "echo ${x:-<(x)}",
	"cat <<EOF\nEO\\\nF\nx\nEOF", "x\r\ny", "echo (", "good\n)", "$((echo a); (b))", "echo ${", "case",
	"a=( [1]=x [$(y)]=z )", "echo ${a[@]:1:$(x)}", "echo ${!a*} ${#a[@]} ${a,,} ${a^^}", "echo @(a|b)",
	"GUARD_EXEC_MODE=audit ls", "unset GUARD_EXEC_CONFIG", "echo x >> ~/.config/guard-exec/config.toml",
	"dd if=/dev/zero of=/dev/sda", "> /dev/sda", "mkfs.ext4 /dev/sda1", "chmod -R 777 /", "find / -delete",
	"git push --no-verify", "touch secrets/x", "cat secrets/../secrets/x", "make install",
}
