package argspec

import (
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestFindMayName(t *testing.T) {
	for _, c := range []struct {
		expr string
		may  bool
	}{
		{"", true},
		{"-type f", true},
		{"-name *.py", false},
		{"-iname *.PY", false},
		{"-name .env", true},
		{"-name .env*", true},
		{"-name *env", true},
		{"-name [!x]env", true}, // fnmatch's brackets are not read
		{"-name *.py -o -name *.go", false},
		{"-name *.py -o -type f", true},
		{"( -name *.py -o -name *.go ) -type f", false},
		{"-type f ( -name *.py -o -name .env )", true},
		{"! -name *.py", true},
		{"-not -name .env", true},
		{"-maxdepth 1 -name *.md", false},
		{"-path ./node_modules -prune -o -name *.ts -print", false},
		{"-path ./node_modules -prune -o -type f -print", true},
		{"-path */src/* -name *.go", false},
		{"-path *.go", false},
		{"-path */.env", true},
		{"-path ./a/*", true},
		{"-path ./a/b*", true},
		{"-path ./x", false},
		{"-path ./x/.env", true},
		{"-path ./x/?env", true},
		{"-ipath *.ENV", true},
		{"-regex .*\\.py", true},
		{"-name *.py -exec cat {} +", false},
		{"-exec cat {} ; -name *.py", true},
		{"-newermt 2024-01-01 -name *.py", true}, // a test not read: it may let anything through
		{"-name", true},
		{"( -name *.py", true},
		{"-name *.py )", true},
		{"-o -name *.py", true},
	} {
		argv := append([]string{"find", "."}, strings.Fields(c.expr)...)
		if got := FindMayName(argv, ".env"); got != c.may {
			t.Errorf("find . %s: may name .env = %v, want %v", c.expr, got, c.may)
		}
	}
}

// TestFindMayNameRealFind holds FindMayName to find itself: for random
// expressions over a tree with dotenv files, whenever it says a name is
// never acted on, find prints no file of that name.
func TestFindMayNameRealFind(t *testing.T) {
	findPath, err := exec.LookPath("find")
	if err != nil {
		t.Skip("no find on PATH")
	}
	root := t.TempDir()
	names := []string{".env", ".env.local", ".envrc", ".env.production"}
	for _, f := range []string{".env", ".env.local", ".envrc", "a.py", "src/.env", "src/b.py", "src/x/.env.production",
		"a/.ENV", "a/c/.env", "node_modules/.env", "docs/.env.local/x.md", "envdir/.envrc", ".git/.env"} {
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pats := []string{".env", "*.py", "*env", ".env*", "*.local", "*/.env", "./*", "*/src/*", "src/*", "./src/*", "./a/*",
		"./a/*.py", "*", "?env", ".e?v", "[.]env", "[!x]env", "*.ENV", ".ENV", "*/a", "a", "*/.env.local", "./node_modules",
		"*rc", "*.production", "./src", "*/x/*", "*.md", ".env.*", "*c", "*/a/c/.env", "*src/.env", "./src/.env"}
	tests := []string{"-name", "-iname", "-path", "-ipath", "-wholename"}
	rng := rand.New(rand.NewSource(1))
	var expr func(depth int) []string
	expr = func(depth int) []string {
		switch k := rng.Intn(12); {
		case k == 10:
			return [][]string{{"-print"}, {"-exec", "echo", "{}", ";"}, {"-print0"}, {"-maxdepth", "2"}}[rng.Intn(4)]
		case k == 11:
			return append(append(expr(depth+1), "-o"), "-print")
		case k < 4 || depth > 3:
			return []string{tests[rng.Intn(len(tests))], pats[rng.Intn(len(pats))]}
		case k == 4:
			return []string{[]string{"-type", "-true", "-false", "-prune"}[rng.Intn(4)]}[:1:1]
		case k == 5:
			return append([]string{"!"}, expr(depth+1)...)
		case k == 6:
			return append(append([]string{"("}, expr(depth+1)...), ")")
		case k == 7:
			return append(append(expr(depth+1), "-o"), expr(depth+1)...)
		case k == 8:
			return append(append(expr(depth+1), "-a"), expr(depth+1)...)
		default:
			return append(expr(depth+1), expr(depth+1)...)
		}
	}
	checked := 0
	for n := 0; n < 600; n++ {
		e := expr(0)
		if e[0] == "-type" {
			e = []string{"-type", "f"}
		}
		for i := range e {
			if e[i] == "-type" && (i+1 == len(e) || strings.HasPrefix(e[i+1], "-") || e[i+1] == ")" || e[i+1] == "(" || e[i+1] == "!") {
				e = append(e[:i+1], append([]string{"f"}, e[i+1:]...)...)
			}
		}
		start := []string{".", "src"}[rng.Intn(2)]
		argv := append([]string{"find", start}, e...)
		cmd := exec.Command(findPath, argv[1:]...)
		cmd.Dir = root
		out, err := cmd.Output()
		if err != nil {
			continue // an expression find refuses
		}
		printed := map[string]bool{}
		for _, l := range strings.FieldsFunc(string(out), func(r rune) bool { return r == '\n' || r == 0 }) {
			printed[filepath.Base(l)] = true
		}
		for _, name := range names {
			if !FindMayName(argv, name) {
				checked++
				if printed[name] {
					t.Errorf("%q: FindMayName says no %s, find printed one:\n%s", strings.Join(argv, " "), name, out)
				}
			}
		}
	}
	if checked < 200 {
		t.Errorf("only %d exclusions checked: the generator does not reach the cases", checked)
	}
}
