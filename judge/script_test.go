package judge_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/guard-exec/guard-exec/judge"
	"github.com/guard-exec/guard-exec/policy"
	"github.com/guard-exec/guard-exec/shellparse"
)

// Scripts are judged by their content: the verdict is what their commands
// get, and what cannot be read asks.
func TestScriptVerdicts(t *testing.T) {
	files := map[string]any{
		proj + "/fine.sh":   "#!/bin/bash\nset -euo pipefail\nls -la\ngrep -r TODO . | wc -l\necho \"done: $1\"\n",
		proj + "/pwn.sh":    "#!/bin/sh\necho hi\ntouch pwned\n",
		proj + "/outer.sh":  "#!/usr/bin/env bash\n. ./inner.sh\n",
		proj + "/inner.sh":  "touch pwned\n",
		proj + "/self.sh":   "source ./self.sh\n",
		proj + "/arg.sh":    "#!/bin/bash\ntouch \"$1\"\n",
		proj + "/rm.sh":     "rm -rf \"$1\"\n",
		proj + "/py":        "#!/usr/bin/env python3\nprint(1)\n",
		proj + "/locked.sh": fs.ErrPermission,
		proj + "/fifo.sh":   shellparse.ErrNotRegular,
	}
	read := func(p string) ([]byte, error) {
		switch v := files[p].(type) {
		case string:
			return []byte(v), nil
		case error:
			return nil, &fs.PathError{Op: "open", Path: p, Err: v}
		}
		return nil, &fs.PathError{Op: "open", Path: p, Err: fs.ErrNotExist}
	}
	user := "[[rule]]\ndecision = \"deny\"\ncommand = \"touch pwned\"\nwhy = \"witness\"\n" +
		"[[rule]]\ndecision = \"allow\"\ncommand = \"./allowed.sh\"\n" +
		"[[rule]]\ndecision = \"deny\"\ncommand = \"./fine.sh prod\"\n" +
		"[[rule]]\ndecision = \"allow\"\ncommand = \"mytool\"\n"
	f, err := policy.ParseFile("user.toml", []byte(user), policy.User)
	if err != nil {
		t.Fatal(err)
	}
	pol, err := policy.Build(policy.Sources{Env: &policy.Env{Home: home, Project: proj, Temp: []string{"/tmp"}}, User: f})
	if err != nil {
		t.Fatal(err)
	}
	files[proj+"/allowed.sh"] = "touch pwned\n" // a rule names it: its content is the rule's business
	for _, r := range []struct{ cmd, want, reason string }{
		{"./fine.sh x", "allow", ""},
		{"bash fine.sh", "allow", ""},
		{"source ./fine.sh", "allow", ""},
		{"./fine.sh prod", "deny", ""}, // a rule naming the script still applies
		{"./pwn.sh", "deny", "witness"},
		{"./pwn.sh --help", "deny", "witness"}, // no rule names it: read
		{"sh pwn.sh", "deny", "witness"},
		{"xargs ./pwn.sh < /dev/null", "deny", "witness"},
		{"./outer.sh", "deny", "witness"},
		{"./arg.sh pwned", "deny", "witness"},
		{"./arg.sh ok.txt", "allow", ""},
		{"./arg.sh \"$x\"", "ask", ""},
		{"./rm.sh ~", "deny", ""},
		{"./allowed.sh", "allow", ""},
		{"./fine.sh() { touch pwned; }; ./fine.sh", "deny", "witness"}, // bash calls the function
		// Changed by the same command before it runs: judged as it is now,
		// so it asks.
		{"echo 'touch pwned' > fine.sh; ./fine.sh", "ask", "may change before it runs"},
		{"cp pwn.sh fine.sh && bash fine.sh", "ask", "may change before it runs"},
		{"mv pwn.sh x; ./fine.sh x", "allow", ""},
		{"tar -xf a.tar && ./fine.sh", "ask", "may change before it runs"},
		{"echo x > \"$f\"; ./fine.sh", "ask", ""},
		{"mkdir -p out && ./fine.sh > out/log", "allow", ""},
		// An allowed program's guesses count where they name the script.
		{"mytool \"$x\"; ./fine.sh", "allow", ""},
		{"mytool fine.sh; ./fine.sh", "ask", "may change before it runs"},
		{"othertool \"$x\"; ./fine.sh", "ask", ""},
		// Written by the same command before it runs, with a content
		// known here, and not there before: judged by that content.
		{"cat > new.sh <<'EOF'\nls -la\nEOF\nbash new.sh", "allow", ""},
		{"cat <<'EOF' > new.sh 2>/dev/null\ngrep -r x .\nEOF\nchmod +x new.sh && ./new.sh", "allow", ""},
		{"cat > new.sh <<'EOF'\ntouch pwned\nEOF\nchmod +x new.sh && ./new.sh", "deny", "witness"},
		{"cat > new.sh <<EOF\ntouch pwned\nEOF\nsource ./new.sh", "deny", "witness"},
		{"cat - > new.sh <<<'touch pwned'; sh new.sh", "deny", "witness"},
		{"cat > new.sh <<'EOF'\nls\nEOF\necho 'touch pwned' >> new.sh; bash new.sh", "ask", "may change before it runs"},
		{"cat > new.sh <<'EOF'\nls\nEOF\ncat > new.sh <<'EOF'\ntouch x\nEOF\nbash new.sh", "ask", "may change before it runs"},
		{"cat > fine.sh <<'EOF'\nls\nEOF\n./fine.sh", "ask", "may change before it runs"}, // it was there: the write may fail
		// Not a write that is over when the script runs, not cat's
		// input, or not known here: the script cannot be read.
		{"cat > new.sh <<'EOF' &\nls\nEOF\nbash new.sh", "ask", "new.sh"},
		{"true | cat > new.sh <<'EOF'\nls\nEOF\nbash new.sh", "ask", "new.sh"},
		{"(cat > new.sh <<'EOF'\nls\nEOF\n) & bash new.sh", "ask", "new.sh"},
		{"cat > new.sh <<EOF\n$x\nEOF\nbash new.sh", "ask", ""},
		{"cat -n > new.sh <<'EOF'\nls\nEOF\nbash new.sh", "ask", "new.sh"},
		{"cat > new.sh 1>&2 <<'EOF'\nls\nEOF\nbash new.sh", "ask", "new.sh"},
		{"set -C; cat 2>$'a\\ntouch pwned' >$'a\\ntouch pwned' <<'EOF'\necho hi\nEOF\nbash $'a\\ntouch pwned'", "ask", ""}, // bash's message is what it holds
		{"cat 2>new.sh >new.sh <<'EOF'\nls\nEOF\nbash new.sh", "ask", "new.sh"},
		{"shopt -s expand_aliases\nalias cat='echo touch pwned'\ncat > new.sh <<'EOF'\nls\nEOF\nbash new.sh", "ask", ""},
		{"cat() { echo 'touch pwned'; }; cat > new.sh <<'EOF'\nls\nEOF\nbash new.sh", "ask", ""},
		{"cat > new.sh <<'EOF'\nls\nEOF\ncd /srv && bash new.sh", "ask", "new.sh"},
		{"bash new.sh; cat > new.sh <<'EOF'\nls\nEOF", "ask", "new.sh"},
		{"./self.sh", "ask", "runs itself again"},
		{"source ./locked.sh", "ask", "permission denied"},
		{"bash ./fifo.sh", "ask", "not a regular file"},
		{"./fifo.sh", "ask", ""},
		{"./py", "ask", ""},
		{"./missing.sh", "ask", ""},
		// A long text is judged while it is read (on two goroutines when
		// there are two): the same verdicts.
		{strings.Repeat("ls -la\n", 2000) + "echo x >> fine.sh\n./fine.sh\n", "ask", "may change before it runs"},
		{strings.Repeat("ls -la\n", 2000) + "./outer.sh\n", "deny", "witness"},
		{strings.Repeat("ls -la\n", 2000) + "./fine.sh\n", "allow", ""},
	} {
		res := judge.Judge(pol, judge.Request{Source: r.cmd, Cwd: proj, Getenv: getenv, ReadScript: read,
			Glob: shellparse.NoGlob})
		if res.Decision != r.want || !strings.Contains(res.Reason, r.reason) {
			t.Errorf("%.80q → %s (%s), want %s (%s)", r.cmd, res.Decision, res.Reason, r.want, r.reason)
		}
		res = judge.Judge(pol, judge.Request{Source: r.cmd, Cwd: proj, Getenv: getenv, ReadScript: read, NoScripts: true,
			Glob: shellparse.NoGlob})
		// Without reading, every one of them asks at least, but for the
		// rule naming a script and the built-in help query.
		if res.Decision == "allow" && r.cmd != "./allowed.sh" && r.cmd != "./pwn.sh --help" {
			t.Errorf("%q with NoScripts → allow, want a question", r.cmd)
		}
	}
}

