//go:build linux

package argspec

// A differential of the sed and awk script readers against the real
// programs, as difftest checks the walker against bash. Each script runs
// under the real program in a scratch directory with a PATH holding only a
// recording stub, mark: sed's e and awk's system() and pipes run /bin/sh,
// which finds mark through that PATH, so the log tells which commands ran.
// The commands the reader predicted run the same way under /bin/sh. Then
// (a) every mark the program made must be one a predicted command makes
// (or the reader said a command built at run time runs, or that it is
// unsure), and (b) every file the program created must be a predicted write
// (or unsure).

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/guard-exec/guard-exec/word"
)

// realRun is what one run of a real program did.
type realRun struct {
	marks   []string // argv of each mark, joined by spaces
	created []string // files created in the scratch directory, relative
	code    int      // exit status, -1 when killed
	stderr  string
}

const markStub = "#!/bin/sh\nprintf '%s\\n' \"$*\" >> \"$MARK_LOG\"\n"

// stubDir makes a directory holding only the mark stub.
func stubDir(t testing.TB) string {
	d := t.TempDir()
	if err := os.WriteFile(filepath.Join(d, "mark"), []byte(markStub), 0o755); err != nil {
		t.Fatal(err)
	}
	return d
}

// runIn runs argv in a fresh scratch directory holding the file "in"
// (input) and reports what it did.
func runIn(t testing.TB, stubs string, argv []string, input string) realRun {
	t.Helper()
	dir := t.TempDir()
	work := filepath.Join(dir, "work")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, "in"), []byte(input), 0o644); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(dir, "marks")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = work
	cmd.Env = []string{"PATH=" + stubs, "MARK_LOG=" + log, "LC_ALL=C.UTF-8", "HOME=" + work}
	cmd.Stdin = strings.NewReader("mark STDIN\n")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	cmd.Stdout = nil
	err := cmd.Run()
	var r realRun
	r.stderr = stderr.String()
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	default:
		t.Fatalf("%q: %v", argv, err)
	}
	if b, err := os.ReadFile(log); err == nil {
		for _, l := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
			if l != "" {
				r.marks = append(r.marks, l)
			}
		}
	}
	_ = filepath.Walk(work, func(p string, info os.FileInfo, err error) error {
		if err != nil || p == work {
			return nil
		}
		rel, _ := filepath.Rel(work, p)
		if rel != "in" {
			r.created = append(r.created, rel)
		}
		return nil
	})
	return r
}

// predicted runs the predicted shell commands under /bin/sh with the
// same stubs and returns the marks they make and the files they create
// (which the walker judges as the commands' own redirections).
func predicted(t testing.TB, stubs string, cmds []string) (marks, created []string) {
	for _, c := range cmds {
		r := runIn(t, stubs, []string{"/bin/sh", "-c", c}, "")
		marks = append(marks, r.marks...)
		created = append(created, r.created...)
	}
	return marks, created
}

// prediction is what a reader said about one command line.
type prediction struct {
	exec    []string // literal commands
	dynamic bool     // a command built at run time runs
	writes  []string
	unsure  string
}

// checkRun compares a real run with a prediction; it returns the failures.
func checkRun(t testing.TB, stubs string, p prediction, r realRun) []string {
	if p.unsure != "" {
		return nil
	}
	var fails []string
	pred, byCmds := predicted(t, stubs, p.exec)
	if !p.dynamic {
		for _, m := range r.marks {
			if !slices.Contains(pred, m) {
				fails = append(fails, "ran a command not predicted: mark "+m)
			}
		}
	}
	for _, f := range r.created {
		ok := slices.Contains(byCmds, f)
		for _, w := range p.writes {
			if filepath.Clean(w) == f || strings.HasPrefix(f, filepath.Clean(w)+"/") {
				ok = true
			}
		}
		if !ok {
			fails = append(fails, "created a file not predicted as a write: "+f)
		}
	}
	return fails
}

func words(args []string) []word.Word {
	out := make([]word.Word, len(args))
	for i, a := range args {
		out[i] = word.FromLit(a)
	}
	return out
}

func sedPrediction(args []string) prediction {
	c := ReadSed(Normalize(words(append([]string{"sed"}, args...)), false))
	p := prediction{writes: c.Write, unsure: c.Unsure}
	for _, e := range c.Exec {
		if e == "" {
			p.dynamic = true
		} else {
			p.exec = append(p.exec, e)
		}
	}
	return p
}

const sedPath = "/usr/bin/sed"

func haveGNUSed(t testing.TB) {
	out, err := exec.Command(sedPath, "--version").Output()
	if err != nil || !strings.Contains(string(out), "GNU sed") {
		t.Skip("GNU sed is not at " + sedPath)
	}
}

