package judge

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/guard-exec/guard-exec/policy"
	"github.com/guard-exec/guard-exec/pycode"
)

// TestPythonJudgedByContent judges python commands with the real python3:
// harmless code is allowed, and a command the code runs is judged as that
// command (a deny rule for the witness `touch pwned` decides it). Nothing
// is run but the parser.
func TestPythonJudgedByContent(t *testing.T) {
	py, err := exec.LookPath("python3")
	if _, e := os.Stat("/usr/bin/python3"); e == nil {
		py, err = "/usr/bin/python3", nil
	}
	if err != nil {
		t.Skip("no python3 on PATH: the analysis needs a real interpreter")
	}
	dir := t.TempDir()
	f, err := policy.ParseFile("t.toml", []byte("[[rule]]\ndecision = \"deny\"\ncommand = \"touch pwned\"\n"), policy.User)
	if err != nil {
		t.Fatal(err)
	}
	pol, err := policy.Build(policy.Sources{Env: &policy.Env{Home: "/nonexistent-home", Project: dir, Temp: []string{"/tmp"}}, User: f})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Dir(py)
	getenv := func(k string) string {
		if k == "PATH" {
			return path
		}
		return ""
	}
	an := &pycode.Analyser{Getenv: getenv}
	for _, tc := range []struct{ src, want, reason string }{
		{`python3 -c 'print(1+1)'`, "allow", ""},
		{`python3 -c 'import os; os.system("touch pwned")'`, "deny", ""},
		{"python3 <<'EOF'\nimport subprocess\nsubprocess.run(['touch', 'pwned'])\nEOF", "deny", ""},
		{`echo 'print(2)' | python3`, "allow", ""},
		{`python3 -c 'import shutil; shutil.rmtree("build")'`, "ask", "uses shutil.rmtree"},
		{`python3 -c 'open("/etc/hosts", "w").write("x")'`, "ask", "outside the project"},
		{`python3 -c 'import os; os.makedirs("build/x", exist_ok=True)'`, "allow", ""},
		{`python3 -c 'import os; os.makedirs("/opt/x")'`, "ask", "outside the project"},
		{`python3 -c 'import os; os.remove("/etc/passwd")'`, "ask", "outside the project"},
		{`python3 -c 'import shutil; shutil.copy(".env", "x")'`, "ask", "dotenv"},
		{`python3 -c 'def f(:'`, "ask", "syntax error"},
	} {
		res := Judge(pol, Request{Source: tc.src, Cwd: dir, Getenv: getenv, Params: []string{"bash"}, Python: an})
		if res.Decision != tc.want || !strings.Contains(res.Reason, tc.reason) {
			t.Errorf("%s: %s (%s), want %s (%s)", tc.src, res.Decision, res.Reason, tc.want, tc.reason)
		}
		if tc.want == "deny" {
			found := false
			for _, p := range res.Commands {
				if strings.Join(p.Argv, " ") == "touch pwned" && len(p.Via) > 0 && strings.HasPrefix(p.Via[len(p.Via)-1], "python ") {
					found = true
				}
			}
			if !found {
				t.Errorf("%s: no part `touch pwned` via python", tc.src)
			}
		}
	}
	// Without an analyser the code stays opaque, as before.
	if res := Judge(pol, Request{Source: `python3 -c 'print(1)'`, Cwd: dir, Getenv: getenv}); res.Decision != "ask" {
		t.Errorf("without an analyser: %s", res.Decision)
	}
	if _, err := os.Stat(filepath.Join(dir, "pwned")); err == nil {
		t.Error("the witness ran")
	}
}

