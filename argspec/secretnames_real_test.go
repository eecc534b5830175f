package argspec_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/guard-exec/guard-exec/argspec"
	"github.com/guard-exec/guard-exec/word"
)

// secretArgv reads a command line's words, "$T" standing for a secret
// variable's value in double quotes and $T for one unquoted.
func secretArgv(line string) []word.Word {
	var argv []word.Word
	for _, f := range strings.Fields(line) {
		switch f {
		case `"$T"`:
			argv = append(argv, word.Word{Segs: []word.Seg{{Kind: word.Hole, Secret: true, Text: "$T"}}})
		case "$T":
			argv = append(argv, word.Word{Segs: []word.Seg{{Kind: word.Hole, Secret: true, Text: "$T"}}, Split: true})
		default:
			if strings.Contains(f, "$T") {
				pre, post, _ := strings.Cut(strings.Trim(f, `"`), "$T")
				argv = append(argv, word.Word{Segs: []word.Seg{{Kind: word.Lit, Text: pre}, {Kind: word.Hole, Secret: true, Text: "$T"}, {Kind: word.Lit, Text: post}}})
				continue
			}
			argv = append(argv, word.FromLit(strings.Trim(f, `'`)))
		}
	}
	return argv
}

// What KeepsSecrets says test keeps, real bash shows nothing of, for
// values made to look like operators, numbers and several words, and its
// exit status is the same for every one of them (so it tells no more than
// whether the value is empty); what it says may show, bash does show for
// one of them, or its status tells them apart ([ "$T" = x ] in a loop
// gives the value away a letter at a time).
func TestKeepsSecretsAgainstBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash here")
	}
	values := []string{"ghp_s3cr3t", "s3cr3t x", "-n s3cr3t", "s3cr3t -eq", "( s3cr3t", "!s3cr3t", "=s3cr3t", "s3cr3t=", "-s3cr3t", "x"}
	for _, c := range []struct {
		line string
		want bool
	}{
		{`[ -n "$T" ]`, true}, {`[ -z "$T" ]`, true}, {`[ "$T" ]`, true}, {`test -n "$T"`, true},
		{`[ "$T" = x ]`, false}, {`[ x != "$T" ]`, false}, {`[ ! -n "$T" ]`, true}, {`[ -f "$T" ]`, true},
		{`[ "$T" == x ]`, false}, {`[ ! "$T" ]`, true}, {`[ -e "$T" ]`, true}, {`[ "$T" '<' m ]`, false},
		{`[ "$T" = '' ]`, true}, {`[ '' != "$T" ]`, true}, {`[ ! "$T" = x ]`, false},
		{`[ "$T" -eq 1 ]`, false}, {`[ -n $T ]`, false}, {`[ $T = x ]`, false}, {`test -t "$T"`, true},
		{`[ "$T" -gt 0 ]`, false}, {`[ 1 -lt "$T" ]`, false},
	} {
		if got := argspec.KeepsSecrets(secretArgv(c.line)); got != c.want {
			t.Errorf("KeepsSecrets(%s) = %v, want %v", c.line, got, c.want)
			continue
		}
		shown := false
		statuses := map[int]bool{}
		for _, v := range values {
			cmd := exec.Command(bash, "-c", c.line+" 2>&1")
			cmd.Env = append(os.Environ(), "T="+v)
			out, _ := cmd.CombinedOutput()
			statuses[cmd.ProcessState.ExitCode()] = true
			if strings.Contains(string(out), "s3cr3t") {
				shown = true
				if c.want {
					t.Errorf("%s with T=%q: bash shows %q, but KeepsSecrets says it keeps it", c.line, v, out)
				}
			}
		}
		if c.want && len(statuses) > 1 {
			t.Errorf("%s: its exit status tells the values apart (%v), but KeepsSecrets says it keeps them", c.line, statuses)
		}
		shown = shown || len(statuses) > 1
		if !c.want && !shown {
			t.Errorf("%s: bash showed no value, but KeepsSecrets says it may (the table is stricter than bash: check)", c.line)
		}
	}
}

// What KeepsSecrets says curl keeps, curl does not show, and -v shows.
func TestKeepsSecretsAgainstCurl(t *testing.T) {
	curl, err := exec.LookPath("curl")
	if err != nil {
		t.Skip("no curl here")
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("ok\n")) }))
	defer srv.Close()
	for _, c := range []struct {
		line string
		want bool
	}{
		{`curl -sS -H "Authorization:$T" URL`, true},
		{`curl -sS -u "me:$T" URL`, true},
		{`curl -sS --oauth2-bearer "$T" URL`, true},
		{`curl -sS -b "s=$T" URL`, true},
		{`curl -sS -v -H "Authorization:$T" URL`, false},
		{`curl -sS --trace-ascii - -H "Authorization:$T" URL`, false},
		{`curl -sS -w %{url} "URL?t=$T"`, false},
		{`curl -sS -u "$T" URL`, false},  // Enter host password for user 's3cr3t'
		{`curl -sS -u "$T:x" URL`, true}, // a password: no prompt
		{`curl -sS -b "$T=x" URL`, true},
		{`curl -H "@x:$T" URL`, false}, // Warning: Failed to open x:s3cr3t (-s hides it)
		{`curl --proxy-header "@y:$T" URL`, false},
	} {
		line := strings.ReplaceAll(c.line, "URL", srv.URL+"/")
		if got := argspec.KeepsSecrets(secretArgv(line)); got != c.want {
			t.Errorf("KeepsSecrets(%s) = %v, want %v", c.line, got, c.want)
			continue
		}
		cmd := exec.Command("bash", "-c", strings.ReplaceAll(line, "curl", curl)+" 2>&1")
		cmd.Env = append(os.Environ(), "T=s3cr3t")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", line, err, out)
		}
		if shown := strings.Contains(string(out), "s3cr3t"); shown == c.want {
			t.Errorf("%s: curl shows it: %v, KeepsSecrets says it keeps it: %v\n%s", c.line, shown, c.want, out)
		}
	}
}
