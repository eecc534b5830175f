package argspec

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/guard-exec/guard-exec/word"
)

func TestSearchPrintsAll(t *testing.T) {
	for _, tc := range []struct {
		argv  string
		whole bool
	}{
		{"grep -r TODO .", false},
		{"grep -rn 'func .*Handler' src", false},
		{"grep -r '^import' .", false},
		{"grep -rE 'KEY=' .", false},
		{"grep -r -e TODO -e FIXME .", false},
		{"grep -rF 'a.b' .", false},
		{"rg TODO", false},
		{"grep -r '' .", true},
		{"grep -rn . .", true},
		{"grep -r e .", true},
		{"grep -r = .", true},
		{"grep -r '^' .", true},
		{"grep -r '.*' .", true},
		{"grep -rv xyzzy .", true},
		{"grep -r --invert-match TODO .", true},
		{"grep -rz TODO .", true},
		{"grep -r -f pats .", true},
		{"grep -r -e TODO -e '' .", true},
		{"grep -rE 'TODO|.' .", true},
		{"grep -r 'TODO\\|x' .", true},
		{"grep -r \"$P\" .", true},
		{"grep -r 'ab*' .", true},
		{"grep -r 'abc*' .", true},
		{"grep -r 'abcd*' .", false},
		{"grep -r 'abc\\?' .", true},
		{"grep -rE 'ab{0,2}' .", true},
		{"grep -rE '(TODO)?' .", true},
		{"grep -r '[TODO]' .", true},
		{"grep -r '\\bTO\\b' .", true},
		{"grep -rF ab .", true},
		{"grep -r $'TODO\\n' .", true},
		{"rg --passthru TODO", true},
		{"rg -U 'KEY[\\s\\S]*'", true},
		{"rg -v TODO", true},
		{"egrep -r TODO .", false},
		{"egrep -rv TODO .", true},
		{"ag TODO", false},
		{"ag ''", true},
		// PCRE and Rust: (?x) makes # a comment, (*ACCEPT) ends a match,
		// \] does not end a class, [ nests one.
		{"grep -rP '(?x)#abc' .", true},
		{"grep -rP '(*ACCEPT)abc' .", true},
		{"grep -rP '[^\\]abc]' .", true},
		{"rg --hidden '[E[B]xyz]'", true},
		{"rg --hidden -F --no-fixed-strings 'zzz|'", true}, // an option not read here
		{"ack abcd", true},                                 // .ackrc may say --passthru
		{"ag --pass abcd", true},
		{"grep --directories=rec '' .", true},
		{"grep --directories=rea '' .", false}, // not recursive: no whole read
	} {
		argv := splitWords(t, tc.argv)
		c := Normalize(argv, false)
		effs, _ := Effects(c)
		got := false
		for _, e := range effs {
			got = got || e.Whole != nil
		}
		if got != tc.whole {
			t.Errorf("%s: whole read %v, want %v (%v)", tc.argv, got, tc.whole, effs)
		}
	}
}

