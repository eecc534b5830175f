//go:build linux

// Package difftest is the differential test of guard-exec (issue 2 §7, issue 3 §5).
//
// Every case of testdata/corpus/*.jsonl (format in its README.md) is run
// three times in a fresh project (a git repository) with its own HOME and
// TMPDIR, the built-in default policy (no user config), no controlling
// terminal, stdin /dev/null, and a PATH that holds nothing but recording stubs
// (stubs_test.go):
//
//	C: guard-exec check --json -- CMD   (the verdict)
//	A: bash -c CMD                       (only when C allows and the case expects allow)
//	B: guard-exec -c CMD
//
// and the test asserts:
//
//	(a) C's decision is the case's expectation ("refuse" = ask or deny);
//	(b) when C allows: B's stdout, stderr, exit status, stub records and file
//	    effects are those of A;
//	(c) when C does not allow: B exits 3, prints nothing on stdout, says on
//	    stderr what it refused, no stub ran and no file changed;
//	(d) when C allows: every program bash ran in A is among the commands C
//	    judged ("bash ran X but the guard never judged it").
//
// Cases whose expectation is not allow are never run under plain bash, and
// every run happens as an unprivileged user (nobody, when the test runs as
// root) with a process limit, so a wrong verdict cannot do harm beyond the
// temporary directories.
//
// The case directories live outside every temporary directory (HOME must not
// count as one): $XDG_RUNTIME_DIR, /run for root, else the user cache
// directory, or $GUARD_DIFFTEST_ROOT. Cases run 4×GOMAXPROCS at a time unless
// -test.parallel is given.
//
// Run it with `go test ./difftest/`; `-difftest.run REGEXP` selects cases by
// "file:line class cmd"; `-difftest.keep` keeps the directories;
// GUARD_EXEC_BIN=/path/to/guard-exec tests a prebuilt binary instead of
// building ./cmd/guard-exec.
package difftest

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

var (
	flagRun     = flag.String("difftest.run", "", "only run corpus cases whose \"file:line class cmd\" matches this regexp")
	flagTimeout = flag.Duration("difftest.timeout", 10*time.Second, "timeout of each process run")
	flagKeep    = flag.Bool("difftest.keep", false, "keep the temporary directory")
	flagCorpus  = flag.String("difftest.corpus", "", "corpus directory (default ../testdata/corpus)")
)

// sharedTmpRE: the only names cases may write to in the shared /tmp (each case
// its own); they are removed before every run and at the end.
var sharedTmpRE = regexp.MustCompile(`/tmp/gx-difftest-[A-Za-z0-9._-]+`)

// refusalStatus is the guard's documented exit status for a refusal.
const refusalStatus = 3

func TestMain(m *testing.M) {
	flag.Parse()
	// The runs are mostly process start-up and waiting: more of them at once
	// than there are CPUs keeps the whole corpus well under a minute.
	parallelSet := false
	flag.Visit(func(f *flag.Flag) {
		if f.Name == "test.parallel" {
			parallelSet = true
		}
	})
	if !parallelSet {
		flag.Set("test.parallel", strconv.Itoa(4*runtime.GOMAXPROCS(0)))
	}
	if err := H.setup(); err != nil {
		H.setupErr = err
	}
	code := m.Run()
	if H.setupErr == nil {
		if data, err := os.ReadFile(H.lost); err == nil && len(data) > 0 {
			recs, _ := parseRecords(data)
			fmt.Fprintf(os.Stderr, "FAIL: %d stub invocation(s) found neither $STUB_LOG nor fd %d, so some case's records are incomplete: %v\n", len(recs), logFD, recs)
			code = 1
		}
	}
	H.teardown()
	if ms, _ := filepath.Glob("/tmp/gx-difftest-*"); len(ms) > 0 {
		for _, m := range ms {
			os.RemoveAll(m)
		}
	}
	os.Exit(code)
}

func requireSetup(t *testing.T) {
	t.Helper()
	if H.setupErr != nil {
		t.Fatalf("difftest setup: %v", H.setupErr)
	}
}

// verdict is the part of `guard-exec check --json` the test relies on.
type verdict struct {
	Decision   string            `json:"decision"`
	Reason     string            `json:"reason"`
	ParseError string            `json:"parse_error"`
	Commands   []json.RawMessage `json:"commands"`

	argvs [][]string // every argv found in commands, including wrapper layers
	names []string   // program names of the commands that were not allowed
}

