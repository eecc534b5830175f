// Command replay measures the default policy on real agent sessions: it
// judges every command of testdata/corpora/agent-sessions.jsonl with the
// built-in defaults, and with the configuration `guard-exec init` writes
// for a Python + JavaScript project, and reports per session how many
// commands a person would be asked about and how many were refused.
//
//	go run ./tools/replay [-sessions FILE] [-v]
//
// Each session's project root is inferred from its commands (the directory
// it cd's into or names most). SWE-agent's own pseudo-commands (edit,
// open, submit, …: functions of its tool bundle, not programs) are left
// out. "With session answers" assumes the person answers every question
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
	init := policy.StarterConfig("/project", func(f string) bool {
		return f == "pyproject.toml" || f == "package.json" || f == ".git"
	})
	fmt.Printf("%d sessions, %s\n\n", len(sessions), *path)
	for _, cfg := range []struct{ name, text string }{{"built-in defaults", ""}, {"guard-exec init for a Python + JavaScript project", init}} {
		st, err := replay(sessions, cfg.text, *verbose)
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

func replay(sessions []session, config string, verbose bool) (*stats, error) {
	st := &stats{topAsks: map[string]int{}}
	// Python code is read with this machine's python3 (nil without one:
	// it stays opaque). The sessions' projects are not here, so their
	// scripts and project modules cannot be read.
	var python judge.Request
	if _, err := exec.LookPath("python3"); err == nil {
		python.Python = &pycode.Analyser{Getenv: os.Getenv}
	}
	for _, s := range sessions {
		root := projectRoot(s.Commands)
		// What the guard protects, as cmd/guard-exec's load does: its
		// own configuration and the agent clients' files.
		home := "/home/user"
		ienv := install.Env{Home: home}
		env := &policy.Env{Home: home, Project: root, Temp: []string{"/tmp"},
			Protect: install.GuardFiles(ienv, filepath.Join(home, ".config", "guard-exec", "config.toml"),
				filepath.Join(root, ".guard-exec.toml"), state.Dir(func(k string) string { return map[string]string{"HOME": home}[k] })),
			ProtectAgent: install.AgentFiles(ienv, root)}
		src := policy.Sources{Env: env}
		if config != "" {
			f, err := policy.ParseFile("init.toml", []byte(config), policy.User)
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
		for _, c := range s.Commands {
			if f := strings.Fields(c); len(f) > 0 && sweAgent[f[0]] && strings.HasPrefix(s.Agent, "swe") {
				continue
			}
			st.commands++
			getenv := func(k string) string { return map[string]string{"HOME": "/home/user", "TMPDIR": "/tmp"}[k] }
			req := judge.Request{Source: c, Cwd: root, Getenv: getenv, Params: []string{"bash"}, Glob: func(string) []string { return nil },
				Python: python.Python}
			res := judge.Judge(base, req)
			switch res.D {
			case policy.Deny:
				denies++
				st.deniedCmds = append(st.deniedCmds, firstLine(c)+"  ("+res.Reason+")")
			case policy.Ask:
				asks++
				for _, p := range res.Refused() {
					name := "(unreadable)"
					if len(p.Argv) > 0 {
						name = p.Argv[0]
					}
					st.topAsks[name+": "+truncate(p.Reason, 70)]++
				}
				if verbose {
					fmt.Printf("  ask  %s\n", firstLine(c))
				}
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
				if judge.Judge(withMem, req).D != policy.Allow {
					asksLeft++
					for _, p := range res.Refused() {
						if rs, ok := policy.Remember(p.P, p.Verdict); ok {
							remembered = append(remembered, rs...)
						}
					}
				}
			}
		}
		st.sessions++
		st.asks = append(st.asks, asks)
		st.denies = append(st.denies, denies)
		st.remembered = append(st.remembered, asksLeft)
	}
	return st, nil
}

var cdAbs = regexp.MustCompile(`(?:^|[;&|]\s*)cd\s+(/[^\s;&|]+)`)
var absPath = regexp.MustCompile(`/(?:home|Users|app|root|workspace|testbed)(?:/[^\s'";&|)<>]*)?`)

// projectRoot guesses where a session ran: the directory it cd's into, or
// the longest directory most of its absolute paths share.
func projectRoot(cmds []string) string {
	counts := map[string]int{}
	for _, c := range cmds {
		for _, m := range cdAbs.FindAllStringSubmatch(c, -1) {
			counts[strings.TrimRight(m[1], "/")] += 3
		}
		for _, p := range absPath.FindAllString(c, -1) {
			parts := strings.Split(p, "/")
			for n := 2; n <= len(parts) && n <= 6; n++ {
				counts[strings.Join(parts[:n], "/")]++
			}
		}
	}
	best, bestN := "/app", 0
	for k, v := range counts {
		if v > bestN {
			bestN = v
		}
		_ = k
	}
	for k, v := range counts {
		// The deepest directory that still gathers most mentions.
		if float64(v) >= 0.6*float64(bestN) && (len(k) > len(best) || best == "/app") {
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
