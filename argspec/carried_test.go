package argspec

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/guard-exec/guard-exec/word"
)

// recordSink records what a reader reports, for the readers' own table
// tests (shellparse's carried tests read the same lines through the
// walk). The command runs in /home/u/proj; a relative directory or one
// under /tmp is one the text could have filled.
type recordSink struct {
	got    []string
	assign [][2]string
}

func (s *recordSink) add(f string, a ...any) { s.got = append(s.got, fmt.Sprintf(f, a...)) }

func (s *recordSink) Opaque(reason string) { s.add("opaque: %s", reason) }
func (s *recordSink) Shell(src, what string, how ShellRun) {
	s.add("shell %s: %s%s", what, src, fmtHow(how))
}
func (s *recordSink) Argv(argv []word.Word, what string, wrapper bool) {
	w := ""
	if wrapper {
		w = " (wrapper)"
	}
	s.add("argv %s: %s%s", what, strings.Join(word.Strings(argv), " "), w)
}
func (s *recordSink) Wrapper()                          { s.add("wrapper") }
func (s *recordSink) Setenv(name string, v word.Word)   { s.add("setenv %s=%s", name, v.String()) }
func (s *recordSink) Assigned(name string, v word.Word) { s.add("assigned %s=%s", name, v.String()) }
func (s *recordSink) Assigns(f func(name string, v word.Word)) {
	for _, a := range s.assign {
		f(a[0], word.FromLit(a[1]))
	}
}
func (s *recordSink) JudgedWhereSet(name string) bool { return name == "PATH" || name == "EDITOR" }
func (s *recordSink) Cwd() ([]string, bool)           { return []string{"/home/u/proj"}, false }
func (s *recordSink) UntrustedDir(v word.Word) (string, bool) {
	t, ok := v.Static()
	if !ok || !strings.HasPrefix(t, "/") || strings.HasPrefix(t, "/tmp") {
		return v.String(), true
	}
	return "", false
}
func (s *recordSink) Getenv(name string) string {
	if name == "PATH" {
		return "/usr/bin"
	}
	return ""
}
func (s *recordSink) Glob(pattern string) ([]string, bool) {
	if pattern == "/usr/bin/clang" {
		return []string{pattern}, true
	}
	return nil, true
}

func fmtHow(how ShellRun) string {
	var out []string
	if how.Params != nil {
		out = append(out, "params="+strings.Join(how.Params, ","))
	}
	if how.ParamsUnknown {
		out = append(out, "params?")
	}
	if how.Elsewhere {
		out = append(out, "cwd=?")
	}
	if how.Caller {
		out = append(out, "caller")
	}
	if len(out) == 0 {
		return ""
	}
	return " [" + strings.Join(out, " ") + "]"
}

// testArgv splits a command line at blanks; '…' quotes, and $NAME is a
// word known only at run time.
func testArgv(s string) []word.Word {
	var out []word.Word
	for len(s) > 0 {
		s = strings.TrimLeft(s, " ")
		if s == "" {
			break
		}
		var t string
		if s[0] == '\'' {
			end := strings.IndexByte(s[1:], '\'') + 1
			t, s = s[1:end], s[end+1:]
			out = append(out, word.FromLit(t))
			continue
		}
		t, s, _ = strings.Cut(s, " ")
		if strings.HasPrefix(t, "$") {
			out = append(out, word.Unknown(t))
			continue
		}
		out = append(out, word.FromLit(t))
	}
	return out
}