// TestPythonFilesChangedFirst: what the Python code was judged by (the
// script, the project modules it imports, and where each module name was
// looked up) must not be written by the same command before it runs; a
// script the command writes itself, with a content known here, is judged
// by that content.
func TestPythonFilesChangedFirst(t *testing.T) {
	py, err := exec.LookPath("python3")
	if _, e := os.Stat("/usr/bin/python3"); e == nil {
		py, err = "/usr/bin/python3", nil
	}
	if err != nil {
		t.Skip("no python3 on PATH: the analysis needs a real interpreter")
	}
	out, err := exec.Command(py, "-c", "import sys; print(sys.implementation.cache_tag)").Output()
	if err != nil {
		t.Fatal(err)
	}
	tag := strings.TrimSpace(string(out))
	dir := t.TempDir()
	for name, mode := range map[string]string{"unchecked": "UNCHECKED_HASH", "checked": "CHECKED_HASH"} {
		if err := os.WriteFile(filepath.Join(dir, name+".py"), []byte("print(1)\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		c := exec.Command(py, "-c", "import py_compile, sys; py_compile.compile(sys.argv[1], invalidation_mode=py_compile.PycInvalidationMode."+mode+")", name+".py")
		c.Dir = dir
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("py_compile: %v\n%s", err, out)
		}
	}
	// Caches whose header matches the source but that hold other code
	// (forged: by time and size; forgedhash: by a checked hash), one
	// whose header does not match (stale: Python compiles the source
	// again), and Python's own (genuine).
	forge := `import importlib.util, importlib._bootstrap_external as be, os, sys, py_compile
for name in ("forged", "forgedhash", "stale", "genuine"):
    with open(name + ".py", "w") as f:
        f.write("print('source')\n")
    st, src = os.stat(name + ".py"), open(name + ".py", "rb").read()
    other = compile("import os\nos.system('touch pwned')\n", name + ".py", "exec", dont_inherit=True)
    p = importlib.util.cache_from_source(name + ".py")
    os.makedirs(os.path.dirname(p), exist_ok=True)
    if name == "forged":
        data = be._code_to_timestamp_pyc(other, int(st.st_mtime), st.st_size)
    elif name == "forgedhash":
        data = be._code_to_hash_pyc(other, importlib.util.source_hash(src), True)
    elif name == "stale":
        data = be._code_to_timestamp_pyc(other, int(st.st_mtime) - 7, st.st_size)
    else:
        py_compile.compile(name + ".py")
        continue
    with open(p, "wb") as f:
        f.write(data)
`
	fc := exec.Command(py, "-c", forge)
	fc.Dir = dir
	if out, err := fc.CombinedOutput(); err != nil {
		t.Fatalf("forging caches: %v\n%s", err, out)
	}
	for name, text := range map[string]string{
		"fine.py":   "print('hi')\n",
		"uses.py":   "import helper\nprint(helper.f())\n",
		"helper.py": "def f():\n    return 1\n",
		"js.py":     "import json\nprint(json.dumps(1))\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := policy.ParseFile("t.toml", []byte("[[rule]]\ndecision = \"deny\"\ncommand = \"touch pwned\"\n"), policy.User)
	if err != nil {
		t.Fatal(err)
	}
	// The project is not under a temporary directory (t.TempDir is), or
	// every write in it would be allowed as a write there.
	pol, err := policy.Build(policy.Sources{Env: &policy.Env{Home: "/nonexistent-home", Project: dir}, User: f})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Dir(py)
	getenv := func(k string) string {
		if k == "PATH" {
			return path
		}
		return ""
	}
	an := &pycode.Analyser{Getenv: getenv}
	for _, tc := range []struct{ src, want, reason string }{
		{"python3 fine.py", "allow", ""},
		{"python3 uses.py && python3 js.py > out.txt", "allow", ""},
		{`echo 'import os; os.system("touch pwned")' > fine.py; python3 fine.py`, "ask", "runs the Python file " + dir + "/fine.py, which a part of this command may change"},
		{`sed -i 's/hi/ho/' fine.py && python3 fine.py`, "ask", "may change before it runs"},
		{`echo 'def f(): return 2' > helper.py; python3 uses.py`, "ask", "may change before it runs"},
		{`mkdir -p helper && echo x > helper/__init__.py; python3 uses.py`, "ask", "imports helper"},
		{`echo x > __pycache__/helper.cpython-312.pyc; python3 uses.py`, "ask", "helper"}, // the cache, or a name looked up
		{`echo x > json.py; python3 js.py`, "ask", "imports json"},
		{`echo x > json.cpython-312-x86_64-linux-gnu.so; python3 -c 'import json'`, "ask", "imports json"},
		{`python3 js.py > json.txt`, "allow", ""}, // not a file python imports
		{`chmod +x fine.py && python3 fine.py`, "allow", ""},
		// Written by the command first, and not there before.
		{"cat > new.py <<'EOF'\nimport json\nprint(json.dumps({'a': 1}))\nEOF\npython3 new.py", "allow", ""},
		{"cat > new.py <<'EOF'\nimport subprocess\nsubprocess.run(['touch', 'pwned'])\nEOF\npython3 new.py", "deny", ""},
		{"cat > new.py <<'EOF'\n#!/usr/bin/env python3\nimport os\nos.system('touch pwned')\nEOF\nchmod +x new.py && ./new.py", "deny", ""},
		{"cat > new.py <<'EOF' &\nprint(1)\nEOF\npython3 new.py", "ask", "new.py"},
		{"cat > fine.py <<'EOF'\nprint(1)\nEOF\npython3 fine.py", "ask", "may change before it runs"},
		// The compiled cache of an imported module is what runs when its
		// header matches (a red team's unchecked-hash .pyc, with this
		// interpreter's own tag); the main script's is never used.
		{"mkdir -p __pycache__ && echo 00 | xxd -r -p > __pycache__/helper." + tag + ".pyc && python3 -c 'import helper'", "ask", "compiled cache of " + dir + "/helper.py"},
		{"echo x > __pycache__/helper." + tag + ".pyc; python3 uses.py", "ask", "compiled cache"},
		{"echo x > __pycache__/helper." + tag + ".pyc; python3 -m helper", "ask", "compiled cache"},
		{"echo x > __pycache__/uses." + tag + ".pyc; python3 uses.py", "allow", ""},
		// One already there that Python never checks against the source
		// (a red team's committed unchecked-hash .pyc) runs instead of it.
		{"python3 -c 'import unchecked'", "ask", "unchecked-hash"},
		{"python3 -m unchecked", "ask", "unchecked-hash"},
		{"python3 -c 'import checked'", "allow", ""},
		// One whose header matches the source but whose code is other
		// code (written by an earlier command) runs instead of it.
		{"python3 -c 'import forged'", "ask", "holds other code than its source"},
		{"python3 -m forged", "ask", "holds other code than its source"},
		{"python3 -c 'import forgedhash'", "ask", "holds other code than its source"},
		{"python3 -c 'import stale'", "allow", ""},
		{"python3 -c 'import genuine'", "allow", ""},
		{"python3 -m genuine", "allow", ""},
		// A version manager's shim runs the Python the text chooses (a red
		// team ran 3.12's and 3.13's standard library this way).
		{"PYENV_VERSION=3.12.1 python3 fine.py", "ask", "PYENV_VERSION is set here"},
		{"export ASDF_PYTHON_VERSION=3.13.0; python3 -c 'print(1)'", "ask", "ASDF_PYTHON_VERSION is set here"},
		{"PYENV_HOOK_PATH=$PWD/hk python3 fine.py", "ask", "PYENV_HOOK_PATH is set here"},
		{"PYENV_DEBUG=1 python3 fine.py", "ask", "PYENV_DEBUG is set here"},
		{"echo 3.12.1 > .python-version && python3 fine.py", "ask", "runs the Python that " + dir + "/.python-version chooses"},
		{"echo 'python 3.12.1' > ../.tool-versions; python3 fine.py", "ask", "chooses"},
		// /dev/stdout names the file on fd 1 (a red team's, under 1<F and >&-).
		{`python3 -c "open('/dev/stdout','w').write('x')"`, "allow", ""},
		{`python3 -c "open('/dev/stdout','w').write('x')" 1<fine.py`, "ask", "a file the shell has open"},
		{`python3 -c "f=open('fine.py'); open('/dev/stdout','w').write('x')" >&-`, "ask", "a file the shell has open"},
	} {
		res := Judge(pol, Request{Source: tc.src, Cwd: dir, Getenv: getenv, Params: []string{"bash"}, Python: an})
		if res.Decision != tc.want || !strings.Contains(res.Reason, tc.reason) {
			t.Errorf("%q: %s (%s), want %s (%s)", tc.src, res.Decision, res.Reason, tc.want, tc.reason)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "pwned")); err == nil {
		t.Error("the witness ran")
	}
}