func parseVerdict(out []byte) (*verdict, error) {
	dec := json.NewDecoder(bytes.NewReader(out))
	var v verdict
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("stdout is not a JSON object: %v", err)
	}
	switch v.Decision {
	case "allow", "ask", "deny":
	default:
		return nil, fmt.Errorf("decision %q is not allow, ask or deny", v.Decision)
	}
	for _, raw := range v.Commands {
		var c any
		if err := json.Unmarshal(raw, &c); err != nil {
			return nil, fmt.Errorf("commands: %v", err)
		}
		collectArgvs(c, &v.argvs)
		if m, ok := c.(map[string]any); ok {
			if d, _ := m["decision"].(string); d != "allow" {
				if argv := stringList(m["argv"]); len(argv) > 0 {
					v.names = append(v.names, filepath.Base(argv[0]))
				}
				if r, _ := m["reason"].(string); r != "" {
					v.names = append(v.names, r)
				}
			}
		}
	}
	return &v, nil
}

func stringList(x any) []string {
	l, ok := x.([]any)
	if !ok || len(l) == 0 {
		return nil
	}
	out := make([]string, 0, len(l))
	for _, e := range l {
		s, ok := e.(string)
		if !ok {
			return nil
		}
		out = append(out, s)
	}
	return out
}

// collectArgvs finds, at any depth of a command object, every list of strings
// held by a key whose name contains "argv" (argv, raw_argv, the argv of each
// wrapper layer, ...). Other lists (cwd, effects, via) are not commands.
func collectArgvs(x any, out *[][]string) {
	switch x := x.(type) {
	case []any:
		for _, e := range x {
			collectArgvs(e, out)
		}
	case map[string]any:
		ks := make([]string, 0, len(x))
		for k := range x {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		for _, k := range ks {
			if l := stringList(x[k]); l != nil {
				if strings.Contains(strings.ToLower(k), "argv") {
					*out = append(*out, l)
				}
				continue
			}
			collectArgvs(x[k], out)
		}
	}
}

// dynamicWord: how a guard may show a word whose value is only known at run time.
var dynamicWord = regexp.MustCompile("[$`*?\\[<>{~]|…|^$")

// spawners run commands whose arguments come from data (stdin, file names):
// what they run can only be matched by program name.
var spawners = map[string]bool{"xargs": true, "find": true, "parallel": true}

// judged reports whether a program bash ran is among the commands the guard judged.
func judged(argvs [][]string, r record) bool {
	for _, argv := range argvs {
		if filepath.Base(argv[0]) != r.Name {
			continue
		}
		if spawners[r.Parent] {
			return true
		}
		words := argv[1:]
		if equalStrings(words, r.Args) {
			return true
		}
		// A dynamic word stands for any number of arguments: the literal words
		// before the first dynamic one must match.
		for i, w := range words {
			if dynamicWord.MatchString(w) {
				if i <= len(r.Args) && equalStrings(words[:i], r.Args[:i]) {
					return true
				}
				break
			}
		}
	}
	return false
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// normStderr makes bash's own "NAME: line N:" message prefix independent of the
// argv[0] bash was given (the guard may pass its own path, "bash" or /bin/bash).
func normStderr(b []byte, guard string) []byte {
	lines := strings.SplitAfter(string(b), "\n")
	for i, l := range lines {
		for _, p := range []string{guard + ": ", "/usr/bin/bash: ", "/bin/bash: ", "guard-exec: line ", "bash: "} {
			if strings.HasPrefix(l, p) {
				if p == "guard-exec: line " {
					lines[i] = "bash: line " + l[len(p):]
				} else {
					lines[i] = "bash: " + l[len(p):]
				}
				break
			}
		}
	}
	return []byte(strings.Join(lines, ""))
}

func sortedKeys(rs []record) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.key()
	}
	sort.Strings(out)
	return out
}

func sortStrings(s []string) { sort.Strings(s) }

func describeRecords(rs []record) string {
	if len(rs) == 0 {
		return "(none)"
	}
	var b strings.Builder
	for _, r := range rs {
		fmt.Fprintf(&b, "\n\t\t%s   [parent %s]", r, r.Parent)
	}
	return b.String()
}

func clip(b []byte) string {
	const max = 1500
	s := string(b)
	if len(s) > max {
		s = s[:max] + "…[cut]"
	}
	return fmt.Sprintf("%q", s)
}

