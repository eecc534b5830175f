package judge_test

import (
	"testing"

	"github.com/guard-exec/guard-exec/policy"
)

// mayPolicy allows bar and denies qux, as the soundness issue writes its
// examples: a verdict of allow for text in which qux may run is an escape.
func mayPolicy(t *testing.T) *policy.Policy {
	t.Helper()
	f, err := policy.ParseFile("user.toml", []byte(`
[[rule]]
decision = "allow"
command = "bar"

[[rule]]
decision = "deny"
command = "qux"

[[rule]]
decision = "deny"
command = "bar deploy"
`), policy.User)
	if err != nil {
		t.Fatal(err)
	}
	pol, err := policy.Build(policy.Sources{Env: &policy.Env{Home: home, Project: proj, Temp: []string{"/tmp"}}, User: f})
	if err != nil {
		t.Fatal(err)
	}
	return pol
}

// TestMayAssign: a word may be allowed only when every value bash may give
// it is known and allowed. Each escape has its clean neighbour, which stays
// allowed.
func TestMayAssign(t *testing.T) {
	pol := mayPolicy(t)
	for _, tc := range []struct {
		src   string
		allow bool
	}{
		// builtins that assign without an assignment word, however their
		// options are spelled
		{`x=bar; printf -vx qux; "$x"`, false},
		{`x=bar; printf -v x qux; "$x"`, false},
		{`x=bar; printf -v y qux; "$x"`, true},
		{`x=bar; read -rp '' x <<< qux; "$x"`, false},
		{`x=bar; read -rt1 x <<< qux; "$x"`, false},
		{`x=bar; read -ra x <<< qux; "${x[0]}"`, false},
		{`x=bar; read -r y <<< qux; "$x"`, true},
		{`MAPFILE=(bar); mapfile < /dev/null; "${MAPFILE[0]}"`, false},
		{`a=(bar); mapfile -t a < /dev/null; "${a[0]}"`, false},
		{`mapfile -Cqux -c1 a < /dev/null`, false},
		// compgen -W expands its word list when it runs
		{`compgen -W '$(qux)'`, false},
		{"compgen -W 'a `qux`' -- a", false},
		{`compgen -W"$(qux)"`, false},
		{`compgen -W "$words" -- a`, false},
		{`compgen -W '$(bar)' -- a`, true},
		{`OPTARG=bar; getopts a: o -a qux; "$OPTARG"`, false},
		{`REPLY=bar; select v in a; do "$REPLY"; break; done < /dev/null`, false},
		{`BASH_REMATCH=(bar bar); [[ qux =~ (.*) ]]; "${BASH_REMATCH[1]}"`, false},
		{`BASH_REMATCH=(bar bar); "${BASH_REMATCH[1]}"`, true},
		// in a loop body too
		{`x=bar; for i in 1 2; do "$x"; printf -vx qux; done`, false},
		// quoted compound assignments are code
		{`typeset -a 'arr=(a $(qux))'`, false},
		{`declare -a 'arr=(a $(qux))'`, false},
		{`\declare -a 'arr=(a $(qux))'`, false},
		{`declare -a arr=(a b); "${arr[0]}" 2>/dev/null; true`, false},
		{`declare -a 'arr=(bar b)'; bar`, true},
		// a name set dynamically makes every name unknown
		{`x=bar; n=x; printf -v "$n" qux; "$x"`, false},
		{`x=bar; \declare "$(cat f)"; "$x"`, false},
		// trap handlers run later, with whatever state holds then, and
		// their writes change what later commands see
		{`c=bar; trap '"$c"' EXIT; c=qux`, false},
		{`c=bar; trap '"$c"' EXIT`, true},
		{`p=bar; trap 'p=qux' DEBUG; "$p" x`, false},
		{`p=bar; trap 'q=qux' DEBUG; "$p" x`, true},
		{`p=bar; trap 'p=qux' ERR; false; "$p"`, false},
		{`p=bar; trap 'p=qux' RETURN; f() { :; }; f; "$p"`, false},
		{`p=bar; trap 'p=qux' CHLD; sleep 0 & wait; "$p"`, false},
		{`trap 'declare -i n' DEBUG; n='a[$(qux)]'`, false},
		{`c=bar; trap 'declare -n r=c' DEBUG; r=qux; "$c"`, false},
		// a function may run at any time; its locals are restored after it
		{`f(){ local c=bar; }; c=qux; f; "$c"`, false},
		{`f(){ c=qux; }; c=bar; trap f EXIT; "$c"`, false},
		{`f(){ bar; }; c=bar; f; "$c"`, true},
		// a function redefined after a call, or unset, has every body
		{`f(){ bar; }; g(){ f; }; f(){ qux; }; g`, false},
		{`f(){ bar; }; trap f EXIT; f(){ qux; }`, false},
		{`f(){ bar; }; f; unset -f f; f`, false},
		{`f(){ bar; }; f; f(){ bar; }; f`, true},
		// set -k: assignment words after the command name
		{`set -k; bar BASH_ENV=/tmp/x bash -c true`, false},
		{`f(){ set -k; }; f; bar LD_PRELOAD=/tmp/x.so`, false},
		{`bar BASH_ENV=/tmp/x`, true},
		// nullglob: a glob that matches nothing may vanish, shifting operands
		{`shopt -s nullglob; bar nothing-matches-this-* deploy`, false},
		{`bar nothing-matches-this-* deploy`, true},
		// exported functions reach child shells
		{`bar(){ qux; }; export -f bar; bash -c bar`, false},
		{`bar(){ qux; }; declare -fx bar; sh -c bar`, false},
		{`set -a; bar(){ qux; }; bash -c bar`, false},
		{`bash -c bar`, true},
		// code another shell runs is read in its dialect, nested code too
		{`sh -c 'eval "$(printf %s qux)"'`, false},
		// expansions inside extended patterns run
		{`shopt -s extglob; ls !(x|$(qux))`, false},
		{`shopt -s extglob; ls !(x|y)`, true},
	} {
		res := judgeText(pol, tc.src)
		if got := res.Decision == "allow"; got != tc.allow {
			t.Errorf("%s\n  → %s (%s); want allowed=%v", tc.src, res.Decision, res.Reason, tc.allow)
		}
	}
}