// sedDiff runs one sed command line both ways and reports failures.
func sedDiff(t testing.TB, stubs string, args []string) []string {
	p := sedPrediction(args)
	r := runIn(t, stubs, append([]string{sedPath}, append(args, "in")...), "mark L1\nmark L2\n")
	fails := checkRun(t, stubs, p, r)
	if strings.HasPrefix(p.unsure, "sed would refuse") && r.code == 0 {
		fails = append(fails, "the reader says sed refuses the script ("+p.unsure+"), which sed ran")
	}
	return fails
}

// The tricky classes, each with the way sed reads it.
var sedCases = [][]string{
	{":a;e mark 1"},
	{":a;s/x/y/;e mark 2"},
	{"b end;e mark 3\n:end"},
	{"bend;e mark 4;:end"},
	{"ta;e mark 5;:a"},
	{"1e mark 6"},
	{"1!e mark 7"},
	{"$e mark 8"},
	{"/L1/e mark 9"},
	{`\%L1%e mark 10`},
	{"/l1/Ie mark 11"},
	{"/L1/I,+1e mark 12"},
	{"1~2e mark 13"},
	{"0,/L/e mark 14"},
	{"1,~2e mark 15"},
	{"1{e mark 16\n}"},
	{"1{;e mark 17\n}"},
	{"{{e mark 18\n}}"},
	{"# e mark 0\ne mark 19"},
	{"#n\ne mark 20"},
	{"a foo; e mark 0\ne mark 21"},
	{"a\\\nfoo\\\ne mark 0\ne mark 22"},
	{"i\\foo;e mark 0"},
	{"c foo\\\nbar"},
	{"e mark 23\\\nmark 24"},
	{"e mark\\x2025"},
	{"e mark 26;mark 27"},
	{"e \\\nmark 28"},
	{"e"},
	{"e;mark 29"},
	{"s/x/mark 30/e"},
	{"s/L1/M/e"},
	{"s|L|X|gpe"},
	{"s/[/]/x/e"},
	{"s/a\\/b/x/;e mark 31"},
	{"s/x/y/ e"},
	{"s/x/y/w out1"},
	{"s/x/y/w out2;e mark 0"},
	{"s/x/y/gw out3"},
	{"w out4"},
	{"W out5"},
	{"w out6 ; }"},
	{"1w /dev/stdout"},
	{"r nothere"},
	{"R nothere;e mark 0"},
	{"y/abc/xyz/;e mark 32"},
	{"y,a\\,b,x\\,y,;e mark 33"},
	{"q;e mark 0"},
	{"2q5"},
	{"l 5;e mark 34"},
	{"F;z;=;e mark 35"},
	{"v 4.2;e mark 36"},
	{"v;e mark 37"},
	{"-e", "a\\", "-e", "e mark 0"},
	{"-e", "a foo\\", "-e", "e mark 0"},
	{"-e", "e mark 38\\", "-e", "mark 39"},
	{"-e", "1{", "-e", "e mark 40", "-e", "}"},
	{"-e", "e \\"},
	{"-n", "-e", "p", "-e", "w out7"},
	{"--posix", "e mark 41"},
	{"--posix", "s/x/y/w out8"},
	{"--sandbox", "e mark 42"},
	{"--sandbox", "w out9"},
	{"-e", "w out10", "--sandbox", "-e", "p"},
	{"-e", "w out11", "--version"},
	{"-s", "-n", "-E", "-z", "e mark 43"},
	{"-ne", "e mark 44"},
	{"-i", "e mark 45"},
	{"s/x/y/;e mark 46"},
	{"s/\\n/x/;e mark 47"},
	{"1 e mark 48"},
	{"1,2 ! e mark 49"},
	{"}"},
	{"1{"},
	{"p;p ; e mark 50"},
	{"s/x/y/3;e mark 51"},
	{"s/x/y/M I g e"},
	{"\\;x;e mark 52"},
	{"s;x;y;;e mark 53"},
	{"1~0e mark 54"},
	{"+0e mark 55"},
}

func TestSedScriptsAgainstGNUSed(t *testing.T) {
	haveGNUSed(t)
	stubs := stubDir(t)
	for _, args := range sedCases {
		for _, f := range sedDiff(t, stubs, args) {
			t.Errorf("sed %q: %s", args, f)
		}
	}
}

