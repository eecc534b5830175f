package shellparse

import (
	"strings"
	"testing"

	"github.com/guard-exec/guard-exec/pycode"
)

// fakePython answers from a table, recording what it was asked.
type fakePython struct {
	got []pycode.Source
	res map[string]*pycode.Result // by Code, File or Module
}

func (f *fakePython) Analyse(s pycode.Source) *pycode.Result {
	f.got = append(f.got, s)
	for _, k := range []string{s.Code, s.File, s.Module} {
		if r, ok := f.res[k]; ok && k != "" {
			return r
		}
	}
	return &pycode.Result{Unread: "not in the fake"}
}

func (f *fakePython) Shebang(path string) (string, bool) {
	if strings.HasSuffix(path, ".py") {
		return "/usr/bin/python3", true
	}
	return "", false
}

func TestPythonWalk(t *testing.T) {
	fake := &fakePython{res: map[string]*pycode.Result{
		"print(1)":   {},
		"print(1)\n": {},
		"sys":        {Commands: []pycode.Command{{Shell: "touch pwned", Via: "python os.system"}}},
		"run":        {Commands: []pycode.Command{{Argv: []string{"git", "status"}, Via: "python subprocess.run"}}},
		"w":          {Effects: []pycode.Effect{{Path: "out.txt", Write: true, Via: "python open()"}}},
		"bad":        {Asks: []string{"imports shutil (line 1)"}},
		"/p/x.py":    {},
		"/p/sys.py":  {Commands: []pycode.Command{{Shell: "touch pwned", Via: "python os.system"}}},
		"/p/tool.py": {Asks: []string{"uses os.remove (line 3)"}},
		"mypkg":      {},
		"pytest":     {NotLocal: true},
	}}
	for _, tc := range []struct{ src, want string }{
		{`python3 -c 'print(1)'`, "python3 -c print(1)"},
		{`python3 -c sys`, "python3 -c sys | touch pwned [python os.system]"},
		{`python -c run`, "python -c run | git status [python subprocess.run]"},
		{`python3 -c w`, "python3 -c w | >out.txt [python open()]"},
		{`python3 -c bad`, "python3 -c bad | python3 -c bad (the Python code imports shutil (line 1))"},
		{`python3 x.py a b`, "python3 x.py a b"},
		// A script run by its path stays a program its rules decide; what
		// its code runs is judged besides.
		{`./tool.py`, "./tool.py (./tool.py is a program file in /p: it is what the file holds, not the tool.py the guard knows) | ./tool.py"},
		{`./sys.py`, "./sys.py (./sys.py is a program file in /p: it is what the file holds, not the sys.py the guard knows) | ./sys.py | touch pwned [python os.system]"},
		{`python3 -m mypkg`, "python3 -m mypkg"},
		{`python3 -m pytest -q`, "python3 -m pytest -q | pytest -q [python3 -m]"},
		{"python3 <<'EOF'\nprint(1)\nEOF", "python3 <<…"},
		{`python3 -c unknown`, "python3 -c unknown | python3 -c unknown (python3 runs inline code (-c) (not in the fake))"},
		{`PYTHONSTARTUP=x python3 -c 'print(1)'`, "PYTHONSTARTUP=x (setting PYTHONSTARTUP runs that file in python) | PYTHONSTARTUP=x python3 -c print(1) | PYTHONSTARTUP=x python3 -c print(1) (PYTHONSTARTUP is set, which changes what python runs)"},
		{`python3 -i -c 'print(1)'`, "python3 -i -c print(1) | python3 -i -c print(1) (python -i reads commands after the code runs)"},
		{`python3 -x -c 'print(1)'`, "python3 -x -c print(1) | python3 -x -c print(1) (python -x skips the script's first line, so the code it runs is not the file as read)"},
		{`python3 -W ignore -c 'print(1)'`, "python3 -W ignore -c print(1)"},
		{`python3 -W error::foo.Bar -c 'print(1)'`, "python3 -W error::foo.Bar -c print(1) | python3 -W error::foo.Bar -c print(1) (python -W names a warning category in a module, which python imports)"},
		{`cd "$D" && python3 -m pytest`, "cd $D | python3 -m pytest | pytest [python3 -m]"},
		{`python3 -m mypkg`, "python3 -m mypkg"},
		{`python3 -c "$X"`, "python3 -c $X | python3 -c $X (python3 runs inline code (-c))"},
	} {
		fake.got = nil
		res, err := Parse(tc.src, Options{Cwd: "/p", Python: fake})
		if err != nil {
			t.Errorf("%s: %v", tc.src, err)
			continue
		}
		var parts []string
		for _, c := range res.Cmds {
			s := c.String()
			if c.Opaque != "" {
				s += " (" + c.Opaque + ")"
			}
			if len(c.Via) > 0 {
				s += " [" + c.Via[len(c.Via)-1].Kind + "]"
			}
			parts = append(parts, s)
		}
		if got := strings.Join(parts, " | "); got != tc.want && len(fake.got) > 0 {
			t.Logf("asked %q", fake.got[0].Code)
		}
		if got := strings.Join(parts, " | "); got != tc.want {
			t.Errorf("%s:\n got  %s\n want %s", tc.src, got, tc.want)
		}
	}
	// Without an analyser nothing is run and the code stays opaque.
	res, _ := Parse(`python3 -c 'print(1)'`, Options{Cwd: "/p"})
	if len(res.Cmds) != 2 || res.Cmds[1].Opaque == "" {
		t.Errorf("without an analyser: %v", res.Cmds)
	}
}
