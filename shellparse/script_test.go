package shellparse_test

import (
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"testing"

	"github.com/guard-exec/guard-exec/shellparse"
)

// fakeFS is a file system of scripts: a text, or the error reading it
// gives. It records what was read.
type fakeFS struct {
	files map[string]any
	reads []string
}

func (f *fakeFS) read(path string) ([]byte, error) {
	f.reads = append(f.reads, path)
	switch v := f.files[path].(type) {
	case string:
		return []byte(v), nil
	case error:
		return nil, &fs.PathError{Op: "open", Path: path, Err: v}
	}
	return nil, &fs.PathError{Op: "open", Path: path, Err: fs.ErrNotExist}
}

func scriptFS() *fakeFS {
	deep := map[string]any{}
	for i := 0; i < 12; i++ {
		deep[fmt.Sprintf(proj+"/d%d.sh", i)] = fmt.Sprintf(". ./d%d.sh\n", i+1)
	}
	files := map[string]any{
		proj + "/ok.sh":      "#!/bin/bash\n# a comment\necho \"$1\" \"$2\" \"$0\"\n",
		proj + "/plain.sh":   "echo hi\n",
		proj + "/bad.sh":     "#!/bin/sh\ntouch pwned\n",
		proj + "/env.sh":     "A=1\nf() { touch made; }\ncd /tmp\n",
		proj + "/main.sh":    "#!/usr/bin/env bash\nsource ./lib.sh\nhello \"$@\"\n",
		proj + "/lib.sh":     "hello() { rm -rf \"$1\"; }\n",
		proj + "/self.sh":    ". ./self.sh\n",
		proj + "/ret.sh":     "return\ntouch skipped\n",
		proj + "/args.sh":    "set -- q\n",
		proj + "/shift.sh":   "shift\n",
		proj + "/envs.sh":    "#!/usr/bin/env -S bash -e\nls \"$1\"\n",
		proj + "/stdin.sh":   "#!/bin/sh -s\nls\n",
		proj + "/tool.py":    "#!/usr/bin/env python3\nimport os\n",
		proj + "/tool2":      "#!/usr/bin/python3\nprint(1)\n",
		proj + "/rel.sh":     "#!bash\nls\n",
		proj + "/local.sh":   "#!/home/u/proj/bin/bash\nls\n",
		proj + "/tmpsh.sh":   "#!/tmp/bash\nls\n",
		proj + "/elf":        "\x7fELF\x02\x01\x01\x00",
		proj + "/broken.sh":  "#!/bin/bash\nif then\n",
		proj + "/posix.sh":   "#!/bin/sh\necho $'a'\n",
		proj + "/locked.sh":  fs.ErrPermission,
		proj + "/fifo.sh":    shellparse.ErrNotRegular,
		proj + "/dir.sh":     shellparse.ErrDirectory,
		proj + "/sub/in.sh":  "ls\n",
		"/usr/bin/onpath.sh": "echo from-path\n",
		proj + "/onpath.sh":  "echo from-cwd\n",
		"/opt/bin/lib2.sh":   "echo from-opt\n",
	}
	for k, v := range deep {
		files[k] = v
	}
	return &fakeFS{files: files}
}

func scriptEnv(k string) string {
	if k == "PATH" {
		return "/usr/local/bin:/usr/bin:/bin"
	}
	return getenv(k)
}

func parseScripts(src string, f *fakeFS) (*shellparse.Result, error) {
	return shellparse.Parse(src, shellparse.Options{Cwd: proj, Getenv: scriptEnv, ReadScript: f.read})
}

