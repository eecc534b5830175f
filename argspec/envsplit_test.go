package argspec

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/guard-exec/guard-exec/word"
)

// env -S's splitting against GNU env itself: each string is given to env
// -S before a recording printf, with X and Y in the environment; the words
// splitEnvS makes, their ${NAME} holes filled with those values, must be
// what env passes (or both refuse).
func TestSplitEnvSAgainstEnv(t *testing.T) {
	envPath, err := exec.LookPath("env")
	if err != nil || exec.Command(envPath, "-S", "true").Run() != nil {
		t.Skip("no env with -S here")
	}
	vals := map[string]string{"X": "a b", "Y": "/root/.ssh/id_rsa"}
	cases := []string{
		`a b  c`, `'a b' "c d"`, `a\_b`, `"a\_b"`, `a\tb`, `"a\nb"`, `'a\nb'`, `'a\\b' 'c\'d'`,
		`"e\\f" "g\"h"`, `\$HOME \#x a#b #c d`, `x #`, `a \c b`, `""`, `'' x`, `${X}`, `"${X}"`, `'${X}'`,
		`cat ${Y}`, `${X}${Y}z`, `pre${X}post`, `a\qb`, `$X`, `"$X"`, `${1}`, `'open`, `"open`, `a\`,
		`"\c"`, "a\tb\nc", `\"x\"`, `${X`, `"a"'b'c`, `\\\\`,
	}
	compared := 0
	for _, c := range cases {
		cmd := exec.Command(envPath, "-S", `printf '%s\0' _ `+c)
		cmd.Env = append(os.Environ(), "X="+vals["X"], "Y="+vals["Y"])
		outB, runErr := cmd.Output()
		words, why := splitEnvS(`printf '%s\0' _ ` + c)
		if runErr != nil {
			if why == "" {
				t.Errorf("%q: env refuses it (%v), splitEnvS gives %d words", c, runErr, len(words))
			}
			continue
		}
		if why != "" {
			t.Errorf("%q: env runs it, splitEnvS refuses: %s", c, why)
			continue
		}
		compared++
		want := strings.Split(strings.TrimSuffix(string(outB), "\x00"), "\x00")[1:] // after _
		var got []string
		for _, w := range words[3:] {
			var b strings.Builder
			for _, s := range w.Segs {
				if s.Kind == word.Hole {
					b.WriteString(vals[strings.Trim(s.Text, "${}")])
				} else {
					b.WriteString(s.Text)
				}
			}
			got = append(got, b.String())
		}
		if strings.Join(got, "\x00") != strings.Join(want, "\x00") {
			t.Errorf("%q: splitEnvS %q, env %q", c, got, want)
		}
	}
	t.Logf("env ran %d of %d strings", compared, len(cases))
	if compared < len(cases)/2 {
		t.Errorf("env ran only %d of %d strings", compared, len(cases))
	}
}