func TestDifferential(t *testing.T) {
	requireSetup(t)
	if H.corpusErr != nil {
		t.Fatalf("loading the corpus: %v", H.corpusErr)
	}
	if err := unsafeDevices(H.cases, H.cred != nil); err != nil {
		t.Fatal(err)
	}
	if H.guardErr != nil {
		t.Fatalf("no guard to test: %v", H.guardErr)
	}
	var filter *regexp.Regexp
	if *flagRun != "" {
		var err error
		if filter, err = regexp.Compile(*flagRun); err != nil {
			t.Fatalf("-difftest.run: %v", err)
		}
	}
	for _, c := range H.cases {
		if filter != nil && !filter.MatchString(c.ID()+" "+c.Class+" "+c.Cmd) {
			continue
		}
		c := c
		t.Run(c.ID(), func(t *testing.T) {
			t.Parallel()
			runCase(t, c)
		})
	}
}

func runCase(t *testing.T, c Case) {
	dir := filepath.Join(H.root, "cases", strings.NewReplacer(".jsonl", "", ":", "-").Replace(c.ID()))
	head := fmt.Sprintf("case %s [%s] expect %s\n\tcmd:  %q", c.ID(), c.Class, c.Expect, c.Cmd)
	if c.Note != "" {
		head += "\n\tnote: " + c.Note
	}
	fail := func(format string, args ...any) {
		t.Helper()
		t.Errorf("%s\n\t%s", head, fmt.Sprintf(format, args...))
	}
	reset := func() {
		t.Helper()
		if err := H.resetCase(dir); err != nil {
			t.Fatalf("%s\n\tpreparing %s: %v", head, dir, err)
		}
		for _, p := range sharedTmpRE.FindAllString(c.Cmd, -1) {
			os.RemoveAll(p)
		}
	}
	timeout := *flagTimeout

	// C: the verdict.
	reset()
	rc := H.run(dir, H.guard, H.guard, []string{"check", "--json", "--", c.Cmd}, timeout)
	v, err := parseVerdict(rc.stdout)
	if rc.startErr != nil || rc.timedOut || err != nil {
		fail("check --json failed (%s): %v\n\tstdout: %s\n\tstderr: %s", rc.status(), err, clip(rc.stdout), clip(rc.stderr))
		return
	}
	verdictLine := fmt.Sprintf("check says %s: %s", v.Decision, v.Reason)
	if v.ParseError != "" {
		verdictLine += " (parse_error: " + v.ParseError + ")"
	}

	// (a) the decision.
	if want := c.Expect; !(v.Decision == want || want == "refuse" && v.Decision != "allow") {
		fail("(a) decision %q, want %q\n\t%s\n\tcommands: %s", v.Decision, want, verdictLine, clip(bytes.Join(rawList(v.Commands), []byte(", "))))
	}
	if unparsable[c.Class] && v.ParseError == "" {
		fail("(a) no parse_error for input that cannot be read reliably\n\t%s", verdictLine)
	}

	if v.Decision == "allow" {
		if c.Expect != "allow" {
			// Never execute a case that must not be allowed under plain bash.
			return
		}
		reset()
		ra := H.run(dir, realBash, realBash, []string{"-c", c.Cmd}, timeout)
		snapA, errA := snapshot(dir)
		reset()
		rb := H.run(dir, H.guard, H.guard, []string{"-c", c.Cmd}, timeout)
		snapB, errB := snapshot(dir)
		compareAllowed(fail, ra, rb, snapA, snapB, errA, errB)

		// (d) every program bash ran was judged.
		for _, r := range ra.records {
			if !judged(v.argvs, r) {
				fail("(d) bash ran %s but the guard never judged it\n\tjudged: %v", r, v.argvs)
			}
		}
		return
	}

	// (c) a refusal runs nothing.
	reset()
	rb := H.run(dir, H.guard, H.guard, []string{"-c", c.Cmd}, timeout)
	snapB, errB := snapshot(dir)
	if rb.startErr != nil || rb.timedOut || rb.state == nil || rb.exitCode() != refusalStatus {
		fail("(c) %s, but guard-exec -c ended with %s, want exit %d\n\tstdout: %s\n\tstderr: %s", verdictLine, rb.status(), refusalStatus, clip(rb.stdout), clip(rb.stderr))
	}
	if len(rb.stdout) > 0 {
		fail("(c) the refusing guard wrote to stdout: %s", clip(rb.stdout))
	}
	if rb.logErr != nil || len(rb.records) > 0 {
		fail("(c) %s, yet under guard-exec -c these programs ran: %s %v", verdictLine, describeRecords(rb.records), rb.logErr)
	}
	if errB != nil {
		fail("(c) snapshot: %v", errB)
	} else if d := diffSnapshots(H.pristine, snapB, "nothing", "guard-exec -c"); len(d) > 0 {
		fail("(c) %s, yet files changed under guard-exec -c:\n\t\t%s", verdictLine, strings.Join(d, "\n\t\t"))
	}
	msg := string(bytes.TrimSpace(rb.stderr))
	if msg == "" {
		fail("(c) the refusal says nothing on stderr")
	} else if !mentionsRefusal(msg, v) {
		fail("(c) the refusal message names neither guard-exec, the reason, nor a refused command: %s", clip(rb.stderr))
	}
	if rb.stragglers {
		fail("(c) processes of the refused run were still alive after %v", timeout)
	}
}

