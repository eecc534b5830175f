//go:build linux

package difftest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// Case is one line of testdata/corpus/*.jsonl.
//
// expect is the verdict of the built-in default policy (no user config, cwd a
// git repository, HOME a temporary directory): "allow", "ask", "deny", or
// "refuse" (must not be allowed: ask or deny).
type Case struct {
	Cmd    string `json:"cmd"`
	Expect string `json:"expect"`
	Class  string `json:"class"`
	Note   string `json:"note,omitempty"`

	File string `json:"-"`
	Line int    `json:"-"`
}

func (c Case) ID() string { return fmt.Sprintf("%s:%d", c.File, c.Line) }

// minCases is the size the issues ask for (issue 2: 150, issue 3: 400).
const minCases = 450

// unparsable classes are exempt from the `bash -n` check.
var unparsable = map[string]bool{"parse-error": true, "differential": true}

func loadCorpus(dir string) ([]Case, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no corpus files in %s", dir)
	}
	sort.Strings(files)
	var out []Case
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		lines := strings.Split(string(data), "\n")
		if len(lines) > 0 && lines[len(lines)-1] == "" {
			lines = lines[:len(lines)-1]
		}
		for i, line := range lines {
			dec := json.NewDecoder(strings.NewReader(line))
			dec.DisallowUnknownFields()
			var c Case
			if err := dec.Decode(&c); err != nil {
				return nil, fmt.Errorf("%s:%d: %v", filepath.Base(f), i+1, err)
			}
			if dec.More() {
				return nil, fmt.Errorf("%s:%d: more than one JSON value on the line", filepath.Base(f), i+1)
			}
			c.File, c.Line = filepath.Base(f), i+1
			out = append(out, c)
		}
	}
	return out, nil
}

var classRE = regexp.MustCompile(`^[a-z][a-z0-9-]*$`)

// Lint rules that keep the corpus harmless to execute: every case is run under
// real bash whose PATH holds only recording stubs, so nothing may reach a real
// program (or a real device, or a real process) behind the stubs' back.
var unsafeRules = []struct {
	re  *regexp.Regexp
	why string
}{
	{regexp.MustCompile(`\bPATH\s*\+?=|\b(export|declare|typeset|local|readonly|read|unset|mapfile|readarray)\b[^;&|\n]*\bPATH\b|printf\s+-v\s*PATH\b`), "changes PATH (the stubs would be bypassed)"},
	{regexp.MustCompile(`(^|[^A-Za-z0-9_.~/-])/(usr/(local/)?)?s?bin/[A-Za-z0-9_.+\[-]`), "names a real program by absolute path"},
	{regexp.MustCompile(`\bhash\b[^;&|\n]*\s-p`), "hash -p binds a name to a real program"},
	{regexp.MustCompile(`(^|[^A-Za-z0-9_.-])enable\s`), "enable loads or toggles builtins"},
	{regexp.MustCompile(`/dev/(tcp|udp)/`), "opens network connections"},
	{regexp.MustCompile(`/dev/(vd|xvd|hd|mmcblk|loop|dm-|mapper|zram|md|sr)`), "names a block device that may really exist (use /dev/sda or /dev/nvme0n1)"},
	{regexp.MustCompile(`\b(cd|pushd)\s+["']?/(usr|s?bin|lib|lib64|opt|snap)\b`), "changes into a directory of real programs"},
	{regexp.MustCompile(`/etc/(profile|bash\.bashrc|environment)|/etc/profile\.d`), "system startup files reset PATH"},
	{regexp.MustCompile(`>\s*["']?/(proc|sys)/`), "writes kernel interfaces"},
	{regexp.MustCompile(`/proc/sysrq|/dev/(mem|kmem|port)\b`), "touches kernel interfaces"},
	{regexp.MustCompile(`/tmp/([^g ]|g[^x]|gx[^-]|gx-[^d])`), "paths in the shared /tmp must be named /tmp/gx-difftest-*"},
}

var commandPRE = regexp.MustCompile(`\bcommand\s+-p\s+(\S+)`)

// command -p searches a default PATH of real programs: only harmless ones.
var commandPAllowed = map[string]bool{"ls": true, "cat": true, "wc": true, "head": true, "true": true, "date": true}

var killRE = regexp.MustCompile(`(^|[;&|(){}\s!])kill\s+([^;&|\n)}]*)`)

// checkKill: the kill builtin is real; its targets must be job specs or PIDs
// beyond the kernel's maximum (4194304).
func checkKill(cmd string) string {
	for _, m := range killRE.FindAllStringSubmatch(cmd, -1) {
		words := strings.Fields(m[2])
		for i := 0; i < len(words); i++ {
			w := strings.Trim(words[i], `"'`)
			switch {
			case w == "--":
				continue
			case w == "-s" || w == "-n":
				i++
				continue
			case w == "-l" || w == "-L":
				return ""
			case strings.HasPrefix(w, "-") && i == 0 && !isNum(w[1:]):
				continue // -KILL, -SIGTERM
			case strings.HasPrefix(w, "-") && i == 0 && isNum(w[1:]) && len(words) > 1:
				continue // -9 as a signal number
			case strings.HasPrefix(w, "%"):
				continue
			case isNum(strings.TrimPrefix(w, "-")):
				if n, _ := strconv.Atoi(strings.TrimPrefix(w, "-")); n <= 4194304 {
					return fmt.Sprintf("kill target %q could be a real process (use a PID above 4194304 or a job spec)", w)
				}
			default:
				return fmt.Sprintf("kill target %q is not a literal job spec or impossible PID", w)
			}
		}
	}
	return ""
}