func TestScriptsByContent(t *testing.T) {
	const bash = "#!/bin/bash"
	cases := []tcase{
		// Run directly: the #! line names the shell, which runs it with
		// the arguments; $0 is the name it was run by.
		{"./ok.sh a b", []string{"./ok.sh a b", "/bin/bash ./ok.sh a b via=" + bash, "echo a b ./ok.sh via=" + bash + ">script ./ok.sh:3"}},
		{`./ok.sh "$x"`, []string{"./ok.sh ⟨$x⟩", "/bin/bash ./ok.sh ⟨$x⟩ via=" + bash, "echo ⟨$1⟩ ⟨$2⟩ ⟨$0⟩ via=" + bash + ">script ./ok.sh:3"}},
		{"bash ok.sh a", []string{"bash ok.sh a", "echo a '' ok.sh via=script ok.sh:3"}},
		{"sh -e ./ok.sh", []string{"sh -e ./ok.sh", "echo '' '' ./ok.sh via=script ./ok.sh:3"}},
		{"./bad.sh", []string{"./bad.sh", "/bin/sh ./bad.sh via=#!/bin/sh", "touch pwned via=#!/bin/sh>script ./bad.sh:2"}},
		{"cd sub && ./in.sh", []string{"cd sub", "./in.sh cwd=" + proj + "/sub", "ls via=script ./in.sh:1 cwd=" + proj + "/sub"}},
		// No #! line: the shell runs it itself.
		{"./plain.sh", []string{"./plain.sh", "echo hi via=script ./plain.sh:1"}},
		{"/home/u/proj/plain.sh", []string{"/home/u/proj/plain.sh", "echo hi via=script /home/u/proj/plain.sh:1"}},
		{"env ./plain.sh", []string{"env ./plain.sh", "./plain.sh via=wrapper env", "echo hi via=wrapper env>script ./plain.sh:1"}},
		// env finds the shell; env -S splits its options.
		{"./envs.sh x", []string{"./envs.sh x", "/usr/bin/env '-S bash -e' ./envs.sh x via=#!/usr/bin/env -S bash -e",
			"bash -e ./envs.sh x via=#!/usr/bin/env -S bash -e>wrapper env", "ls x via=#!/usr/bin/env -S bash -e>wrapper env>script ./envs.sh:2"}},
		// sh -s reads its input, not the file.
		{"./stdin.sh", []string{"./stdin.sh", "/bin/sh -s ./stdin.sh via=#!/bin/sh -s OPAQUE"}},
		// Sourced: it runs in this shell, and what it changes stays.
		{"source ./env.sh; echo $A; f; pwd", []string{"source ./env.sh", "A=1 via=script ./env.sh:1", "cd /tmp via=script ./env.sh:3",
			"echo 1 cwd=/tmp," + proj, "touch made via=function f cwd=/tmp," + proj, "pwd cwd=/tmp," + proj}},
		{". env.sh; echo $A", []string{". env.sh", "A=1 via=script env.sh:1", "cd /tmp via=script env.sh:3", "echo 1 cwd=/tmp," + proj}},
		// A new shell keeps nothing of it.
		{"bash env.sh; echo $A; pwd", []string{"bash env.sh", "A=1 via=script env.sh:1", "cd /tmp via=script env.sh:3", "echo ⟨$A⟩", "pwd"}},
		// One that sources another, calling what it defines.
		{"./main.sh build", []string{"./main.sh build", "/usr/bin/env bash ./main.sh build via=#!/usr/bin/env bash",
			"bash ./main.sh build via=#!/usr/bin/env bash>wrapper env",
			"source ./lib.sh via=#!/usr/bin/env bash>wrapper env>script ./main.sh:2",
			"rm -rf build via=#!/usr/bin/env bash>wrapper env>script ./main.sh:3>function hello"}},
		// return ends the sourced file, not the caller.
		{"source ./ret.sh; touch after", []string{"source ./ret.sh", "return via=script ./ret.sh:1", "touch skipped via=script ./ret.sh:2", "touch after"}},
		// Arguments of source are $1… while it runs; set -- keeps new ones.
		{"set -- a b; source ./args.sh x; echo $1", []string{"set -- a b", "source ./args.sh x", "set -- q via=script ./args.sh:1", "echo ⟨$1⟩"}},
		{"set -- a b; source ./shift.sh x y; echo $1", []string{"set -- a b", "source ./shift.sh x y", "shift via=script ./shift.sh:1", "echo ⟨$1⟩"}},
		{"set -- a b; source ./ok.sh x; echo $1", []string{"set -- a b", "source ./ok.sh x", "echo x '' bash via=script ./ok.sh:3", "echo a"}},
		// Looked up as bash looks: source searches PATH first, bash FILE
		// the working directory first.
		{"source onpath.sh", []string{"source onpath.sh", "echo from-path via=script onpath.sh:1"}},
		{"bash onpath.sh", []string{"bash onpath.sh", "echo from-cwd via=script onpath.sh:1"}},
		{"PATH=/opt/bin; source lib2.sh", []string{"PATH=/opt/bin", "source lib2.sh", "echo from-opt via=script lib2.sh:1"}},
		{`eval "$x"; source onpath.sh`, []string{"eval ⟨$x⟩ OPAQUE", "source onpath.sh OPAQUE"}},
		// A script not read may set PATH to anything: that asks too.
		{"PATH=$x; source lib2.sh", []string{"PATH=⟨$x⟩ OPAQUE", "PATH=⟨$x⟩", "source lib2.sh OPAQUE", "PATH=⟨(a value of PATH the text gives)⟩ OPAQUE"}},
		{"bash -c 'PATH=/x:$PATH; bash -c \"source onpath.sh\"'", []string{"bash -c 'PATH=/x:$PATH; bash -c \"source onpath.sh\"'", "PATH=⟨/x:$PATH⟩ via=shell bash",
			"bash -c 'source onpath.sh' via=shell bash", "source onpath.sh via=shell bash>shell bash OPAQUE"}},
		// What cannot be read stays opaque (or, run directly, a program
		// file of the project: what it holds, which asks).
		{"source ./locked.sh", []string{"source ./locked.sh OPAQUE"}},
		{"./locked.sh", []string{"./locked.sh OPAQUE", "./locked.sh"}},
		{"bash fifo.sh", []string{"bash fifo.sh OPAQUE"}},
		{"./fifo.sh", []string{"./fifo.sh OPAQUE", "./fifo.sh"}},
		{". ./dir.sh", []string{". ./dir.sh OPAQUE"}},
		{"source ./missing.sh", []string{"source ./missing.sh OPAQUE"}},
		{"./missing.sh", []string{"./missing.sh OPAQUE", "./missing.sh"}},
		{`cd "$d"; ./ok.sh`, []string{"cd ⟨$d⟩", "./ok.sh OPAQUE cwd=" + proj + "?", "./ok.sh cwd=" + proj + "?"}},
		{`source "$f"`, []string{"source ⟨$f⟩ OPAQUE"}},
		{"./broken.sh", []string{"./broken.sh", "/bin/bash ./broken.sh via=#!/bin/bash", "/bin/bash ./broken.sh via=#!/bin/bash>script ./broken.sh OPAQUE"}},
		// Another interpreter, a binary, a relative interpreter: program
		// files of the project, which ask besides.
		{"./tool.py", []string{"./tool.py OPAQUE", "./tool.py"}},
		{"./tool2 x", []string{"./tool2 x OPAQUE", "./tool2 x"}},
		{"./elf", []string{"./elf OPAQUE", "./elf"}},
		{"./rel.sh", []string{"./rel.sh OPAQUE", "./rel.sh"}},
		{"./local.sh", []string{"./local.sh OPAQUE", "./local.sh"}},
		{"./tmpsh.sh", []string{"./tmpsh.sh OPAQUE", "./tmpsh.sh"}},
		// bash calls a function named like the path, not the file.
		{"./ok.sh() { touch f; }; ./ok.sh", []string{"touch f via=function ./ok.sh", "./ok.sh", "/bin/bash ./ok.sh via=" + bash, "echo '' '' ./ok.sh via=" + bash + ">script ./ok.sh:3"}},
		// A script that runs itself, and scripts nested past the bound.
		{"source ./self.sh", []string{"source ./self.sh", ". ./self.sh via=script ./self.sh:1 OPAQUE"}},
		{"./self.sh", []string{"./self.sh", ". ./self.sh via=script ./self.sh:1 OPAQUE"}},
	}
	for _, tc := range cases {
		res, err := parseScripts(tc.src, scriptFS())
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.src, err)
			continue
		}
		got := dedup(renderAll(res))
		if !slices.Equal(got, tc.want) {
			t.Errorf("Parse(%q)\n got  %s\n want %s", tc.src, fmtList(got), fmtList(tc.want))
		}
	}
}