// TestReadThroughLinks: a script or module read through a link is
// changed by a write to the link's target; a write through a link and
// ".." goes where the kernel takes it; /dev/stdin and /dev/fd/N are the
// shell's, not the guard's.
func TestReadThroughLinks(t *testing.T) {
	py, err := exec.LookPath("python3")
	if _, e := os.Stat("/usr/bin/python3"); e == nil {
		py, err = "/usr/bin/python3", nil
	}
	if err != nil {
		t.Skip("no python3 on PATH: the analysis needs a real interpreter")
	}
	home := t.TempDir()
	dir := filepath.Join(home, "proj")
	if err := os.MkdirAll(filepath.Join(home, ".config"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"g.txt": "echo hi\n", "data.txt": "X = 1\n", "a/keep": ""} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{"x.sh": "g.txt", "helper.py": "data.txt", "dangling.sh": "nowhere.sh", "k/m/l": filepath.Join(dir, "a"), "k/m/c": filepath.Join(home, ".config")} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, link)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	pol, err := policy.Build(policy.Sources{Env: &policy.Env{Home: home, Project: dir, FollowLinks: true}})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Dir(py)
	getenv := func(k string) string {
		if k == "PATH" {
			return path
		}
		return ""
	}
	an := &pycode.Analyser{Getenv: getenv}
	for _, tc := range []struct{ src, want, reason string }{
		{"bash x.sh", "allow", ""},
		{"python3 -c 'import helper'", "allow", ""},
		{"echo 'rm -rf ~' > g.txt; bash x.sh", "ask", "may change before it runs"},
		{`echo 'import os' > data.txt; python3 -c 'import helper'`, "ask", "may change before it runs"},
		{"cat > dangling.sh <<'EOF'\necho hi\nEOF\necho 'rm -rf ~' > nowhere.sh; bash dangling.sh", "ask", ""},
		{"cat > y.sh <<'EOF'\necho hi\nEOF\necho 'rm -rf ~' > k/m/l/../y.sh; bash y.sh", "ask", "may change before it runs"},
		{"echo x > k/m/l/../z.txt", "allow", ""},
		{"echo x > k/m/c/../.bashrc", "ask", "dotfiles"}, // c/.. is the home, not k/m
		{"ln -s ~/.config n; echo x > n/../.bashrc", "ask", ""},
		{"bash /dev/stdin < g.txt", "ask", "/dev/stdin"},
		{"bash /dev/fd/5 5< g.txt", "ask", ""},
		{"python3 /proc/self/fd/5 5< data.txt", "ask", ""},
	} {
		res := Judge(pol, Request{Source: tc.src, Cwd: dir, Getenv: getenv, Params: []string{"bash"}, Python: an})
		if res.Decision != tc.want || !strings.Contains(res.Reason, tc.reason) {
			t.Errorf("%q: %s (%s), want %s (%s)", tc.src, res.Decision, res.Reason, tc.want, tc.reason)
		}
	}
}

