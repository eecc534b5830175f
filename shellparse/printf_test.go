package shellparse

import (
	"os/exec"
	"testing"
)

// printfLiteral works out what bash's printf prints, or declines.
func TestPrintfLiteralAgainstBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	for _, args := range [][]string{
		{`/\0`}, {`%s\0`, "/home/u"}, {`\101\n`}, {`\0101`}, {`\1011`}, {`a\0b\0`}, {`%s\n`, "/", "x"}, {`\7\77\777`},
		{`%b`, `x\ty`}, {`%%%s`, "a"}, {`\\n`},
	} {
		got, ok := printfLiteral(args)
		if !ok {
			continue
		}
		out, err := exec.Command(bash, append([]string{"-c", `printf "$@"`, "bash"}, args...)...).Output()
		if err != nil {
			t.Fatalf("printf %q: %v", args, err)
		}
		if got != string(out) {
			t.Errorf("printf %q: the guard works out %q, bash prints %q", args, got, out)
		}
	}
}
