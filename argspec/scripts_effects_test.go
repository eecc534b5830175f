package argspec_test

import (
	"slices"
	"testing"

	"github.com/guard-exec/guard-exec/argspec"
	"github.com/guard-exec/guard-exec/word"
)

// effectsOf renders the effects of an argv given word by word.
func effectsOf(argv ...string) []string {
	ws := make([]word.Word, len(argv))
	for i, a := range argv {
		ws[i] = word.FromLit(a)
	}
	effs, _ := argspec.Effects(argspec.Normalize(ws, false))
	out := []string{}
	for _, e := range effs {
		out = append(out, e.Access.String()+" "+e.Path.String())
	}
	return out
}

// The files sed and awk scripts write and read are path effects, as the
// programs read the scripts.
func TestScriptEffects(t *testing.T) {
	for _, tt := range []struct {
		argv []string
		want []string
	}{
		{[]string{"sed", "w /etc/passwd", "f"}, []string{"write /etc/passwd", "read f"}},
		{[]string{"sed", ":a;w out", "f"}, []string{"write out", "read f"}},
		{[]string{"sed", "s/a/b/w out;p", "f"}, []string{"write out;p", "read f"}},
		{[]string{"sed", "1{W out\n}", "f"}, []string{"write out", "read f"}},
		{[]string{"sed", "r .env", "f"}, []string{"read .env", "read f"}},
		{[]string{"sed", "R .env", "f"}, []string{"read .env", "read f"}},
		{[]string{"sed", "a w out", "f"}, []string{"read f"}},
		{[]string{"sed", "s/w out/x/", "f"}, []string{"read f"}},
		{[]string{"sed", "w /dev/stdout", "f"}, []string{"read f"}},
		{[]string{"sed", "-e", "w out", "--version"}, []string{"write out"}},
		{[]string{"sed", "-n", "-e", "p", "-e", "w out", "f", "g"}, []string{"write out", "read f", "read g"}},
		{[]string{"sed", "-i", "w out", "f"}, []string{"write out", "write f"}},
		{[]string{"awk", `BEGIN { print "x" > "/etc/passwd" }`}, []string{"write /etc/passwd"}},
		{[]string{"awk", `{ print $1 >> "log"; print | "sort" }`, "f"}, []string{"write log", "read f"}},
		{[]string{"awk", `{ print > $1 }`, "f"}, []string{"write a file the awk program names at run time", "read f"}},
		{[]string{"awk", `BEGIN { while ((getline l < ".env") > 0) n++ }`}, []string{"read .env"}},
		{[]string{"awk", `BEGIN { ARGV[1] = ".env" } { print }`, "f"}, []string{"read a file the awk program names at run time", "read f"}},
		{[]string{"awk", "-F:", "-v", "x=1", `{ print $1 > "/dev/stderr" }`, "n=2", "f"}, []string{"read f"}},
		{[]string{"awk", "-f", "p.awk", "f"}, []string{"read p.awk", "read f"}},
		{[]string{"gawk", "-d", "BEGIN{}"}, []string{"write awkvars.out"}},
		{[]string{"gawk", "--profile=prof", "BEGIN{}"}, []string{"write prof"}},
		{[]string{"awk", "-Q", "{print}", ".env"}, []string{"read -Q", "read {print}", "read .env"}},
	} {
		if got := effectsOf(tt.argv...); !slices.Equal(got, tt.want) {
			t.Errorf("Effects(%q)\n got  %q\n want %q", tt.argv, got, tt.want)
		}
	}
}
