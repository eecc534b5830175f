// Command replay measures the default policy on real agent sessions: it
// judges every command of testdata/corpora/agent-sessions.jsonl with the
// built-in defaults, and with the configuration `guard-exec init` writes
// (for the session's own project where its files are recorded here, see
// projects; otherwise for a Python + JavaScript project), and reports per
// session how many commands a person would be asked about and how many
// were refused.
//
//	go run ./tools/replay [-sessions FILE] [-v]
//
// Each session's project root is inferred from its commands (the directory
// it cd's into or names most, never a file). Each session is replayed in
// a scratch directory of its own, made in the working directory (not under
// /tmp, where every write is allowed) and removed at the end: its project
// root, home (/home/user, /Users/user) and /tmp are directories there, and
// the paths in its commands are rewritten to name them. The files its own
// commands write with a here-document (`cat > f.py <<'EOF'`) are written
// there as it goes, so a later `python3 f.py` or `./f.sh` is judged by its
// content, as it would be in the live session; a file a later command may
// change otherwise (`sed -i`) is removed, and then asks as unreadable.
// The sessions' project files themselves are not here. SWE-agent's own
// pseudo-commands (edit, open, submit, …: functions of its tool bundle,
// not programs) are left out. "With session answers" assumes the person answers every question
// with `a` (remember for this session), as the prompt offers.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"

	"os/exec"
	"path/filepath"

	"github.com/guard-exec/guard-exec/install"
	"github.com/guard-exec/guard-exec/judge"
	"github.com/guard-exec/guard-exec/policy"
	"github.com/guard-exec/guard-exec/pycode"
	"github.com/guard-exec/guard-exec/shellparse"
	"github.com/guard-exec/guard-exec/state"
)

type session struct {
	Source   string   `json:"source"`
	Agent    string   `json:"agent"`
	Task     string   `json:"task"`
	Commands []string `json:"commands"`
}

// sweAgent are SWE-agent's tool-bundle commands (agent-sessions-SOURCES.md).
var sweAgent = map[string]bool{"open": true, "goto": true, "scroll_up": true, "scroll_down": true, "create": true,
	"edit": true, "insert": true, "find_file": true, "search_dir": true, "search_file": true, "submit": true,
	"decompile": true, "disassemble": true, "connect_start": true, "connect_sendline": true, "connect_stop": true}

func main() {
	path := flag.String("sessions", "testdata/corpora/agent-sessions.jsonl", "sessions file")
	verbose := flag.Bool("v", false, "list every question and refusal")
	flag.Parse()
	sessions, err := load(*path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "replay:", err)
		os.Exit(1)
	}
	fmt.Printf("%d sessions, %s\n\n", len(sessions), *path)
	for _, cfg := range []struct {
		name string
		init func(session) string
	}{{"built-in defaults", nil}, {"guard-exec init for a Python + JavaScript project, or the session's own", initConfig}} {
		st, err := replay(sessions, cfg.init, *verbose)
		if err != nil {
			fmt.Fprintln(os.Stderr, "replay:", err)
			os.Exit(1)
		}
		fmt.Printf("== %s\n%s\n", cfg.name, st)
	}
}

func load(path string) ([]session, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []session
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var s session
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, sc.Err()
}

type stats struct {
	sessions, commands       int
	asks, denies, remembered []int // per session
	deniedCmds               []string
	topAsks                  map[string]int
	// askLog holds, per session, each command that asked and the
	// reasons of its refused parts (for analysis).
	askLog [][]askEntry
}

type askEntry struct {
	cmd     string
	reasons []string
}

