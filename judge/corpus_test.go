package judge_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/guard-exec/guard-exec/judge"
	"github.com/guard-exec/guard-exec/policy"
	"github.com/guard-exec/guard-exec/shellparse"
)

// Real shell text nobody here wrote: every script that bash itself can
// read (bash -n) must be read by the guard too, without a parse_error.
// A failure is a parser differential or a bug in shellparse; each is
// reported with the scripts it affects, never skipped.

const ciScripts = "../testdata/corpora/ci-scripts.jsonl"

// script is one text to read, with a name for messages.
type script struct {
	name, text string
}

func TestCIScripts(t *testing.T) {
	t.Parallel()
	if !isolate(t) {
		return
	}
	bash := needBash(t)
	f, err := os.Open(ciScripts)
	if err != nil {
		t.Fatalf("the CI corpus is part of the repository: %v", err)
	}
	defer f.Close()
	var scripts []script
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		var rec struct {
			Name   string `json:"name"`
			Script string `json:"script"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("%s:%d: %v", ciScripts, len(scripts)+1, err)
		}
		scripts = append(scripts, script{rec.Name, rec.Script})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(scripts) < 1500 {
		t.Fatalf("%s holds %d scripts, want the full corpus (1,508)", ciScripts, len(scripts))
	}
	readAll(t, bash, scripts)
}

// The shell scripts this machine's OS ships.
func TestOSScripts(t *testing.T) {
	t.Parallel()
	if !isolate(t) {
		return
	}
	bash := needBash(t)
	paths := osScripts(300)
	if len(paths) == 0 {
		t.Skip("no shell scripts found under /usr and /etc")
	}
	var scripts []script
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			continue // unreadable: skip
		}
		scripts = append(scripts, script{p, string(b)})
	}
	t.Logf("%d scripts from the OS", len(scripts))
	readAll(t, bash, scripts)
}

func needBash(t *testing.T) string {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}
	return bash
}

// bashAccepts reports whether bash -n reads the text without a syntax error.
func bashAccepts(bash, text string) bool {
	cmd := exec.Command(bash, "-n")
	cmd.Stdin = strings.NewReader(text)
	return cmd.Run() == nil
}

var shebang = regexp.MustCompile(`^#![ \t]*(/usr)?/bin/(env[ \t]+)?(ba)?sh([ \t]|$)`)

// osScripts finds up to max files under the usual system directories whose
// first line names sh or bash, in a fixed order, spread over what exists.
func osScripts(max int) []string {
	var found []string
	for _, root := range []string{"/usr/bin", "/usr/sbin", "/usr/lib", "/usr/share", "/etc"} {
		filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return nil
			}
			info, err := d.Info()
			if err != nil || info.Size() == 0 || info.Size() > 512<<10 {
				return nil
			}
			if info.Mode()&0o111 == 0 && !strings.HasSuffix(path, ".sh") && !strings.HasPrefix(path, "/etc/") {
				return nil
			}
			f, err := os.Open(path)
			if err != nil {
				return nil
			}
			defer f.Close()
			buf := make([]byte, 64)
			n, _ := f.Read(buf)
			line, _, _ := bytes.Cut(buf[:n], []byte("\n"))
			if shebang.Match(line) {
				found = append(found, path)
			}
			return nil
		})
	}
	if len(found) <= max {
		return found
	}
	// Every k-th, so that each directory contributes.
	out := make([]string, 0, max)
	for i := 0; i < max; i++ {
		out = append(out, found[i*len(found)/max])
	}
	return out
}

