package bashargv

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
)

const realBash = "/bin/bash"

// probe is one command (a group, so -t runs all of it) without redirections
// or slashes (so a restricted shell runs it) and without '!' (history
// expansion). It reports $0, the arguments, $-, the set -o options and a
// few shopt options on lines starting with '@'.
const probe = `{ printf '@0=%s\n' "$0"; printf '@#=%s\n' "$#"; for a in "$@"; do printf '@arg=%s\n' "$a"; done; ` +
	`printf '@-=%s\n' "$-"; set +o | while read -r l; do printf '@%s\n' "$l"; done; ` +
	`{ shopt -p ` + probeShopts + ` || :; } | while read -r l; do printf '@%s\n' "$l"; done; printf '@end\n'; }`

const probeShopts = "extglob nullglob dotglob xpg_echo checkwinsize login_shell restricted_shell"

// report is what the probe printed (or, for the model, should print).
type report struct {
	Ran     bool
	Dollar0 string
	Args    []string
	Flags   string          // $- without 'm' (job control depends on the terminal)
	Set     map[string]bool // set -o options, without monitor
	Shopt   map[string]bool
}

func parseReport(t *testing.T, out string) report {
	t.Helper()
	r := report{Set: map[string]bool{}, Shopt: map[string]bool{}}
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimRight(line, "\r")
		if !strings.HasPrefix(line, "@") {
			continue
		}
		line = line[1:]
		switch {
		case strings.HasPrefix(line, "0="):
			r.Ran, r.Dollar0 = true, line[2:]
		case strings.HasPrefix(line, "#="):
		case strings.HasPrefix(line, "arg="):
			r.Args = append(r.Args, line[4:])
		case strings.HasPrefix(line, "-="):
			r.Flags = strings.ReplaceAll(line[2:], "m", "")
		case strings.HasPrefix(line, "set "):
			f := strings.Fields(line)
			if f[2] != "monitor" {
				r.Set[f[2]] = f[1] == "-o"
			}
		case strings.HasPrefix(line, "shopt "):
			f := strings.Fields(line)
			r.Shopt[f[2]] = f[1] == "-s"
		case line == "end":
		default:
			t.Fatalf("unexpected probe line %q", line)
		}
	}
	if !r.Ran {
		return report{}
	}
	return r
}

type bashRun struct {
	status         int
	stdout, stderr string
}

// bashEnv is a clean environment: an empty HOME, no BASH_ENV, ENV,
// SHELLOPTS, BASHOPTS or POSIXLY_CORRECT.
func bashEnv(home string) []string {
	return []string{"HOME=" + home, "PATH=/usr/bin:/bin", "LANG=C", "TERM=dumb"}
}

func runBash(t *testing.T, dir string, argv []string, stdin string) bashRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, realBash)
	cmd.Args = argv
	cmd.Dir, cmd.Env = dir, bashEnv(dir)
	cmd.Stdin = strings.NewReader(stdin)
	// A new session: no controlling terminal, as agents run their shell,
	// so bash -i cannot take over the terminal of whoever runs the tests.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("run %q: %v", argv, err)
	}
	return bashRun{cmd.ProcessState.ExitCode(), stdout.String(), stderr.String()}
}

// runBashPTY runs bash with stdin, stdout and stderr on a terminal, types
// input, and returns everything the terminal showed.
func runBashPTY(t *testing.T, dir string, argv []string, input string) bashRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, realBash)
	cmd.Args = argv
	cmd.Dir, cmd.Env = dir, bashEnv(dir)
	f, tty, err := pty.Open()
	if err != nil {
		t.Fatalf("open a pty: %v", err)
	}
	defer f.Close()
	// Wide enough that the terminal never wraps an echoed line.
	if err := pty.Setsize(f, &pty.Winsize{Rows: 50, Cols: 4000}); err != nil {
		t.Fatal(err)
	}
	// Typed before bash starts: the terminal's echo of it then comes
	// before anything bash prints, never in the middle of a line of the
	// probe's (a bash that reads no input prints while it is typed).
	if _, err := io.WriteString(f, input); err != nil {
		t.Fatalf("type into pty: %v", err)
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %q on a pty: %v", argv, err)
	}
	tty.Close()
	var out bytes.Buffer
	done := make(chan struct{})
	go func() { io.Copy(&out, f); close(done) }() // ends with EIO once bash exits
	err = cmd.Wait()
	<-done
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("run %q: %v", argv, err)
	}
	return bashRun{cmd.ProcessState.ExitCode(), out.String(), ""}
}