func isNum(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// nondeterministic output would make allowed cases differ between two runs.
var nondetRE = regexp.MustCompile(`\$\$|\$\{?(RANDOM|SRANDOM|BASHPID|PPID|SECONDS|EPOCHSECONDS|EPOCHREALTIME|0)\b|\bfind\s+/`)

func lintCase(c Case) []string {
	var out []string
	for _, r := range unsafeRules {
		if r.re.MatchString(c.Cmd) {
			out = append(out, r.why)
		}
	}
	for _, m := range commandPRE.FindAllStringSubmatch(c.Cmd, -1) {
		if !commandPAllowed[m[1]] {
			out = append(out, fmt.Sprintf("command -p %s would run the real %s", m[1], m[1]))
		}
	}
	if why := checkKill(c.Cmd); why != "" {
		out = append(out, why)
	}
	if c.Expect == "allow" && nondetRE.MatchString(c.Cmd) {
		out = append(out, "an allowed case must give the same output twice (no $$, $RANDOM, $0, find /, ...)")
	}
	return out
}

func TestCorpusWellFormed(t *testing.T) {
	if H.corpusErr != nil {
		t.Fatalf("loading the corpus: %v", H.corpusErr)
	}
	if len(H.cases) < minCases {
		t.Errorf("corpus has %d cases, want at least %d", len(H.cases), minCases)
	}
	seen := map[string]string{}
	byClass := map[string]map[string]int{}
	for _, c := range H.cases {
		switch c.Expect {
		case "allow", "ask", "deny", "refuse":
		default:
			t.Errorf("%s: expect %q is not allow, ask, deny or refuse", c.ID(), c.Expect)
		}
		if !classRE.MatchString(c.Class) {
			t.Errorf("%s: class %q must be lower-case words joined by '-'", c.ID(), c.Class)
		}
		if strings.TrimSpace(c.Cmd) == "" {
			t.Errorf("%s: empty cmd", c.ID())
		}
		if prev, ok := seen[c.Cmd]; ok {
			t.Errorf("%s: duplicate of %s: %q", c.ID(), prev, c.Cmd)
		}
		seen[c.Cmd] = c.ID()
		for _, why := range lintCase(c) {
			t.Errorf("%s: unsafe to execute: %s\n\tcmd: %q", c.ID(), why, c.Cmd)
		}
		if byClass[c.Class] == nil {
			byClass[c.Class] = map[string]int{}
		}
		byClass[c.Class][c.Expect]++
	}
	var classes []string
	for k := range byClass {
		classes = append(classes, k)
	}
	sort.Strings(classes)
	var summary strings.Builder
	fmt.Fprintf(&summary, "%d cases in %d classes:\n", len(H.cases), len(classes))
	for _, k := range classes {
		m := byClass[k]
		fmt.Fprintf(&summary, "  %-18s %3d  (allow %d, ask %d, deny %d, refuse %d)\n", k,
			m["allow"]+m["ask"]+m["deny"]+m["refuse"], m["allow"], m["ask"], m["deny"], m["refuse"])
	}
	t.Log(summary.String())
}

// TestCorpusBashSyntax: every case is valid bash (`bash -n`), except the
// parse-error and parser-differential classes.
func TestCorpusBashSyntax(t *testing.T) {
	if H.corpusErr != nil {
		t.Skip("corpus did not load")
	}
	dir := filepath.Join(H.root, "syntax")
	if err := H.resetCase(dir); err != nil {
		t.Fatal(err)
	}
	for _, c := range H.cases {
		if unparsable[c.Class] {
			continue
		}
		cmd := exec.Command(realBash, "-n", "-c", c.Cmd)
		cmd.Dir = proj(dir)
		cmd.Env = []string{"PATH=/nonexistent", "LANG=C", "HOME=" + home(dir)}
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Credential: H.cred}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil || stderr.Len() > 0 {
			t.Errorf("%s [%s]: not valid bash (bash -n: %v %s)\n\tcmd: %q", c.ID(), c.Class, err, strings.TrimSpace(stderr.String()), c.Cmd)
		}
	}
}

// TestCorpusDevices: a block device the corpus names must not be writable by
// the user the cases run as (TestDifferential refuses to run otherwise).
func TestCorpusDevices(t *testing.T) {
	if err := unsafeDevices(H.cases, H.cred != nil); err != nil {
		t.Error(err)
	}
}
