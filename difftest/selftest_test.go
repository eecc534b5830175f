//go:build linux

package difftest

import (
	"strings"
	"testing"
	"time"
)

// TestStubsForward checks the harness itself, without the guard: every way
// the corpus has of starting a program ends in a recording stub, never in a
// real program found outside the stub PATH, and its record reaches the log.
func TestStubsForward(t *testing.T) {
	requireSetup(t)
	if len(H.missing) > 0 {
		t.Logf("real programs missing, their stubs only record: %v", H.missing)
	}
	scripts := []string{
		`marker`,
		`env marker`,
		`env -i marker`,
		`env - marker`,
		`env -u PATH marker`,
		`env -iu HOME FOO=1 marker`,
		`env -S 'marker'`,
		`env -C / marker`,
		`exec -c marker`,
		`exec -a x marker`,
		`command marker`,
		`bash -c marker`,
		`bash -lc marker`,
		`bash --login -c marker`,
		`bash -ic marker`,
		`sh -c marker`,
		`sh -lc marker`,
		`dash -l -c marker`,
		`echo marker | sh`,
		`bash <<< marker`,
		`echo | xargs marker`,
		`xargs -I{} marker {} < list.txt`,
		`find . -maxdepth 0 -exec marker {} \;`,
		`find . -maxdepth 0 -exec marker {} +`,
		`timeout 5 marker`,
		`timeout -k 1 -s TERM 5 marker`,
		`nice -n 1 marker`,
		`nohup marker`,
		`stdbuf -oL marker`,
		`setsid marker`,
		`flock x.lock marker`,
		`flock x.lock -c marker`,
		`ionice -c3 marker`,
		`chrt -i 0 marker`,
		`taskset -c 0 marker`,
		`sudo marker`,
		`sudo -u bob -- marker`,
		`sudo -E FOO=1 marker`,
		`sudo -s marker`,
		`doas -u bob marker`,
		`su -c marker`,
		`su - bob -c marker`,
		`su root -c 'marker'`,
		`runuser -u bob -- marker`,
		`runuser -l bob -c marker`,
		`script -qc marker /dev/null`,
		`script -q -c 'marker' /dev/null`,
		`unbuffer marker`,
		`parallel marker ::: a`,
		`echo a | parallel marker`,
		`strace -f -o x.trace marker`,
		`ltrace -o x.trace marker`,
		`busybox marker`,
		`busybox sh -c marker`,
		`watch -n 1 marker`,
		`watch -x marker`,
		`awk 'BEGIN { system("marker") }'`,
		`echo a | sed 's/.*/marker/e'`,
		`marker &`,
		`marker > /dev/null 2>&1 &`,
		`(sleep 0; marker >/dev/null) &`,
		`echo x > >(marker >/dev/null)`,
		`cat <(marker)`,
		`coproc marker`,
		`time -p marker`,
		`nohup env -i bash -lc 'exec -c marker' &`,
	}
	dir := H.root + "/selftest"
	missing := map[string]bool{}
	for _, m := range H.missing {
		missing[m] = true
	}
	for _, s := range scripts {
		if w := strings.Fields(s); missing[w[0]] {
			t.Logf("%q: skipped, %s is not installed", s, w[0])
			continue
		}
		if err := H.resetCase(dir); err != nil {
			t.Fatal(err)
		}
		r := H.run(dir, realBash, realBash, []string{"-c", s}, 10*time.Second)
		if r.logErr != nil || r.startErr != nil || r.timedOut {
			t.Errorf("%q: %s %v", s, r.status(), r.logErr)
			continue
		}
		n := 0
		for _, rec := range r.records {
			if rec.Name == "marker" {
				n++
			}
		}
		if n == 0 {
			t.Errorf("%q: marker not recorded; records:%s\n\tstdout %q\n\tstderr %q", s, describeRecords(r.records), r.stdout, r.stderr)
		}
		if strings.Contains(string(r.stderr), "not found") || strings.Contains(string(r.stderr), "No such file") {
			t.Errorf("%q: stderr %q", s, r.stderr)
		}
	}
	// The real programs behind the stubs must never be reached by name.
	for _, s := range []string{`env -i ls`, `env -i sh -c ls`, `exec -c env ls`, `sudo -i ls`, `bash -lc ls`, `sh -l -c ls`, `exec -c sh -lc ls`} {
		if err := H.resetCase(dir); err != nil {
			t.Fatal(err)
		}
		r := H.run(dir, realBash, realBash, []string{"-c", s}, 10*time.Second)
		if string(r.stdout) != "stub:ls\n" {
			t.Errorf("%q reached something other than the ls stub: stdout %q stderr %q", s, r.stdout, r.stderr)
		}
	}
}

// TestStubRecordsArgv: arguments survive any bytes but NUL.
func TestStubRecordsArgv(t *testing.T) {
	requireSetup(t)
	dir := H.root + "/selftest-argv"
	if err := H.resetCase(dir); err != nil {
		t.Fatal(err)
	}
	r := H.run(dir, realBash, realBash, []string{"-c", `marker '' ' a  b ' $'x\ny' $'\t' '*' -- "$HOME"; marker`}, 10*time.Second)
	if len(r.records) != 2 {
		t.Fatalf("records: %v %v", r.records, r.logErr)
	}
	want := []string{"", " a  b ", "x\ny", "\t", "*", "--", home(dir)}
	if !equalStrings(r.records[0].Args, want) || len(r.records[1].Args) != 0 {
		t.Errorf("got %q, want %q and no args", r.records, want)
	}
	if r.records[0].Parent != "bash" {
		t.Errorf("parent %q, want bash", r.records[0].Parent)
	}
}

func TestJudgedMatcher(t *testing.T) {
	argvs := [][]string{
		{"/usr/bin/rm", "-f", "a"},
		{"echo", "$x", "y"},
		{"grep", "-r", "$(ls)"},
		{"env", "FOO=1", "ls"},
	}
	for _, tc := range []struct {
		r    record
		want bool
	}{
		{record{Name: "rm", Args: []string{"-f", "a"}}, true},
		{record{Name: "rm", Args: []string{"-f", "b"}}, false},
		{record{Name: "rm", Args: []string{"-f"}}, false},
		{record{Name: "echo", Args: []string{"1", "2", "y"}}, true},
		{record{Name: "grep", Args: []string{"-r", "x", "y"}}, true},
		{record{Name: "grep", Args: []string{"-i", "x"}}, false},
		{record{Name: "ls"}, false},
		{record{Name: "ls", Parent: "xargs", Args: []string{"q"}}, false},
		{record{Name: "rm", Parent: "find", Args: []string{"./x"}}, true},
		{record{Name: "env", Args: []string{"FOO=1", "ls"}}, true},
	} {
		if got := judged(argvs, tc.r); got != tc.want {
			t.Errorf("judged(%v) = %v, want %v", tc.r, got, tc.want)
		}
	}
}
