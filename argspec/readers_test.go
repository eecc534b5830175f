package argspec_test

import (
	"slices"
	"testing"

	"github.com/guard-exec/guard-exec/argspec"
)

// What readers read: recursively or not (R), names only or contents (N),
// and whether a recursive read passes over hidden entries (H). A recursive
// read of ~ by grep -r reads ~/.ssh; by rg it does not; ls -R shows names.
func TestEffectsReaders(t *testing.T) {
	show := func(s string) []string {
		effs, _ := argspec.Effects(norm(s))
		out := []string{}
		for _, e := range effs {
			r := e.Access.String() + " " + e.Path.String()
			for _, f := range []struct {
				on bool
				m  string
			}{{e.Recursive, " R"}, {e.Names, " N"}, {e.SkipHidden, " H"}} {
				if f.on {
					r += f.m
				}
			}
			out = append(out, r)
		}
		return out
	}
	for _, tt := range []struct {
		argv string
		want []string
	}{
		{"grep x f", []string{"read f"}},
		{"grep -r x d", []string{"read d R"}},
		{"grep -R x d", []string{"read d R"}},
		{"grep -rn x d e", []string{"read d R", "read e R"}},
		{"grep --directories=recurse x d", []string{"read d R"}},
		{"grep -d recurse x d", []string{"read d R"}},
		{"grep -e x -r d", []string{"read d R"}},
		{"rg x d", []string{"read d R"}}, // what rg passes over an ignore file may take back
		{"rg -u x d", []string{"read d R"}},
		{"rg -uu x d", []string{"read d R"}},
		{"rg -uuu x d", []string{"read d R"}},
		{"rg --hidden x d", []string{"read d R"}},
		{"rg -. x d", []string{"read d R"}},
		{"ag x d", []string{"read d R"}},
		{"ag -u x d", []string{"read d R"}},
		{"ag --hidden x d", []string{"read d R"}},
		{"ack x d", []string{"read d R"}},
		{"grep -q x f", []string{"read f"}}, // whether x is in a value, too
		{"grep -q ^NAME= f", []string{"read f N"}},
		{"grep -qE ^NAME= f", []string{"read f N"}},
		{"grep -l x -r d", []string{"read d R"}},
		{"grep -l ^X= -r d", []string{"read d R N"}},
		{"grep -c x f", []string{"read f"}},
		{"grep -c ^ f", []string{"read f N"}}, // its lines, counted
		{"grep -o x f", []string{"read f"}},
		{"rg -l x d", []string{"read d R"}},
		{"rg -l ^X d", []string{"read d R N"}},
		{"rg --files d", []string{"read d R N"}},
		{"ag -l x d", []string{"read d R"}},
		{"cat f", []string{"read f"}},
		{"ls d", []string{"read d N"}},
		{"ls -la d", []string{"read d N"}},
		{"ls -R d", []string{"read d R N H"}},
		{"ls -laR d", []string{"read d R N"}},
		{"ls -RA d", []string{"read d R N"}},
		{"tree d", []string{"read d R N H"}},
		{"tree -a d", []string{"read d R N"}},
		{"du -sh d", []string{"read d R N"}},
		{"stat f", []string{"read f N"}},
		{"wc -l f", []string{"read f N"}},
		{"find d -name x", []string{"read d R N"}},
		{"tar czf o.tgz d", []string{"write o.tgz", "read d R"}},
		{"cp -r d e", []string{"read d R", "write e R", "write e/d R"}},
		{"cp -a d e", []string{"read d R", "write e R", "write e/d R"}},
		{"cp f e", []string{"read f", "write e", "write e/f"}},
		{"rsync -a d/ e/", []string{"read d/ R", "write e/ R"}},
		{"zip o.zip f g", []string{"read/write o.zip", "read f", "read g"}},
		{"zip -r o.zip d", []string{"read/write o.zip", "read d R"}},
		{"zip -qr o.zip d -x '*.o'", []string{"read/write o.zip", "read d R"}},
		{"zip -P pw o.zip f", []string{"read/write o.zip", "read f"}},
		{"ssh-keygen -l -f k.pub", []string{"read k.pub N"}},
		{"ssh-keygen -lf k", []string{"read k N"}},
		{"ssh-keygen -y -f k", []string{"read k N"}},
		{"git show HEAD:.env", []string{"read .env"}},
		{"git cat-file -p HEAD:a/b", []string{"read a/b"}},
		// Without "--" an operand may be a path (a revision's name
		// reads nothing); :N:PATH is PATH as staged.
		{"git show HEAD", []string{"read HEAD"}},
		{"git show HEAD .env", []string{"read HEAD", "read .env"}},
		{"git show :0:.env", []string{"read .env"}},
		{"git log -p .env", []string{"read .env"}},
		{"git diff --no-index a b", []string{"read a R", "read b R"}},
		{"git diff HEAD -- a", []string{"read a"}},
		{"git diff HEAD", []string{"read HEAD"}},
		{"git diff .env", []string{"read .env"}},
		{"git diff HEAD~1:.env HEAD:.env", []string{"read HEAD~1:.env", "read HEAD:.env", "read .env", "read .env"}},
		{"git log -p -- a b", []string{"read a", "read b"}},
		{"git log --oneline", []string{}},
		{"git blame f", []string{"read f"}},
		{"git grep TODO -- a", []string{"read a"}},
		{"git grep TODO", []string{}},
		// A pattern every line may match prints the files whole.
		{"git grep x -- a", []string{"read a", "read a R"}},
		{"git grep ''", []string{"read . R"}},
		{"git grep '' HEAD", []string{"read HEAD R", "read the tree of a revision git grep searches R"}},
		{"git grep --no-index -v TODO src", []string{"read src R"}},
		{"git grep -e '' HEAD -- src", []string{"read src", "read the tree of a revision git grep searches R", "read src R"}},
	} {
		if got := show(tt.argv); !slices.Equal(got, tt.want) {
			t.Errorf("Effects(%q)\n got  %q\n want %q", tt.argv, got, tt.want)
		}
	}
	// A wrapper's own files: what it runs is judged as its own part.
	for argv, want := range map[string][]string{
		"xargs -a f echo":         {"read f"},
		"xargs --arg-file=f echo": {"read f"},
		"xargs echo":              {},
		"timeout 5 cat f":         {},
		"strace -o out true":      {"write out"},
		"strace -o |sh true":      {"write the command strace -o pipes to"},
		"ltrace -o out true":      {"write out"},
		"time -o out true":        {"write out"},
		"script -q -c true log":   {"write log"},
		"script -c true":          {"write typescript"},
		"flock lk true":           {"write lk"},
		"flock 9":                 {},
	} {
		got := []string{}
		for _, e := range argspec.WrapperEffects(norm(argv)) {
			got = append(got, e.Access.String()+" "+e.Path.String())
		}
		if !slices.Equal(got, want) {
			t.Errorf("WrapperEffects(%q) = %q, want %q", argv, got, want)
		}
	}
}
