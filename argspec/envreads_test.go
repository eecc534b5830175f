package argspec

import (
	"math/rand/v2"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/guard-exec/guard-exec/word"
)

// jq's and awk's ways to the environment, held to the real programs: a
// program that prints a secret variable's value must be one programUsesEnv
// reports (the other way, reporting more, only asks).
func TestEnvReadsAgainstReal(t *testing.T) {
	const mark = "MARK8c1f"
	pieces := map[string][]string{
		"jq": {".", "env", "$ENV", "env.X_TOKEN", "$ENV.X_TOKEN", "env[\"X_TOKEN\"]", "$ENV[\"X_TOKEN\"]", ".env", "\"env\"",
			"{a: env}", "[env[]]", "env|keys", "(env|.X_TOKEN)", "env as $e | $e.X_TOKEN", "def f: env; f", "$ENV|tostring",
			"env.HOME", "[1,2]", "{env: 1}", ".env.X_TOKEN", "\"$ENV\"", "getpath([\"env\"])"},
		"gawk": {"print ENVIRON[\"X_TOKEN\"]", "for (k in ENVIRON) print ENVIRON[k]", "print ENVIRON [ \"X_TOKEN\" ]",
			"k = \"X_TOKEN\"; print ENVIRON[k]", "print (\"X_TOKEN\" in ENVIRON)", "print ENVIRON[\"HOME\"]", "print \"ENVIRON\"",
			"n = split(ENVIRON[\"X_TOKEN\"], a); print a[1]", "print 1", "x = ENVIRON[\"X_TOKEN\"]; print length(x)"},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for prog, ps := range pieces {
		path, err := exec.LookPath(prog)
		if err != nil {
			t.Logf("no %s here: skipped", prog)
			continue
		}
		var programs []string
		programs = append(programs, ps...)
		for range 50 {
			a, b := ps[rng.IntN(len(ps))], ps[rng.IntN(len(ps))]
			if prog == "jq" {
				programs = append(programs, a+" | "+b, "["+a+", "+b+"]", "("+a+") as $x | "+b)
			} else {
				programs = append(programs, a+"; "+b)
			}
		}
		printed := 0
		for _, p := range programs {
			var args []string
			if prog == "jq" {
				args = []string{"-n", p}
			} else {
				args = []string{"BEGIN { " + p + " }"}
			}
			cmd := exec.Command(path, args...)
			cmd.Env = []string{"X_TOKEN=" + mark, "HOME=/h", "PATH=/usr/bin:/bin"}
			out, _ := cmd.CombinedOutput()
			var words []word.Word
			for _, a := range args {
				words = append(words, word.FromLit(a))
			}
			if !strings.Contains(string(out), mark) {
				continue
			}
			printed++
			if all, names, _ := EnvReads(prog, words); !all && !slices.Contains(names, "X_TOKEN") {
				t.Errorf("%s %q printed X_TOKEN's value, and the guard does not see it use the environment", prog, p)
			}
		}
		if printed == 0 {
			t.Errorf("no %s program printed the value: the test tests nothing", prog)
		}
	}
}