// The reader's own readings of the same classes: what it must find.
func TestSedScriptReading(t *testing.T) {
	for _, c := range []struct {
		args         []string
		exec, writes []string
		unsure       bool
	}{
		{[]string{":a;e rm -rf ~", "f"}, []string{"rm -rf ~"}, nil, false},
		{[]string{"-n", "1,5p", "f"}, nil, nil, false},
		{[]string{"s/a/b/g", "f"}, nil, nil, false},
		{[]string{"b x;e id;:x"}, []string{"id;:x"}, nil, false},
		{[]string{"a e id; w x"}, nil, nil, false},
		{[]string{"s/a/b/w /etc/x;e id"}, nil, []string{"/etc/x;e id"}, false},
		{[]string{"e touch\\x20x"}, []string{"touch x"}, nil, false},
		{[]string{"e a\\", "f"}, []string{"a"}, nil, false},
		{[]string{"-e", "e a\\", "-e", "b", "f"}, []string{"a\nb"}, nil, false},
		{[]string{"-e", "e \\", "f"}, []string{""}, nil, false},
		{[]string{"s/x/y/e"}, []string{""}, nil, false},
		{[]string{"1w /dev/stdout"}, nil, nil, false},
		{[]string{"--sandbox", "e id"}, nil, nil, true},
		{[]string{"-f", "s.sed", "f"}, nil, nil, true},
		{[]string{"s/\xff/x/;e id"}, nil, nil, true},
		{[]string{"-e", "w out", "--version"}, nil, []string{"out"}, false},
		// BSD sed: -i '' is an empty backup suffix, then the script.
		{[]string{"-i", "", "w /etc/x", "f"}, nil, []string{"/etc/x"}, false},
		{[]string{"-i", "", "1e id", "f"}, []string{"id"}, nil, false},
		{[]string{"-i.bak", "", "w /etc/x", "f"}, nil, nil, false},
	} {
		s := ReadSed(Normalize(words(append([]string{"sed"}, c.args...)), false))
		if !slices.Equal(s.Exec, c.exec) || !slices.Equal(s.Write, c.writes) || (s.Unsure != "") != c.unsure {
			t.Errorf("sed %q: exec %q writes %q unsure %q; want exec %q writes %q unsure %v", c.args, s.Exec, s.Write, s.Unsure, c.exec, c.writes, c.unsure)
		}
	}
}

// The differential can fail: a reader that predicts nothing misses the
// command and the file these scripts run and write.
func TestScriptDiffSelfTest(t *testing.T) {
	haveGNUSed(t)
	stubs := stubDir(t)
	for _, s := range []string{":a;e mark 1", "w out"} {
		r := runIn(t, stubs, []string{sedPath, s, "in"}, "x\n")
		if len(checkRun(t, stubs, prediction{}, r)) == 0 {
			t.Errorf("sed %q: an empty prediction passes the differential", s)
		}
	}
}

// gen turns fuzz bytes into choices.
type gen struct {
	b []byte
	n int // marks handed out
}

func (g *gen) pick(n int) int {
	if len(g.b) == 0 {
		return 0
	}
	c := int(g.b[0])
	g.b = g.b[1:]
	return c % n
}

func (g *gen) one(opts ...string) string { return opts[g.pick(len(opts))] }

func (g *gen) mark() string {
	g.n++
	return "mark " + string(rune('A'+g.n%26)) + strings.Repeat("x", g.n/26)
}

// sedGen builds a sed script from a small grammar of the classes that
// matter: labels ended by ;, comments, blocks, a/i/c text holding e and ;,
// s with odd delimiters and e/w flags, w/r files, multiple -e.
func (g *gen) sedScript(depth int) string {
	if depth == 0 && g.pick(4) == 0 {
		return g.raw("e", "e ", " ", ";", "\n", "\\", "{", "}", ":", "a", "i", "s", "/", "|", "w", "W", "r", "#", g.mark(), "1", "$", "!", "y", ",", "b", "t", "p", "x", "[", "]", "I", "M", "~", "+", "0", "q", "l", "\t")
	}
	var b strings.Builder
	n := 1 + g.pick(4)
	for i := 0; i < n && len(g.b) > 0; i++ {
		if i > 0 {
			b.WriteString(g.one(";", "\n", " ; ", "\n\n", ";;"))
		}
		b.WriteString(g.sedCommand(depth))
	}
	return b.String()
}

func (g *gen) sedAddr() string {
	a := g.one("", "", "1", "$", "/L/", "\\%L%", "/l/I", "1~2", "2", "0,/L2/", "/[/]/", `/a\/b/`, "/x/M")
	if a != "" && !strings.Contains(a, ",") && g.pick(3) == 0 {
		a += g.one(",3", ",$", ",+1", ",~2", ",/L2/", ", /x/")
	}
	if g.pick(4) == 0 {
		a += g.one("!", " !", "! ")
	}
	return a
}

func (g *gen) sedText() string {
	parts := []string{"foo", " e " + g.mark(), ";", "\\", "\\\n", " ", "}", "#", "w out", "\\t", "e"}
	var b strings.Builder
	for i := g.pick(4); i >= 0; i-- {
		b.WriteString(g.one(parts...))
	}
	return b.String()
}

