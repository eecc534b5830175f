// Command bench measures what guard-exec adds to every command: it times
// plain `bash -c CMD`, a Go program that does nothing but exec bash, and
// `guard-exec -c CMD`, interleaved (A B C A B C …) so that the machine's
// noise falls on all three alike, and prints medians and ratios.
//
//	go run ./tools/bench [-n 500] [-cmd 'ls -la | grep foo']
//	go run ./tools/bench -scale [-n 200] [-scripts | -hook] [-old path/to/earlier/guard-exec]
//
// -scale measures how the cost grows, each side by side in one run: a
// configuration of 10,000 rules against one of 10, judging scripts from
// 1 KB to 3 MB against bash -n on the same script (with the guard's peak
// memory), and the Claude Code hook against a minimal Go hook that reads
// the JSON and answers. -scripts or -hook runs only those rows; -old adds
// an earlier build of the guard to them, interleaved with the others, so
// that a change is measured against what it changed in one run.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

const execOnly = `package main

import (
	"os"
	"syscall"
)

func main() {
	syscall.Exec("/bin/bash", append([]string{"bash"}, os.Args[1:]...), os.Environ())
}
`

func main() {
	n := flag.Int("n", 400, "runs of each")
	cmd := flag.String("cmd", "true", "the command to run")
	script := flag.Int("script", 2000, "also time judging a generated script of this many lines (0: skip)")
	scale := flag.Bool("scale", false, "measure how the cost grows: rules, script size, the hook")
	scripts := flag.Bool("scripts", false, "with -scale: only the script rows")
	hookOnly := flag.Bool("hook", false, "with -scale: only the hook's rows")
	old := flag.String("old", "", "with -scale: also time this guard-exec binary (an earlier build) on the scripts and the hook, in the same interleave")
	flag.Parse()
	if *scale {
		if err := scaleBench(*n, *scripts, *hookOnly, *old); err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*n, *cmd, *script); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func run(n int, cmd string, lines int) error {
	dir, err := os.MkdirTemp("", "guard-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	guard := filepath.Join(dir, "guard-exec")
	// Built as the README builds it.
	if out, err := exec.Command("./build", guard).CombinedOutput(); err != nil {
		return fmt.Errorf("building guard-exec with ./build (run from the repository root): %v\n%s", err, out)
	}
	src := filepath.Join(dir, "execonly", "main.go")
	os.MkdirAll(filepath.Dir(src), 0o755)
	os.WriteFile(src, []byte(execOnly), 0o644)
	os.WriteFile(filepath.Join(dir, "execonly", "go.mod"), []byte("module execonly\ngo 1.21\n"), 0o644)
	wrapper := filepath.Join(dir, "exec-only")
	b := exec.Command("go", "build", "-o", wrapper, ".")
	b.Dir = filepath.Dir(src)
	if out, err := b.CombinedOutput(); err != nil {
		return fmt.Errorf("building the exec-only wrapper: %v\n%s", err, out)
	}
	env := append(os.Environ(), "XDG_STATE_HOME="+filepath.Join(dir, "state"), "XDG_CONFIG_HOME="+filepath.Join(dir, "config"), "GUARD_EXEC_SESSION=bench")
	// A configuration like the one guard-exec init writes for a Go and
	// Node project, with a few rules of the user's own.
	initConfig := filepath.Join(dir, "init.toml")
	os.WriteFile(initConfig, []byte(`presets = ["git", "go", "node"]

[[rule]]
decision = "deny"
command = "git push --force"
why = "rewrites shared history"

[[rule]]
decision = "allow"
command = "docker compose up"

[[rule]]
decision = "deny"
path = "test/**"
access = "write"
why = "tests are the acceptance criterion"
`), 0o644)
	withConfig := append(append([]string(nil), env...), "GUARD_EXEC_CONFIG="+initConfig)
	variants := []struct {
		name string
		argv []string
		env  []string
	}{
		{"bash -c", []string{"/bin/bash", "-c", cmd}, env},
		{"exec-only Go wrapper", []string{wrapper, "-c", cmd}, env},
		{"guard-exec -c", []string{guard, "-c", cmd}, env},
		{"  with an init config", []string{guard, "-c", cmd}, withConfig},
	}
	times := make([][]time.Duration, len(variants))
	for i := 0; i < n; i++ {
		for j, v := range variants {
			c := exec.Command(v.argv[0], v.argv[1:]...)
			c.Env, c.Dir = v.env, dir
			start := time.Now()
			if err := c.Run(); err != nil {
				return fmt.Errorf("%s: %v", v.name, err)
			}
			times[j] = append(times[j], time.Since(start))
		}
	}
	med := make([]time.Duration, len(variants))
	fmt.Printf("command: %q, %d interleaved runs each\n", cmd, n)
	for j, v := range variants {
		med[j] = median(times[j])
		fmt.Printf("  %-22s median %8.3f ms\n", v.name, ms(med[j]))
	}
	fmt.Printf("guard-exec adds %.3f ms to bash -c (ratio %.2f); the exec-only floor adds %.3f ms (ratio %.2f)\n",
		ms(med[2]-med[0]), float64(med[2])/float64(med[0]), ms(med[1]-med[0]), float64(med[1])/float64(med[0]))
	fmt.Printf("guard-exec over the exec-only floor: %.3f ms (ratio %.2f)\n", ms(med[2]-med[1]), float64(med[2])/float64(med[1]))
	fmt.Printf("with the init-style config: %.3f ms over the floor (ratio %.2f), %.3f ms over bash -c\n", ms(med[3]-med[1]), float64(med[3])/float64(med[1]), ms(med[3]-med[0]))
	if lines > 0 {
		return scriptBench(guard, dir, env, lines)
	}
	return nil
}

// scriptBench times the guarded shell judging a generated CI-like script
// (guard-exec script.sh), and check --file on it, against a one-liner
// (guard-exec -c true), so that process start cancels out. The "real shell" is /bin/true: bash never
// runs the script, only the judging is timed. A config allows the two
// programs the script uses that the defaults would ask about, so that the
// script is allowed, as a CI job's would be.
func scriptBench(guard, dir string, env []string, lines int) error {
	path := filepath.Join(dir, "script.sh")
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	for i := 0; i < lines; i++ {
		switch i % 8 {
		case 0:
			fmt.Fprintf(f, "echo \"step %d: $(date +%%s)\" >> \"$TMPDIR/log\"\n", i)
		case 1:
			fmt.Fprintf(f, "if [ -f file%d ]; then cat file%d | grep -v x | sort -u > out%d; fi\n", i, i, i)
		case 2:
			fmt.Fprintf(f, "for f in src/*.go; do gofmt -l \"$f\"; done\n")
		case 3:
			fmt.Fprintf(f, "X%d=value%d; export X%d\n", i, i, i)
		case 4:
			fmt.Fprintf(f, "git log --oneline -n 5 | head -3\n")
		case 5:
			fmt.Fprintf(f, "mkdir -p build/%d && cp README.md build/%d/\n", i, i)
		case 6:
			fmt.Fprintf(f, "case \"$X%d\" in a*) echo a;; *) echo other;; esac\n", i-3)
		default:
			fmt.Fprintf(f, "ls -la | wc -l\n")
		}
	}
	f.Close()
	cfg := filepath.Join(dir, "config", "guard-exec", "config.toml")
	os.MkdirAll(filepath.Dir(cfg), 0o755)
	os.WriteFile(cfg, []byte("[[rule]]\ndecision = \"allow\"\ncommand = \"gofmt\"\n\n[[rule]]\ndecision = \"allow\"\ncommand = \"date\"\n"), 0o644)
	env = append(append([]string(nil), env...), "GUARD_EXEC_SHELL=/bin/true", "TMPDIR="+dir)
	runs := [][]string{{"-c", "true"}, {path}, {"check", "--file", path}, {"check", "--json", "--file", path}}
	times := make([][]time.Duration, len(runs))
	for i := 0; i < 30; i++ {
		for j, args := range runs {
			c := exec.Command(guard, args...)
			c.Env, c.Dir = env, dir
			var stderr strings.Builder
			c.Stderr = &stderr
			start := time.Now()
			err := c.Run()
			d := time.Since(start)
			if err != nil {
				return fmt.Errorf("guard-exec %s was not allowed (%v): %s", strings.Join(args, " "), err, stderr.String())
			}
			times[j] = append(times[j], d)
		}
	}
	one := median(times[0])
	fmt.Printf("the guarded shell judges a %d-line script in %.2f ms more than a one-liner (medians of 30)\n", lines, ms(median(times[1])-one))
	fmt.Printf("check --file: %.2f ms more than a one-liner; check --json --file: %.2f ms\n", ms(median(times[2])-one), ms(median(times[3])-one))
	return nil
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