// splitWords reads a command line the way the table tests write them:
// words split at blanks, single quotes, $'…' with \n, and $VAR unknown.
func splitWords(t *testing.T, s string) []word.Word {
	t.Helper()
	var out []word.Word
	for len(s) > 0 {
		s = strings.TrimLeft(s, " ")
		if s == "" {
			break
		}
		var w strings.Builder
		hole := false
		for len(s) > 0 && s[0] != ' ' {
			switch {
			case strings.HasPrefix(s, "$'"):
				end := strings.IndexByte(s[2:], '\'')
				w.WriteString(strings.ReplaceAll(s[2:2+end], `\n`, "\n"))
				s = s[3+end:]
			case s[0] == '\'':
				end := strings.IndexByte(s[1:], '\'')
				w.WriteString(s[1 : 1+end])
				s = s[2+end:]
			case s[0] == '"':
				end := strings.IndexByte(s[1:], '"')
				in := s[1 : 1+end]
				hole = hole || strings.Contains(in, "$")
				w.WriteString(strings.ReplaceAll(in, `\\`, `\`))
				s = s[2+end:]
			default:
				w.WriteByte(s[0])
				s = s[1:]
			}
		}
		if hole {
			out = append(out, word.Unknown(w.String()))
		} else {
			out = append(out, word.FromLit(w.String()))
		}
	}
	return out
}

// literalRun is held to the real grep in each of its dialects: a line
// the real grep matches holds the run literalRun says every match holds.
func TestLiteralRunAgainstGrep(t *testing.T) {
	grep, err := exec.LookPath("grep")
	if err != nil {
		t.Skip("no grep")
	}
	rng := rand.New(rand.NewPCG(7, 11))
	const alphabet = "abc.*+?()[]^$\\{}|1,-"
	pick := func(n int, from string) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = from[rng.IntN(len(from))]
		}
		return string(b)
	}
	tried := 0
	for range 20000 {
		pat := pick(1+rng.IntN(9), alphabet)
		run, ok := literalRun(pat)
		if !ok {
			continue
		}
		// Lines near the pattern: itself, with bytes dropped or changed.
		var lines []string
		for range 40 {
			l := []byte(pat)
			for range rng.IntN(4) {
				if len(l) == 0 {
					break
				}
				i := rng.IntN(len(l))
				if rng.IntN(2) == 0 {
					l = append(l[:i], l[i+1:]...)
				} else {
					l[i] = "abc1 "[rng.IntN(5)]
				}
			}
			lines = append(lines, string(l), pick(rng.IntN(8), "abc1"))
		}
		in := strings.Join(lines, "\n") + "\n"
		for _, dialect := range []string{"-G", "-E", "-P"} {
			cmd := exec.Command(grep, dialect, "-a", "-e", pat)
			cmd.Stdin = strings.NewReader(in)
			out, err := cmd.Output()
			if err != nil {
				continue // no match, or a pattern this dialect refuses
			}
			tried++
			for _, l := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
				if !strings.Contains(l, run) {
					t.Errorf("grep %s %q matches %q, which does not hold %q", dialect, pat, l, run)
				}
			}
		}
	}
	if tried < 100 {
		t.Errorf("only %d patterns with a run matched anything: the test proves little", tried)
	}
}

// What WholeRead.Skips leaves out, the real grep -r and tar c leave out.
func TestWholeReadSkipsAgainstRealPrograms(t *testing.T) {
	dir := t.TempDir()
	files := []string{".env", ".env.local", "a.go", "b.txt", "sub/.env", "sub/c.go", "node_modules/d.js", "x.env", "vendor/e.go"}
	for _, f := range files {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("line\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	read := func(t *testing.T, name string, args ...string) []string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s %v: %v", name, args, err)
		}
		var got []string
		for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			if l = strings.TrimPrefix(strings.TrimPrefix(l, "./"), "."+string(os.PathSeparator)); l != "" && !strings.HasSuffix(l, "/") {
				got = append(got, l)
			}
		}
		return got
	}
	skipped := func(w *WholeRead) []string {
		var out []string
		for _, f := range files {
			parts := strings.Split(f, "/")
			for i, p := range parts {
				if w.Skips(p, i < len(parts)-1) {
					out = append(out, f)
					break
				}
			}
		}
		return out
	}
	for _, opts := range [][]string{
		{"--exclude=.env*"},
		{"--exclude=*.env"},
		{"--include=*.go"},
		{"--include=*.go", "--exclude=a*"},
		{"--exclude=a*", "--include=*.go"},
		{"--exclude-dir=node_modules", "--exclude-dir=sub"},
		{"--exclude-dir=sub", "--include=.env"},
		{"--exclude=.env", "--exclude-dir=vendor"},
	} {
		if _, err := exec.LookPath("grep"); err != nil {
			break
		}
		argv := append([]string{"grep", "-r", "-l", ""}, opts...)
		argv = append(argv, ".")
		var ws []word.Word
		for _, a := range argv {
			ws = append(ws, word.FromLit(a))
		}
		w := grepWhole(Normalize(ws, false))
		got := read(t, "grep", argv[1:]...)
		for _, s := range skipped(w) {
			if slices.Contains(got, s) {
				t.Errorf("grep %v reads %s, which Skips leaves out", opts, s)
			}
		}
	}
	// An --exclude after an operand does not apply to it (GNU tar 1.34
	// warns so): nothing is known to be left out.
	if _, err := exec.LookPath("tar"); err == nil {
		ws := []word.Word{word.FromLit("tar"), word.FromLit("-c"), word.FromLit("-f"), word.FromLit("-"), word.FromLit("."), word.FromLit("--exclude=.env")}
		cmd := exec.Command("tar", "-c", "-f", "-", ".", "--exclude=.env")
		cmd.Dir = dir
		archive, _ := cmd.Output()
		if !strings.Contains(string(archive), "./.env") {
			t.Errorf("tar stored no ./.env with the --exclude after the operand: the case is not what it tests")
		}
		if w := tarWhole(Normalize(ws, false)); w.Skips(".env", false) {
			t.Errorf("tar -c -f - . --exclude=.env: Skips leaves out .env, which tar stores")
		}
	}
	for _, pat := range []string{".env*", "*.go", "sub", "node_modules", "x.env"} {
		if _, err := exec.LookPath("tar"); err != nil {
			break
		}
		ws := []word.Word{word.FromLit("tar"), word.FromLit("cf"), word.FromLit("-"), word.FromLit("--exclude=" + pat), word.FromLit(".")}
		w := tarWhole(Normalize(ws, false))
		cmd := exec.Command("tar", "cf", "-", "--exclude="+pat, ".")
		cmd.Dir = dir
		archive, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		list := exec.Command("tar", "tf", "-")
		list.Stdin = strings.NewReader(string(archive))
		out, err := list.Output()
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			got = append(got, strings.TrimPrefix(l, "./"))
		}
		for _, s := range skipped(w) {
			if slices.Contains(got, s) {
				t.Errorf("tar --exclude=%s stores %s, which Skips leaves out", pat, s)
			}
		}
		if len(skipped(w)) == 0 {
			t.Errorf("tar --exclude=%s: Skips leaves out nothing", pat)
		}
	}
}