// flagOrder is bash's order of letters in $- (flags.c shell_flags).
const flagOrder = "abefhikmnprtuvxBCEHPT"

// expect builds, from inv, what the probe prints. base holds the default
// set -o and shopt values measured on a plain bash (interactive or not).
func expect(inv *Invocation, probePath string, base report) report {
	runs := false
	switch inv.Mode {
	case ModeCommand:
		runs = inv.Command == probe
	case ModeFile:
		runs = inv.File == probePath
	case ModeStdin, ModeInteractive:
		runs = true
	}
	if inv.DumpStrings || (contains(inv.SetOn, "noexec") && !inv.Interactive) ||
		(inv.PrettyPrint && !inv.Interactive && (inv.Mode == ModeFile || inv.Mode == ModeStdin)) {
		runs = false
	}
	if !runs {
		return report{}
	}
	r := report{Ran: true, Dollar0: inv.Name, Args: inv.Args, Set: map[string]bool{}, Shopt: map[string]bool{}}
	for k, v := range base.Set {
		r.Set[k] = v
	}
	for k, v := range base.Shopt {
		r.Shopt[k] = v
	}
	for _, n := range inv.SetOn {
		r.Set[n] = true
	}
	for _, n := range inv.SetOff {
		r.Set[n] = false
	}
	delete(r.Set, "monitor")
	r.Set["posix"] = inv.Posix
	if inv.NoEditing || inv.Mode == ModeFile { // no line editing when not reading a terminal's stdin
		r.Set["emacs"] = false
	}
	for _, n := range inv.ShoptOn {
		r.Shopt[n] = true
	}
	for _, n := range inv.ShoptOff {
		r.Shopt[n] = false
	}
	r.Shopt["login_shell"], r.Shopt["restricted_shell"] = inv.Login, inv.Restricted
	if len(r.Args) == 0 {
		r.Args = nil
	}
	letter := map[byte]string{'a': "allexport", 'b': "notify", 'e': "errexit", 'f': "noglob", 'h': "hashall",
		'k': "keyword", 'n': "noexec", 'p': "privileged", 't': "onecmd", 'u': "nounset", 'v': "verbose",
		'x': "xtrace", 'B': "braceexpand", 'C': "noclobber", 'E': "errtrace", 'H': "histexpand",
		'P': "physical", 'T': "functrace"}
	for i := 0; i < len(flagOrder); i++ {
		c := flagOrder[i]
		if (c == 'i' && inv.Interactive) || (c == 'r' && inv.Restricted) || (letter[c] != "" && r.Set[letter[c]]) {
			r.Flags += string(c)
		}
	}
	if inv.CFlag {
		r.Flags += "c"
	}
	if inv.SFlag || inv.Mode == ModeStdin || inv.Mode == ModeInteractive {
		r.Flags += "s"
	}
	return r
}

type diffCase struct {
	argv0 string // "" means "bash"
	args  string // words split on spaces; {P} probe text, {F} probe script, {R} empty rc file, '' an empty word
	tty   bool   // run on a pty: stdin and stderr are terminals
}

