package judge_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/guard-exec/guard-exec/judge"
	"github.com/guard-exec/guard-exec/shellparse"
)

// A glob is judged by what bash would make of it here: every match (a
// large directory is not cut short), only the hidden names bash's rules
// let it match, classes as bash reads them, and matches through links at
// their targets.
func TestGlobsAsBashExpandsThem(t *testing.T) {
	pol, judgeIt, home, proj := secretWorld(t, nil)
	files := map[string]string{"plain/a.txt": "", "plain/.env": "K=v", "big/id_rsa": "PRIVATE", "clean/a.txt": ""}
	for i := range 1100 {
		files[fmt.Sprintf("big/f%04d", i)] = ""
	}
	writeFiles(t, proj, files)
	if err := os.Symlink(filepath.Join(home, ".ssh", "id_ed25519"), filepath.Join(proj, "l*")); err != nil {
		t.Fatal(err)
	}
	checkRows(t, judgeIt, "globs", append(ask(
		"cat big/*", "cat ./big/*", "cd big && cat *", "head -n1 big/*",
		"cat big/[[:alpha:]]d_rsa", "cat big/[!x]d_rsa", "cat big/[^x]d_rsa", "cat big/[]i]d_rsa",
		"cat big/id[[.underscore.]]rsa", "cat big/i[[=d=]]_rsa",
		"cat key*", "cat ke?.txt", "cat keys/../.a*/cred*", "cat k*/../.aws/c*",
		"cat plain/.e*", "shopt -s dotglob; grep x plain/*", "shopt -s dotglob; cat plain/?env",
		"shopt -s extglob\ncat plain/@(.env)", "shopt -s extglob\ncat plain/+(.)env",
		"shopt -s globstar; cat **/[[:alpha:]]d_rsa", "shopt -s globstar; cat big/**",
		// Outside globasciiranges a range follows the locale: A-J may hold i.
		"shopt -u globasciiranges; cat big/[A-J]d_rsa",
		// set -f is undone by set +f in any spelling, and holds only on
		// the paths that ran it; with it, k* is the file named k*.
		"set -f; set +f; cat key*", "set -f; set +o noglob; cat key*", "set -f; shopt -u -o noglob; cat key*",
		`set -f; eval "set +f"; cat key*`, "f(){ set +f; }; set -f; f; cat key*", "set -f; command set +f; cat key*",
		"false && set -f; cat key*", "if false; then set -f; fi; cat key*", `trap "set +f" DEBUG; set -f; cat key*`,
		"set -f; set +euf; cat key*", "set $x; cat key*", "set -f; cat l*", "set -f; set $x; cat l*",
		// -o NAME takes its word (-eo NAME too): the flags after it count.
		"set -f; set -eo pipefail +f; cat key*", "set -o noglob +o noglob; cat key*", "set -f; set -o posix +f; cat key*",
		// Quoted characters inside a bracket are members of it: bash globs.
		`cat ["k"]ey.txt`, `cat ['k']ey.txt`, `cat [$'k']ey.txt`, `cat [!"x"]ey.txt`, `cat ~/.s["s"]h/*`, `cat ~/.a["w"]s/cred*`,
		// A tree moved or copied with a secret in it, read below (a red
		// team's).
		"mv big y; cat y/*", "cp -r big y; cat y/?d_rsa", "mv plain y; cat y/*",
		// A move or a link gives a key another name (a red team's).
		"mv big/id_rsa y.txt; cat y.txt", "mv big/id_rsa y.txt", "ln big/id_rsa hard; cat hard", "ln -s big/id_rsa l && cat l",
		// nocaseglob keeps a leading ] a member of its bracket.
		"shopt -s nocaseglob; cat big/[]i]d_rsa", "shopt -s nocaseglob; cat []k]ey.txt",
	), allow(
		"set -f; cat key*", "set -f; cat big/?d_rsa", "set -ef; cat key*", "mv big/f0001 y", "ln big/f0002 z", "mv clean y; cat y/*",
		"cat big/[A-J]d_rsa",
		"grep x plain/*", "cat plain/?env", "cat plain/[.]env", "cat plain/*.txt",
		"cat big/f00*", "ls big/*", "wc -l big/f1*",
	)...))
	// A glob that could not be read in full is a word known only at run
	// time.
	incomplete := func(string, shellparse.GlobMode) ([]string, bool) { return nil, false }
	for _, src := range []string{"cat *", "cat big/*.txt"} {
		res := judge.Judge(pol, judge.Request{Source: src, Cwd: proj, Glob: incomplete,
			Getenv: func(k string) string {
				if k == "HOME" {
					return home
				}
				return ""
			}})
		if res.Decision == "allow" {
			t.Errorf("%q with a glob not read in full: %s (%s), want a question", src, res.Decision, res.Reason)
		}
	}
}
