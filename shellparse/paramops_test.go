package shellparse

import (
	"os/exec"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// TestParamOpAgainstBash works each expansion out on a value and compares
// with what the real bash prints; an expansion paramOp declines is fine,
// one it works out must be bash's.
func TestParamOpAgainstBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	vals := []string{"/home/rtuser", "/home/rtuser/", "/", "", "/work/rt-3/home/proj", "a.b.c", "aXbXc", "x&y", "/usr//lib/"}
	exps := []string{
		"${x%/}", "${x%/*}", "${x%%/*}", "${x#/}", "${x##*/}", "${x#*/}", "${x%%/proj}", "${x%.*}", "${x%%.*}", "${x#*.}", "${x##*.}",
		"${x%?}", "${x#?}", "${x%[a-z]*}", "${x%%[/]*}", "${x%'/'}", `${x%"/"*}`, `${x%\*}`, "${x#}", "${x%}",
		"${x:0}", "${x:1}", "${x:0:1}", "${x::1}", "${x: -1}", "${x: -3:2}", "${x:1:-1}", "${x:2:0}", "${x:100}", "${x: -100}",
		"${x/x/y}", "${x//X/-}", "${x/#\\//}", "${x/%\\//}", "${x/home/&&}", "${x//[ab]/<&>}", `${x/home/\&}`, "${x/home/'&'}",
		`${x/home/"&"}`, "${x/*/z}", "${x//?/.}", "${x/#/P}", "${x/%/S}", "${x/}", "${x//}", "${x/a}", "${x//*}",
		"${x,,}", "${x^^}", "${x^}", "${x,}", "${x%%+(/)}", "${x/#/}",
		"${x?}", "${x:?}", "${x:?oops}", "${x@L}", "${x@U}", "${x@u}", "${x@E}", "${x@P}", "${x@Q}",
	}
	// These must be worked out, not declined: each names the home's
	// parent or the root for some home (a red team's rm -rf "${HOME%/*}").
	mustWork := map[string]bool{"${x%/}": true, "${x%/*}": true, "${x%%/*}": true, "${x::1}": true, "${x:0:1}": true,
		"${x/x/y}": true, "${x,,}": true, "${x#}": true, "${x:0}": true, "${x/home/&&}": true}
	worked := 0
	defer func() {
		if worked < len(vals)*len(exps)*3/4 {
			t.Errorf("only %d of %d expansions worked out", worked, len(vals)*len(exps))
		}
	}()
	for _, v := range vals {
		for _, e := range exps {
			f, err := syntax.NewParser().Parse(strings.NewReader("echo "+e), "")
			if err != nil {
				t.Fatalf("%s: %v", e, err)
			}
			pe, ok := f.Stmts[0].Cmd.(*syntax.CallExpr).Args[1].Parts[0].(*syntax.ParamExp)
			if !ok {
				t.Fatalf("%s: not a parameter expansion", e)
			}
			got, ok := paramOp(pe, v)
			if !ok {
				if mustWork[e] {
					t.Errorf("x=%q %s: declined", v, e)
				}
				continue
			}
			worked++
			out, err := exec.Command(bash, "-c", `x=$1; printf '%s' "`+e+`"`, "bash", v).Output()
			if err != nil {
				t.Errorf("x=%q %s: the guard works out %q; bash fails (%v)", v, e, got, err)
				continue
			}
			if got != string(out) {
				t.Errorf("x=%q %s: the guard works out %q, bash %q", v, e, got, out)
			}
		}
	}
}