func (s *stats) String() string {
	var b strings.Builder
	sum := func(xs []int) int {
		t := 0
		for _, x := range xs {
			t += x
		}
		return t
	}
	atMost := func(xs []int, n int) int {
		c := 0
		for _, x := range xs {
			if x <= n {
				c++
			}
		}
		return c
	}
	fmt.Fprintf(&b, "  commands judged: %d in %d sessions\n", s.commands, s.sessions)
	fmt.Fprintf(&b, "  questions: %d in all; per session median %d, mean %.1f; sessions asking at most once: %d of %d\n",
		sum(s.asks), median(s.asks), float64(sum(s.asks))/float64(s.sessions), atMost(s.asks, 1), s.sessions)
	fmt.Fprintf(&b, "  with session answers (a): %d in all; per session median %d; at most once: %d of %d\n",
		sum(s.remembered), median(s.remembered), atMost(s.remembered, 1), s.sessions)
	fmt.Fprintf(&b, "  refusals (deny): %d\n", sum(s.denies))
	for _, c := range s.deniedCmds {
		fmt.Fprintf(&b, "    denied: %s\n", c)
	}
	type kv struct {
		k string
		v int
	}
	var top []kv
	for k, v := range s.topAsks {
		top = append(top, kv{k, v})
	}
	sort.Slice(top, func(i, j int) bool { return top[i].v > top[j].v || top[i].v == top[j].v && top[i].k < top[j].k })
	b.WriteString("  most frequent questions:\n")
	for i, t := range top {
		if i == 12 {
			break
		}
		fmt.Fprintf(&b, "    %4d  %s\n", t.v, t.k)
	}
	return b.String()
}

