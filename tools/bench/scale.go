package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

const minimalHook = `package main

import (
	"encoding/json"
	"io"
	"os"
)

// A hook that reads the PreToolUse JSON and answers allow: the floor any
// Go hook pays.
func main() {
	b, _ := io.ReadAll(os.Stdin)
	var in struct {
		ToolInput struct {
			Command string ` + "`json:\"command\"`" + `
		} ` + "`json:\"tool_input\"`" + `
	}
	json.Unmarshal(b, &in)
	os.Stdout.WriteString("{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"allow\"}}\n")
}
`

// timed runs one command and returns its wall time and peak memory.
type timed struct {
	argv  []string
	env   []string
	stdin string
}

func (t timed) run(dir string) (time.Duration, int64, error) {
	c := exec.Command(t.argv[0], t.argv[1:]...)
	c.Env, c.Dir = t.env, dir
	if t.stdin != "" {
		c.Stdin = strings.NewReader(t.stdin)
	}
	var stderr strings.Builder
	c.Stderr = &stderr
	start := time.Now()
	err := c.Run()
	d := time.Since(start)
	if err != nil {
		return 0, 0, fmt.Errorf("%s: %v: %s", strings.Join(t.argv, " "), err, stderr.String())
	}
	var rss int64
	if ru, ok := c.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rss = ru.Maxrss // KiB on Linux
	}
	return d, rss, nil
}

// sideBySide runs the variants interleaved n times and returns their
// median times and the largest peak memory of each. Each round starts one
// variant later (A B C, B C A, C A B …): what one program leaves in the
// caches, or takes from them, then falls on every other alike, where a
// fixed order would always give it to the same neighbour.
func sideBySide(dir string, n int, vs ...timed) ([]time.Duration, []int64, error) {
	times := make([][]time.Duration, len(vs))
	peak := make([]int64, len(vs))
	for i := 0; i < n; i++ {
		for k := range vs {
			j := (i + k) % len(vs)
			d, rss, err := vs[j].run(dir)
			if err != nil {
				return nil, nil, err
			}
			times[j] = append(times[j], d)
			peak[j] = max(peak[j], rss)
		}
	}
	med := make([]time.Duration, len(vs))
	for j := range vs {
		med[j] = median(times[j])
	}
	return med, peak, nil
}