// Each record's reader alone, by the program's name: every program of
// the class BuildTool has cases here.
func TestCarriedReaders(t *testing.T) {
	cases := []struct {
		src    string
		assign [][2]string // the command line's assignments (X=1 make)
		want   []string
	}{
		{"git rebase -x 'touch pwned' main", nil, []string{"shell git rebase --exec: touch pwned"}},
		{"git rebase -x $C main", nil, []string{"opaque: git rebase --exec is a command not known here"}},
		{"git submodule foreach 'pwn $name'", nil, []string{"shell git submodule foreach: pwn $name [cwd=?]"}},
		{"git grep -Opwn x", nil, []string{`shell git grep --open-files-in-pager: pwn "$@" [params? caller]`}},
		{"git merge -s pwn x", nil, []string{"argv git merge --strategy: git-merge-pwn"}},
		{"git -C src status", nil, nil},
		{"docker -H ssh://h ps", nil, []string{"argv docker -H: ssh h docker system dial-stdio"}},
		{"docker logs x", nil, nil},
		{"npm exec -c pwn", nil, []string{"shell npm exec --call: pwn", "wrapper"}},
		{"npm explore pkg -- pwn", nil, []string{"shell npm explore: pwn [cwd=?]"}},
		{"npm test --script-shell=/bin/bash", nil, nil},
		{"npx -y tsc", nil, []string{"argv npx: tsc (wrapper)"}},
		{"yarn exec 'pwn; x' a", nil, []string{"argv yarn exec: pwn; x a (wrapper)", "shell yarn exec (its shell): pwn; x [params=yarn,a]"}},
		{"yarn add https://x/y.tgz", nil, []string{"opaque: yarn add https://x/y.tgz installs a package from a repository, URL or tarball, whose install scripts run"}},
		{"pnpm exec -c 'pwn a'", nil, []string{"shell pnpm exec --shell-mode: pwn a", "wrapper"}},
		{"pnpm add -D vitest", nil, nil},
		{"make CC=clang test", nil, []string{"shell make variable CC (a recipe may run its value): clang"}},
		{"make GOOS=linux test", nil, nil},
		{"gmake -f other.mk", nil, []string{"opaque: make -f reads the makefile other.mk, whose recipes the guard does not read"}},
		// The walker's own (EDITOR) and the build tools' variables (CC)
		// are judged where they are set; pwn names no program in PATH.
		{"make test", [][2]string{{"TEST_CMD", "clang"}, {"EDITOR", "clang"}, {"CC", "clang"}, {"X", "pwn"}}, []string{"shell variable TEST_CMD in make's environment (a recipe may run its value): clang"}},
		{"make test PYTEST_ADDOPTS=--basetemp=.git", nil, []string{"assigned PYTEST_ADDOPTS=--basetemp=.git"}},
		{"go test -exec 'pwn a' ./...", nil, []string{"argv go test -exec: pwn a"}},
		{"go run . -exec pwn", nil, nil},
		{"cargo --config build.rustc-wrapper='pwn' test", nil, []string{"argv cargo --config build.rustc-wrapper: pwn"}},
		{"cargo test -- --config x", nil, nil},
		{"jest --config /tmp/j.js", nil, []string{"opaque: jest --config loads /tmp/j.js, code or configuration from outside the working directory"}},
		{"vitest --typecheck.checker x", nil, []string{"opaque: vitest --typecheck.checker runs x as code or a program"}},
		{"mocha -r ../x.js", nil, []string{"opaque: mocha -r loads ../x.js, code or configuration from outside the working directory"}},
		{"eslint --rulesdir /tmp/rules .", nil, []string{"opaque: eslint --rulesdir loads /tmp/rules, code or configuration from outside the working directory"}},
		{"prettier --write .", nil, nil},
		{"tsc -p /tmp/x", nil, []string{"opaque: tsc -p loads /tmp/x, code or configuration from outside the working directory"}},
		{"playwright test --reporter=./r.js", nil, nil},
		{"pip install -e ../other", nil, []string{"opaque: pip builds and installs ../other, code from outside the working directory"}},
		{"pip3 install requests", nil, nil},
		{"poetry run x.py", nil, []string{"argv poetry run: python x.py (wrapper)"}},
		{"uv run -m pytest -q", nil, []string{"argv uv run: python -m pytest -q (wrapper)"}},
		{"uvx ruff", nil, []string{"opaque: uvx downloads and runs a tool named on the command line"}},
		{"tox exec -e py -- pwn", nil, []string{"argv tox exec: pwn (wrapper)"}},
		{"nox -f /tmp/noxfile.py", nil, []string{"opaque: nox -f runs the noxfile /tmp/noxfile.py, not the project's"}},
		{"coverage run -m pytest", nil, []string{"argv coverage run: python -m pytest (wrapper)"}},
		{"pytest --rootdir=../x", nil, []string{"opaque: pytest --rootdir loads ../x, code or configuration from outside the working directory"}},
		{"py.test tests", nil, nil},
		{"pylint --init-hook=x src", nil, []string{"opaque: pylint --init-hook runs x as code or a program"}},
		{"mypy --python-exec=/tmp/py src", nil, []string{"opaque: mypy --python-executable runs /tmp/py as code or a program"}},
		{"pyright -p ../x", nil, []string{"opaque: pyright -p loads ../x, code or configuration from outside the working directory"}},
		{"flake8 --config /tmp/f.cfg", nil, []string{"opaque: flake8 --config loads /tmp/f.cfg, code or configuration from outside the working directory"}},
		{"mvn exec:exec -Dexec.executable=pwn", nil, []string{"opaque: mvn exec:exec runs a plugin goal named on the command line", "argv mvn -Dexec.executable: pwn"}},
		{"mvnw -q package", nil, nil},
		{"gradle -p /tmp/x build", nil, []string{"opaque: gradle -p /tmp/x builds or configures from outside the project"}},
		{"gradlew test", nil, nil},
		{"bundle exec pwn", nil, []string{"argv bundle exec: pwn (wrapper)"}},
		{"rake test RUBYOPT=-rx", nil, []string{"setenv RUBYOPT=-rx"}},
		{"rspec -r /tmp/x.rb", nil, []string{"opaque: rspec -r loads /tmp/x.rb, code or configuration from outside the working directory"}},
		{"rubocop -c /tmp/r.yml", nil, []string{"opaque: rubocop -c loads /tmp/r.yml, code or configuration from outside the working directory"}},
	}
	tested := map[string]bool{}
	for _, c := range cases {
		argv := testArgv(c.src)
		prog, _ := argv[0].Static()
		tested[prog] = true
		s := &recordSink{assign: c.assign}
		if !ReadCarried(s, prog, argv) {
			t.Errorf("ReadCarried(%q): no record", c.src)
			continue
		}
		if !slices.Equal(s.got, c.want) {
			t.Errorf("ReadCarried(%q)\n got  %q\n want %q", c.src, s.got, c.want)
		}
	}
	for _, p := range Names(BuildTool) {
		if !tested[p] {
			t.Errorf("the record of %s has no case here", p)
		}
	}
	if ReadCarried(&recordSink{}, "ls", testArgv("ls -la")) || Is("ls", BuildTool) {
		t.Error("ls has a record of carried code")
	}
}

