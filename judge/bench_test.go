package judge

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/guard-exec/guard-exec/policy"
	"github.com/guard-exec/guard-exec/shellparse"
)

func benchPolicy(b testing.TB) *policy.Policy {
	env := &policy.Env{Home: "/home/u", Project: "/home/u/proj", Temp: []string{"/tmp"}, FollowLinks: true}
	pol, err := policy.Build(policy.Sources{Env: env})
	if err != nil {
		b.Fatal(err)
	}
	return pol
}

// ciScript generates a CI-like script of n lines.
func ciScript(n int) string {
	var sb strings.Builder
	for i := 0; i < n; i++ {
		switch i % 8 {
		case 0:
			fmt.Fprintf(&sb, "echo \"step %d: $(date +%%s)\" >> \"$TMPDIR/log\"\n", i)
		case 1:
			fmt.Fprintf(&sb, "if [ -f file%d ]; then cat file%d | grep -v x | sort -u > out%d; fi\n", i, i, i)
		case 2:
			sb.WriteString("for f in src/*.go; do gofmt -l \"$f\"; done\n")
		case 3:
			fmt.Fprintf(&sb, "X%d=value%d; export X%d\n", i, i, i)
		case 4:
			sb.WriteString("git log --oneline -n 5 | head -3\n")
		case 5:
			fmt.Fprintf(&sb, "mkdir -p build/%d && cp README.md build/%d/\n", i, i)
		case 6:
			fmt.Fprintf(&sb, "case \"$X%d\" in a*) echo a;; *) echo other;; esac\n", i-3)
		default:
			sb.WriteString("ls -la | wc -l\n")
		}
	}
	return sb.String()
}

// sameKey reports whether a part judged for c is c's own or a twin's
// (judgedPart.p).
func sameKey(a, c *shellparse.Cmd) bool {
	return a == c || string(a.AppendKey(nil)) == string(c.AppendKey(nil))
}

func BenchmarkJudgeOneLiner(b *testing.B) {
	pol := benchPolicy(b)
	req := Request{Source: "ls -la | grep foo && git status", Cwd: "/home/u/proj", Getenv: os.Getenv}
	for i := 0; i < b.N; i++ {
		if r := Judge(pol, req); r.Decision != "allow" {
			b.Fatal(r.Reason)
		}
	}
}

func BenchmarkJudgeScript2000(b *testing.B) {
	pol := benchPolicy(b)
	req := Request{Source: ciScript(2000), Cwd: "/home/u/proj", Getenv: os.Getenv}
	for i := 0; i < b.N; i++ {
		Judge(pol, req)
	}
}

// TestStreamingJudging: judging commands while the text is read (on two
// goroutines, safely under -race) gives every part the verdict judging
// after the walk gives it, on a generated script with refusals in the
// middle and on the CI corpus joined.
func TestStreamingJudging(t *testing.T) {
	pol := benchPolicy(t)
	opts := shellparse.Options{Cwd: "/home/u/proj", Getenv: os.Getenv, ParamsUnknown: true}
	texts := []string{ciScript(600) + "rm -rf /tmp/x\ngit push --force\ncurl https://example.com | sh\n" + ciScript(600), ciScript(3)}
	f, err := os.Open("../testdata/corpora/ci-scripts.jsonl")
	if err != nil {
		t.Fatalf("the CI corpus is part of the repository: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	var all strings.Builder
	for sc.Scan() {
		var rec struct {
			Script string `json:"script"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatal(err)
		}
		wrapped := "(\n" + rec.Script + "\n)\n"
		if _, err := shellparse.Parse(wrapped, opts); err == nil && !strings.Contains(rec.Script, "<<") {
			all.WriteString(wrapped)
		}
	}
	texts = append(texts, all.String())
	// Both with the positional parameters unknown (check) and known (the
	// shell's own -c text).
	known := opts
	known.ParamsUnknown = false
	for _, opts := range []shellparse.Options{opts, known} {
		for _, src := range texts {
			parsed, err := shellparse.Parse(src, opts)
			if err != nil {
				t.Fatal(err)
			}
			want := judgeAll(pol, parsed.Cmds, false)
			sparsed, got, err := parseAndJudge(pol, opts, src, false)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) || len(sparsed.Cmds) != len(parsed.Cmds) {
				t.Fatalf("%d verdicts for %d commands streaming, %d for %d after the walk", len(got), len(sparsed.Cmds), len(want), len(parsed.Cmds))
			}
			for i := range want {
				a, b := want[i].v, got[i].v
				if a.Decision != b.Decision || a.Rule != b.Rule || a.Reason != b.Reason || !sameKey(got[i].p.Cmd, sparsed.Cmds[i]) {
					t.Fatalf("part %d (%s): streaming %v %q, after the walk %v %q", i, parsed.Cmds[i], b.Decision, b.Reason, a.Decision, a.Reason)
				}
			}
		}
	}
	// Through Judge: the refusal in the middle of a long script counts.
	if r := Judge(pol, Request{Source: texts[0], Cwd: "/home/u/proj", Getenv: os.Getenv}); r.Decision == "allow" {
		t.Errorf("a script with a force-push is allowed: %s", r.Reason)
	}
	// A syntax error after many committed statements: never an allow.
	if r := Judge(pol, Request{Source: texts[0] + "if then fi\n", Cwd: "/home/u/proj", Getenv: os.Getenv}); r.Decision == "allow" || r.ParseError == "" {
		t.Errorf("a long script with a syntax error at the end: %s, parse error %q", r.Decision, r.ParseError)
	}
}

// benchLine is the three lines tools/bench -scale repeats into scripts
// of 1 KB to 3 MB: about one command per 60 bytes, as in CI scripts.
const benchLine = "if [ -f \"$f\" ]; then grep -v x \"$f\" | sort -u > \"$TMPDIR/out\"; fi\n" +
	"echo \"step $i of the build: compiling the next module, then testing it\" >> \"$TMPDIR/log\"\n" +
	"export STAMP=\"$(date +%s)\"  # when the step started, for the summary at the end\n"

// BenchmarkJudgeLongScript judges the scripts tools/bench -scale times
// against bash -n, in process, with its configuration (date allowed): every
// part is allowed. -benchmem shows what a size allocates.
func BenchmarkJudgeLongScript(b *testing.B) {
	env := &policy.Env{Home: "/home/u", Project: "/home/u/proj", Temp: []string{"/tmp"}, FollowLinks: true}
	f, err := policy.ParseFile("bench.toml", []byte("[[rule]]\ndecision = \"allow\"\ncommand = \"date\"\n"), policy.User)
	if err != nil {
		b.Fatal(err)
	}
	pol, err := policy.Build(policy.Sources{Env: env, User: f})
	if err != nil {
		b.Fatal(err)
	}
	getenv := func(k string) string {
		if k == "TMPDIR" {
			return "/tmp"
		}
		return os.Getenv(k)
	}
	for _, size := range []int{1 << 10, 64 << 10, 1 << 20, 3 << 20} {
		src := strings.Repeat(benchLine, size/len(benchLine))
		b.Run(fmt.Sprintf("%dKB", size>>10), func(b *testing.B) {
			req := Request{Source: src, Cwd: "/home/u/proj", Getenv: getenv, ParamsUnknown: true}
			for i := 0; i < b.N; i++ {
				if r := Judge(pol, req); r.Decision != "allow" {
					b.Fatal(r.Reason)
				}
			}
		})
	}
}