func median(xs []int) int {
	s := append([]int(nil), xs...)
	sort.Ints(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}

// initConfig is the configuration `guard-exec init` writes for a
// session's project: from its files where the corpus's repository is
// known (projects), otherwise for a Python + JavaScript project.
func initConfig(s session) string {
	for prefix, files := range projects {
		if strings.HasPrefix(s.Source, prefix) {
			return policy.StarterConfigFor("/project", policy.ProjectFiles{
				Exists: func(f string) bool { _, ok := files[f]; return ok },
				Read: func(f string) ([]byte, bool) {
					t, ok := files[f]
					return []byte(t), ok
				},
			})
		}
	}
	return policy.StarterConfig("/project", func(f string) bool {
		return f == "pyproject.toml" || f == "package.json" || f == ".git"
	})
}

// projects are the files `guard-exec init` reads at the root of the
// projects some sessions ran in, as they were at the commit the sessions'
// transcripts were taken from, reduced to what init reads (the projects
// themselves are not here): brain_explore's compose file runs only
// published images (qdrant, neo4j, calibre-web, redis, siyuan), and its
// .env.example gives the backend's port.
var projects = map[string]map[string]string{
	"goodsch/brain_explore@5f0065446d2c83d2a5caf13c11a0e498f9faee56:": {
		".git":           "",
		"pyproject.toml": "[project]\nname = \"brain-explore-library\"\ndependencies = [\"qdrant-client>=1.7.0\", \"neo4j>=5.0.0\", \"openai>=1.0.0\", \"rich>=13.0.0\"]\n",
		"package.json":   `{"dependencies": {"@waldzellai/clear-thought-onepointfive": "^0.2.1"}, "packageManager": "pnpm@10.15.1"}`,
		"docker-compose.yml": "services:\n" +
			"  qdrant:\n    image: qdrant/qdrant:latest\n    ports:\n      - \"6333:6333\"\n      - \"6334:6334\"\n" +
			"  neo4j:\n    image: neo4j:5\n    ports:\n      - \"7474:7474\"  # HTTP browser\n      - \"7687:7687\"  # Bolt protocol\n" +
			"  calibre:\n    image: crocodilestick/calibre-web-automated:latest\n    ports:\n      - \"8083:8083\"\n" +
			"  redis:\n    image: redis:7-alpine\n    ports:\n      - \"6379:6379\"\n" +
			"  siyuan:\n    image: b3log/siyuan\n    ports:\n      - \"6806:6806\"\n",
		".env.example": "IES_NEO4J_PORT=7687\nIES_SIYUAN_PORT=6806\nIES_BACKEND_PORT=8081\n",
	},
}

// replay judges the sessions with the built-in defaults and, when init is
// set, the configuration it gives for each session.
func replay(sessions []session, init func(session) string, verbose bool) (*stats, error) {
	st := &stats{topAsks: map[string]int{}}
	// Python code is read with this machine's python3 (nil without one:
	// it stays opaque). The sessions' projects are not here, so their
	// scripts and project modules cannot be read.
	var python judge.Request
	if _, err := exec.LookPath("python3"); err == nil {
		python.Python = &pycode.Analyser{Getenv: os.Getenv}
	}
	base0, err := scratchBase()
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(base0)
	for si, s := range sessions {
		// The session runs in a scratch of its own: its project root,
		// home and /tmp are directories there (see scratch).
		sessionRoot := projectRoot(s.Commands)
		if verbose {
			fmt.Printf("-- session %d: %s, %s\n", si+1, s.Agent, s.Source)
		}
		sc, err := newScratch(filepath.Join(base0, fmt.Sprint(si)), sessionRoot)
		if err != nil {
			return nil, err
		}
		root, home, tmp := sc.Path(sessionRoot), sc.Home(), sc.Temp()
		// What the guard protects, as cmd/guard-exec's load does: its
		// own configuration and the agent clients' files.
		ienv := install.Env{Home: home}
		env := &policy.Env{Home: home, Project: root, Temp: []string{tmp},
			Protect: install.GuardFiles(ienv, filepath.Join(home, ".config", "guard-exec", "config.toml"),
				filepath.Join(root, ".guard-exec.toml"), state.Dir(func(k string) string { return map[string]string{"HOME": home}[k] })),
			ProtectAgent: install.AgentFiles(ienv, root)}
		src := policy.Sources{Env: env}
		if init != nil {
			f, err := policy.ParseFile("init.toml", []byte(init(s)), policy.User)
			if err != nil {
				return nil, err
			}
			src.User = f
		}
		base, err := policy.Build(src)
		if err != nil {
			return nil, err
		}
		var remembered []policy.Remembered
		asks, denies, asksLeft := 0, 0, 0
		var log []askEntry
		for _, c0 := range s.Commands {
			if f := strings.Fields(c0); len(f) > 0 && sweAgent[f[0]] && strings.HasPrefix(s.Agent, "swe") {
				if err := sc.SWE(c0, root); err != nil {
					return nil, err
				}
				continue
			}
			st.commands++
			c := sc.Text(c0)
			getenv := func(k string) string { return map[string]string{"HOME": home, "TMPDIR": tmp}[k] }
			req := judge.Request{Source: c, Cwd: root, Getenv: getenv, Params: []string{"bash"}, Glob: shellparse.NoGlob,
				Python: python.Python, AllParts: true}
			res := judge.Judge(base, req)
			if res.Decided != policy.Deny {
				if err := sc.Apply(res); err != nil {
					return nil, err
				}
			}
			switch res.Decided {
			case policy.Deny:
				denies++
				st.deniedCmds = append(st.deniedCmds, firstLine(c0)+"  ("+sc.Unmap(res.Reason)+")")
			case policy.Ask:
				asks++
				ent := askEntry{cmd: c0}
				for _, p := range res.Refused() {
					name := "(unreadable)"
					if len(p.Argv) > 0 {
						name = p.Argv[0]
					}
					name, reason := sc.Unmap(name), sc.Unmap(p.Reason)
					st.topAsks[name+": "+truncate(reason, 70)]++
					ent.reasons = append(ent.reasons, name+": "+reason)
				}
				log = append(log, ent)
				// Would the session's earlier answers have covered it?
				src2 := src
				src2.Session = nil
				for _, r := range remembered {
					r2, _ := policy.ParseRuleText(r.TOML(""), "session")
					src2.Session = append(src2.Session, r2)
				}
				withMem, err := policy.Build(src2)
				if err != nil {
					return nil, err
				}
				covered := judge.Judge(withMem, req).Decided == policy.Allow
				if !covered {
					asksLeft++
					for _, p := range res.Refused() {
						if rs, ok := policy.Remember(p.Input, p.Verdict); ok {
							remembered = append(remembered, rs...)
						}
					}
				}
				if verbose {
					// "ask" is a question also with session answers;
					// "ask-a" is one an earlier answer (a) covers.
					mark := "ask  "
					if covered {
						mark = "ask-a"
					}
					fmt.Printf("  %s  %s\n", mark, firstLine(c0))
					for _, r := range ent.reasons {
						fmt.Printf("         %s\n", truncate(r, 160))
					}
				}
			}
		}
		st.sessions++
		st.askLog = append(st.askLog, log)
		st.asks = append(st.asks, asks)
		st.denies = append(st.denies, denies)
		st.remembered = append(st.remembered, asksLeft)
	}
	return st, nil
}

var cdAbs = regexp.MustCompile(`(?:^|[;&|]\s*)cd\s+(/[^\s;&|]+)`)
var mkdirAbs = regexp.MustCompile(`(?:^|[;&|(]\s*)mkdir\s+(?:-p\s+)?(/[^\s;&|)]+)`)
var absPath = regexp.MustCompile(`/(?:home|Users|app|root|workspace|testbed|mnt)(?:/[^\s'";&|)<>]*)?`)

// projectRoot guesses where a session ran: the directory it cd's into, or
// the longest directory most of its absolute paths share. Only a
// directory can be the root: a path the session cd's into, or one it
// names something inside (a file named in every command, /app/answer.txt,
// is not the root), and not one it makes (mkdir -p /app/output: the
// session ran above it).
func projectRoot(cmds []string) string {
	counts := map[string]int{}
	dir := map[string]bool{}
	var made []string
	for _, c := range cmds {
		for _, m := range mkdirAbs.FindAllStringSubmatch(c, -1) {
			made = append(made, strings.TrimRight(m[1], "/"))
		}
	}
	for _, c := range cmds {
		for _, m := range cdAbs.FindAllStringSubmatch(c, -1) {
			d := strings.TrimRight(m[1], "/")
			counts[d] += 3
			dir[d] = true
		}
		for _, p := range absPath.FindAllString(c, -1) {
			parts := strings.Split(p, "/")
			for n := 2; n <= len(parts) && n <= 6; n++ {
				counts[strings.Join(parts[:n], "/")]++
				if n < len(parts) && parts[n] != "" {
					dir[strings.Join(parts[:n], "/")] = true
				}
			}
		}
	}
	best, bestN := "/app", 0
	keys := make([]string, 0, len(counts))
	for k, v := range counts {
		keys = append(keys, k)
		if v > bestN {
			bestN = v
		}
	}
	sort.Strings(keys) // the same root on every run
	for _, k := range keys {
		// The deepest directory that still gathers most mentions.
		if dir[k] && !under(k, made...) && float64(counts[k]) >= 0.6*float64(bestN) && (len(k) > len(best) || best == "/app") {
			best = k
		}
	}
	return best
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return truncate(l, 120)
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// scratchBase makes the directory the sessions are replayed in. It is not
// under a temporary directory (writes there are allowed anywhere, so the
// sessions' project roots and homes must not be): the working directory
// if it is not, else the first of the user's cache directory, the Go build
// cache's, the home and /var/lib that is not and can be written. It is
// removed when the replay ends.
func scratchBase() (string, error) {
	candidates := []string{"."}
	if d, err := os.UserCacheDir(); err == nil {
		candidates = append(candidates, d)
	}
	if out, err := exec.Command("go", "env", "GOCACHE").Output(); err == nil {
		if d := strings.TrimSpace(string(out)); filepath.IsAbs(d) {
			candidates = append(candidates, filepath.Dir(d))
		}
	}
	if d, err := os.UserHomeDir(); err == nil {
		candidates = append(candidates, d)
	}
	candidates = append(candidates, "/var/lib")
	for _, c := range candidates {
		abs, err := filepath.Abs(c)
		if err != nil || isTemporary(abs) {
			continue
		}
		d, err := os.MkdirTemp(abs, "guard-exec-replay-scratch-")
		if err != nil {
			continue
		}
		return d, nil
	}
	return "", fmt.Errorf("no directory outside the temporary ones to replay in (tried %s); run the replay from elsewhere", strings.Join(candidates, ", "))
}

// isTemporary reports whether d is under a temporary directory.
func isTemporary(d string) bool {
	return under(d, "/tmp", "/var/tmp", "/dev/shm") || under(d, strings.TrimRight(os.TempDir(), "/"))
}
