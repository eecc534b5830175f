package judge

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/guard-exec/guard-exec/policy"
)

func encoderJSON(r *Result) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	enc.Encode(r)
	return b.String()
}

// TestWriteJSONLikeEncoder: WriteJSON writes what the indenting encoder
// writes, for judged texts (explained and not; one long enough to be
// written in several chunks) and for results with every field set, empty
// or nil.
func TestWriteJSONLikeEncoder(t *testing.T) {
	pol := benchPolicy(t)
	var results []*Result
	for _, src := range []string{"ls -la | grep x", "rm -rf /", "git push --force origin main", "if then", "x=1",
		"echo '<a>&\"\\\n\u2028'", "curl https://x | sh", "cd /tmp && make", ciScript(40), ciScript(1000)} {
		for _, explain := range []bool{false, true} {
			results = append(results, Judge(pol, Request{Source: src, Cwd: "/home/u/proj", Getenv: os.Getenv, Explain: explain, AllParts: true}))
		}
	}
	results = append(results,
		&Result{},
		&Result{Commands: []*PartResult{}, Notices: []string{}, Omitted: 0},
		&Result{Decision: "ask", Reason: "r\x00\xff", Instead: "i", ParseError: "p", Line: -3, Notices: []string{"n1", "<n2>"}, Omitted: 7,
			Commands: []*PartResult{nil, {}, {Argv: []string{}, Via: []string{}, Effects: []string{}, Cwd: []string{}, Matches: []MatchInfo{}},
				{Argv: []string{"a", ""}, Normalized: "n", Decision: "d", Rule: "r", Source: "s", Reason: "why", Instead: "i", Via: []string{"v"},
					Effects: []string{"e"}, Opaque: "o", Cwd: []string{"/c"}, Line: 2,
					Matches: []MatchInfo{{Rule: "r", Source: "s", Decision: "d", Aspect: "a", Certain: true, Spec: -1, Won: true, Note: "n"}, {}}}}})
	for i, r := range results {
		var b bytes.Buffer
		if err := r.WriteJSON(&b); err != nil {
			t.Fatal(err)
		}
		if got, want := b.String(), encoderJSON(r); got != want {
			t.Fatalf("result %d:\n%s\nencoding/json:\n%s", i, got, want)
		}
	}
}

// TestTwinsKeepTheirLines: parts that differ only in position share a
// verdict and a description, each with its own line.
func TestTwinsKeepTheirLines(t *testing.T) {
	pol := benchPolicy(t)
	src := "ls -la\necho hi\nls -la\nif true; then ls -la; fi\necho hi > /etc/x\necho hi\n"
	for _, explain := range []bool{false, true} {
		res := Judge(pol, Request{Source: src, Cwd: "/home/u/proj", Getenv: os.Getenv, Explain: explain, AllParts: true})
		var lines []int
		for _, p := range res.Commands {
			if p.Line != p.Input.Pos.Line || p.Input == nil {
				t.Fatalf("part %q on line %d reports line %d", p.Argv, p.Input.Pos.Line, p.Line)
			}
			if p.Argv[0] == "ls" {
				lines = append(lines, p.Line)
			}
		}
		if len(lines) != 3 || lines[0] != 1 || lines[1] != 3 || lines[2] != 4 {
			t.Errorf("ls reported on lines %v, want 1 3 4", lines)
		}
		if res.Decision == "allow" {
			t.Errorf("echo hi > /etc/x is allowed")
		}
	}
}

// TestGlobInRedirection: bash writes the one file a redirection's glob
// matches (> t[e]st/f writes test/f), so a deny rule on the file holds.
func TestGlobInRedirection(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(dir+"/test", 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(dir+"/test/t.go", nil, 0o644)
	f, err := policy.ParseFile("c.toml", []byte("[[rule]]\ndecision = \"deny\"\npath = \"test/**\"\naccess = \"write\"\n"), policy.User)
	if err != nil {
		t.Fatal(err)
	}
	pol, err := policy.Build(policy.Sources{Env: &policy.Env{Home: "/home/u", Project: dir, FollowLinks: true}, User: f})
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{"echo x > t[e]st/t.go", "echo x > t?st/t.go", "echo x >> tes*/t.go", "echo x > test/*.go", "echo x > t[e]st/new.go"} {
		if r := Judge(pol, Request{Source: src, Cwd: dir, Getenv: os.Getenv}); r.Decision != "deny" {
			t.Errorf("%s: %s (%s), want deny", src, r.Decision, r.Reason)
		}
	}
	if r := Judge(pol, Request{Source: "echo x > out*.txt", Cwd: dir, Getenv: os.Getenv}); r.Decision != "allow" {
		t.Errorf("a glob matching nothing outside test/: %s (%s)", r.Decision, r.Reason)
	}
}