// A script read for sh is read as POSIX sh and as bash: either may run it.
// A file without a #! line is run by bash itself when bash runs it, by
// /bin/sh when another program does.
func TestScriptDialects(t *testing.T) {
	f := scriptFS()
	f.files[proj+"/nosh.sh"] = "echo $'a'\n"
	for _, c := range []struct {
		src, via string
		both     bool
	}{
		{"./posix.sh", "#!/bin/sh>script ./posix.sh:2", true},
		{"./nosh.sh", "script ./nosh.sh:1", false},
		{"f() { ./nosh.sh; }; f", "function f>script ./nosh.sh:1", false},
		{"env ./nosh.sh", "wrapper env>script ./nosh.sh:1", true},
		{"xargs ./nosh.sh < /dev/null", "wrapper xargs>script ./nosh.sh:1", true},
		{"sh -c ./nosh.sh", "shell sh>script ./nosh.sh:1", true},
	} {
		res, err := parseScripts(c.src, f)
		if err != nil {
			t.Fatal(err)
		}
		got := renderAll(res)
		bash, posix := slices.Contains(got, "echo a via="+c.via), slices.Contains(got, "echo $a via="+c.via)
		if !bash || posix != c.both {
			t.Errorf("%s: want the bash reading of $'a'%s, got %s", c.src, map[bool]string{true: " and the POSIX one"}[c.both], fmtList(got))
		}
	}
}

