package shellparse

import (
	"bytes"
	"math/rand"
	"os/exec"
	"testing"
)

// printfLiteral against bash's own printf: every format and argument it
// works out must print exactly what bash prints (in the C locale, with
// stderr aside: an escape bash finds short, \x with no digit, it prints as
// written and complains about).
func TestPrintfLiteralAgainstBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	formats := []string{`a\cb`, `\x41\x4g\x`, `\u0041\U00000042\u`, `\101\0101\1018`, `%b`, `%b|%b`, `\e\E\a\q\?\"\'`,
		`\x7e\x7f\xff\xfz`, `\u00e9`, `\777\400\08`, `%s\n`, `r\x6d -rf /\n`, `\162\155 -rf /`, `%b\n`, `\\\\x41`, `%%b%b`}
	args := []string{`x\0101y\101z\x41\cq\u0041`, `r\x6d -rf /`, `\0`, `\01`, `\0777`, `\x`, `\u`, `\c`, `\"\'\?`, `\e\E\q`,
		`\u007e\U0000007E\u00e9`, `a\\b`, `\1\12\123\1234`, `plain`, ``, `\x2f`, `\`}
	r := rand.New(rand.NewSource(3))
	pieces := []string{`\`, `0`, `1`, `7`, `8`, `x`, `u`, `U`, `4`, `f`, `c`, `%b`, `a`, `"`, `e`, `n`, `%s`, `/`}
	for i := 0; i < 300; i++ {
		var f, a []byte
		for j := r.Intn(8); j >= 0; j-- {
			f = append(f, pieces[r.Intn(len(pieces))]...)
			a = append(a, pieces[r.Intn(len(pieces))]...)
		}
		formats, args = append(formats, string(f)), append(args, string(a))
	}
	worked := 0
	for i, f := range formats {
		for _, a := range []string{args[i%len(args)], args[(i*7+3)%len(args)]} {
			got, ok := printfLiteral([]string{f, a})
			if !ok {
				continue
			}
			cmd := exec.Command(bash, "-c", `printf "$1" "$2"`, "_", f, a)
			cmd.Env = []string{"LC_ALL=C", "PATH=/usr/bin:/bin"}
			want, _ := cmd.Output()
			worked++
			if !bytes.Equal([]byte(got), want) {
				t.Errorf("printf %q %q: %q, bash %q", f, a, got, want)
			}
		}
	}
	if worked < 200 {
		t.Errorf("only %d formats worked out", worked)
	}
}