func (g *gen) sedCommand(depth int) string {
	addr := g.sedAddr()
	switch g.pick(18) {
	case 0:
		return addr + "e " + g.mark() + g.one("", "\\\n"+g.mark(), ";"+g.mark(), "\\")
	case 1:
		return addr + g.one("e", "e ", "e\\")
	case 2:
		return ":" + g.one("a", "lab", "x y", "a}", "a#c") + g.one(";", "\n", " ", "")
	case 3:
		return addr + g.one("b", "t", "T") + g.one("", " a", "a", " lab", "x;y") + g.one(";", "\n", "}", "")
	case 4:
		return addr + g.one("a", "i", "c") + g.one(" ", "\\\n", "\\", "") + g.sedText()
	case 5:
		d := g.one("/", "|", ",", ";", "x", "#", " ", "}", "e", "\\", "w")
		re := g.one("L", "x", "[/]", "a\\"+d+"b", "[[:alpha:]]", "\\n", "]")
		rep := g.one(g.mark(), "y", "M", "\\"+d, "&")
		return addr + "s" + d + re + d + rep + d + g.one("", "e", "g", "w out", "pe", " e", "ew out2", "3", "I", "m", "we", "e;")
	case 6:
		return addr + g.one("w", "W", "r", "R") + g.one(" out", "out", " out;e "+g.mark(), " /dev/stdout", "")
	case 7:
		if depth > 2 {
			return "p"
		}
		return addr + "{" + g.one("", "\n", ";") + g.sedScript(depth+1) + g.one("\n}", ";}", "}", "")
	case 8:
		return "#" + g.one("n", " e "+g.mark(), "}", "")
	case 9:
		return addr + "y" + g.one("/abc/xyz/", ",a\\,b,x\\,y,", "/a/b", "|a|b|")
	case 10:
		return addr + g.one("q", "Q", "q5", "l", "l 3", "L")
	case 11:
		return addr + g.one("=", "d", "D", "F", "g", "G", "h", "H", "n", "N", "p", "P", "z", "x")
	case 12:
		return g.one("v", "v 4.2", "v 9.9", "}", "{")
	default:
		return addr + "p"
	}
}

// raw strings random pieces together: scripts no grammar would write, to
// find where the reader and the program part ways.
func (g *gen) raw(pieces ...string) string {
	var b strings.Builder
	for n := 4 + g.pick(24); n > 0 && len(g.b) > 0; n-- {
		b.WriteString(g.one(pieces...))
	}
	return b.String()
}

// sedArgs builds a sed argv (without the input file).
func (g *gen) sedArgs() []string {
	var args []string
	for i := g.pick(3); i > 0; i-- {
		args = append(args, g.one("-n", "-s", "-E", "-z", "-n", "-s", "-E", "-z", "--posix", "--sandbox", "-u", "--debug"))
	}
	if g.pick(3) == 0 {
		return append(args, g.sedScript(0))
	}
	for i := 1 + g.pick(3); i > 0; i-- {
		args = append(args, "-e", g.sedScript(0))
	}
	return args
}

func FuzzSedScript(f *testing.F) {
	for _, s := range []string{"\x02\x00", "\x00\x00\x01", "\x05\x03\x00\x01\x02", "\x04\x01\x02\x03\x04\x05", "\x07\x01\x00\x03\x02"} {
		f.Add([]byte(s))
	}
	haveGNUSed(f)
	stubs := stubDir(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		g := &gen{b: b}
		args := g.sedArgs()
		for _, fail := range sedDiff(t, stubs, args) {
			t.Errorf("sed %q: %s", args, fail)
		}
	})
}