func TestScriptDepth(t *testing.T) {
	res, err := parseScripts("source ./d0.sh", scriptFS())
	if err != nil {
		t.Fatal(err)
	}
	got := renderAll(res)
	last := got[len(got)-1]
	if len(got) != shellparse.MaxScriptDepth+1 || !strings.HasSuffix(last, "OPAQUE") || !strings.HasPrefix(last, fmt.Sprintf(". ./d%d.sh", shellparse.MaxScriptDepth)) {
		t.Errorf("nested scripts: want %d read and the next opaque, got %s", shellparse.MaxScriptDepth, fmtList(got))
	}
	if c := res.Cmds[len(res.Cmds)-1]; !strings.Contains(c.Opaque, "nested more than") {
		t.Errorf("nested scripts: the opaque part should say why: %q", c.Opaque)
	}
}

// Scripts that run scripts many times over are read up to a bound.
func TestScriptWalks(t *testing.T) {
	f := &fakeFS{files: map[string]any{}}
	for i := 0; i < 6; i++ {
		f.files[fmt.Sprintf(proj+"/f%d.sh", i)] = strings.Repeat(fmt.Sprintf("./f%d.sh\n", i+1), 4)
	}
	f.files[proj+"/f6.sh"] = "ls\n"
	res, err := parseScripts("./f0.sh", f)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.reads) != 7 {
		t.Errorf("each file is read once, got %d reads", len(f.reads))
	}
	opaque := 0
	for _, c := range res.Cmds {
		if c.Opaque != "" || strings.HasPrefix(c.Name(), "./f") && !c.Wrapper {
			opaque++
		}
	}
	t.Logf("%d parts, %d not read", len(res.Cmds), opaque)
	if opaque == 0 || len(res.Cmds) > 3*shellparse.MaxScriptWalks {
		t.Errorf("4^6 script runs: want the walk bounded with the rest asking, got %d parts, %d not read", len(res.Cmds), opaque)
	}
}

// Only commands that run a script read a file; a rule that allows the
// opaque command keeps the script unread.
func TestScriptsReadOnlyWhenRun(t *testing.T) {
	f := scriptFS()
	if _, err := parseScripts("ls ok.sh; cat ./ok.sh; echo ./ok.sh > ./ok.sh; f() { ./ok.sh; }", f); err != nil {
		t.Fatal(err)
	}
	if len(f.reads) != 0 {
		t.Errorf("read %v for commands that run no script", f.reads)
	}
	for _, src := range []string{"./ok.sh", "bash ok.sh", "source ok.sh"} {
		f := scriptFS()
		var asked []string
		res, err := shellparse.Parse(src, shellparse.Options{Cwd: proj, Getenv: scriptEnv, ReadScript: f.read,
			AllowedOpaque: func(c *shellparse.Cmd) bool { asked = append(asked, c.String()); return true },
			// ./ok.sh is a program file of the project: only a rule of
			// the person's covers it, which this one is.
			AllowedLocal: func(c *shellparse.Cmd) bool { asked = append(asked, c.String()); return true }})
		if err != nil {
			t.Fatal(err)
		}
		if len(f.reads) != 0 || len(asked) != 1 || len(res.Cmds) != 1 {
			t.Errorf("%q allowed as it is: read %v, asked %v, got %s", src, f.reads, asked, fmtList(renderAll(res)))
		}
	}
}
