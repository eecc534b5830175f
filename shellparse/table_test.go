package shellparse_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/guard-exec/guard-exec/shellparse"
	"github.com/guard-exec/guard-exec/word"
)

// The world every table case runs in: a fixed HOME, TMPDIR and working
// directory, no file-system globbing, nothing else from the environment.
const (
	home = "/home/u"
	proj = "/home/u/proj"
)

func getenv(k string) string {
	switch k {
	case "HOME":
		return home
	case "TMPDIR":
		return "/tmp"
	}
	return ""
}

// errPanic marks a panic inside Parse, reported as a test failure rather
// than stopping every other case.
var errPanic = errors.New("parse panicked")

func parse(src string) (res *shellparse.Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, fmt.Errorf("%w: %v", errPanic, r)
		}
	}()
	return shellparse.Parse(src, shellparse.Options{Cwd: proj, Getenv: getenv})
}

// render writes one command compactly:
//
//	argv words, space separated; a word with blanks (or empty) is
//	'quoted'; a word not known statically is ⟨bracketed⟩ (word.String).
//	A command with no argv shows its assignments as NAME=value.
//	" via=K1>K2" lists the Via layer kinds, outermost first.
//	" OPAQUE" when Opaque is set, " special=S" when Special is.
//	" cwd=D1,D2" (and "?" when unknown) when the directory is not proj.
func render(c *shellparse.Cmd) string {
	var parts []string
	for i, s := range word.Strings(c.Argv) {
		if !c.Argv[i].IsStatic() {
			s = "⟨" + s + "⟩"
		} else if s == "" || strings.ContainsAny(s, " \t\n") {
			s = "'" + s + "'"
		}
		parts = append(parts, s)
	}
	if len(c.Argv) == 0 {
		for _, a := range c.Assigns {
			v := a.Value.String()
			if !a.Value.IsStatic() {
				v = "⟨" + v + "⟩"
			} else if strings.ContainsAny(v, " \t\n") {
				v = "'" + v + "'"
			}
			parts = append(parts, a.Name+"="+v)
		}
	}
	out := strings.Join(parts, " ")
	if len(c.Via) > 0 {
		var kinds []string
		for _, l := range c.Via {
			kinds = append(kinds, l.Kind)
		}
		out += " via=" + strings.Join(kinds, ">")
	}
	if c.Opaque != "" {
		out += " OPAQUE"
	}
	if c.Special != "" {
		out += " special=" + c.Special
	}
	if c.Cwd.Unknown || len(c.Cwd.Dirs) != 1 || c.Cwd.Dirs[0] != proj {
		d := strings.Join(c.Cwd.Dirs, ",")
		if c.Cwd.Unknown {
			d += "?"
		}
		out += " cwd=" + d
	}
	return strings.TrimSpace(out)
}

func renderAll(res *shellparse.Result) []string {
	out := []string{}
	for _, c := range res.Cmds {
		out = append(out, render(c))
	}
	return out
}

type tcase struct {
	src  string
	want []string
}

func runTable(t *testing.T, cases []tcase) {
	t.Helper()
	for _, tc := range cases {
		res, err := parse(tc.src)
		if err != nil {
			t.Errorf("Parse(%q): unexpected error %v", tc.src, err)
			continue
		}
		if res == nil {
			t.Errorf("Parse(%q): nil result without error", tc.src)
			continue
		}
		got := renderAll(res)
		if runsSh.MatchString(tc.src) {
			got = dedup(got)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("Parse(%q)\n got  %s\n want %s", tc.src, fmtList(got), fmtList(tc.want))
		}
	}
}

// Code run by sh is read both as POSIX sh and as bash (sh may be either),
// so the same command can be reported once per reading: for texts that
// run sh, repeats are ignored.
var runsSh = regexp.MustCompile(`(^|[^a-z._-])sh(\s|$)`)