// TestPythonShadowedModules: python finds every module by name in the
// script's directory (or the working directory) and PYTHONPATH before the
// standard library, also the modules the standard library imports, and in
// PYTHONPATH what it imports at start-up.
func TestPythonShadowedModules(t *testing.T) {
	py, err := exec.LookPath("python3")
	if _, e := os.Stat("/usr/bin/python3"); e == nil {
		py, err = "/usr/bin/python3", nil
	}
	if err != nil {
		t.Skip("no python3 on PATH: the analysis needs a real interpreter")
	}
	dir, other := t.TempDir(), t.TempDir()
	for name, text := range map[string]string{"ok.py": "print(1)\n", "test.py": "print(2)\n", "lib/gettext.py": "import os\n", "site/sitecustomize.py": "import os\n",
		"tz/tzdata/__init__.py": "import os\n", "tz/tzdata/zoneinfo/__init__.py": "", "jy/org/__init__.py": "", "jy/org/python/__init__.py": "",
		"jy/org/python/core.py": "class PyStringMap(dict): pass\n", "evd/__init__.py": "import os\n"} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// evd/r leads two levels up once evd has moved one level down.
	if err := os.Symlink("../..", filepath.Join(dir, "evd", "r")); err != nil {
		t.Fatal(err)
	}
	pol, err := policy.Build(policy.Sources{Env: &policy.Env{Home: other, Project: dir}})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Dir(py)
	getenv := func(k string) string {
		if k == "PATH" {
			return path
		}
		return ""
	}
	an := &pycode.Analyser{Getenv: getenv}
	for _, tc := range []struct{ src, want, reason string }{
		{"python3 ok.py", "allow", ""},
		{"python3 test.py", "allow", ""}, // the standard library's test package is never imported for code
		{"python3 -c 'import argparse'", "allow", ""},
		{"cd lib && python3 -c 'import argparse'", "ask", "in the place of the standard library's gettext"},
		// What the standard library imports from outside it when found
		// (a red team's tzdata/ for zoneinfo, org/python/core.py for copy).
		{"cd tz && python3 -c \"import zoneinfo; zoneinfo.ZoneInfo('No/Such')\"", "ask", "imports as tzdata"},
		{"cd jy && python3 -c 'import dataclasses; print(1)'", "ask", "imports as org"},
		{"python3 -c 'import zoneinfo'", "allow", ""},
		{"mkdir tzdata && touch tzdata/__init__.py; python3 -c 'import zoneinfo'", "ask", "may change before it runs"},
		// A package moved into a module's name, by the code itself too.
		{"python3 -c \"import pathlib; pathlib.Path('evd').rename('_json'); import json\"", "ask", "may change before it runs"},
		{"mv evd copy; python3 -c 'import dataclasses'", "ask", "may change before it runs"},
		{"mkdir -p out && python3 -c 'import json'", "allow", ""},
		// Path.rename is mv's: the tree moves, links and all.
		{"python3 -c \"import pathlib; pathlib.Path('evd').rename('e2'); open('e2/r/x','w')\"", "ask", "writes a tree"},
		{"cd lib && python3 -m json.tool /dev/null", "ask", "gettext"}, // a module of the standard library, run from there
		{"python3 -m json.tool /dev/null", "allow", ""},
		{"echo x > argparse.py; python3 -m json.tool /dev/null", "ask", "may change before it runs"},
		{"PYTHONPATH=lib python3 ok.py", "ask", "gettext"},
		{"PYTHONPATH=site python3 ok.py", "ask", "when it starts"},
		{"echo x > gettext.py; python3 -c 'import argparse'", "ask", "may change before it runs"},
		{"mkdir -p email && echo x > email/__init__.py; python3 ok.py", "ask", "may change before it runs"},
		{"echo x > sitecustomize.py; PYTHONPATH=. python3 -c 'print(1)'", "ask", "may change before it runs"},
		{"echo x > notes.txt; python3 ok.py > out.json", "allow", ""},
	} {
		res := Judge(pol, Request{Source: tc.src, Cwd: dir, Getenv: getenv, Params: []string{"bash"}, Python: an})
		if res.Decision != tc.want || !strings.Contains(res.Reason, tc.reason) {
			t.Errorf("%q: %s (%s), want %s (%s)", tc.src, res.Decision, res.Reason, tc.want, tc.reason)
		}
	}
}