var diffCases = []diffCase{
	// -c and its clusters.
	{args: "-c {P}"},
	{args: "-c {P} name one two"},
	{args: "-lc {P}"},
	{args: "-c -l {P}"},
	{args: "-ic {P}"},
	{args: "-i -c {P}"},
	{args: "-ilc {P} n a"},
	{args: "-ec {P}"},
	{args: "-ceu {P} n a"},
	{args: "-c -e {P}"},
	{args: "-s -c {P} n a"},
	{args: "+c {P} n"},
	{args: "-c {P} --login"},
	{args: "-c {P} --bogus -Z"},
	{args: "-c -- {P} n"},
	{args: "-c - {P} n"},
	{args: "-c ''"},
	// set options.
	{args: "-eo pipefail -c {P}"},
	{args: "-euo pipefail -c {P} n a b"},
	{args: "-o errexit +o errexit -o xtrace -c {P}"},
	{args: "-x -c {P}"},
	{args: "+e -c {P}"},
	{args: "-e +e -c {P}"},
	{args: "-abfhkCEPT -c {P}"},
	{args: "+B +h -c {P}"},
	{args: "-H -p -t -c {P}"},
	{args: "-v -c {P}"},
	{args: "--verbose -c {P}"},
	{args: "-n -c {P}"},
	{args: "-D -c {P}"},
	{args: "-o posix -c {P}"},
	{args: "--posix -o pipefail -c {P}"},
	{args: "-o noglob -o nolog -o ignoreeof +o braceexpand -c {P}"},
	// shopt options.
	{args: "-O extglob -c {P}"},
	{args: "+O checkwinsize -c {P}"},
	{args: "-O extglob +O extglob -O nullglob -Oxpg_echo -c {P}"},
	{args: "-O login_shell -O restricted_shell -c {P}"},
	// long options.
	{args: "--login -c {P}"},
	{args: "-login -c {P}"},
	{args: "--noprofile -l -c {P}"},
	{args: "--rcfile {R} -i -c {P}"},
	{args: "--init-file {R} --norc -i -c {P}"},
	{args: "--restricted -c {P}"},
	{args: "-r -c {P}"},
	{args: "+r -c {P}"},
	{args: "--debug --noediting -c {P}"},
	{args: "--dump-strings {F}"},
	{args: "--pretty-print {F}"},
	{args: "--pretty-print -c {P}"},
	// script files.
	{args: "{F}"},
	{args: "{F} x y z"},
	{args: "--noprofile --norc -eo pipefail {F}"},
	{args: "--noprofile --norc -eo pipefail {F} a b"},
	{args: "- {F} a"},
	{args: "-- {F} a"},
	{args: "-i {F} a"},
	// script on stdin, interactive without a terminal.
	{args: ""},
	{args: "-"},
	{args: "-s"},
	{args: "-s a b"},
	{args: "-l"},
	{args: "-l -s x"},
	{args: "-o"},
	{args: "+O -s x"},
	{args: "-i"},
	{args: "-i -s a b"},
	{args: "--noediting -i"},
	{args: "--norc -i +i"},
	// argv[0].
	{argv0: "-bash", args: "-c {P}"},
	{argv0: "sh", args: "-c {P} n"},
	{argv0: "-sh", args: "{F}"},
	{argv0: "/usr/bin/rbash", args: "-c {P}"},
	{argv0: "/bin/bash", args: "-s a"},
	// errors.
	{args: "-c"},
	{args: "-co"},
	{args: "-l -c"},
	{args: "-Z"},
	{args: "+Z"},
	{args: "-eZ -c true"},
	{args: "-e -c"},
	{args: "-o errexit --login"},
	{args: "-e +e -c"},
	{args: "-e -o nosuch"},
	{args: "-e -O nosuch -c true"},
	{args: "--bogus"},
	{args: "--login --bogus -c true"},
	{args: "-c --login {P}"},
	{args: "-o nosuch -c {P}"},
	{args: "-o -c {P}"},
	{args: "+o -s x"},
	{args: "-O nosuch -c {P}"},
	{args: "-i -O nosuch -c {P}"},
	{args: "-O nosuch -c"},
	{args: "--rcfile"},
	{args: "-r +r -c true"},
	{args: "--restricted +r -c true"},
	{argv0: "/bin/bash", args: "-Z"},
	{argv0: "/bin/bash", args: "-o nosuch"},
	{argv0: "/bin/bash", args: "-i -O nosuch"},
	{argv0: "-", args: "--bogus"},
	// nothing to run.
	{args: "--help"},
	{args: "--version"},
	{args: "--help -Z"},
	{args: "--version --help"},
	{args: "--help --bogus"},
	// on a terminal.
	{args: "", tty: true},
	{args: "-s a b", tty: true},
	{args: "+i", tty: true},
	{args: "-l", tty: true},
	{args: "{F} a", tty: true},
	{args: "-c {P} n", tty: true},
}

func (c diffCase) argv(probePath, rcPath string) []string {
	argv0 := c.argv0
	if argv0 == "" {
		argv0 = "bash"
	}
	argv := []string{argv0}
	for _, w := range strings.Fields(c.args) {
		switch w {
		case "{P}":
			w = probe
		case "{F}":
			w = probePath
		case "{R}":
			w = rcPath
		case "''":
			w = ""
		}
		argv = append(argv, w)
	}
	return argv
}