// scaleBench runs the three pairs, or only the scripts' (scriptsOnly) or
// the hook's (hookOnly); old, if not empty, is an earlier build timed in
// the same interleave on those rows, so that a change's before and after
// are side by side.
func scaleBench(n int, scriptsOnly, hookOnly bool, old string) error {
	dir, err := os.MkdirTemp("", "guard-bench-scale-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	guard := filepath.Join(dir, "guard-exec")
	if out, err := exec.Command("./build", guard).CombinedOutput(); err != nil {
		return fmt.Errorf("building guard-exec with ./build (run from the repository root): %v\n%s", err, out)
	}
	base := append(os.Environ(), "XDG_STATE_HOME="+filepath.Join(dir, "state"), "XDG_CONFIG_HOME="+filepath.Join(dir, "config"),
		"GUARD_EXEC_SESSION=bench", "TMPDIR="+dir)

	if hookOnly {
		return hookBench(dir, n, guard, old, base)
	}
	if !scriptsOnly {
		if err := rulesBench(dir, guard, base, n); err != nil {
			return err
		}
	}
	if err := scriptsBench(dir, guard, old, base, n); err != nil {
		return err
	}
	if scriptsOnly {
		return nil
	}
	return hookBench(dir, n, guard, old, base)
}

func rulesBench(dir, guard string, base []string, n int) error {
	// 1. Rules: the same command under 10 and under 10,000 configured rules.
	configs := map[int]string{}
	for _, count := range []int{10, 10000} {
		var b strings.Builder
		for i := 0; i < count; i++ {
			switch i % 4 {
			case 0:
				fmt.Fprintf(&b, "[[rule]]\ndecision = \"allow\"\ncommand = \"tool%d build\"\n\n", i)
			case 1:
				fmt.Fprintf(&b, "[[rule]]\ndecision = \"deny\"\ncommand = \"tool%d deploy --prod\"\nwhy = \"releases go through the pipeline\"\n\n", i)
			case 2:
				fmt.Fprintf(&b, "[[rule]]\ndecision = \"ask\"\npath = \"area%d/**\"\naccess = \"write\"\n\n", i)
			default:
				fmt.Fprintf(&b, "[[rule]]\ndecision = \"allow\"\ncommand = \"git push origin feature-%d\"\n\n", i)
			}
		}
		p := filepath.Join(dir, fmt.Sprintf("rules%d.toml", count))
		os.WriteFile(p, []byte(b.String()), 0o644)
		configs[count] = p
	}
	cmd := "ls -la | grep x; git --version"
	med, _, err := sideBySide(dir, n,
		timed{argv: []string{guard, "-c", cmd}, env: append(append([]string(nil), base...), "GUARD_EXEC_CONFIG="+configs[10])},
		timed{argv: []string{guard, "-c", cmd}, env: append(append([]string(nil), base...), "GUARD_EXEC_CONFIG="+configs[10000])})
	if err != nil {
		return err
	}
	fmt.Printf("rules: %q with 10 rules %.3f ms, with 10,000 rules %.3f ms: ratio %.2f (target at most 1.5)\n",
		cmd, ms(med[0]), ms(med[1]), float64(med[1])/float64(med[0]))
	return nil
}

func scriptsBench(dir, guard, old string, base []string, n int) error {
	// 2. Scripts: judging (the real shell is /bin/true) against bash -n.
	// About one command per 60 bytes, as in CI scripts, so that 3 MB stays
	// under the guard's limit on parts (shellparse.MaxParts).
	line := "if [ -f \"$f\" ]; then grep -v x \"$f\" | sort -u > \"$TMPDIR/out\"; fi\n" +
		"echo \"step $i of the build: compiling the next module, then testing it\" >> \"$TMPDIR/log\"\n" +
		"export STAMP=\"$(date +%s)\"  # when the step started, for the summary at the end\n"
	cfg := filepath.Join(dir, "scripts.toml")
	os.WriteFile(cfg, []byte("[[rule]]\ndecision = \"allow\"\ncommand = \"date\"\n"), 0o644)
	senv := append(append([]string(nil), base...), "GUARD_EXEC_SHELL=/bin/true", "GUARD_EXEC_CONFIG="+cfg)
	for _, size := range []int{1 << 10, 64 << 10, 1 << 20, 3 << 20} {
		p := filepath.Join(dir, fmt.Sprintf("script-%d.sh", size))
		os.WriteFile(p, []byte(strings.Repeat(line, size/len(line)+1)[:size/len(line)*len(line)]), 0o644)
		// Small scripts cost milliseconds, as much start-up as judging:
		// their median needs as many runs as the other pairs.
		runs := n
		if size >= 1<<20 {
			runs = max(3, n/20)
		}
		vs := []timed{{argv: []string{"/bin/bash", "-n", p}, env: base}, {argv: []string{guard, p}, env: senv}}
		if old != "" {
			vs = append(vs, timed{argv: []string{old, p}, env: senv})
		}
		med, peak, err := sideBySide(dir, runs, vs...)
		if err != nil {
			return err
		}
		fmt.Printf("script of %7d bytes: bash -n %8.2f ms, guard-exec %8.2f ms: ratio %5.2f (target at most 3); guard-exec peak memory %d MiB\n",
			size, ms(med[0]), ms(med[1]), float64(med[1])/float64(med[0]), peak[1]>>10)
		if old != "" {
			fmt.Printf("   the earlier build %s: %8.2f ms: ratio %5.2f; peak memory %d MiB\n",
				old, ms(med[2]), float64(med[2])/float64(med[0]), peak[2]>>10)
		}
	}
	return nil
}

// hookBench times the hook against a minimal Go hook, and against an
// earlier build of the guard if baseGuard is not empty.
func hookBench(dir string, n int, guard, baseGuard string, base []string) error {
	src := filepath.Join(dir, "minhook", "main.go")
	os.MkdirAll(filepath.Dir(src), 0o755)
	os.WriteFile(src, []byte(minimalHook), 0o644)
	os.WriteFile(filepath.Join(dir, "minhook", "go.mod"), []byte("module minhook\ngo 1.21\n"), 0o644)
	hook := filepath.Join(dir, "minimal-hook")
	b := exec.Command("go", "build", "-o", hook, ".")
	b.Dir = filepath.Dir(src)
	if out, err := b.CombinedOutput(); err != nil {
		return fmt.Errorf("building the minimal hook: %v\n%s", err, out)
	}
	// The same minimal hook with the guard's packages linked in, built as
	// ./build builds the guard: what their initialisation and the larger
	// binary cost before any work.
	linked := filepath.Join(dir, "linked-hook")
	if err := buildLinkedHook(linked); err != nil {
		return err
	}
	in := `{"session_id":"bench","cwd":"` + dir + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls -la | grep x"}}`
	vs := []timed{
		{argv: []string{hook}, env: base, stdin: in},
		{argv: []string{linked}, env: base, stdin: in},
		{argv: []string{guard, "hook", "claude-code"}, env: base, stdin: in},
	}
	if baseGuard != "" {
		vs = append(vs, timed{argv: []string{baseGuard, "hook", "claude-code"}, env: base, stdin: in})
	}
	med, _, err := sideBySide(dir, n, vs...)
	if err != nil {
		return err
	}
	fmt.Printf("hook: minimal Go hook %.3f ms, the same with the guard's packages linked %.3f ms (%.2f), guard-exec hook claude-code %.3f ms: ratio %.2f (target 1.3)\n",
		ms(med[0]), ms(med[1]), float64(med[1])/float64(med[0]), ms(med[2]), float64(med[2])/float64(med[0]))
	if baseGuard != "" {
		fmt.Printf("hook: %s %.3f ms: ratio %.2f\n", baseGuard, ms(med[3]), float64(med[3])/float64(med[0]))
	}
	return nil
}

// buildLinkedHook builds the minimal hook with every package the guard's
// hook path uses linked in, into out. It is built in a scratch directory
// inside the module (the packages are the module's own) that is removed.
func buildLinkedHook(out string) error {
	src, err := os.MkdirTemp("tools/bench", "linked-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(src)
	var imports strings.Builder
	for _, pkg := range []string{"judge", "policy", "shellparse", "argspec", "install", "state", "audit", "prompt", "bashcli"} {
		fmt.Fprintf(&imports, "\t_ \"github.com/guard-exec/guard-exec/%s\"\n", pkg)
	}
	text := strings.Replace(minimalHook, "\t\"os\"\n", "\t\"os\"\n\n"+imports.String(), 1)
	if err := os.WriteFile(filepath.Join(src, "main.go"), []byte(text), 0o644); err != nil {
		return err
	}
	b := exec.Command("go", "build", "-o", out, "./"+src)
	b.Env = append(os.Environ(), "CGO_ENABLED=0")
	if o, err := b.CombinedOutput(); err != nil {
		return fmt.Errorf("building the hook with the guard's packages linked: %v\n%s", err, o)
	}
	return nil
}