// A program file of the project or a temporary directory is what it
// holds, not the program the catalogue knows by its name.
func TestLocalPrograms(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	proj := filepath.Join(home, "proj")
	for _, d := range []string{filepath.Join(proj, "bin"), filepath.Join(proj, "tools")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	bin, err := os.ReadFile("/bin/true")
	if err != nil {
		t.Skip("no /bin/true to copy")
	}
	for name, text := range map[string]string{"ls": string(bin), "bin/ls": string(bin), "tools/mytool": string(bin), "run.sh": "#!/bin/sh\nls -la\n"} {
		if err := os.WriteFile(filepath.Join(proj, name), []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	f, err := policy.ParseFile("user.toml", []byte("[[rule]]\ndecision = \"allow\"\ncommand = \"./tools/mytool\"\n"), policy.User)
	if err != nil {
		t.Fatal(err)
	}
	pol, err := policy.Build(policy.Sources{Env: &policy.Env{Home: home, Project: proj}, User: f})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []struct{ cmd, path, want, reason string }{
		{"./ls -la", "/usr/bin:/bin", "ask", "is a program file in"},
		{"cp /bin/bash ./ls2 && ./ls2 -c 'rm -rf ~'", "/usr/bin:/bin", "ask", ""},
		{"./ls -rf / --no-preserve-root; ./rm -rf /", "/usr/bin:/bin", "deny", ""}, // judged as rm too
		{"/bin/ls -la", "/usr/bin:/bin", "allow", ""},
		{"ls -la", "/usr/bin:/bin", "allow", ""},
		{"ls -la", proj + "/bin:/usr/bin:/bin", "ask", "is a program file in"}, // PATH finds the project's ls
		{"printf x > bin/cat; cat notes.txt", proj + "/bin:/usr/bin:/bin", "ask", "may change before it runs"},
		{"./run.sh", "/usr/bin:/bin", "allow", ""}, // a script: judged by its content
		{"./tools/mytool x", "/usr/bin:/bin", "allow", ""},
		{"cp /bin/bash tools/mytool && ./tools/mytool -c x", "/usr/bin:/bin", "ask", "may change before it runs"},
		{"cp /bin/bash /tmp/ls-x && /tmp/ls-x -c 'rm -rf ~'", "/usr/bin:/bin", "ask", ""}, // /tmp, whatever TMPDIR says
		{"ls -la", "~/proj/bin:/usr/bin:/bin", "ask", "is a program file in"},             // bash expands ~ in PATH
		{"ln -sf /bin/bash ./lnk && ./lnk -c x", "/usr/bin:/bin", "ask", ""},
		{"printf 'x' >> /dev/fd/255", "/usr/bin:/bin", "ask", "a file the shell has open"},
		{"echo x > /proc/self/fd/0", "/usr/bin:/bin", "ask", "a file the shell has open"},
		{"echo x > /dev/stdout; echo y >&2", "/usr/bin:/bin", "allow", ""},
		// PATH not known here may be the working directory, which has an ls.
		{"unset PATH; ls", "/usr/bin:/bin", "ask", "is a program file in"},
		// read PATH: a value the text gives, not the inherited one.
		{"read PATH <<< .; ls", "/usr/bin:/bin", "ask", "PATH is set to include"},
		{"f(){ local PATH; ls; }; f", "/usr/bin:/bin", "ask", "is a program file in"},
		{"declare -A BASH_CMDS; BASH_CMDS[cat]=./ls; cat notes.txt", "/usr/bin:/bin", "ask", "BASH_CMDS"},
		{"exec 3<bin; /dev/fd/3/ls", "/usr/bin:/bin", "ask", "a directory the shell has open"},
		{"ln -sfn /proc/self/fd pfd; echo x >> pfd/255", "/usr/bin:/bin", "ask", ""},
	} {
		getenv := func(k string) string {
			switch k {
			case "PATH":
				return r.path
			case "HOME":
				return home
			}
			return ""
		}
		res := judge.Judge(pol, judge.Request{Source: r.cmd, Cwd: proj, Getenv: getenv, Glob: shellparse.NoGlob})
		if res.Decision != r.want || !strings.Contains(res.Reason, r.reason) {
			t.Errorf("%q (PATH=%s) → %s (%s), want %s (%s)", r.cmd, r.path, res.Decision, res.Reason, r.want, r.reason)
		}
	}
}

// TestLinksThenDotDot holds program and script paths to what the kernel
// opens: a ".." after a link leads to the parent of the link's target,
// where cleaning the path as text drops both (y/../../zz/e.sh is not
// ../zz/e.sh when y is a link), and a ".." after a directory the command
// may make first is not known. A red team ran a decoy's neighbour this way.
func TestLinksThenDotDot(t *testing.T) {
	t.Run("content", func(t *testing.T) { linksThenDotDot(t, t.TempDir(), false) })
	// Where a program file is matters too (a program outside the local
	// directories is trusted by its name), so the tree must be outside
	// the temporary directories, which are local: below the package.
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for _, tmp := range []string{"/tmp", "/var/tmp", "/dev/shm", os.TempDir()} {
		if wd == tmp || strings.HasPrefix(wd, tmp+"/") {
			t.Skipf("the package directory %s is in a temporary directory: the place of a program cannot be tested here", wd)
		}
	}
	dir, err := os.MkdirTemp(wd, ".links-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	t.Run("place", func(t *testing.T) { linksThenDotDot(t, dir, true) })
}

func linksThenDotDot(t *testing.T, dir string, place bool) {
	home := filepath.Join(dir, "home")
	proj := filepath.Join(home, "proj")
	for _, d := range []string{"s/b/c/d", "s/b/zz", "../zz"} {
		if err := os.MkdirAll(filepath.Join(proj, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	bin, err := os.ReadFile("/bin/true")
	if err != nil {
		t.Skip("no /bin/true to copy")
	}
	for name, text := range map[string]string{
		"../zz/e.sh":    "echo harmless\n", // where the text, cleaned, points
		"../zz/ls":      string(bin),
		"s/b/zz/e.sh":   "rm -rf ~\n", // where the kernel goes
		"s/b/zz/ls":     string(bin),
		"s/b/c/ok.sh":   "echo ok\n",
		"s/b/c/d/x.txt": "x\n",
	} {
		if err := os.WriteFile(filepath.Join(proj, name), []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(proj, "s/b/c/d"), filepath.Join(proj, "y")); err != nil {
		t.Fatal(err)
	}
	pol, err := policy.Build(policy.Sources{Env: &policy.Env{Home: home, Project: proj}})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []struct{ cmd, want, reason string }{
		{"bash y/../../zz/e.sh", "deny", ""},
		{". y/../../zz/e.sh", "deny", ""},
		{"source y/../../zz/e.sh", "deny", ""},
		{"y/../../zz/e.sh", "deny", ""},
		{"y/../../zz/ls", "ask", "is a program file in " + proj},
		{"PATH=" + proj + "/y/../../zz:$PATH; ls", "ask", "PATH is set to include"},
		{"ln -s " + proj + "/s/b/c/d y2; y2/../../zz/ls", "ask", "not there yet"},
		{"ln -s " + proj + "/s/b/c/d y2; bash y2/../../zz/e.sh", "ask", "not there yet"},
		{"ln -s " + proj + "/s/b/c/d y2; PATH=" + proj + "/y2/../../zz:$PATH; ls", "ask", ""},
		{"cd y && bash ../../zz/e.sh", "deny", ""}, // cd y: the kernel's cwd is the target
		// Real directories: .. is what the text says.
		{"bash s/b/c/../zz/e.sh", "deny", ""},
		{"bash s/b/c/d/../ok.sh", "allow", ""},
		{"cd s/b/c/d && bash ../ok.sh", "allow", ""},
		{"cd y/.. && bash ok.sh", "ask", ""},      // cd is logical: proj/ok.sh, which is not there
		{"cd -P y/.. && bash ok.sh", "allow", ""}, // cd -P is not: y's target's parent
		{"cd -P [y]/.. && bash ok.sh", "ask", ""}, // a glob's match, cleaned as text (a red team's)
	} {
		getenv := func(k string) string {
			switch k {
			case "PATH":
				return "/usr/bin:/bin"
			case "HOME":
				return home
			}
			return ""
		}
		res := judge.Judge(pol, judge.Request{Source: r.cmd, Cwd: proj, Getenv: getenv, Glob: shellparse.NoGlob})
		if res.Decision != r.want || !strings.Contains(res.Reason, r.reason) {
			t.Errorf("%q → %s (%s), want %s (%s)", r.cmd, res.Decision, res.Reason, r.want, r.reason)
		}
	}
	if !place {
		return
	}
	// Outside the temporary directories, the decoy's ls would be trusted
	// as ls: these hold only because the kernel's path is looked at.
	for _, r := range []struct{ cmd, want string }{
		{"y/../../zz/ls", "ask"},
		{"PATH=" + proj + "/y/../../zz:$PATH; ls", "ask"},
		// The decoy itself, outside: trusted as ls, as any PATH
		// directory outside the local ones is.
		{"../zz/ls", "allow"},
		{"PATH=" + home + "/zz:$PATH; ls", "allow"},
	} {
		res := judge.Judge(pol, judge.Request{Source: r.cmd, Cwd: proj, Getenv: func(k string) string {
			return map[string]string{"PATH": "/usr/bin:/bin", "HOME": home}[k]
		}, Glob: shellparse.NoGlob})
		if res.Decision != r.want {
			t.Errorf("%q → %s (%s), want %s", r.cmd, res.Decision, res.Reason, r.want)
		}
	}
}

// A directory git takes for a repository (a .git, or HEAD, objects and
// refs: a bare one) made inside the project or a temporary directory
// has a config that can name programs git runs there.
func TestOtherRepositories(t *testing.T) {
	home := t.TempDir()
	proj := filepath.Join(home, "proj")
	for _, d := range []string{".git/objects", ".git/refs", "bare/objects", "bare/refs", "plain/src"} {
		if err := os.MkdirAll(filepath.Join(proj, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{".git/HEAD", "bare/HEAD", "a1", "b1"} {
		if err := os.WriteFile(filepath.Join(proj, f), []byte("ref: refs/heads/main\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pol, err := policy.Build(policy.Sources{Env: &policy.Env{Home: home, Project: proj}})
	if err != nil {
		t.Fatal(err)
	}
	getenv := func(k string) string { return map[string]string{"PATH": "/usr/bin:/bin", "HOME": home}[k] }
	for _, r := range []struct{ cmd, want, reason string }{
		{"git status", "allow", ""},
		{"git -C plain/src status", "allow", ""}, // the project's own repository, found above it
		{"git -C bare diff --no-index ../a1 ../b1", "ask", "a repository made inside the project"},
		{"cd bare && git log", "ask", "a repository made inside the project"},
		{"mkdir -p s/objects s/refs && echo 'ref: refs/heads/main' > s/HEAD && git -C s diff --no-index ../a1 ../b1", "ask", ""},
		{"git init --bare r2", "ask", "bare repository"},
	} {
		res := judge.Judge(pol, judge.Request{Source: r.cmd, Cwd: proj, Getenv: getenv, Glob: shellparse.NoGlob})
		if res.Decision != r.want || !strings.Contains(res.Reason, r.reason) {
			t.Errorf("%q → %s (%s), want %s (%s)", r.cmd, res.Decision, res.Reason, r.want, r.reason)
		}
	}
}

// TestReopenedOutput: /dev/stdout and /dev/stderr are the output the guard
// was given only while fds 1 and 2 are. Once a command (or an exec before
// it) puts one on a file it opened for reading, closes it, or copies it
// from another descriptor, a write there writes that file, or the next one
// a program opens: a red team truncated a file outside the project with
// python's open('/dev/stdout', 'w') under 1<victim and under >&-.
func TestReopenedOutput(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	proj := filepath.Join(home, "proj")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	pol, err := policy.Build(policy.Sources{Env: &policy.Env{Home: home, Project: proj}})
	if err != nil {
		t.Fatal(err)
	}
	const ask, allow = "ask", "allow"
	for _, r := range []struct{ cmd, want string }{
		{"echo x 1</etc/hostname >/dev/stdout", ask},
		{"echo x 2</etc/hostname >/dev/stderr", ask},
		{"echo x 1<&- >/dev/fd/1", ask},
		{"exec 3</etc/hostname; echo x 1>&3 >/dev/stdout", ask},
		{"exec 1</etc/hostname; echo x > /dev/stdout", ask},
		{"exec 1</etc/hostname; tee /dev/stdout < x", ask},
		{"{ echo x > /dev/stdout; } 1</etc/hostname", ask},
		{"f() { echo x > /dev/stdout; }; f 1</etc/hostname", ask},
		{"bash -c 'echo x > /proc/self/fd/1' 1</etc/hostname", ask},
		{"tee /dev/stdout < x >&-", ask},
		// The same through a glob (a red team's).
		{"exec 1</etc/hostname; echo x >/dev/std?ut", ask},
		{"echo x 1</etc/hostname >/dev/stdou[t]", ask},
		{"exec 3</etc/hostname; echo x > /dev/fd/[3]", ask},
		{"echo x > /dev/nul?", ask}, // a glob into /dev: which device is not known here
		{"echo x >/dev/stdout", allow},
		{"echo x 2>&1 >/dev/stdout", allow},
		{"echo x >/dev/stderr 2>&1", allow},
		{"ls 2>/dev/null > /dev/stdout", allow},
		{"cat x | tee /dev/stderr", allow},
		{"echo x >out.txt 2>&1; echo y > /dev/stderr", allow},
		{"exec 2>&1; echo y > /dev/stderr", allow},
	} {
		res := judge.Judge(pol, judge.Request{Source: r.cmd, Cwd: proj, Getenv: func(k string) string {
			return map[string]string{"PATH": "/usr/bin:/bin", "HOME": home}[k]
		}, Glob: shellparse.NoGlob})
		if res.Decision != r.want {
			t.Errorf("%q → %s (%s), want %s", r.cmd, res.Decision, res.Reason, r.want)
		}
	}
}

// TestWritesBelowMadeTrees: a tree another part of the same text copies,
// moves or unpacks may hold links, which a write below it follows. A red
// team moved a directory holding a link to ../.. one level up, so that
// the link led out of the project, and wrote through it.
func TestWritesBelowMadeTrees(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	proj := filepath.Join(home, "proj")
	for _, d := range []string{"d/e/f", "plain/sub"} {
		if err := os.MkdirAll(filepath.Join(proj, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("../..", filepath.Join(proj, "d/e/f/r")); err != nil {
		t.Fatal(err)
	}
	pol, err := policy.Build(policy.Sources{Env: &policy.Env{Home: home, Project: proj}})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []struct{ cmd, want, reason string }{
		{"mv d/e/f f2 && echo x > f2/r/pwned", "ask", "where another part of this command writes a tree"},
		{"cp -a d copy; touch copy/e/f/r/pwned", "ask", "where another part of this command writes a tree"},
		{"tar xf a.tar -C t && rm t/x", "ask", "where another part of this command writes a tree"},
		{"mkdir -p out && echo x > out/y", "allow", ""},
		// Extractions that leave -C's tree (a red team's): absolute names
		// and .. kept, links already there followed.
		{"tar xPf a.tar -C t", "ask", "known only at run time"},
		{"tar xf a.tar -C t --absolute-names", "ask", "known only at run time"},
		{"tar xhf a.tar -C t", "ask", "known only at run time"},
		{"tar xf a.tar -C t --keep-directory-symlink", "ask", "known only at run time"},
		{"unzip -: a.zip -d t", "ask", "known only at run time"},
		{"tar xf a.tar -C t", "allow", ""},
		{"unzip -o a.zip -d t", "allow", ""},
		{"cp -r plain copy && echo x > copy/sub/y", "allow", ""}, // nothing there is a link
		{"mkdir -p build && cp -r d build/", "allow", ""},
		{"mv d/e/f f2", "allow", ""},
	} {
		res := judge.Judge(pol, judge.Request{Source: r.cmd, Cwd: proj, Getenv: func(k string) string {
			return map[string]string{"PATH": "/usr/bin:/bin", "HOME": home}[k]
		}, Glob: shellparse.NoGlob})
		if res.Decision != r.want || !strings.Contains(res.Reason, r.reason) {
			t.Errorf("%q → %s (%s), want %s (%s)", r.cmd, res.Decision, res.Reason, r.want, r.reason)
		}
	}
}

// TestGitCheckout: with the git preset, git checkout of a branch is a
// switch (which keeps changes), and of a path it discards that path's
// uncommitted changes. git takes a single NAME for a branch or commit
// first, so it asks only when a file of that name is there.
func TestGitCheckout(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	proj := filepath.Join(dir, "proj")
	for _, d := range []string{filepath.Join(proj, ".git"), filepath.Join(proj, "src"), home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(proj, "f"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	user, err := policy.ParseFile("user.toml", []byte("presets = [\"git\"]\n"), policy.User)
	if err != nil {
		t.Fatal(err)
	}
	with, err := policy.Build(policy.Sources{Env: &policy.Env{Home: home, Project: proj}, User: user})
	if err != nil {
		t.Fatal(err)
	}
	without, err := policy.Build(policy.Sources{Env: &policy.Env{Home: home, Project: proj}})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []struct {
		cmd, want string
		pol       *policy.Policy
	}{
		{"git checkout main", "allow", with},
		{"git checkout -q feature/x", "allow", with},
		{"git checkout -", "allow", with},
		{"git checkout -b topic origin/main", "allow", with},
		{"git checkout --detach HEAD~1", "allow", with},
		{"touch main && git checkout main", "allow", with}, // an untracked file is no pathspec match
		{"git checkout f", "ask", with},
		{"git checkout src", "ask", with},
		{"git checkout -- main", "ask", with},
		{"git checkout HEAD f", "ask", with},
		{"git checkout main -- f", "ask", with},
		{"git checkout '*.c'", "ask", with},
		{"git checkout .", "ask", with},
		{"git checkout -p", "ask", with},
		{"git checkout -f main", "ask", with},
		{"git checkout \"$B\"", "ask", with},
		{"git checkout main", "ask", without},
	} {
		res := judge.Judge(r.pol, judge.Request{Source: r.cmd, Cwd: proj, Getenv: func(k string) string {
			return map[string]string{"PATH": "/usr/bin:/bin", "HOME": home}[k]
		}, Glob: shellparse.NoGlob})
		if res.Decision != r.want {
			t.Errorf("%q → %s (%s), want %s", r.cmd, res.Decision, res.Reason, r.want)
		}
	}
}

// TestRedTeamEleven: a red team's round of the tenth session, each class
// with a harmless sibling that stays allowed.
func TestRedTeamEleven(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	proj := filepath.Join(home, "proj")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"data.txt": "a[$(touch pwned)]\n", "p.txt": "$(touch pwned)\n", "a": "x\n"} {
		if err := os.WriteFile(filepath.Join(proj, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("..", filepath.Join(proj, "up")); err != nil {
		t.Fatal(err)
	}
	// ext leads outside: ext/.. is home/ext to the kernel, proj to a
	// logical cd.
	if err := os.MkdirAll(filepath.Join(home, "ext", "in"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(home, "ext", "in"), filepath.Join(proj, "ext")); err != nil {
		t.Fatal(err)
	}
	pol, err := policy.Build(policy.Sources{Env: &policy.Env{Home: home, Project: proj}})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []struct{ cmd, want string }{
		// bash evaluates what RANDOM, SRANDOM, OPTIND and HISTCMD are
		// given as arithmetic, however they are given it.
		{"RANDOM='a[$(touch pwned)]'", "ask"},
		{"SRANDOM='a[$(touch pwned)]'", "ask"},
		{"HISTCMD='a[$(touch pwned)]'", "ask"},
		{"read -r RANDOM < data.txt", "ask"},
		{"printf -v OPTIND %s \"$(cat data.txt)\"", "ask"},
		{"mapfile -t -n1 RANDOM < data.txt", "ask"},
		{"RANDOM=42; echo $((RANDOM % 10))", "allow"},
		{"while getopts ab o; do :; done; shift $((OPTIND-1))", "allow"},
		// A declaration expands a subscript again.
		{"declare -A A; read -r y < p.txt; declare A[$y]=1", "ask"},
		{"declare -A A; read -r y < p.txt; f(){ local A[$y]=1; }; f", "ask"},
		{"declare -A A; declare A[k]=1", "allow"},
		// Prompt expansion through indirection or a name reference.
		{"read y < p.txt; r=y; echo ${!r@P}", "ask"},
		{"read y < p.txt; declare -n PS4=y; set -x; :", "ask"},
		{"r=HOME; echo ${!r}", "allow"},
		{"declare -n ref=x; ref=1", "allow"},
		// A glob that may expand to an option.
		{"touch -- --target-directory=.. pwned; cp *[.d]", "ask"},
		{"cp * out/", "ask"},
		{"mv * dir/", "ask"},
		{"zip /tmp/a.zip *", "ask"},
		{"rg TODO *.py", "ask"},
		{"cp src/*.py out/", "allow"},
		{"cp ./* out/", "allow"},
		{"rg TODO src/*.py", "allow"},
		// A link copied as a link, then written through.
		{"cp -d up x; touch x/pwned", "ask"},
		{"cp -P up x; echo hi > x/pwned", "ask"},
		{"cp -d a b", "allow"},
		// touch and truncate create through a link at the name (a red
		// team's copied link, then truncate -s0); mkdir does not.
		{"cp -d up x; truncate -s0 x", "ask"},
		{"cp -P up x; touch x", "ask"},
		{"mv up x; touch x", "ask"},
		{"mkdir -p out && cp -r src out/", "allow"},
		// cd reads OLDPWD (cd -) and HOME (cd alone) with the command's
		// own assignments in place (a red team's).
		{"cd /tmp && OLDPWD=/etc cd - && echo x > a", "ask"},
		{"cd /tmp && OLDPWD=/etc pushd - && echo x > a", "ask"},
		{"cd /tmp && HOME=/etc cd && echo x > a", "ask"},
		{"cd /tmp && OLDPWD=/ cd - && rm -rf usr", "deny"},
		{"cd /tmp && cd - && echo x > a", "allow"},
		// Physical resolution: shopt -so physical is set -P; env -C
		// chdirs; a logical cd whose directory is not there falls back to
		// chdir(2) (a red team's).
		{"shopt -so physical; cd ext/.. && touch x", "ask"},
		{"env -C ext/.. touch x", "ask"},
		{"cd ext/../in && touch x", "ask"},
		{"cd ext/.. && touch x", "allow"},
		{"exec 3<~/.claude; echo x > /dev/fd/3/settings.json", "ask"},
		{"cd ext/../in/.. && touch x", "ask"},
		{"command declare -i n; n='a[$(touch pwned)]'", "ask"},
		{"read PATH < p.txt; ls", "ask"},
		{"exec {PATH}>/dev/null; ls", "ask"},
		{"{ PATH=/dev/fd/3:$PATH; ls; } 3<a", "ask"},
		{"PATH=/proc/1/cwd:$PATH; ls", "ask"},
		{"PATH=/usr/bin:$PATH; ls", "allow"},
	} {
		res := judge.Judge(pol, judge.Request{Source: r.cmd, Cwd: proj, Getenv: func(k string) string {
			return map[string]string{"PATH": "/usr/bin:/bin", "HOME": home}[k]
		}, Glob: shellparse.NoGlob})
		if res.Decision != r.want {
			t.Errorf("%q → %s (%s), want %s", r.cmd, res.Decision, res.Reason, r.want)
		}
	}
}