// TestDifferential runs /bin/bash and ParseArgv on the same arguments and
// checks that bash does what the Invocation says: the same $0, arguments,
// $-, set -o and shopt options, the same usage errors.
func TestDifferential(t *testing.T) {
	if _, err := os.Stat(realBash); err != nil {
		t.Skipf("no %s: %v", realBash, err)
	}
	dir := t.TempDir()
	probePath := filepath.Join(dir, "probe.sh")
	rcPath := filepath.Join(dir, "rc")
	if err := os.WriteFile(probePath, []byte(probe+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(rcPath, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	baseline := func(argv []string) report {
		r := parseReport(t, runBash(t, dir, argv, probe+"\n").stdout)
		if !r.Ran {
			t.Fatalf("baseline %q: probe did not run", argv)
		}
		return r
	}
	base := map[bool]report{false: baseline([]string{"bash", "-c", probe}), true: baseline([]string{"bash", "-i"})}

	for _, c := range diffCases {
		name := strings.TrimSpace(c.argv0 + " " + c.args)
		if c.tty {
			name += " (tty)"
		}
		t.Run(name, func(t *testing.T) {
			argv := c.argv(probePath, rcPath)
			var got bashRun
			if c.tty {
				got = runBashPTY(t, dir, argv, probe+"\nexit\n")
			} else {
				got = runBash(t, dir, argv, probe+"\n")
			}
			inv, err := ParseArgv(argv, c.tty)
			var ue *UsageError
			switch {
			case errors.As(err, &ue):
				if got.status != ue.Status || got.stderr != ue.Message {
					t.Fatalf("bash: status %d, stderr:\n%s\nParse: status %d, message:\n%s", got.status, got.stderr, ue.Status, ue.Message)
				}
				return
			case err != nil:
				t.Fatalf("Parse: unexpected error %v", err)
			}
			if inv.Mode == ModeNoScript {
				if got.status != 0 || !strings.HasPrefix(got.stdout, "GNU bash, version") {
					t.Fatalf("Parse says nothing runs; bash: status %d, stdout %q, stderr %q", got.status, got.stdout, got.stderr)
				}
				if inv.Help != strings.Contains(got.stdout, "Usage:") {
					t.Fatalf("Help=%v but bash printed %q", inv.Help, got.stdout)
				}
				return
			}
			if got.status != 0 {
				t.Fatalf("bash exited %d (Parse: %+v); stderr:\n%s", got.status, inv, got.stderr)
			}
			if inv.ListsOptions != listsOptions(got.stdout) {
				t.Errorf("ListsOptions=%v; stdout:\n%s", inv.ListsOptions, got.stdout)
			}
			want := expect(inv, probePath, base[inv.Interactive])
			have := parseReport(t, got.stdout)
			if !reflect.DeepEqual(want, have) {
				t.Fatalf("Parse: %+v\nmismatch:\n%s\nbash stderr:\n%s", inv, diffReports(want, have), got.stderr)
			}
		})
	}
}

// listsOptions reports whether bash printed option settings itself (for
// -o, +o, -O, +O without a name), as opposed to the probe's '@' lines.
func listsOptions(stdout string) bool {
	for _, line := range strings.Split(stdout, "\n") {
		f := strings.Fields(line)
		if len(f) > 0 && !strings.HasPrefix(f[0], "@") && (f[0] == "allexport" || f[0] == "autocd" || (len(f) == 3 && (f[2] == "allexport" || f[2] == "autocd"))) {
			return true
		}
	}
	return false
}

func diffReports(want, have report) string {
	var b strings.Builder
	if want.Ran != have.Ran {
		fmt.Fprintf(&b, "probe ran: want %v, bash %v\n", want.Ran, have.Ran)
	}
	if want.Dollar0 != have.Dollar0 {
		fmt.Fprintf(&b, "$0: want %q, bash %q\n", want.Dollar0, have.Dollar0)
	}
	if !reflect.DeepEqual(want.Args, have.Args) {
		fmt.Fprintf(&b, "args: want %q, bash %q\n", want.Args, have.Args)
	}
	if want.Flags != have.Flags {
		fmt.Fprintf(&b, "$-: want %q, bash %q\n", want.Flags, have.Flags)
	}
	for _, m := range []struct {
		what       string
		want, have map[string]bool
	}{{"set -o", want.Set, have.Set}, {"shopt", want.Shopt, have.Shopt}} {
		var keys []string
		for k := range m.want {
			keys = append(keys, k)
		}
		for k := range m.have {
			if _, ok := m.want[k]; !ok {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			w, wok := m.want[k]
			h, hok := m.have[k]
			if w != h || wok != hok {
				fmt.Fprintf(&b, "%s %s: want %v (%v), bash %v (%v)\n", m.what, k, w, wok, h, hok)
			}
		}
	}
	return b.String()
}

// TestOptionTables checks the option names against what /bin/bash lists.
func TestOptionTables(t *testing.T) {
	if _, err := os.Stat(realBash); err != nil {
		t.Skipf("no %s: %v", realBash, err)
	}
	names := func(script string) []string {
		out, err := exec.Command(realBash, "-c", script).Output()
		if err != nil {
			t.Fatalf("%s: %v", script, err)
		}
		return strings.Fields(string(out))
	}
	if got := names(`set -o | while read -r n _; do echo "$n"; done`); !reflect.DeepEqual(got, SetOptionNames) {
		t.Errorf("set -o names: bash %q, package %q", got, SetOptionNames)
	}
	if got := names(`shopt | while read -r n _; do echo "$n"; done`); !reflect.DeepEqual(got, ShoptNames) {
		t.Errorf("shopt names: bash %q, package %q", got, ShoptNames)
	}
	// The usage text Parse puts in its errors is bash's.
	out, _ := exec.Command(realBash, "--help").Output()
	usage := shellUsage(realBash)
	if !strings.Contains(string(out), usage) {
		t.Errorf("bash --help does not contain our usage text:\n%s", usage)
	}
}

// TestParseFields pins fields the differential test cannot see.
func TestParseFields(t *testing.T) {
	for _, tc := range []struct {
		args []string
		tty  bool
		want Invocation
	}{
		{[]string{"-c", "ls", "n", "a"}, false, Invocation{Mode: ModeCommand, Command: "ls", Name: "n", Args: []string{"a"}, CFlag: true}},
		{[]string{"--noprofile", "--norc", "-eo", "pipefail", "/tmp/s"}, false, Invocation{Mode: ModeFile, File: "/tmp/s", FileIndex: 5, Name: "/tmp/s", Args: []string{},
			NoProfile: true, NoRC: true, SetOn: []string{"errexit", "pipefail"}}},
		{[]string{"--rcfile", "a", "--init-file", "b", "-i"}, false, Invocation{Mode: ModeInteractive, Name: "bash", Args: []string{}, Interactive: true, RCFile: "b"}},
		{[]string{"--debugger", "--noediting", "-s"}, true, Invocation{Mode: ModeInteractive, Name: "bash", Args: []string{}, Interactive: true, SFlag: true, Debugger: true, NoEditing: true}},
		{[]string{"-s", "x"}, false, Invocation{Mode: ModeStdin, Name: "bash", Args: []string{"x"}, SFlag: true}},
		{[]string{"-e", "+o", "errexit", "-O", "extglob", "+O", "nullglob", "-c", "x"}, false, Invocation{Mode: ModeCommand, Command: "x", Name: "bash", Args: []string{},
			CFlag: true, SetOff: []string{"errexit"}, ShoptOn: []string{"extglob"}, ShoptOff: []string{"nullglob"}}},
		{[]string{"--version", "-Z"}, false, Invocation{Mode: ModeNoScript, Name: "bash", Version: true}},
		{[]string{"--posix", "-r", "-c", "x"}, false, Invocation{Mode: ModeCommand, Command: "x", Name: "bash", Args: []string{}, CFlag: true,
			Posix: true, Restricted: true, SetOn: []string{"posix"}}},
	} {
		got, err := Parse(tc.args, tc.tty)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.args, err)
			continue
		}
		if !reflect.DeepEqual(*got, tc.want) {
			t.Errorf("Parse(%q):\n got %+v\nwant %+v", tc.args, *got, tc.want)
		}
	}
	_, err := Parse([]string{"-c"}, false)
	var ue *UsageError
	if !errors.As(err, &ue) || ue.Status != 2 || ue.Message != "bash: -c: option requires an argument\n" || err.Error() != "bash: -c: option requires an argument" {
		t.Errorf("Parse(-c): %#v", err)
	}
}