// The awks on this machine: mawk is /usr/bin/awk here; gawk when installed.
func awks(t testing.TB) []string {
	var out []string
	for _, p := range []string{"/usr/bin/mawk", "/usr/bin/gawk", "/usr/bin/original-awk", "/usr/bin/busybox"} {
		if _, err := os.Stat(p); err == nil {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		t.Skip("no awk on this machine")
	}
	return out
}

func awkPrediction(args []string) prediction {
	c := ReadAwk(words(args))
	p := prediction{unsure: c.Unsure}
	for _, e := range c.Exec {
		if e == "" {
			p.dynamic = true
		} else {
			p.exec = append(p.exec, e)
		}
	}
	for _, w := range c.Write {
		if w == "" {
			p.unsure = "a write to a file named at run time"
		}
		p.writes = append(p.writes, w)
	}
	return p
}

// awkDiff runs one awk command line under each awk and reports failures.
func awkDiff(t testing.TB, stubs string, awkPaths []string, args []string) []string {
	p := awkPrediction(args)
	var fails []string
	for _, a := range awkPaths {
		argv := []string{a}
		if strings.HasSuffix(a, "busybox") {
			argv = append(argv, "awk")
		}
		r := runIn(t, stubs, append(append(argv, args...), "in"), "mark L1\nmark L2\n")
		for _, f := range checkRun(t, stubs, p, r) {
			fails = append(fails, filepath.Base(a)+": "+f)
		}
	}
	return fails
}

var awkCases = [][]string{
	{`BEGIN { system("mark 1") }`},
	{`BEGIN { system ( "mark 2" ) }`},
	{`BEGIN { system("mark" " 3") }`},
	{`BEGIN { x = "mark 4"; system(x) }`},
	{`BEGIN { print "x" | "mark 5" }`},
	{`BEGIN { printf "x" | "mark 6" }`},
	{`BEGIN { printf("%s", "x") | "mark 7" }`},
	{`BEGIN { "mark 8" | getline; print }`},
	{`BEGIN { "mark 9" | getline v }`},
	{`BEGIN { while (("mark 10" | getline line) > 0) n++ }`},
	{`BEGIN { c = "mark 11"; c | getline }`},
	{`BEGIN { print "a" > "out1" }`},
	{`BEGIN { print "a" >> "out2" }`},
	{`BEGIN { printf "a" > "out3" }`},
	{`BEGIN { printf("%s", "a") > "out4" }`},
	{`BEGIN { print("a", "b") > "out5" }`},
	{`BEGIN { print "a", "b" > "out6"; close("out6") }`},
	{`BEGIN { print (1 > 2) }`},
	{`BEGIN { print 1 > 2 }`},
	{`BEGIN { f = "out7"; print "a" > f }`},
	{`BEGIN { print "a" > "out" "8" }`},
	{`BEGIN { print > "/dev/stderr" }`},
	{`BEGIN { print "x" > "/dev/stdout" }`},
	{`BEGIN { getline l < "in"; print l }`},
	{`BEGIN { while ((getline l < "in") > 0) system(l) }`},
	{`{ system($0) }`},
	{`{ print | "sh" }`},
	{`{ print $0 | $0 }`},
	{`BEGIN { s = "a\"b"; system("mark 12") }`},
	{`BEGIN { s = "system(\"mark 0\")"; system("mark 13") }`},
	{`# system("mark 0")` + "\n" + `BEGIN { system("mark 14") }`},
	{`/a"b/ { system("mark 0") } BEGIN { system("mark 15") }`},
	{`/a|b/ { print }` + "\n" + `BEGIN { system("mark 16") }`},
	{`$0 ~ /x\/y/ { } BEGIN { system("mark 17") }`},
	{`BEGIN { x = 4 / 2; y = x / 2; system("mark 18") }`},
	{`BEGIN { n = split("a b", a, / /); system("mark 19") }`},
	{`BEGIN { system("mark\04020") }`},
	{`BEGIN { system("mark 21\n") }`},
	{`BEGIN { system("mark \x32\x32") }`},
	{`BEGIN { system("mark\ 23") }`},
	{`BEGIN { print "a" | "mark 24"; close("mark 24") }`},
	{`BEGIN { if (1) print "a" > "out9"; else print "b" > "out10" }`},
	{`BEGIN { print "a" > "out11" ; print "b" >> "out11" }`},
	{`function f(x) { system(x) } BEGIN { f("mark 25") }`},
	{`BEGIN { print length / 2 }`},
	{`BEGIN { if (1) /x/ ; system("mark 26") }`},
	{`BEGIN { a = "mark 27"` + " \\\n" + ` ; system(a) }`},
	{`BEGIN { system("mark 28")` + "\\\n" + `}`},
	{`BEGIN { print "x" |& "mark 29"; close("mark 29") }`},
	{`BEGIN { ARGV[1] = "in"; ARGC = 2 } { print }`},
	{`BEGIN{getline;system("mark 30")}`},
	{`BEGIN { x["mark 31"]; for (k in x) system(k) }`},
	{`BEGIN { print "a" > "out12" }`, "v=1"},
	{"-v", "x=mark 32", `BEGIN { system(x) }`},
	{"-F:", `BEGIN { system("mark 33") }`},
	{"--", `BEGIN { system("mark 34") }`},
	{"-e", `BEGIN { system("mark 35") }`},
	{"--source", `BEGIN { system("mark 36") }`},
	{"--so=BEGIN { system(\"mark 37\") }"},
	{"-W", "sprintf=1000", `BEGIN { system("mark 38") }`},
	{"-d", `BEGIN { x = 1 }`},
	{"-dout13", `BEGIN { x = 1 }`},
	{"-p", `BEGIN { x = 1 }`},
	{"--profile=out14", `BEGIN { x = 1 }`},
	{"-o", `BEGIN { x = 1 }`},
	{"-S", `BEGIN { system("mark 39") }`},
	{`BEGIN { printf "%s" , "a" > "out15" }`},
	{`BEGIN { print "a" >"out16" }`},
	{`BEGIN { print("a")>"out17" }`},
	{`BEGIN { print "a" > ("out18") }`},
	{`BEGIN { "mark 40" | getline x; "mark 40" | getline y }`},
	{`BEGIN { print "a" | "cat > out19" }`},
	{`BEGIN { system("echo a > out20") }`},
	{`BEGIN { print "a" > "out21"` + "\n" + `}`},
	{`BEGIN { print "a",` + "\n" + ` "b" > "out22" }`},
	{`BEGIN { c = "mark 41"; c | getline; close(c); c = "mark 42"; system(c) }`},
	{`BEGIN { f = "out23"; print "a" > f; close(f) }`},
	{`BEGIN { c = "mark 43" } { print | c }`},
	{`BEGIN { c = "mark 44" } END { system(c) }`, "c=mark 45", "in"},
	{"-v", "c=mark 46", `BEGIN { system(c); c = "mark 47"; system(c) }`},
	{`function g(a, c) { system(c) } BEGIN { c = "mark 0"; g(1, "mark 48") }`},
	{`BEGIN { c = "mark 0"; getline c < "in"; system(c) }`},
	{`BEGIN { c = "mark 0"; sub(/0/, "49", c); system(c) }`},
	{`BEGIN { ARGV[1] = "c=mark 50"; ARGV[2] = "in"; ARGC = 3; c = "mark 0" } END { system(c) }`},
}

func TestAwkProgramsAgainstAwks(t *testing.T) {
	paths := awks(t)
	stubs := stubDir(t)
	for _, args := range awkCases {
		for _, f := range awkDiff(t, stubs, paths, args) {
			t.Errorf("awk %q: %s", args, f)
		}
	}
}

// awkStr is a string constant of the tricky kinds.
func (g *gen) awkStr() string {
	return g.one(`"`+g.mark()+`"`, `"a\"b"`, `"x\\"`, `"|"`, `"> out"`, `"#"`, `"/"`, `"a;b"`, `")"`, `"\/"`,
		`"`+g.mark()+`\n"`, `"mark\040Q"`)
}

func (g *gen) awkExpr(depth int) string {
	if depth > 2 {
		return g.one("1", "$1", "x", `"s"`)
	}
	switch g.pick(12) {
	case 0:
		return g.awkStr()
	case 1:
		return g.one("1 / 2", "x / 2 / 3", "$1 / 2", "a[1] / 2", "(1) / 2", "x++ / 2")
	case 2:
		return "(" + g.awkExpr(depth+1) + g.one(" > ", " < ", " == ", " ~ ") + g.awkExpr(depth+1) + ")"
	case 3:
		return g.one("/a|b/", `/"/`, `/\//`, `/#/`, `/x/`, `/[/]/`, `/a"b|c/`) + g.one("", " ~ $0", "")
	case 4:
		return g.one(g.awkStr(), g.awkStr(), "x", "f") + " | getline" + g.one("", " x", " a[1]", " $2")
	case 5:
		return "(getline" + g.one("", " l", " $1") + " < " + g.one(`"in"`, `"nothere"`, "f") + ")"
	case 6:
		return "system(" + g.one(g.awkStr(), g.awkStr(), "x", g.awkExpr(depth+1)) + ")"
	case 7:
		return g.awkExpr(depth+1) + " " + g.awkExpr(depth+1)
	case 8:
		return g.one("length", "length($0)", "length()", "substr($0, 1, 2)", "split($0, a)")
	default:
		return g.one("1", "$1", "x", "NR", "a[1]", "$0")
	}
}

func (g *gen) awkRedir() string {
	return g.one("", "", " > "+g.one(`"out"`, `"out2"`, "f", `"out" "3"`, `("out4")`), " >> "+g.one(`"out5"`, `"out"`),
		" | "+g.awkStr(), " |& "+g.awkStr(), ` > "/dev/stderr"`)
}

func (g *gen) awkStmt(depth int) string {
	switch g.pick(10) {
	case 0, 1:
		open, close := g.one(" ", "(", " (", " "), ""
		if open != " " {
			close = ")"
		}
		return g.one("print", "printf") + open + g.awkExpr(0) + g.one("", ", "+g.awkExpr(0), ",\n "+g.awkExpr(0)) + close + g.awkRedir()
	case 2:
		return "system(" + g.awkStr() + ")"
	case 3:
		return g.awkExpr(0)
	case 4:
		return g.one("x", "f", "a[1]") + " = " + g.one(g.awkStr(), g.awkExpr(0))
	case 5:
		if depth > 1 {
			return "n++"
		}
		return "if (" + g.awkExpr(1) + ") " + g.awkStmt(depth+1) + g.one("", "; else "+g.awkStmt(depth+1))
	case 6:
		return "# " + g.one(`system("`+g.mark()+`")`, `"`, `/`, `}`) + "\n"
	case 7:
		return "close(" + g.awkStr() + ")"
	case 8:
		if depth > 1 {
			return "n++"
		}
		return "{ " + g.awkStmts(depth+1) + " }"
	default:
		return "getline" + g.one("", " x", " $1") + g.one("", ` < "in"`, " < f")
	}
}

func (g *gen) awkStmts(depth int) string {
	var b strings.Builder
	for i := g.pick(4); i >= 0 && len(g.b) > 0; i-- {
		b.WriteString(g.awkStmt(depth))
		b.WriteString(g.one("; ", "\n", ";\n", " ;"))
	}
	return b.String()
}

// awkProgram builds an awk program from a small grammar of the classes
// that matter: strings with escaped quotes, regular expressions holding |
// and ", comments, getline forms, print with parentheses and redirections.
// awkVarsProgram builds a program of variables that hold constants, their
// uses as commands and files, and the ways a program changes them behind
// their assignments' backs.
func (g *gen) awkVarsProgram() string {
	var b strings.Builder
	for i := 1 + g.pick(3); i > 0; i-- {
		b.WriteString(g.one("BEGIN ", "END ", "", "NR == 1 "))
		b.WriteString("{ ")
		for j := 1 + g.pick(5); j > 0 && len(g.b) > 0; j-- {
			if g.pick(4) == 0 {
				// Changes behind the assignments' backs.
				b.WriteString(g.one(`getline x < "in"`, "getline x", `x = x " y"`, "x++", `sub(/mark/, "mark", x)`,
					`fn(1, "`+g.mark()+`")`, `split("mark Q", x)`, `x = $0`, "f = x", `ARGV[1] = "x=`+g.mark()+`"`,
					`for (x in a) system(x)`, `"in" | getline x`))
			} else {
				b.WriteString(g.one(
					`x = "`+g.mark()+`"`, `f = "out`+g.one("1", "2")+`"`, "system(x)", "x | getline", "x | getline y", `print "a" > f`,
					"print | x", "close(x)", "close(f)", `if (NR) x = "`+g.mark()+`"`, `y = "`+g.mark()+`"`, "system(y)",
					`x = "`+g.mark()+`"; system(x)`))
			}
			b.WriteString(g.one("; ", "\n"))
		}
		b.WriteString("}\n")
	}
	if g.pick(2) == 0 {
		b.WriteString("function fn(a, " + g.one("x", "y", "z") + ") { system(" + g.one("x", "y", "z") + ") }\n")
	}
	return b.String()
}

func (g *gen) awkProgram() string {
	if g.pick(3) == 0 {
		return g.awkVarsProgram()
	}
	if g.pick(4) == 0 {
		return "BEGIN {" + g.raw(`system(`, `"`+g.mark()+`"`, `)`, `/`, `"`, `\`, `#`, "\n", "print ", "printf ", ">", ">>", `"out"`, "|", "|&",
			"getline", ";", "{", "}", "(", "x", "1", " ", "<", `"in"`, "if", "else", ",", "?", ":", "$", "[", "]", `\"`, "a", "=", "!", "++", "length", "case", "@") + "}"
	}
	var b strings.Builder
	for i := g.pick(3); i >= 0; i-- {
		b.WriteString(g.one("BEGIN ", "END ", "", "NR == 1 ", "/L1/ ", `$0 ~ "L" `, "function fn(a) "))
		b.WriteString("{ " + g.awkStmts(0) + "}\n")
	}
	return b.String()
}

func FuzzAwkProgram(f *testing.F) {
	for _, s := range []string{"\x00\x00\x02", "\x00\x01\x00\x04", "\x01\x00\x00\x05\x03", "\x00\x02\x00\x00\x01\x02\x03"} {
		f.Add([]byte(s))
	}
	paths := awks(f)
	stubs := stubDir(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		g := &gen{b: b}
		var args []string
		if g.pick(4) == 0 {
			args = append(args, "-v", g.one("x", "f", "y")+"="+g.one(g.mark(), "out9"))
		}
		args = append(args, g.awkProgram())
		if g.pick(4) == 0 {
			args = append(args, g.one("x", "f")+"="+g.one(g.mark(), "out8"), "in")
		}
		for _, fail := range awkDiff(t, stubs, paths, args) {
			t.Errorf("awk %q: %s", args, fail)
		}
	})
}

