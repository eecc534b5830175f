package shellparse_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/pattern"

	"github.com/guard-exec/guard-exec/shellparse"
)

// TestFileGlobberAgainstBash expands each pattern with the real bash in a
// scratch tree and with FileGlobber: what bash matches must be among what
// the guard lists (else a read of a match would go unseen), and, unless a
// case says the guard may list more, exactly that.
func TestFileGlobberAgainstBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	dir := t.TempDir()
	for _, f := range []string{"id_rsa", "a", "b", ".env", "x-y", "sp ace", "st*r", "[x]", "q?", "d/.k", "d/e/f/id_rsa", ".h/id_rsa", "d/g/id_rsa"} {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(dir, "d/e"), filepath.Join(dir, "lnk")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "nowhere"), filepath.Join(dir, "dangling")); err != nil {
		t.Fatal(err)
	}
	modes := map[string]shellparse.GlobMode{
		"":                 {},
		"dotglob":          {Hidden: true},
		"globstar":         {Globstar: true},
		"dotglob globstar": {Hidden: true, Globstar: true},
	}
	// more: the guard may list more than bash (a superset, never less).
	type tc struct {
		pat  string
		more bool
	}
	cases := []tc{
		{"*", false}, {".*", true}, {"?env", false}, {"[.]env", false}, {".e?v", false},
		{"[[:alpha:]]d_rsa", false}, {"[!x]d_rsa", false}, {"[^x]d_rsa", false}, {"[]i]d_rsa", false},
		{"id[[.underscore.]]rsa", true}, {"[[=a=]]", true}, {"id?rsa\\*", false}, {"i\\d_rs[a]", false},
		{"*/", false}, {"*/*", false}, {"d/*/*/*", false}, {"d/*/f/id_rsa", false}, {"*/f", false},
		{"**", true}, {"**/id_rsa", false}, {"**/", true}, {"d/**", false}, {"**/.k", false}, {"d/**/", false},
		{"lnk/*", false}, {"lnk/../*", false}, {"lnk/../../*", false}, {"st\\*r", false}, {"st*", false},
		{"\\[x]", false}, {"[[]x]", false}, {"*[", false}, {"[a-c]", false},
		{"dang*", false}, {"????", false}, {"[a-b]*", false}, {"*.", false}, {"x-*", false}, {"sp?ace", false},
		{"*e", false}, {"q\\?", false}, {"q?", false}, {"[q]?", false}, {".h/*", false}, {"*/id_rsa", false},
		{"[[:upper:][:digit:]]*", false}, {"[[:punct:]]*", false}, {"[!a-z]*", false}, {"d//e/*", false},
	}
	for name, mode := range modes {
		for _, c := range cases {
			script := "shopt -s nullglob " + name + "\ncd " + shellQuote(dir) + " || exit 9\nprintf '%s\\0' " + c.pat + "\n"
			out, err := exec.Command(bash, "--norc", "--noprofile", "-c", script).Output()
			if err != nil {
				t.Fatalf("bash %q: %v", script, err)
			}
			var want []string
			for _, m := range bytes.Split(out, []byte{0}) {
				if len(m) > 0 {
					want = append(want, string(m))
				}
			}
			got, complete := shellparse.FileGlobber()(pattern.QuoteMeta(dir, 0)+"/"+c.pat, mode)
			if !complete {
				t.Errorf("[%s] %s: not complete", name, c.pat)
				continue
			}
			for i, g := range got {
				got[i] = strings.TrimPrefix(g, dir+"/")
			}
			for _, w := range want {
				if !slices.Contains(got, w) {
					t.Errorf("[%s] %s: bash matches %q, the guard lists %q", name, c.pat, w, got)
				}
			}
			slices.Sort(want)
			slices.Sort(got)
			if !c.more && !slices.Equal(got, want) {
				t.Errorf("[%s] %s: the guard lists %q, bash %q", name, c.pat, got, want)
			}
		}
	}
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
