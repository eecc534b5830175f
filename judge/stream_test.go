package judge

import (
	"os"
	"reflect"
	"runtime"
	"testing"

	"github.com/guard-exec/guard-exec/shellparse"
)

// TestStreamedParts: a long text judged as it is read lets the commands
// that have a twin go once judged; every part Judge lists (with AllParts
// and with Explain) is still the one judging on one core, after the walk,
// lists, position and all.
func TestStreamedParts(t *testing.T) {
	pol := benchPolicy(t)
	src := ciScript(500) + "rm -rf /tmp/x\ngit push --force\n" + ciScript(500) + "git push --force\n"
	for _, req := range []Request{
		{Source: src, Cwd: "/home/u/proj", Getenv: os.Getenv, AllParts: true},
		{Source: src, Cwd: "/home/u/proj", Getenv: os.Getenv, Explain: true},
		{Source: src, Cwd: "/home/u/proj", Getenv: os.Getenv},
	} {
		prev := runtime.GOMAXPROCS(1)
		want := Judge(pol, req)
		runtime.GOMAXPROCS(max(prev, 2))
		got := Judge(pol, req)
		runtime.GOMAXPROCS(prev)
		if got.Decision != want.Decision || got.Reason != want.Reason || got.Line != want.Line || got.Omitted != want.Omitted {
			t.Fatalf("streamed: %s %q line %d, %d omitted; after the walk: %s %q line %d, %d omitted",
				got.Decision, got.Reason, got.Line, got.Omitted, want.Decision, want.Reason, want.Line, want.Omitted)
		}
		if len(got.Commands) != len(want.Commands) || len(want.Commands) < 100 {
			t.Fatalf("%d parts streamed, %d after the walk", len(got.Commands), len(want.Commands))
		}
		for i, w := range want.Commands {
			g := got.Commands[i]
			if g.Text() != w.Text() || g.Line != w.Line || g.Decision != w.Decision || g.Reason != w.Reason || g.Rule != w.Rule ||
				!reflect.DeepEqual(g.Argv, w.Argv) || !reflect.DeepEqual(g.Effects, w.Effects) || !reflect.DeepEqual(g.Cwd, w.Cwd) ||
				!reflect.DeepEqual(g.Via, w.Via) || !reflect.DeepEqual(g.Matches, w.Matches) ||
				g.Input.Cmd.Pos != w.Input.Cmd.Pos || g.Input.Cmd.Key() != w.Input.Cmd.Key() {
				t.Fatalf("part %d: streamed %s (line %d, %s), after the walk %s (line %d, %s)", i, g.Text(), g.Line, g.Decision, w.Text(), w.Line, w.Decision)
			}
		}
	}
	// The walk let go of what it handed over: only the twins' places are
	// empty, and each keeps its position.
	opts := shellparse.Options{Cwd: "/home/u/proj", Getenv: os.Getenv}
	_, cmds, judged, err := streamJudge(pol, opts, src, false)
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := shellparse.Parse(src, opts)
	nils := 0
	for i, c := range cmds {
		if c == nil {
			nils++
			c = judged[i].own()
		}
		if c.Key() != plain.Cmds[i].Key() || c.Pos != plain.Cmds[i].Pos {
			t.Fatalf("command %d: %s at %s, after the walk %s at %s", i, c, c.Pos, plain.Cmds[i], plain.Cmds[i].Pos)
		}
	}
	if nils < len(cmds)/2 {
		t.Errorf("only %d of %d commands let go", nils, len(cmds))
	}
}
