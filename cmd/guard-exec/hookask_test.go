package main

import "testing"

// The scaffolding a client wraps an approved command in, and text that
// only looks like it: the payload must be exactly what eval runs, and
// anything that could run more than the payload is not scaffolding.
func TestScaffoldPayload(t *testing.T) {
	snap := `source '/h/.claude/shell-snapshots/snapshot-bash-1-a.sh' 2>/dev/null || true && shopt -u extglob 2>/dev/null || true && `
	for _, tc := range []struct {
		src, cmd, rest string
		ok             bool
	}{
		// Claude Code 2.1.197 (W1a: '…' with '"'"' for a quote, < /dev/null)
		{snap + `eval 'git push --force' < /dev/null && pwd -P >| /tmp/claude-1-cwd`, "git push --force",
			snap + `eval : < /dev/null && pwd -P >| /tmp/claude-1-cwd`, true},
		{`eval 'echo '"'"'a b'"'"'' < /dev/null && pwd -P >| /tmp/c`, `echo 'a b'`, `eval : < /dev/null && pwd -P >| /tmp/c`, true},
		// Qa leaves a safe word bare
		{`eval reboot < /dev/null && pwd -P >| /tmp/c`, "reboot", `eval : < /dev/null && pwd -P >| /tmp/c`, true},
		// older releases: eval '…' \< /dev/null
		{`eval 'ls -la' \< /dev/null && pwd -P >| /tmp/c`, "ls -la", `eval : \< /dev/null && pwd -P >| /tmp/c`, true},
		{`eval "make deploy"`, "make deploy", `eval :`, true},
		// no scaffolding: the text is the command
		{`git push --force`, `git push --force`, ``, true},
		// not a literal payload
		{`eval "$CMD"`, "", "", false},
		{`eval $'rm -rf x'`, "", "", false},
		{`eval 'a'"$(b)"`, "", "", false},
		{`eval rm\ -rf`, "", "", false},
		{`eval ls* < /dev/null`, "", "", false},
		{`eval ~/x`, "", "", false},
		// more than one eval, or one outside the top-level chain
		{`eval 'a' && eval 'b'`, "", "", false},
		{`eval 'a' && (eval 'b')`, "", "", false},
		{`(eval 'a')`, "", "", false},
		{`f() { eval 'a'; }; f`, "", "", false},
		{`for i in 1 2; do eval 'a'; done`, "", "", false},
		{`eval 'a' 'b'`, "", "", false},
		{`eval 'a' \< /etc/passwd`, "", "", false},
		// a parse error
		{`eval 'a`, "", "", false},
	} {
		cmd, rest, ok := scaffoldPayload(tc.src)
		if ok != tc.ok || cmd != tc.cmd || rest != tc.rest {
			t.Errorf("scaffoldPayload(%q) = %q, %q, %v; want %q, %q, %v", tc.src, cmd, rest, ok, tc.cmd, tc.rest, tc.ok)
		}
	}
}