// readAll checks every script bash accepts: judged without a parse error.
// Failures are grouped by cause.
func readAll(t *testing.T, bash string, scripts []script) {
	pol, err := policy.Build(policy.Sources{Env: &policy.Env{Home: home, Project: proj, Temp: []string{"/tmp"}}})
	if err != nil {
		t.Fatal(err)
	}
	type failure struct{ name, err string }
	var (
		mu       sync.Mutex
		failures []failure
		rejected int
		wg       sync.WaitGroup
	)
	work := make(chan script)
	for i := 0; i < max(2, runtime.GOMAXPROCS(0)); i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for s := range work {
				done := judging(s.name)
				res := judge.Judge(pol, judge.Request{Source: s.text, Name: s.name, Cwd: proj, Getenv: getenv,
					ParamsUnknown: true, Glob: shellparse.NoGlob})
				done()
				if res.ParseError == "" {
					continue
				}
				// Only text bash accepts counts (asking bash only here keeps
				// the test fast).
				if !bashAccepts(bash, s.text) {
					mu.Lock()
					rejected++
					mu.Unlock()
					continue
				}
				mu.Lock()
				failures = append(failures, failure{s.name, res.ParseError})
				mu.Unlock()
			}
		}()
	}
	for _, s := range scripts {
		work <- s
	}
	close(work)
	wg.Wait()
	t.Logf("%d scripts; %d refused by both bash -n and the guard; %d accepted by bash -n but read with a parse_error", len(scripts), rejected, len(failures))
	if len(failures) == 0 {
		return
	}
	// Group by cause: the error without its position.
	causes := map[string][]string{}
	pos := regexp.MustCompile(`\b\d+:\d+: ?`)
	for _, f := range failures {
		c := pos.ReplaceAllString(f.err, "")
		causes[c] = append(causes[c], f.name+" ("+f.err+")")
	}
	keys := make([]string, 0, len(causes))
	for k := range causes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		names := causes[k]
		sort.Strings(names)
		if len(names) > 5 {
			names = append(names[:5], fmt.Sprintf("… and %d more", len(names)-5))
		}
		fail(t, "%d script(s) that bash -n accepts got parse_error %q:\n\t%s", len(causes[k]), k, strings.Join(names, "\n\t"))
	}
}

const agentSessions = "../testdata/corpora/agent-sessions.jsonl"

// Real agent sessions (issue 4 §6): with the built-in defaults nothing in
// them is denied (the corpus holds no catastrophic command: its rm -rf
// are of build and export directories), and every command bash -n accepts
// is read without a parse_error.
func TestAgentSessions(t *testing.T) {
	t.Parallel()
	if !isolate(t) {
		return
	}
	bash := needBash(t)
	f, err := os.Open(agentSessions)
	if err != nil {
		t.Fatalf("the agent-session corpus is part of the repository: %v", err)
	}
	defer f.Close()
	const user = "/home/user"
	pol, err := policy.Build(policy.Sources{Env: &policy.Env{Home: user, Project: user + "/proj", Temp: []string{"/tmp"}}})
	if err != nil {
		t.Fatal(err)
	}
	env := func(k string) string {
		switch k {
		case "HOME":
			return user
		case "TMPDIR":
			return "/tmp"
		}
		return ""
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	var asks []int
	total := map[string]int{}
	sessions := 0
	for sc.Scan() {
		var rec struct {
			Source   string   `json:"source"`
			Commands []string `json:"commands"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("%s:%d: %v", agentSessions, sessions+1, err)
		}
		sessions++
		n := 0
		for i, c := range rec.Commands {
			name := fmt.Sprintf("%s #%d", rec.Source, i+1)
			done := judging(name)
			res := judge.Judge(pol, judge.Request{Source: c, Name: name, Cwd: user + "/proj", Getenv: env,
				Glob: shellparse.NoGlob})
			done()
			total[res.Decision]++
			switch {
			case res.ParseError != "":
				if bashAccepts(bash, c) {
					fail(t, "%s: bash -n accepts %q but the guard reads it with parse_error %q", name, c, res.ParseError)
				}
			case res.Decision == "deny":
				fail(t, "%s: a benign agent command was denied: %q (%s)", name, c, res.Reason)
			case res.Decision == "ask":
				n++
			}
		}
		asks = append(asks, n)
	}
	if sessions < 100 {
		t.Fatalf("%s holds %d sessions, want the full corpus (112)", agentSessions, sessions)
	}
	sort.Ints(asks)
	t.Logf("%d sessions: %v; asks per session: median %d, max %d", sessions, total, asks[len(asks)/2], asks[len(asks)-1])
}
