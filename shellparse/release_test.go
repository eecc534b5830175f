package shellparse_test

import (
	"strings"
	"testing"

	"github.com/guard-exec/guard-exec/shellparse"
)

// TestRelease: with Options.Release each command is handed to Committed
// once, in order, and the walk keeps none of them (nil in Result.Cmds);
// what is handed, then what is left, is what the walk reports without
// it. Each text is also made long enough to be parsed as it is walked,
// and script lookups on PATH must still see an opaque command released
// before them.
func TestRelease(t *testing.T) {
	filler := strings.Repeat("echo \"step $i\" >> \"$TMPDIR/log\"\nif [ -f x ]; then grep -v x x | sort; fi\n", 400)
	texts := []string{
		"ls; cd /tmp\nfor f in *.go; do gofmt -l \"$f\"; done\necho done",
		"eval \"$x\"\nsource onpath.sh\n",
		"true\nsource onpath.sh\n",
		"f() { ls \"$1\"; }\nf a\nf b\n",
		"echo $(date) $(ls)\necho $(date)\n",
		"x=1\n" + filler + "source onpath.sh\n",
		"eval \"$x\"\n" + filler + "source onpath.sh\n",
		filler + "eval \"$x\"\nsource onpath.sh\n" + filler,
	}
	for _, src := range texts {
		opts := shellparse.Options{Cwd: proj, Getenv: scriptEnv, ReadScript: scriptFS().read}
		plain, err := shellparse.Parse(src, opts)
		if err != nil {
			t.Fatalf("%.60q: %v", src, err)
		}
		var handed []*shellparse.Cmd
		seen := map[*shellparse.Cmd]bool{}
		opts.ReadScript = scriptFS().read
		opts.Release = true
		opts.Committed = func(cmds []*shellparse.Cmd) {
			for _, c := range cmds {
				if c == nil || seen[c] {
					t.Fatalf("%.60q: a command handed over twice, or nil", src)
				}
				seen[c] = true
				handed = append(handed, c)
			}
		}
		res, err := shellparse.Parse(src, opts)
		if err != nil {
			t.Fatalf("%.60q: an error only with Release: %v", src, err)
		}
		if res.Rewalked {
			t.Fatalf("%.60q: walked again; pick a text that is not", src)
		}
		if len(handed) == 0 {
			t.Fatalf("%.60q: nothing handed over", src)
		}
		all := append([]*shellparse.Cmd(nil), handed...)
		for i, c := range res.Cmds {
			if (c == nil) != (i < len(handed)) {
				t.Fatalf("%.60q: command %d of %d is nil = %v, with %d handed over", src, i, len(res.Cmds), c == nil, len(handed))
			}
			if c != nil {
				all = append(all, c)
			}
		}
		if len(all) != len(plain.Cmds) {
			t.Fatalf("%.60q: %d commands with Release, %d without", src, len(all), len(plain.Cmds))
		}
		for i, c := range all {
			if c.Key() != plain.Cmds[i].Key() || c.Pos != plain.Cmds[i].Pos {
				t.Fatalf("%.60q: command %d differs with Release: %s / %s", src, i, c, plain.Cmds[i])
			}
		}
	}
}