func mentionsRefusal(msg string, v *verdict) bool {
	cands := append([]string{"guard-exec", v.Reason}, v.names...)
	for _, s := range cands {
		if s = strings.TrimSpace(s); s != "" && strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

func rawList(rs []json.RawMessage) [][]byte {
	out := make([][]byte, len(rs))
	for i, r := range rs {
		out[i] = r
	}
	return out
}

// compareAllowed is (b): the guard is invisible for an allowed command.
func compareAllowed(fail func(string, ...any), ra, rb result, snapA, snapB map[string]string, errA, errB error) {
	if ra.startErr != nil || ra.timedOut {
		fail("(b) plain bash run failed: %s", ra.status())
	}
	if rb.startErr != nil || rb.timedOut {
		fail("(b) guard-exec -c run failed: %s\n\tstderr: %s", rb.status(), clip(rb.stderr))
	}
	if ra.status() != rb.status() {
		fail("(b) status differs: bash %s, guard-exec %s\n\tguard stderr: %s", ra.status(), rb.status(), clip(rb.stderr))
	}
	if !bytes.Equal(ra.stdout, rb.stdout) {
		fail("(b) stdout differs:\n\tbash:       %s\n\tguard-exec: %s", clip(ra.stdout), clip(rb.stdout))
	}
	if ea, eb := normStderr(ra.stderr, H.guard), normStderr(rb.stderr, H.guard); !bytes.Equal(ea, eb) {
		fail("(b) stderr differs:\n\tbash:       %s\n\tguard-exec: %s", clip(ra.stderr), clip(rb.stderr))
	}
	if ra.logErr != nil || rb.logErr != nil {
		fail("(b) stub log unreadable: bash %v, guard-exec %v", ra.logErr, rb.logErr)
	}
	// Records are compared as a multiset: pipeline stages log concurrently.
	if !equalStrings(sortedKeys(ra.records), sortedKeys(rb.records)) {
		fail("(b) programs run differ:\n\tbash: %s\n\tguard-exec: %s", describeRecords(ra.records), describeRecords(rb.records))
	}
	if errA != nil || errB != nil {
		fail("(b) snapshot: %v %v", errA, errB)
	} else if d := diffSnapshots(snapA, snapB, "bash", "guard-exec"); len(d) > 0 {
		fail("(b) file effects differ:\n\t\t%s", strings.Join(d, "\n\t\t"))
	}
	if ra.stragglers || rb.stragglers {
		fail("(b) processes were still alive at the timeout (bash %v, guard-exec %v)", ra.stragglers, rb.stragglers)
	}
}

// unsafeDevices: refuse to execute the corpus if a block device it names is
// writable by the user the cases run as.
func unsafeDevices(cases []Case, dropped bool) error {
	if dropped {
		return nil // nobody cannot write block devices
	}
	devRE := regexp.MustCompile(`/dev/[A-Za-z0-9]+`)
	for _, c := range cases {
		for _, d := range devRE.FindAllString(c.Cmd, -1) {
			st, err := os.Stat(d)
			if err != nil || st.Mode()&os.ModeDevice == 0 || st.Mode()&os.ModeCharDevice != 0 {
				continue
			}
			if syscall.Access(d, 2 /* W_OK */) == nil {
				return fmt.Errorf("block device %s named by %s is writable by this user: refusing to run the differential test", d, c.ID())
			}
		}
	}
	return nil
}
