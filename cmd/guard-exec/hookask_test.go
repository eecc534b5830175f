package main

import (
	"encoding/hex"
	"math/rand"
	"os/exec"
	"strings"
	"testing"
)

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

// What scaffoldPayload reads as the payload is what bash hands eval: the
// scaffolding runs in the real bash with eval replaced by a recorder, for
// commands quoted the way Claude Code quotes them and for random words
// built from every kind of quoting and expansion (a payload it reads
// wrongly would let an approval cover another command).
func TestScaffoldPayloadBash(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("needs bash")
	}
	rng := rand.New(rand.NewSource(12))
	// W1a in Claude Code 2.1.197: bare when only [A-Za-z0-9_./:=@+,-],
	// else '…' with '"'"' for each quote.
	claudeQuote := func(s string) string {
		if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:=@+,-") == "" {
			return s
		}
		return "'" + strings.ReplaceAll(s, "'", `'"'"'`) + "'"
	}
	alphabet := []string{"a", "Z", "0", " ", "'", `"`, `\`, "$", "`", "*", "?", "~", "{", "}", ";", "&", "|", "<", ">", "(", ")", "\t", "\n", "-", "=", "#", "!", "é"}
	pieces := []string{"'a b'", `"c d"`, "e", `\ `, "$'x'", `"$HOME"`, "$(echo z)", "`echo y`", "~", "*", "'", `"`, "'\"'\"'", `""`, "''", "{a,b}", "$X", `"\$"`, `"a\"b"`}
	var srcs, wants []string
	for i := 0; i < 300; i++ {
		var b strings.Builder
		for n := rng.Intn(12); n >= 0; n-- {
			b.WriteString(alphabet[rng.Intn(len(alphabet))])
		}
		cmd := b.String()
		srcs = append(srcs, "source /nonexistent 2>/dev/null || true && eval "+claudeQuote(cmd)+" < /dev/null && pwd -P >| /dev/null")
		wants = append(wants, cmd)
	}
	for i := 0; i < 300; i++ {
		var b strings.Builder
		for n := rng.Intn(4); n >= 0; n-- {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		srcs = append(srcs, "eval "+b.String()+" && true")
		wants = append(wants, "")
	}
	// One bash runs them all: each line prints what eval got, or a marker
	// when the text does not parse.
	var script strings.Builder
	script.WriteString("eval() { printf '%s' \"$*\" | od -An -tx1 | tr -d ' \\n'; echo; }\nX=x\n")
	var idx []int
	for i, src := range srcs {
		if _, _, ok := scaffoldPayload(src); !ok {
			continue
		}
		idx = append(idx, i)
		script.WriteString("(" + src + ") 2>/dev/null || echo FAILED\n")
	}
	t.Logf("%d of %d texts read as scaffolding", len(idx), len(srcs))
	out, err := exec.Command("bash", "--norc", "--noprofile", "-c", script.String()).Output()
	if err != nil {
		t.Fatalf("bash: %v", err)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != len(idx) {
		t.Fatalf("bash printed %d lines for %d commands", len(lines), len(idx))
	}
	for k, i := range idx {
		cmd, _, _ := scaffoldPayload(srcs[i])
		if got := lines[k]; got != hex.EncodeToString([]byte(cmd)) {
			t.Errorf("%q: payload read as %q, bash's eval got %s", srcs[i], cmd, got)
		}
		if wants[i] != "" && cmd != wants[i] {
			t.Errorf("%q: payload %q, want %q", srcs[i], cmd, wants[i])
		}
	}
	// Every Claude-quoted command must be read.
	for i := 0; i < 300; i++ {
		if _, _, ok := scaffoldPayload(srcs[i]); !ok {
			t.Errorf("%q (Claude Code's quoting of %q) not read", srcs[i], wants[i])
		}
	}
}
