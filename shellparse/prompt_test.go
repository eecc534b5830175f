package shellparse

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// promptCases are prompts with nothing bash fills in: what decodePrompt
// makes of each must expand, as a double-quoted word, to what bash makes
// of the prompt.
var promptCases = []string{
	`plain`, `$(printf A)`, "`printf B`", `\044(printf C)`, `\444(printf D)`, `\044\050printf E\051`, `\140printf F\140`,
	`$\[(printf G)`, `$\000(printf H)`, `$\]\[(printf I)`, `\\$(printf J)`, `\\\\$(printf K)`, `\\\$(printf L)`,
	`\$(printf M)`, `\"'$(printf N)'\"`, `a"b\"c`, `a\`, `\q\x24(printf O)`, `\D`, `\D(printf P)`, `${Q:-'q'}`,
	`\0044(printf R)`, `\12x`, `\n\r\a\e`, `\$\$(printf S)`, `"$(printf T)"`, `'\''$(printf U)`, `$((1+2))`,
	`\\"$(printf V)\\"`, `\"\\`, `\777(printf W)`, `\400`, `\\\\\\$(printf X)`, `\12`, `\1x(printf Y)`, `\04`, `\0440(printf Z)`,
}

func TestPromptDecodeBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	for _, s := range promptCases {
		checkPrompt(t, bash, s)
	}
}

// checkPrompt compares bash's expansion of the prompt s with the
// expansion of the word decodePrompt and promptWord make of it.
func checkPrompt(t *testing.T, bash, s string) {
	t.Helper()
	d, ok := decodePrompt(s, os.Geteuid() == 0)
	if !ok || strings.Contains(d, promptHole) || strings.Contains(d, "$$") {
		return // $$ is the process's number, another in each run
	}
	if _, err := syntax.NewParser().Parse(strings.NewReader("echo "+promptWord(d)), ""); err != nil {
		return // the walk refuses what it cannot parse
	}
	env := []string{"PATH=" + t.TempDir(), "P=" + s}
	run := func(script string) (string, error) {
		cmd := exec.Command(bash, "--norc", "--noprofile", "-c", script)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	want, _ := run(`printf '%s' "${P@P}"`)
	got, err := run(`printf '%s' ` + promptWord(d))
	if err != nil {
		return // an expansion error: bash then shows the prompt as written
	}
	if got != want {
		t.Errorf("prompt %q: decoded %q expands to %q; bash expands the prompt to %q", s, d, got, want)
	}
}

// The text bash fills in may stand only where it cannot join what is
// around it into an expansion or a command.
func TestPromptHoles(t *testing.T) {
	for _, row := range []struct {
		s  string
		ok bool
	}{
		{`+\t \w `, true}, {`[\u@\h \W]\$ `, true}, {`$(date) \w`, true}, {`\D{%H}`, true}, {`\u:`, true},
		{`$\W`, false}, {`\\\W`, false}, {`$(echo \w)`, false}, {`${HOME:-\w}`, false}, {"`echo \\w`", false},
		{`\u(x)`, false}, {`\u\[{x}`, false}, {`$\[\s`, false}, {`\134\w`, false}, {`$\001`, false}, {`\D{x`, false},
	} {
		_, ok1 := decodePrompt(row.s, false)
		_, ok2 := decodePrompt(row.s, true)
		if ok1 != row.ok || ok2 != row.ok {
			t.Errorf("decodePrompt(%q): %v/%v, want %v", row.s, ok1, ok2, row.ok)
		}
	}
}

// FuzzPromptDecode holds decodePrompt to bash on prompts of a small
// alphabet (no program can be named: PATH is an empty directory).
func FuzzPromptDecode(f *testing.F) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		f.Skip("no bash")
	}
	for _, s := range promptCases {
		f.Add(s)
	}
	const alphabet = `\$(){}[]"'0147aqDWnx` + "`"
	f.Fuzz(func(t *testing.T, in string) {
		if len(in) > 40 {
			return
		}
		var b strings.Builder
		for i := 0; i < len(in); i++ {
			b.WriteByte(alphabet[int(in[i])%len(alphabet)])
		}
		checkPrompt(t, bash, b.String())
	})
}