func dedup(ss []string) []string {
	seen := map[string]bool{}
	out := []string{}
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

func fmtList(ss []string) string {
	if len(ss) == 0 {
		return "[]"
	}
	return "[\n\t" + strings.Join(ss, "\n\t") + "\n      ]"
}

func TestStructure(t *testing.T) {
	runTable(t, []tcase{
		{"a && b || c; d | e & f", []string{"a", "b", "c", "d", "e", "f"}},
		{"a |& b", []string{"a", "b"}},
		{"(a; b)", []string{"a", "b"}},
		{"{ a; b; }", []string{"a", "b"}},
		{"if a; then b; elif c; then d; else e; fi", []string{"a", "b", "c", "d", "e"}},
		{"while a; do b; done", []string{"a", "b"}},
		{"until a; do b; done", []string{"a", "b"}},
		// A short literal list is walked once per value, as bash runs it.
		{"for i in x y; do echo $i; done", []string{"echo x", "echo y"}},
		{"for i in $L; do echo $i; done", []string{"echo ⟨$i⟩"}},
		{"for i; do echo $i; done", []string{"echo ⟨$i⟩"}},
		{"for ((i=0; i<3; i++)); do b; done", []string{"b"}},
		{"select x in a b; do echo $x; done", []string{"echo ⟨$x⟩"}},
		{"case x in a) b;; *) c;; esac", []string{"b", "c"}},
		{"coproc a b", []string{"a b"}},
		{"coproc NAME { a; }", []string{"a"}},
		{"time a b", []string{"a b"}},
		{"time -p a", []string{"a"}},
		{"! a b", []string{"a b"}},
		{"a &\nb", []string{"a", "b"}},
		{"", []string{}},
		{"# only a comment", []string{}},
	})
}

func TestFunctions(t *testing.T) {
	runTable(t, []tcase{
		// Judged where called; an uncalled function's body is not reported.
		{"f() { rm x; }; f", []string{"rm x via=function f"}},
		{"f() { rm x; }", []string{}},
		{"function f { rm x; }; echo hi", []string{"echo hi"}},
		{"function f { rm \"$1\"; }; f a", []string{"rm a via=function f"}},
		{"f() { g; }; g() { rm x; }; f", []string{"rm x via=function f>function g"}},
		{"f() { rm x; }; f; f", []string{"rm x via=function f", "rm x via=function f"}},
		// A wrapper runs a program, not the function of that name.
		{"ls() { rm x; }; command ls", []string{"command ls", "ls via=wrapper command"}},
		{"f() { echo $1; }; f hi", []string{"echo hi via=function f"}},
	})
}

func TestSubstitutions(t *testing.T) {
	runTable(t, []tcase{
		{"echo $(a) `b`", []string{"a via=$(…)", "b via=$(…)", "echo ⟨$(…)⟩ ⟨$(…)⟩"}},
		{"cat <(a) >(b)", []string{"a via=<(…)", "b via=>(…)", "cat ⟨<(…)⟩ ⟨>(…)⟩"}},
		{"echo \"$(a \"$(b)\")\"", []string{"b via=$(…)>$(…)", "a ⟨$(…)⟩ via=$(…)", "echo ⟨$(…)⟩"}},
		// Assignments.
		{"X=$(a) b", []string{"a via=$(…)", "b"}},
		{"X=$(a)", []string{"a via=$(…)", "X=⟨$(…)⟩"}},
		{"a[$(i)]=1", []string{"i via=$(…)", "OPAQUE", "a=1"}}, // the subscript is arithmetic on unknown text
		// Redirection targets.
		{"echo hi > $(a)", []string{"a via=$(…)", "echo hi"}},
		{"cat < \"$(a)\"", []string{"a via=$(…)", "cat"}},
		// ${…} operands.
		{"echo ${x:-$(a)}", []string{"a via=$(…)", "echo ⟨${x…}⟩"}},
		{"echo \"${x:=$(a)}\"", []string{"a via=$(…)", "echo ⟨${x…}⟩"}},
		{"echo ${x/$(a)/$(b)}", []string{"a via=$(…)", "b via=$(…)", "echo ⟨${x…}⟩"}},
		// Arithmetic.
		{"echo $((1 + $(a)))", []string{"a via=$(…)", "OPAQUE", "echo ⟨$((…))⟩"}},
		{"(( $(a) ))", []string{"a via=$(…)", "OPAQUE"}},
		// [[ ]].
		{"[[ $(a) == x ]]", []string{"a via=$(…)"}},
		{"[[ -n $(a) && -f $(b) ]]", []string{"a via=$(…)", "b via=$(…)"}},
		// case words and patterns.
		{"case $(w) in a) b;; esac", []string{"w via=$(…)", "b"}},
		{"case x in $(p)) b;; esac", []string{"p via=$(…)", "b"}},
		// for lists.
		{"for i in $(a); do b; done", []string{"a via=$(…)", "b"}},
		// Unquoted heredoc bodies run substitutions; quoted ones do not.
		{"cat <<EOF\n$(a)\n`b`\nEOF", []string{"a via=$(…)", "b via=$(…)", "cat"}},
		{"cat <<'EOF'\n$(a)\nEOF", []string{"cat"}},
		{"cat <<\"EOF\"\n$(a)\nEOF", []string{"cat"}},
		{"cat <<\\EOF\n$(a)\nEOF", []string{"cat"}},
		{"cat <<-EOF\n\t$(a)\n\tEOF", []string{"a via=$(…)", "cat"}},
		{"x=$(cat <<EOF\nEOF is here\nEOF\n)", []string{"cat via=$(…)", "x='EOF is here'"}},
		// Quoted in part is quoted to bash (the parser looks at the last
		// part only): the body as written, fed to bash whole.
		{"cat <<E\"O\"F\n$(a)\nEOF", []string{"cat"}},
		{"cat <<'E'OF\n$(a)\nEOF", []string{"cat"}},
		{"cat <<-E''OF\n\t$(a)\n\tEOF", []string{"cat"}},
		{"cat <<E\"O\"F | bash\n$(a)\nEOF", []string{"cat", "bash", "a via=input of bash (a heredoc)>$(…) OPAQUE", "a via=input of bash (a heredoc)>$(…)", "⟨$(…)⟩ via=input of bash (a heredoc)"}},
		{"bash <<E'O'F\nb \\\nc\nEOF", []string{"bash", "b c via=input of bash (a heredoc) OPAQUE", "b c via=input of bash (a heredoc)"}},
		// Declaration builtins.
		{"declare x=$(a)", []string{"a via=$(…)", "declare x=$(…)"}},
		{"f() { local y=$(b); }; f", []string{"b via=function f>$(…)", "local y=$(…) via=function f"}},
		{"export z=$(c)", []string{"c via=$(…)", "export z=$(…)"}},
		{"readonly r=$(c)", []string{"c via=$(…)", "readonly r=$(…)"}},
		// coproc, time and ! around substitutions.
		{"coproc a $(b)", []string{"b via=$(…)", "a ⟨$(…)⟩"}},
		{"time a $(b)", []string{"b via=$(…)", "a ⟨$(…)⟩"}},
		{"! a $(b)", []string{"b via=$(…)", "a ⟨$(…)⟩"}},
	})
}

func TestWords(t *testing.T) {
	runTable(t, []tcase{
		// Quote removal, ANSI-C quotes, locale quotes, backslashes.
		{"r''m x", []string{"rm x"}},
		{"\"r\"m x", []string{"rm x"}},
		{`$'\x72m' x`, []string{"rm x"}},
		{`$'\162m' x`, []string{"rm x"}},
		{`$'\u0072m' x`, []string{"rm x"}},
		// bash 5.2's \x{…}: any number of digits, the low byte; none is NUL.
		{`$'\x{72}m' x`, []string{"rm x"}},
		{`$'\x{0072}\x{6D}' x`, []string{"rm x"}},
		{`echo $'a\x{}b'`, []string{"echo a"}},
		// Outside ASCII, \u depends on the locale (é, or the text \u00E9).
		{`$'\u00e9cho' x`, []string{"⟨$'\\u00e9cho' (its text depends on the locale)⟩ x"}},
		{`$"rm" x`, []string{"rm x"}},
		{`\rm x`, []string{"rm x"}},
		{`r\m x`, []string{"rm x"}},
		{"r\\\nm x", []string{"rm x"}},
		{`echo "a\"b" 'c'\''d' "\$x" "\a"`, []string{`echo a"b c'd $x \a`}},
		{`echo $'ab\0cd'`, []string{"echo ab"}},
		{`echo $'a\tb'`, []string{"echo 'a\tb'"}},
		// Brace expansion.
		{"{rm,-rf,x}", []string{"rm -rf x"}},
		{"{qux,}", []string{"qux"}},
		{"echo a{b,c}d", []string{"echo abd acd"}},
		{"echo {1..3}", []string{"echo 1 2 3"}},
		{"echo '{a,b}' \"{a,b}\"", []string{"echo {a,b} {a,b}"}},
		// Tilde.
		{"echo ~ ~/x", []string{"echo /home/u /home/u/x"}},
		{"echo ~no-such-user-here/x", []string{"echo ⟨~no-such-user-here/x⟩"}}, // a user the database has: its home (TestDefaultsTildeUser)
		{"echo \"~\" '~' \\~", []string{"echo ~ ~ ~"}},
		{"echo a~b", []string{"echo a~b"}},
		{"X=~/a:~/b; echo $X", []string{"X=/home/u/a:/home/u/b", "echo /home/u/a:/home/u/b"}},
		// Field splitting: an IFS character that is not white space ends a
		// field even when it is empty; white space ends only one that has
		// something (as bash: printf '<%s>' $x).
		{`IFS=/; x="a//c"; echo $x pre$x`, []string{"IFS=/", "x=a//c", "echo a '' c prea '' c"}},
		{`IFS=/; x="/a"; echo $x pre$x`, []string{"IFS=/", "x=/a", "echo '' a pre a"}},
		{`IFS=/; x="a//"; echo $x`, []string{"IFS=/", "x=a//", "echo a ''"}},
		{`IFS=" /"; x=" / / "; echo $x`, []string{"IFS=' /'", "x=' / / '", "echo '' ''"}},
		{`IFS=" /"; x=" a  b / c "; echo $x`, []string{"IFS=' /'", "x=' a  b / c '", "echo a b c"}},
		// A word that looks like an assignment has its value's ~ expanded
		// too (bash outside POSIX mode): dd writes to /home/u/.bashrc.
		{"dd if=/dev/zero of=~/.bashrc", []string{"dd if=/dev/zero of=/home/u/.bashrc"}},
		{"echo a=~/x:~/y _b=~ c=~+", []string{"echo a=/home/u/x:/home/u/y _b=/home/u c=/home/u/proj"}},
		{`echo --dir=~/x 1a=~/x a-b=~/x "a"=~/x a\=~/x a==~/x x:~/y`, []string{`echo --dir=~/x 1a=~/x a-b=~/x a=~/x a=~/x a==~/x x:~/y`}},
		// HOME and TMPDIR from the environment; other names are unknown.
		{"echo $HOME/x \"$TMPDIR\" ${HOME}", []string{"echo /home/u/x /tmp /home/u"}},
		{"echo $UNSET", []string{"echo ⟨$UNSET⟩"}},
		{"echo $PWD", []string{"echo /home/u/proj"}},
		// Literal assignments followed to their use.
		{"X=rm; $X -rf x", []string{"X=rm", "rm -rf x"}},
		{"X=rm\n$X x", []string{"X=rm", "rm x"}},
		{"X=rm Y=-rf; $X $Y x", []string{"X=rm Y=-rf", "rm -rf x"}},
		// Field splitting of a known value, unquoted; kept whole when quoted.
		{`X="rm -rf /"; $X`, []string{"X='rm -rf /'", "rm -rf /"}},
		{`X="rm -rf /"; "$X"`, []string{"X='rm -rf /'", "'rm -rf /' OPAQUE", "'rm -rf /'"}}, // a path: the file "rm -rf /" there
		{`X='a  b'; echo $X "$X"`, []string{"X='a  b'", "echo a b 'a  b'"}},
		{`IFS=:; X=a:b; echo $X`, []string{"IFS=:", "X=a:b", "echo a b"}},
		{`X=; echo $X "$X"`, []string{"X=", "echo ''"}},
		// Positional parameters set by the text.
		{`set -- a b; echo "$@" $# "$1"`, []string{"set -- a b", "echo a b 2 a"}},
		// A glob is a pattern, not static text (file-system expansion is off).
		{"echo *.go", []string{"echo ⟨*.go⟩"}},
		{"echo '*.go'", []string{"echo *.go"}},
	})
}

func TestCwd(t *testing.T) {
	runTable(t, []tcase{
		{"cd a && x", []string{"cd a", "x cwd=/home/u/proj/a"}},
		// cd may fail: with no && or set -e the next command runs in either.
		{"cd a; x", []string{"cd a", "x cwd=/home/u/proj/a,/home/u/proj"}},
		{"cd a\nx", []string{"cd a", "x cwd=/home/u/proj/a,/home/u/proj"}},
		{"set -e; cd a; x", []string{"set -e", "cd a", "x cwd=/home/u/proj/a"}},
		{"cd a || exit 1; x", []string{"cd a", "exit 1", "x cwd=/home/u/proj/a"}},
		{"cd \"$d\" && x", []string{"cd ⟨$d⟩", "x cwd=?"}},
		{"cd /tmp && x", []string{"cd /tmp", "x cwd=/tmp"}},
		{"cd .. && x", []string{"cd ..", "x cwd=/home/u"}},
		{"cd && x", []string{"cd", "x cwd=/home/u"}},
		// CDPATH set in the text, for the command or exported: cd sub may
		// land under any of its entries (bash ran a touch in a denied
		// directory so), or anywhere when its value is not known.
		{"CDPATH=/x; cd sub && x", []string{"CDPATH=/x", "cd sub", "x cwd=/home/u/proj/sub,/x/sub"}},
		{"CDPATH=/x cd sub && x", []string{"cd sub", "x cwd=/home/u/proj/sub,/x/sub"}},
		{"export CDPATH=/x; cd sub; x", []string{"export CDPATH=/x", "cd sub", "x cwd=/home/u/proj/sub,/x/sub,/home/u/proj"}},
		{"read CDPATH; cd sub && x", []string{"read CDPATH", "cd sub", "x cwd=?"}},
		// A name that starts with a dot is searched too (.ssh); only the
		// . and .. components are not.
		{"CDPATH=/x cd .ssh && x", []string{"cd .ssh", "x cwd=/home/u/proj/.ssh,/x/.ssh"}},
		{"CDPATH=/x cd ./sub && x", []string{"cd ./sub", "x cwd=/home/u/proj/sub"}},
		{"CDPATH=; cd sub && x", []string{"CDPATH=", "cd sub", "x cwd=/home/u/proj/sub"}},
		{"CDPATH=/x; cd ./sub && x", []string{"CDPATH=/x", "cd ./sub", "x cwd=/home/u/proj/sub"}},
		{"CDPATH=/x; unset CDPATH; cd sub && x", []string{"CDPATH=/x", "unset CDPATH", "cd sub", "x cwd=/home/u/proj/sub"}},
		{"cd ~/w && x", []string{"cd /home/u/w", "x cwd=/home/u/w"}},
		{"cd a && cd b && x", []string{"cd a", "cd b cwd=/home/u/proj/a", "x cwd=/home/u/proj/a/b"}},
		{"pushd a && x", []string{"pushd a", "x cwd=/home/u/proj/a"}},
		// A subshell's cd stays in the subshell.
		{"(cd a && x); y", []string{"cd a", "x cwd=/home/u/proj/a", "y"}},
		{"(cd a; x)", []string{"cd a", "x cwd=/home/u/proj/a,/home/u/proj"}},
		{"echo $(cd / && rm -rf usr)", []string{"cd / via=$(…)", "rm -rf usr via=$(…) cwd=/", "echo ⟨$(…)⟩"}},
		{"if true; then cd /etc && x; fi", []string{"true", "cd /etc", "x cwd=/etc"}},
		{"true && { cd /etc && x; }", []string{"true", "cd /etc", "x cwd=/etc"}},
		{"cd / && (x)", []string{"cd /", "x cwd=/"}},
		// Wrappers that change the directory.
		{"env -C /etc x", []string{"env -C /etc x", "x via=wrapper env cwd=/etc"}},
		{"env --chdir=/etc x", []string{"env --chdir=/etc x", "x via=wrapper env cwd=/etc"}},
		{"sudo -D /etc x", []string{"sudo -D /etc x", "x via=wrapper sudo cwd=/etc"}},
		// cd -P (or cd after set -P) resolves links as it goes: where a
		// directory is not there now, it is not known (TestPhysicalCd).
		{"cd -P a && x", []string{"cd -P a", "x cwd=?"}},
		{"cd -LP a && x", []string{"cd -LP a", "x cwd=?"}},
		{"cd -PL a && x", []string{"cd -PL a", "x cwd=/home/u/proj/a"}},
		{"set -P; cd a && x", []string{"set -P", "cd a", "x cwd=?"}},
		{"cd a && x; set -o physical", []string{"cd a", "x cwd=?", "set -o physical cwd=/home/u/proj?"}},
	})
}

// A physical cd goes where the links lead: cd -P src/up/.. is the parent
// of up's target, not src, as bash has it.
func TestPhysicalCd(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"src", "config/sub"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("../config/sub", filepath.Join(dir, "src", "up")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ src, cwd string }{
		{"cd -P src/up/.. && x", dir + "/config"},
		{"cd src/up/.. && x", dir + "/src"},
		{"cd -P src/up && cd .. && x", dir + "/config"},
		{"cd src/up && cd -P .. && x", dir + "/config"},
		{"set -P; cd src/up/.. && x", dir + "/config"},
		{"cd -P " + dir + "/src/up/.. && x", dir + "/config"},
		{"cd -P src && x", dir + "/src"},
	} {
		res, err := shellparse.Parse(tc.src, shellparse.Options{Cwd: dir, Getenv: getenv})
		if err != nil {
			t.Fatal(err)
		}
		x := res.Cmds[len(res.Cmds)-1]
		if x.Cwd.Unknown || len(x.Cwd.Dirs) != 1 || x.Cwd.Dirs[0] != tc.cwd {
			t.Errorf("%s: x runs in %v, want %s", tc.src, x.Cwd, tc.cwd)
		}
		// bash agrees.
		sh := exec.Command("bash", "-c", strings.Replace(tc.src, "&& x", "&& pwd -P", 1))
		sh.Dir = dir
		if out, err := sh.Output(); err != nil || strings.TrimSpace(string(out)) != tc.cwd {
			t.Errorf("%s: bash is in %q (%v)", tc.src, out, err)
		}
	}
}

func TestCodeInStrings(t *testing.T) {
	runTable(t, []tcase{
		{"eval 'rm x'", []string{"eval 'rm x'", "rm x via=eval"}},
		{"eval rm '$HOME'", []string{"eval rm $HOME", "rm /home/u via=eval"}},
		{"eval \"$y\"", []string{"eval ⟨$y⟩ OPAQUE"}},
		// Shells' -c in any flag position, with $0 and $1… after the string.
		{"bash -c 'rm $1' sh x", []string{"bash -c 'rm $1' sh x", "rm x via=shell bash"}},
		{"bash -c 'echo $0' name", []string{"bash -c 'echo $0' name", "echo name via=shell bash"}},
		{"sh -c 'echo $0 $1 $2' a b c", []string{"sh -c 'echo $0 $1 $2' a b c", "echo a b c via=shell sh"}},
		{"bash -lc 'rm x'", []string{"bash -lc 'rm x'", "rm x via=shell bash"}},
		{"bash -e -c 'rm x'", []string{"bash -e -c 'rm x'", "rm x via=shell bash"}},
		{"bash -ce 'rm x'", []string{"bash -ce 'rm x'", "rm x via=shell bash"}},
		{"bash -o pipefail -c 'rm x'", []string{"bash -o pipefail -c 'rm x'", "rm x via=shell bash"}},
		{"bash --norc -c 'rm x'", []string{"bash --norc -c 'rm x'", "rm x via=shell bash"}},
		// After --, bash takes -c as the name of a script file.
		{"bash -x -- -c 'rm x'", []string{"bash -x -- -c 'rm x' OPAQUE"}},
		{"dash -c 'rm x'", []string{"dash -c 'rm x'", "rm x via=shell dash"}},
		{"/bin/sh -c 'rm x'", []string{"/bin/sh -c 'rm x'", "rm x via=shell sh"}},
		{"sh -c 'sh -c \"rm x\"'", []string{"sh -c 'sh -c \"rm x\"'", "sh -c 'rm x' via=shell sh", "rm x via=shell sh>shell sh"}},
		// sh may be dash or bash, which read $'…' differently: both readings.
		{`sh -c "$'rm' x"`, []string{"sh -c '$'rm' x'", "$rm x via=shell sh", "rm x via=shell sh"}},
		{`dash -c "$'rm' x"`, []string{"dash -c '$'rm' x'", "$rm x via=shell dash"}},
		{`bash -c "$'rm' x"`, []string{"bash -c '$'rm' x'", "rm x via=shell bash"}},
		{"trap 'rm x' EXIT", []string{"trap 'rm x' EXIT", "rm x via=trap"}},
		{"trap -- 'rm x' INT TERM", []string{"trap -- 'rm x' INT TERM", "rm x via=trap"}},
		{"trap - EXIT", []string{"trap - EXIT"}},
		{"trap -p", []string{"trap -p"}},
		{"alias ll='rm x'", []string{"alias 'll=rm x'", "rm x via=alias ll"}},
	})
}

func TestWrappers(t *testing.T) {
	runTable(t, []tcase{
		{"env -i FOO=1 rm x", []string{"env -i FOO=1 rm x", "rm x via=wrapper env"}},
		{"env -u X rm x", []string{"env -u X rm x", "rm x via=wrapper env"}},
		{"env -S 'rm -rf x'", []string{"env -S 'rm -rf x'", "rm -rf x via=wrapper env"}},
		{"env VAR=val rm x", []string{"env VAR=val rm x", "rm x via=wrapper env"}},
		{"env", []string{"env"}},
		{"sudo -u user rm x", []string{"sudo -u user rm x", "rm x via=wrapper sudo"}},
		{"sudo -- rm x", []string{"sudo -- rm x", "rm x via=wrapper sudo"}},
		{"sudo -E -H rm x", []string{"sudo -E -H rm x", "rm x via=wrapper sudo"}},
		{"doas rm x", []string{"doas rm x", "rm x via=wrapper doas"}},
		{"doas -u bob rm x", []string{"doas -u bob rm x", "rm x via=wrapper doas"}},
		{"nice -n 5 rm x", []string{"nice -n 5 rm x", "rm x via=wrapper nice"}},
		{"nice -5 rm x", []string{"nice -5 rm x", "rm x via=wrapper nice"}},
		{"nohup rm x", []string{"nohup rm x", "rm x via=wrapper nohup"}},
		{"timeout -k 5 -s KILL 10 rm x", []string{"timeout -k 5 -s KILL 10 rm x", "rm x via=wrapper timeout"}},
		{"timeout --signal=KILL 1m rm x", []string{"timeout --signal=KILL 1m rm x", "rm x via=wrapper timeout"}},
		{"stdbuf -oL rm x", []string{"stdbuf -oL rm x", "rm x via=wrapper stdbuf"}},
		{"stdbuf -o L rm x", []string{"stdbuf -o L rm x", "rm x via=wrapper stdbuf"}},
		{"setsid -f rm x", []string{"setsid -f rm x", "rm x via=wrapper setsid"}},
		{"ionice -c 3 rm x", []string{"ionice -c 3 rm x", "rm x via=wrapper ionice"}},
		{"ionice -c3 -n7 rm x", []string{"ionice -c3 -n7 rm x", "rm x via=wrapper ionice"}},
		{"chrt -f 10 rm x", []string{"chrt -f 10 rm x", "rm x via=wrapper chrt"}},
		{"chrt -p 10 123", []string{"chrt -p 10 123"}},
		{"taskset -c 1 rm x", []string{"taskset -c 1 rm x", "rm x via=wrapper taskset"}},
		{"taskset 0x1 rm x", []string{"taskset 0x1 rm x", "rm x via=wrapper taskset"}},
		{"taskset -p 0x1 123", []string{"taskset -p 0x1 123"}},
		{"flock /tmp/l rm x", []string{"flock /tmp/l rm x", "rm x via=wrapper flock"}},
		{"flock -n -w 5 /tmp/l rm x", []string{"flock -n -w 5 /tmp/l rm x", "rm x via=wrapper flock"}},
		{"flock /tmp/l -c 'rm x'", []string{"flock /tmp/l -c 'rm x'", "rm x via=wrapper flock"}},
		{"watch rm x", []string{"watch rm x", "rm x via=wrapper watch"}},
		{"watch -n 1 'rm x; ls'", []string{"watch -n 1 'rm x; ls'", "rm x via=wrapper watch", "ls via=wrapper watch"}},
		{"watch -x rm x", []string{"watch -x rm x", "rm x via=wrapper watch"}},
		{"command rm x", []string{"command rm x", "rm x via=wrapper command"}},
		{"command -p rm x", []string{"command -p rm x", "rm x via=wrapper command"}},
		{"command -v rm", []string{"command -v rm"}},
		{"command -V rm", []string{"command -V rm"}},
		{"builtin echo hi", []string{"builtin echo hi", "echo hi via=wrapper builtin"}},
		{"exec -a foo rm x", []string{"exec -a foo rm x", "rm x via=wrapper exec"}},
		{"exec rm x", []string{"exec rm x", "rm x via=wrapper exec"}},
		{"exec >/dev/null", []string{"exec"}},
		{"xargs rm", []string{"xargs rm", "rm ⟨{input}⟩ via=wrapper xargs"}},
		{"xargs", []string{"xargs", "echo ⟨{input}⟩ via=wrapper xargs"}},
		{"xargs -0 rm -f", []string{"xargs -0 rm -f", "rm -f ⟨{input}⟩ via=wrapper xargs"}},
		{"xargs -n 1 rm", []string{"xargs -n 1 rm", "rm ⟨{input}⟩ via=wrapper xargs"}},
		{"xargs -- rm", []string{"xargs -- rm", "rm ⟨{input}⟩ via=wrapper xargs"}},
		{"xargs -I {} rm {}", []string{"xargs -I {} rm {}", "rm ⟨{}⟩ via=wrapper xargs"}},
		{"xargs -I{} rm {}", []string{"xargs -I{} rm {}", "rm ⟨{}⟩ via=wrapper xargs"}},
		{"xargs -I % mv % %.bak", []string{"xargs -I % mv % %.bak", "mv ⟨%⟩ ⟨%.bak⟩ via=wrapper xargs"}},
		// Literal input gives the exact commands; other input stays unknown.
		{"echo / | xargs rm -rf", []string{"echo /", "xargs rm -rf", "rm -rf / via=wrapper xargs"}},
		{"printf 'a\\nb\\n' | xargs -I{} mv {} {}.bak", []string{"printf a\\nb\\n", "xargs -I{} mv {} {}.bak", "mv a a.bak via=wrapper xargs", "mv b b.bak via=wrapper xargs"}},
		{"xargs -a f rm <<< x", []string{"xargs -a f rm", "rm ⟨{input}⟩ via=wrapper xargs"}},
		// -0 splits at NUL only: echo's newline is part of the item.
		{"echo a | xargs -0 rm", []string{"echo a", "xargs -0 rm", "rm 'a\n' via=wrapper xargs"}},
		// With nothing filtering, the first file is the starting point.
		{"find . -exec rm {} \\;", []string{"find . -exec rm {} ;", "rm ⟨./{}⟩ via=find -exec", "rm . via=find -exec"}},
		{"find . -type f -exec rm {} \\;", []string{"find . -type f -exec rm {} ;", "rm ⟨./{}⟩ via=find -exec"}},
		{"find / -mindepth 1 -exec rm {} +", []string{"find / -mindepth 1 -exec rm {} +", "rm ⟨/{}⟩ via=find -exec"}},
		{"find . -exec rm {} +", []string{"find . -exec rm {} +", "rm ⟨./{}⟩ via=find -exec", "rm . via=find -exec"}},
		{"find / -exec rm -rf {} +", []string{"find / -exec rm -rf {} +", "rm -rf ⟨/{}⟩ via=find -exec", "rm -rf / via=find -exec"}},
		{"find -L ~ -depth -exec rm -rf {} +", []string{"find -L /home/u -depth -exec rm -rf {} +", "rm -rf ⟨/home/u/{}⟩ via=find -exec", "rm -rf /home/u via=find -exec"}},
		// -execdir's first file is the starting point, as GNU find gives
		// it: ./. here, ./u in /home for ~, / for /.
		{"find . -execdir rm {} \\;", []string{"find . -execdir rm {} ;", "rm ⟨./{}⟩ via=find -execdir cwd=?", "rm ./. via=find -execdir"}},
		{"find ~ -execdir rm -rf {} +", []string{"find /home/u -execdir rm -rf {} +", "rm -rf ⟨./{}⟩ via=find -execdir cwd=?", "rm -rf ./u via=find -execdir cwd=/home"}},
		{"find / -execdir rm -rf {} +", []string{"find / -execdir rm -rf {} +", "rm -rf ⟨./{}⟩ via=find -execdir cwd=?", "rm -rf / via=find -execdir cwd=/"}},
		{"find . -ok rm {} \\;", []string{"find . -ok rm {} ;", "rm ⟨./{}⟩ via=find -ok", "rm . via=find -ok"}},
		{"find . -okdir rm {} \\;", []string{"find . -okdir rm {} ;", "rm ⟨./{}⟩ via=find -okdir cwd=?", "rm ./. via=find -okdir"}},
		{"find . -name '*.o' -exec rm {} \\; -exec touch x \\;", []string{"find . -name *.o -exec rm {} ; -exec touch x ;", "rm ⟨./{}⟩ via=find -exec", "touch x via=find -exec"}},
		{"busybox rm x", []string{"busybox rm x", "rm x via=wrapper busybox"}},
		{"su -c 'rm x' bob", []string{"su -c 'rm x' bob", "rm x via=wrapper su"}},
		{"su - bob -c 'rm x'", []string{"su - bob -c 'rm x'", "rm x via=wrapper su"}},
		{"runuser -u bob -- rm x", []string{"runuser -u bob -- rm x", "rm x via=wrapper runuser"}},
		{"runuser -l bob -c 'rm x'", []string{"runuser -l bob -c 'rm x'", "rm x via=wrapper runuser"}},
		{"script -c 'rm x' /dev/null", []string{"script -c 'rm x' /dev/null", "rm x via=wrapper script"}},
		{"script -qc 'rm x'", []string{"script -qc 'rm x'", "rm x via=wrapper script"}},
		// Without -c, script starts $SHELL, whatever else it is given.
		{"script", []string{"script OPAQUE"}},
		{"script -q", []string{"script -q OPAQUE"}},
		{"script -qe /dev/null", []string{"script -qe /dev/null OPAQUE"}},
		{"script --version", []string{"script --version"}},
		{"unbuffer rm x", []string{"unbuffer rm x", "rm x via=wrapper unbuffer"}},
		{"parallel rm ::: a b", []string{"parallel rm ::: a b", "rm a via=wrapper parallel", "rm b via=wrapper parallel"}},
		{"parallel 'cp {} {.}.bak' ::: x.txt", []string{"parallel 'cp {} {.}.bak' ::: x.txt", "cp x.txt x.bak via=wrapper parallel"}},
		{"parallel 'echo {2} {1}' ::: a ::: b", []string{"parallel 'echo {2} {1}' ::: a ::: b", "echo b a via=wrapper parallel"}},
		{"parallel rm :::: list", []string{"parallel rm :::: list", "rm ⟨$GUARD_INPUT⟩ via=wrapper parallel"}},
		{"parallel rm ::: $X", []string{"parallel rm ::: ⟨$X⟩", "rm ⟨$GUARD_INPUT⟩ via=wrapper parallel"}},
		{"strace -f -o /tmp/t rm x", []string{"strace -f -o /tmp/t rm x", "rm x via=wrapper strace"}},
		{"ltrace rm x", []string{"ltrace rm x", "rm x via=wrapper ltrace"}},
		{"ssh host rm x", []string{"ssh host rm x", "rm x via=wrapper ssh cwd=?"}},
		// Layers nest, each reported.
		{"sudo env A=1 timeout 5 nice rm x", []string{
			"sudo env A=1 timeout 5 nice rm x",
			"env A=1 timeout 5 nice rm x via=wrapper sudo",
			"timeout 5 nice rm x via=wrapper sudo>wrapper env",
			"nice rm x via=wrapper sudo>wrapper env>wrapper timeout",
			"rm x via=wrapper sudo>wrapper env>wrapper timeout>wrapper nice",
		}},
		{"bash -c \"sudo sh -c 'eval rm x'\"", []string{
			"bash -c 'sudo sh -c 'eval rm x''",
			"sudo sh -c 'eval rm x' via=shell bash",
			"sh -c 'eval rm x' via=shell bash>wrapper sudo",
			"eval rm x via=shell bash>wrapper sudo>shell sh",
			"rm x via=shell bash>wrapper sudo>shell sh>eval",
		}},
		// Unknown options of a known wrapper: never a guess.
		{"timeout --frobnicate 5 rm x", []string{"timeout --frobnicate 5 rm x OPAQUE"}},
		{"sudo $OPTS rm x", []string{"sudo ⟨$OPTS⟩ rm x OPAQUE"}},
	})
}

// A shell's -c string is literal code even when the words after it ($0,
// $1, …) are known only at run time: it is read, with unknown parameters.
func TestShellWithDynamicParams(t *testing.T) {
	runTable(t, []tcase{
		{"sh -c 'rm \"$1\"' _ \"$f\"", []string{"sh -c 'rm \"$1\"' _ ⟨$f⟩", "rm ⟨$1⟩ via=shell sh"}},
		{"xargs sh -c 'rm -rf /'", []string{"xargs sh -c 'rm -rf /'", "sh -c 'rm -rf /' ⟨{input}⟩ via=wrapper xargs", "rm -rf / via=wrapper xargs>shell sh"}},
		{"find . -exec sh -c 'rm -rf /' {} \\;", []string{"find . -exec sh -c 'rm -rf /' {} ;", "sh -c 'rm -rf /' ⟨./{}⟩ via=find -exec", "rm -rf / via=find -exec>shell sh", "sh -c 'rm -rf /' . via=find -exec"}},
	})
}

func TestStateFollowing(t *testing.T) {
	runTable(t, []tcase{
		// A loop body sees what later iterations assign.
		{"X=ls; for i in 1 2; do $X; X=rm; done", []string{"X=ls", "ls", "X=rm", "rm", "X=rm"}},
		{"X=ls; for i in $L; do $X; X=rm; done", []string{"X=ls", "for OPAQUE", "⟨$X⟩", "X=rm"}},
		// (A loop running a program named at run time may start jobs
		// without end: it asks, besides $X itself.)
		{"X=ls; while c; do $X; X=rm; done", []string{"X=ls", "while OPAQUE", "c", "⟨$X⟩", "X=rm"}},
		// Either branch may have run.
		{"X=ls; if c; then X=rm; fi; $X x", []string{"X=ls", "c", "X=rm", "⟨$X⟩ x"}},
		// A function may run at any time (a trap, a later call): what it
		// reads has every value the text gives it (the may-analysis), and
		// a variable given two is not known there.
		{"X=rm; f() { $X x; }; X=ls; f", []string{"X=rm", "X=ls", "⟨$X⟩ x via=function f"}},
		{"X=ls; f() { $X x; }; f", []string{"X=ls", "ls x via=function f"}},
		// bash calls this one itself, for any command it cannot find.
		{"command_not_found_handle() { m9; }; ls", []string{"m9 via=function command_not_found_handle", "ls"}},
		{"unset X; X=${X:-rm}; $X x", []string{"unset X", "X=rm", "rm x"}},
		{"export X=rm; $X x", []string{"export X=rm", "rm x"}},
		// A pipeline element runs in a subshell.
		{"X=rm | true; $X x", []string{"X=rm", "true", "⟨$X⟩ x"}},
		{"echo rm x | bash", []string{"echo rm x", "bash", "rm x via=input of bash (literal text from echo)"}},
		{"(echo rm x) | sh", []string{"echo rm x", "sh OPAQUE"}},
		{"sh -c 'echo $0 $#'", []string{"sh -c 'echo $0 $#'", "echo sh 0 via=shell sh"}},
		{"bash <<EOF\nrm $HOME\nEOF", []string{"bash", "rm /home/u via=input of bash (a heredoc)"}},
		{"exec bash -c 'rm x'", []string{"exec bash -c 'rm x'", "bash -c 'rm x' via=wrapper exec", "rm x via=wrapper exec>shell bash"}},
		{"command eval 'rm x'", []string{"command eval 'rm x'", "eval 'rm x' via=wrapper command", "rm x via=wrapper command>eval"}},
		{"exec 3< <(rm x)", []string{"rm x via=<(…)", "exec"}},
	})
}

func TestNestingDepth(t *testing.T) {
	// eval eval … rm x: each eval runs the rest as code, one level deeper.
	res, err := parse(strings.Repeat("eval ", 40) + "rm x")
	if err != nil {
		t.Fatal(err)
	}
	last := res.Cmds[len(res.Cmds)-1]
	if got := word.Strings(last.Argv); !slices.Equal(got, []string{"rm", "x"}) || len(last.Via) != 40 {
		t.Errorf("40 evals: last part %q with %d layers, want rm x with 40", got, len(last.Via))
	}
	// Past the documented depth the code is not read: the part is opaque.
	res, err = parse(strings.Repeat("eval ", shellparse.MaxDepth+5) + "rm x")
	if err != nil {
		t.Fatal(err)
	}
	opaque := false
	for _, c := range res.Cmds {
		if c.Opaque != "" {
			opaque = true
		}
		if slices.Equal(word.Strings(c.Argv), []string{"rm", "x"}) && c.Opaque == "" {
			t.Errorf("a command beyond MaxDepth was reported as readable: %s", render(c))
		}
	}
	if !opaque {
		t.Errorf("%d nested evals: no opaque part", shellparse.MaxDepth+5)
	}
}

// TestPathChanges: PATH set to include a directory the text or the
// project could have filled makes the command names after it unknown.
func TestPathChanges(t *testing.T) {
	runTable(t, []tcase{
		{"PATH=.:$PATH ls", []string{"PATH=⟨.:$PATH⟩ OPAQUE", "ls"}},
		{"PATH=./bin; ls", []string{"PATH=./bin OPAQUE", "PATH=./bin", "ls"}},
		{"export PATH=/home/u/proj/bin:$PATH; ls", []string{"PATH=⟨/home/u/proj/bin:$PATH⟩ OPAQUE", "export PATH=/home/u/proj/bin:$PATH", "ls"}},
		{"PATH=$PATH: ls", []string{"PATH=⟨$PATH:⟩ OPAQUE", "ls"}},
		{"PATH=/tmp/x:$PATH ls", []string{"PATH=⟨/tmp/x:$PATH⟩ OPAQUE", "ls"}},
		{"PATH=$d:$PATH ls", []string{"PATH=⟨$d:$PATH⟩ OPAQUE", "ls"}},
		{"env PATH=./bin ls", []string{"env PATH=./bin ls", "PATH=./bin via=wrapper env OPAQUE", "ls via=wrapper env"}},
		// Inherited PATH and other absolute directories: as trusted as
		// the inherited PATH.
		{"PATH=$PATH:/usr/local/go/bin go version", []string{"go version"}},
		{"export PATH=$HOME/.cargo/bin:$PATH; cargo test", []string{"export PATH=/home/u/.cargo/bin:$PATH", "cargo test"}},
		{"cd / && PATH=/usr/local/bin:$PATH x", []string{"cd /", "x cwd=/"}},
	})
}

func TestStdinToShell(t *testing.T) {
	runTable(t, []tcase{
		{"sh <<< 'rm x'", []string{"sh", "rm x via=input of sh (a here-string)"}},
		{"bash <<EOF\nrm x\nEOF", []string{"bash", "rm x via=input of bash (a heredoc)"}},
		{"bash <<'EOF'\nrm $x\nEOF", []string{"bash", "rm ⟨$x⟩ via=input of bash (a heredoc) OPAQUE", "rm ⟨$x⟩ via=input of bash (a heredoc)"}}, // $x may be -i: rm reads bash's input
		{"echo 'rm x' | sh", []string{"echo 'rm x'", "sh", "rm x via=input of sh (literal text from echo)"}},
		{"printf 'rm x\\n' | bash -s", []string{"printf 'rm x\\n'", "bash -s", "rm x via=input of bash (literal text from printf)"}},
		// printf's own escapes (\x, octal, %b) are worked out as bash's
		// printf reads them: bash runs "rm -rf x" here, not rx6d.
		{"printf 'r\\x6d -rf x' | bash", []string{"printf 'r\\x6d -rf x'", "bash", "rm -rf x via=input of bash (literal text from printf)"}},
		{"printf '%b' 'r\\0155 -rf x' | bash", []string{"printf %b 'r\\0155 -rf x'", "bash", "rm -rf x via=input of bash (literal text from printf)"}},
		// Above ASCII, \u depends on the locale: not worked out.
		{"printf '\\u00e9' | bash", []string{"printf \\u00e9", "bash OPAQUE"}},
		{"cat <<EOF | sh\nrm x\nEOF", []string{"cat", "sh", "rm x via=input of sh (a heredoc)"}},
	})
}

func TestOpaque(t *testing.T) {
	runTable(t, []tcase{
		{"bash script.sh", []string{"bash script.sh OPAQUE"}},
		{"sh -e ./x.sh a", []string{"sh -e ./x.sh a OPAQUE"}},
		{"source x.sh", []string{"source x.sh OPAQUE"}},
		{". ./x.sh", []string{". ./x.sh OPAQUE"}},
		{"sh < script.sh", []string{"sh OPAQUE"}},
		{"curl https://x | sh", []string{"curl https://x", "sh OPAQUE"}},
		{"curl -fsSL https://x | bash -s -- -y", []string{"curl -fsSL https://x", "bash -s -- -y OPAQUE"}},
		{"base64 -d x | sh", []string{"base64 -d x", "sh OPAQUE"}},
		{"bash <(curl https://x)", []string{"curl https://x via=<(…)", "bash ⟨<(…)⟩ OPAQUE"}},
		{"python -c 'print(1)'", []string{"python -c print(1)", "python -c print(1) OPAQUE"}},
		{"python3 tool.py", []string{"python3 tool.py", "python3 tool.py OPAQUE"}},
		{"perl -e 'print 1'", []string{"perl -e 'print 1'", "perl -e 'print 1' OPAQUE"}},
		{"node -e 'x()'", []string{"node -e x()", "node -e x() OPAQUE"}},
		{"ruby -e 'x'", []string{"ruby -e x", "ruby -e x OPAQUE"}},
		{"php -r 'x();'", []string{"php -r x();", "php -r x(); OPAQUE"}},
		{"lua -e 'x()'", []string{"lua -e x()", "lua -e x() OPAQUE"}},
		{"osascript -e 'x'", []string{"osascript -e x", "osascript -e x OPAQUE"}},
		{"python -m pytest -q", []string{"python -m pytest -q", "pytest -q via=python -m"}},
		{"python --version", []string{"python --version"}},
	})
}

func TestDataAsCode(t *testing.T) {
	runTable(t, []tcase{
		{"echo $((x))", []string{"OPAQUE", "echo ⟨$((…))⟩"}},
		{"x=5; echo $((x))", []string{"x=5", "echo ⟨$((…))⟩"}},
		{"echo $((x+1))", []string{"OPAQUE", "echo ⟨$((…))⟩"}},
		{"a[x]=1", []string{"OPAQUE", "a=1"}},
		{"[[ $x -eq 0 ]]", []string{"OPAQUE"}},
		{"[[ $x == 0 ]]", []string{}},
		{"echo \"${x@P}\"", []string{"OPAQUE", "echo ⟨${x…}⟩"}},
		{"echo ${!x}", []string{"OPAQUE", "echo ⟨${x…}⟩"}},
		{"PS4='$(rm x)'", []string{"rm x via=prompt expansion of PS4>$(…)", "echo ⟨$(…)⟩ via=prompt expansion of PS4", "PS4='$(rm x)'"}},
		{"PS4=$y", []string{"OPAQUE", "PS4=⟨$y⟩"}},
		{"BASH_ENV=/tmp/x", []string{"BASH_ENV=/tmp/x OPAQUE", "BASH_ENV=/tmp/x"}},
		{"PROMPT_COMMAND='rm x'", []string{"rm x via=PROMPT_COMMAND (the prompt command)", "PROMPT_COMMAND='rm x'"}},
		{"printf -v 'a[$(rm x)]' 1", []string{"printf -v 'a[$(rm x)]' 1", "OPAQUE"}},
		{"read 'a[$(rm x)]'", []string{"read 'a[$(rm x)]'", "OPAQUE"}},
		{"declare 'a[$(rm x)]=1'", []string{"OPAQUE", "declare 'a[$(rm x)]=1'"}},
		{"[[ -v 'a[$(rm x)]' ]]", []string{"OPAQUE"}},
		{"test -v 'a[$(rm x)]'", []string{"test -v 'a[$(rm x)]'", "OPAQUE"}},
		{"read -r line", []string{"read -r line"}},
		{"printf -v out '%s' x", []string{"printf -v out %s x"}},
	})
}

// Text bash reads differently from the parser (D1–D5 of docs/bash-facts.md)
// is refused with a *ParseError marked Differential, and no partial result.
func TestDifferentials(t *testing.T) {
	for _, src := range []string{
		// D1: single quotes inside a double-quoted ${…} are literal in bash.
		`echo "${x:-'$(rm x)'}"`,
		`echo "${x-'$(rm x)'}"`,
		`echo "${x:='$(rm x)'}"`,
		`echo "${x+'$(rm x)'}"`,
		`echo "${x:-$'$(rm x)'}"`,
		`echo "${x:-${y:-'$(rm x)'}}"`,
		"echo \"${x:-'`rm x`'}\"",
		"cat <<EOF\n${x:-'$(rm x)'}\nEOF",
		// D2: quotes are not special in arithmetic.
		`echo $(( '$(rm x)' ))`,
		`echo "${x:'$(rm x)'}"`,
		`echo "${a['$(rm x)']}"`,
		`let 'a[$(rm x)]=1'`,
		`a['$(rm x)']=1`,
		// D3: process substitution inside ${…}.
		`echo ${x:-<(rm x)}`,
		`echo ${x:=>(rm x)}`,
		`echo ${x/a/<(rm x)}`,
		`x=a; echo "${x/a/<(rm x)}"`,
		`x=a; echo "${x#<(rm x)}"`,
		"shopt -s extglob\nls !(<(rm x))",
		`[[ x == @(<(rm x)) ]]`,
		`[[ a =~ (<(rm x)) ]]`,
		// D6: a comment ending in a backslash ends at the newline for
		// bash; the parser continues the line.
		"echo a #x\\\nrm x",
		"echo $(echo a #\\\nrm x\n)",
		"x=1 #\\\nrm x",
		"echo \"a\" #\\\nrm x",
		"cat </dev/null #\\\nrm x",
		"f() { x=1 #\\\nrm x\n}; f",
		// D8: $, backslash-newline, ( in double quotes or a heredoc body:
		// bash joins them into $(…); the parser keeps two texts.
		"echo \"$\\\n(rm x)\"",
		"cat <<E\n$\\\n(rm x)\nE",
		"rm -rf $\\\n'\\x2f'",
		// D4: a heredoc delimiter split by backslash-newline.
		"cat <<EOF\nEO\\\nF\nrm x\nEOF",
		"cat <<-EOF\n\tEO\\\nF\nrm x\nEOF",
		// A body that opens with a backslash-newline, and << split from -
		// by one (a red team's).
		"cat <<EOF\n\\\nEOF\nrm x\nEOF",
		"cat <<\\\n-EOF\n\tEOF\nrm x\nEOF",
		// The delimiter inside an expansion the parser runs on past it:
		// bash ends the body at that line (a red team's).
		"cat <<EOF\n${x:-\nEOF\nrm x\n}\nEOF",
		"cat <<EOF\n$(echo \"\nEOF\nrm x\n\")\nEOF",
		"cat <<EOF\n$(cat <<'X'\nEOF\nrm x\nX\n)\nEOF",
		// D4b: a delimiter quoted only in part is quoted to bash, not to
		// mvdan.cc/sh, which joined x\<newline>EOF and read rm x as the
		// body (a red team's python heredoc); $'…' escapes likewise name
		// another delimiter.
		"cat <<E'O'F\nx\\\nEOF\nrm x\nEOF",
		"cat <<E\"O\"F\n$(\nEOF\n)\nEOF",
		// D4c: inside $(…), a body line that starts with the delimiter
		// and has a ')' ends the substitution for bash 5.2 (a red team's).
		"x=$(cat <<EOF\nhello\nEOF)\nrm x\nEOF\n)",
		"x=$(cat <<'EOF'\nhello\nEOFX)\nrm x\nEOF\n)",
		"diff <(cat <<EOF\na\nEOF )\nrm x\nEOF\n) b",
		"cat <<$'\\x41'\nfoo\nA\nrm x\n\\x41",
		// D5: any \r\n.
		"echo a\r\nrm x",
		"echo 'a\r\nb'",
		// A NUL byte, which both skip: "<\x00<" is "<<" to both, and hid
		// D4 from its check (bash ran the touch).
		"echo start\ncat <\x00<EOF\nE\\\nOF\ntouch pwned\nEOF\n",
		"echo a\x00b",
		// A lone \r: part of a word to bash, a space to the parser.
		"ls\rrm -rf x",
		"echo 'a\rb'",
		// Inside code found in a string the part is opaque instead (see
		// TestDifferentialInString); at the top level the whole text is refused.
	} {
		res, err := parse(src)
		var pe *shellparse.ParseError
		if !errors.As(err, &pe) {
			t.Errorf("Parse(%q) = %v, %v; want a *ParseError", src, res, err)
			continue
		}
		if !pe.Differential {
			t.Errorf("Parse(%q): ParseError %q not marked Differential", src, pe.Reason)
		}
		if res != nil {
			t.Errorf("Parse(%q): partial result returned with the error", src)
		}
	}
}

func TestDifferentialInString(t *testing.T) {
	res, err := parse(`bash -c 'echo "${x:-'\''$(rm x)'\''}"'`)
	if err != nil {
		t.Fatalf("unexpected error: %v", err)
	}
	opaque := false
	for _, c := range res.Cmds {
		opaque = opaque || c.Opaque != ""
	}
	if !opaque {
		t.Errorf("a differential inside bash -c is not reported as opaque: %s", fmtList(renderAll(res)))
	}
}

func TestParseErrors(t *testing.T) {
	for _, src := range []string{
		"echo (",
		"echo \"unterminated",
		"if; then",
		"good\n)",
		"echo hi; fi",
		"for x in; do",
		"a && ",
		"case x in",
		"$(",
		"echo ${",
		// bash too reads these as arithmetic, with a syntax error.
		"a=$((1 +)); b",
		"((1 +))",
		// Read again as subshells, as bash does, where they still fail.
		"echo $((1) + (2))",
	} {
		res, err := parse(src)
		var pe *shellparse.ParseError
		if !errors.As(err, &pe) {
			t.Errorf("Parse(%q) = %v, %v; want a *ParseError", src, res, err)
			continue
		}
		if pe.Differential || pe.TooLarge {
			t.Errorf("Parse(%q): syntax error marked differential/too large: %+v", src, pe)
		}
		if pe.Pos.Line < 1 {
			t.Errorf("Parse(%q): ParseError without a position: %+v", src, pe)
		}
		if res != nil {
			t.Errorf("Parse(%q): partial result returned with the error", src)
		}
	}
}

// bash reads "((" as two parentheses when the second one does not close
// right before a ")" (CI scripts write TAGS="$((echo HEAD && git tag) |
// xargs)"): the commands are read as bash reads them.
// The output of $(pwd) and $(echo WORDS) is known, unless a function or
// an alias may stand in for them; it is split like a variable's value.
func TestKnownSubstitutionOutput(t *testing.T) {
	runTable(t, []tcase{
		{"rm -rf $(echo / /etc)", []string{"echo / /etc via=$(…)", "rm -rf / /etc"}},
		{"cd /tmp && cp a \"$(pwd)/b\"", []string{"cd /tmp", "pwd via=$(…) cwd=/tmp", "cp a /tmp/b cwd=/tmp"}},
		{"pwd() { echo /; }; rm \"$(pwd)\"", []string{"echo / via=$(…)>function pwd", "rm ⟨$(…)⟩"}},
		{"alias x=y; rm $(echo a)", []string{"alias x=y", "y via=alias x", "echo a via=$(…)", "rm ⟨$(…)⟩"}},
		{"IFS=/; rm $(pwd)", []string{"IFS=/", "pwd via=$(…)", "rm '' home u proj"}},
		{"rm $(echo -e a)", []string{"echo -e a via=$(…)", "rm ⟨$(…)⟩"}},
	})
}

// An indexed array assigned whole with known words is followed like a
// variable: "${a[@]}" is one word per element.
func TestArrays(t *testing.T) {
	runTable(t, []tcase{
		{"a=(x 'y z'); rm \"${a[@]}\"", []string{"a=⟨(…)⟩", "rm x 'y z'"}},
		{"a=(x 'y z'); rm ${a[@]}", []string{"a=⟨(…)⟩", "rm x y z"}},
		{"a=(x y); a+=(w); rm \"${a[2]}\" $a", []string{"a=⟨(…)⟩", "a=⟨(…)⟩", "rm w x"}},
		{"a=(x); rm \"${a[5]}\"", []string{"a=⟨(…)⟩", "rm ''"}},
		{"a=(x y); for f in \"${a[@]}\"; do rm $f; done", []string{"a=⟨(…)⟩", "rm x", "rm y"}},
		{"declare -a d=(/); rm \"${d[@]}\"", []string{"declare -a d=(…)", "rm /"}},
		// Changed element by element, or with a count not known: unknown.
		{"a=(x y); a[1]=z; rm \"${a[@]}\"", []string{"a=⟨(…)⟩", "a=z", "rm ⟨${a…}⟩"}},
		{"a=(x y); unset 'a[0]'; rm \"${a[@]}\"", []string{"a=⟨(…)⟩", "unset a[0]", "rm ⟨${a…}⟩"}},
		{"a=($X); rm \"${a[@]}\"", []string{"a=⟨(…)⟩", "rm ⟨${a…}⟩"}},
		{"a=([1]=x); rm \"${a[@]}\"", []string{"a=⟨(…)⟩", "rm ⟨${a…}⟩"}},
		{"a=(x y); rm \"${a[@]:1}\"", []string{"a=⟨(…)⟩", "rm ⟨${a…}⟩"}},
		{"a=(x y); if c; then a=(z); fi; rm \"${a[@]}\"", []string{"a=⟨(…)⟩", "c", "a=⟨(…)⟩", "rm ⟨${a…}⟩"}},
	})
}

// A write through a name reference is a write to the variable it names;
// through one whose target is not known, to any variable.
func TestNamerefWrites(t *testing.T) {
	runTable(t, []tcase{
		{"a=x; declare -n r=a; r=y; rm \"$a\"", []string{"a=x", "declare -n r=a", "r=y", "rm y"}},
		{"a=x; declare -n r; r=a; r=y; rm \"$a\"", []string{"a=x", "declare -n r", "r=a", "r=y", "rm y"}},
		// A name reference made in deferred code (a function, a trap)
		// may redirect any write at any time: no variable is known.
		{"a=x; f() { local -n r=$1; r=y; }; f a; rm \"$a\"", []string{"a=x", "local -n r=a via=function f", "r=y via=function f", "rm ⟨$a⟩"}},
		{"a=x; declare -n r=a; unset r; rm \"$a\"z", []string{"a=x", "declare -n r=a", "unset r", "rm z"}},
		{"a=x; declare -n r=a; unset -n r; rm \"$a\"", []string{"a=x", "declare -n r=a", "unset -n r", "rm x"}},
		{"a=x; declare -n r=a; read r; rm \"$a\"", []string{"a=x", "declare -n r=a", "read r", "rm ⟨$a⟩"}},
		// BASH_ALIASES among them: any command may be an alias, and any
		// reserved word.
		{"a=x; declare -n r=$T; r=y; rm \"$a\" \"$HOME\"", []string{"a=x", "OPAQUE", "declare -n r=$T", "r=y", "rm ⟨$a⟩ ⟨$HOME⟩ OPAQUE", "BASH_ALIASES OPAQUE"}},
		{"a=(x); declare -n r=a; r=(y z); rm \"${a[@]}\"", []string{"a=⟨(…)⟩", "declare -n r=a", "r=⟨(…)⟩", "rm y z"}},
		{"a=x; coproc a { :; }; rm \"$a\"", []string{"a=x", ":", "rm ⟨$a⟩"}},
		{"a=(x); (( a[1]=5 )); rm \"${a[@]}\"", []string{"a=⟨(…)⟩", "rm ⟨${a…}⟩"}},
		{"a=(x); : ${a[1]:=y}; rm \"${a[@]}\"", []string{"a=⟨(…)⟩", ": ⟨${a…}⟩", "rm ⟨${a…}⟩"}},
	})
}

func TestRereadAsSubshells(t *testing.T) {
	for src, want := range map[string][]string{
		"echo $((echo a); (b c))": {"echo a via=$(…)", "b c via=$(…)", "echo ⟨$(…)⟩"},
		"((ls); touch w)":         {"ls", "touch w"},
		"echo $((a) )":            {"a via=$(…)", "echo ⟨$(…)⟩"},
		"x=$((a | b) )":           {"a via=$(…)", "b via=$(…)", "x=⟨$(…)⟩"},
	} {
		res, err := parse(src)
		if err != nil {
			t.Errorf("Parse(%q): %v", src, err)
			continue
		}
		if got := renderAll(res); !slices.Equal(got, want) {
			t.Errorf("Parse(%q)\n got  %s\n want %s", src, fmtList(got), fmtList(want))
		}
	}
	runTable(t, []tcase{
		{"echo $((1+2))", []string{"echo ⟨$((…))⟩"}},
		{"(( (1) + (2) ))", []string{}},
		{"((x=1)); echo $(echo)", []string{"echo via=$(…)", "echo"}},
	})
}

func TestTooLarge(t *testing.T) {
	src := strings.Repeat("echo aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n", shellparse.MaxBytes/70)
	res, err := parse(src)
	var pe *shellparse.ParseError
	if !errors.As(err, &pe) || !pe.TooLarge || res != nil {
		t.Errorf("a %d-byte text: got %v, %v; want a TooLarge *ParseError and no result", len(src), res != nil, err)
	}
}

// A plain command renders as its words alone: the tables above compare
// against nothing else.
func TestRenderSanity(t *testing.T) {
	res, err := parse("a b")
	if err != nil || len(res.Cmds) != 1 || render(res.Cmds[0]) != "a b" {
		t.Fatalf("render sanity: %v %v", err, fmt.Sprint(renderAll(res)))
	}
}

// Globs are expanded against the file system through Options.Glob, with
// relative patterns made absolute in the working directory; quoted
// patterns and set -f are not expanded.
func TestGlob(t *testing.T) {
	var asked []string
	glob := func(p string, _ shellparse.GlobMode) ([]string, bool) {
		asked = append(asked, p)
		switch p {
		case "/*":
			return []string{"/bin", "/etc"}, true
		case proj + "/*.o":
			return []string{proj + "/a.o"}, true
		}
		return nil, true
	}
	opts := shellparse.Options{Cwd: proj, Getenv: getenv, Glob: glob}
	tests := []struct {
		src     string
		word    int // index of the glob word in the last command
		matches []string
		asked   []string
	}{
		{"rm -rf /*", 2, []string{"/bin", "/etc"}, []string{"/*"}},
		{"rm *.o", 1, []string{proj + "/a.o"}, []string{proj + "/*.o"}},
		{"cd /tmp && rm *.o", 1, nil, []string{"/tmp/*.o"}},
		{"rm '*.o'", 1, nil, nil},
		{"set -f; rm *.o", 1, nil, nil},
	}
	for _, tt := range tests {
		asked = nil
		res, err := shellparse.Parse(tt.src, opts)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.src, err)
			continue
		}
		last := res.Cmds[len(res.Cmds)-1]
		if tt.word >= len(last.Argv) {
			t.Errorf("Parse(%q): last command %s has no word %d", tt.src, render(last), tt.word)
			continue
		}
		if got := last.Argv[tt.word].Matches; !slices.Equal(got, tt.matches) {
			t.Errorf("Parse(%q): word %d matches %q, want %q", tt.src, tt.word, got, tt.matches)
		}
		if !slices.Equal(asked, tt.asked) {
			t.Errorf("Parse(%q): asked Glob for %q, want %q", tt.src, asked, tt.asked)
		}
	}
}