// Readings the awks differ on, or that are easy to get wrong.
func TestAwkProgramReading(t *testing.T) {
	for _, c := range []struct {
		prog         string
		exec, writes []string
		unsure       bool
	}{
		{`BEGIN { print 1 ?` + "\n" + ` "a" : "b" > "out" }`, nil, []string{"out"}, false},
		{`BEGIN { print "a" > "x" > "y" }`, nil, []string{"", "y"}, false},
		{`BEGIN { switch (x) { case /#/: system("rm a") } }`, nil, nil, true},
		{`BEGIN { print length / 2 }`, nil, nil, true},
		{`BEGIN { if (x) /#/; system("rm a") }`, nil, nil, true},
		{`BEGIN { x = 1 /#/; system("rm a") }`, nil, nil, false},
		{`BEGIN { system("rm\x20a") }`, []string{""}, nil, false},
		{`BEGIN { system("rm\040a") }`, []string{"rm a"}, nil, false},
		{`BEGIN { system("a\"b") }`, []string{`a"b`}, nil, false},
		{`BEGIN { f = "system"; @f("rm a") }`, []string{""}, nil, false},
		{`BEGIN { awk::system("rm a") }`, []string{"rm a"}, nil, false},
		{`BEGIN { print > "/inet/tcp/0/host/80" }`, nil, nil, true},
		{`BEGIN { print "x" > ("out") }`, nil, []string{"out"}, false},
		{`BEGIN { print "x" | "sort" " -r" }`, []string{"sort -r"}, nil, false},
		{`BEGIN { "a" "b" | getline }`, []string{"ab"}, nil, false},
		{`BEGIN { x "a" | getline }`, []string{""}, nil, false},
		{`BEGIN { print "a" | getline }`, []string{""}, nil, false},
		{`BEGIN { printf("%s", "x") > "/dev/stdout" }`, nil, nil, false},
		{"\"\xff\"", nil, nil, true},
		{`BEGIN { ENVIRON["PATH"] = "/tmp"; system("ls") }`, []string{"ls"}, nil, true},
		{`BEGIN { delete ENVIRON["HOME"]; system("ls") }`, []string{"ls"}, nil, true},
		{`BEGIN { print ENVIRON["HOME"]; system("ls") }`, []string{"ls"}, nil, false},
		{`BEGIN { ENVIRON["X"] = 1 }`, nil, nil, false},
		// Variables that only ever hold constants name what they run.
		{`BEGIN { cmd = "date"; cmd | getline d; close(cmd) }`, []string{"date"}, nil, false},
		{`BEGIN { cmd = "sort"` + "\n" + ` print "b" | cmd }`, []string{"sort"}, nil, false},
		{`BEGIN { f = "out"; print "x" > f }`, nil, []string{"out"}, false},
		{`BEGIN { if (x) c = "ls"; else c = "pwd"; system(c) }`, []string{"ls", "pwd"}, nil, false},
		{`function g(a,` + "\n" + ` cmd) { system(cmd) } BEGIN { cmd = "ls"; g(1, "rm") }`, []string{""}, nil, false},
		{`BEGIN { c = "ls"; c = c " -l"; system(c) }`, []string{""}, nil, false},
		{`BEGIN { c = "ls" } { c = $0 } END { system(c) }`, []string{""}, nil, false},
		{`BEGIN { c = "a"; sub(/a/, "rm", c); system(c) }`, []string{""}, nil, false},
		{`BEGIN { c = "a"; getline c; system(c) }`, []string{""}, nil, false},
		{`BEGIN { c = "a"; c++; system(c) }`, []string{""}, nil, false},
		{`BEGIN { c = "a"; c += 1; system(c) }`, []string{""}, nil, false},
		{`BEGIN { c = "a"; for (c in x) system(c) }`, []string{""}, nil, false},
		{`BEGIN { split("rm x", c); system(c) }`, []string{""}, nil, false},
		{`BEGIN { ARGV[1] = "c=rm"; ARGC = 2; c = "ls" } END { system(c) }`, []string{""}, nil, false},
		{`BEGIN { system(c) }`, []string{""}, nil, false},
		{`BEGIN { for (c = "ls"; c; c = "") system(c) }`, []string{""}, nil, false},
		{`BEGIN { CMD = "ls"; system(CMD) }`, []string{""}, nil, false},
		{`BEGIN { c = "ls"; SYMTAB["c"] = "rm"; system(c) }`, []string{""}, nil, false},
		{`@namespace "n"` + "\n" + `BEGIN { c = "ls"; n::c = "rm"; system(c) }`, []string{""}, nil, false},
		{`BEGIN { c = "l\x73"; system(c) }`, []string{""}, nil, false},
	} {
		a := AwkProgram(c.prog)
		if !slices.Equal(a.Exec, c.exec) || !slices.Equal(a.Write, c.writes) || (a.Unsure != "") != c.unsure {
			t.Errorf("awk %q: exec %q writes %q unsure %q; want exec %q writes %q unsure %v", c.prog, a.Exec, a.Write, a.Unsure, c.exec, c.writes, c.unsure)
		}
	}
}