// The variables the records read, wherever the text sets them.
func TestCarriedEnvReaders(t *testing.T) {
	for _, c := range []struct {
		name, value string
		want        []string // nil: not a variable of theirs
	}{
		{"CC", "pwn", []string{"argv CC (the program build tools run as CC): pwn"}},
		{"CC", " ", nil},
		{"HOME", "/tmp/h", []string{"opaque: HOME is set to /tmp/h, from where programs read their configuration, which can name programs to run"}},
		{"GIT_PROXY_COMMAND", "pwn", []string{"argv GIT_PROXY_COMMAND (git's proxy command): pwn"}},
		{"GOFLAGS", "-toolexec=pwn", []string{"argv go (GOFLAGS) -toolexec: pwn"}},
		{"RUSTC_WRAPPER", "pwn", []string{"argv RUSTC_WRAPPER (a program cargo runs): pwn"}},
		{"npm_config_script_shell", "pwn", []string{"opaque: npm (npm_config_script_shell) runs its scripts with pwn (script-shell), a program the guard does not read as a shell"}},
		{"MAKEFLAGS", "-f x.mk", []string{"opaque: make -f reads the makefile x.mk, whose recipes the guard does not read"}},
		{"PYTHONPATH", "src", []string{}},
		{"PYTHONPATH", "/tmp/x", []string{"opaque: PYTHONPATH includes /tmp/x; python imports modules from there"}},
		{"MAVEN_OPTS", "-Xmx2g", []string{}},
		{"RUBYLIB", "../x", []string{"opaque: RUBYLIB includes ../x; ruby loads libraries from there"}},
		{"DOCKER_HOST", "ssh://h", []string{"argv DOCKER_HOST: ssh h docker system dial-stdio"}},
		{"LANG", "C", nil},
	} {
		s := &recordSink{}
		ok := CarriedEnv(s, c.name, word.FromLit(c.value))
		if ok != (c.want != nil) || !slices.Equal(s.got, c.want) {
			t.Errorf("CarriedEnv(%s=%q) = %v\n got  %q\n want %q", c.name, c.value, ok, s.got, c.want)
		}
	}
}