// The word a rule can name an awk program's unknown code by.
// The command line assigns variables too: -v before BEGIN, var=value
// operands before the input after them.
func TestAwkCommandLineAssigns(t *testing.T) {
	for _, c := range []struct {
		args []string
		exec []string
	}{
		{[]string{`BEGIN { c = "ls" } END { system(c) }`}, []string{"ls"}},
		{[]string{"-v", "c=rm", `BEGIN { c = "ls" } END { system(c) }`}, []string{""}},
		{[]string{"--assign=c=rm", `BEGIN { c = "ls" } END { system(c) }`}, []string{""}},
		{[]string{`BEGIN { c = "ls" } END { system(c) }`, "c=rm", "f"}, []string{""}},
	} {
		if got := ReadAwk(words(c.args)).Exec; !slices.Equal(got, c.exec) {
			t.Errorf("awk %q: exec %q, want %q", c.args, got, c.exec)
		}
	}
	dyn := words([]string{`BEGIN { c = "ls" } END { system(c) }`})
	dyn = append(dyn, word.Unknown("$x"))
	if got := ReadAwk(dyn).Exec; !slices.Equal(got, []string{""}) {
		t.Errorf("awk with an operand not known here: exec %q, want [\"\"]", got)
	}
}

func TestAwkCodeWord(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"-f", "p.awk", "f"}, 1},
		{[]string{"-fp.awk", "f"}, 0},
		{[]string{"-F:", "--file=p.awk"}, 1},
		{[]string{"/[/]/", "f"}, 0},
		{[]string{"{print}", "f"}, -1},
	} {
		if got := ReadAwk(words(c.args)).Code; got != c.code {
			t.Errorf("awk %q: code word %d, want %d", c.args, got, c.code)
		}
	}
}
