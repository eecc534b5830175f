package shellparse_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/guard-exec/guard-exec/shellparse"
)

// TestCarriedCodeRealPrograms runs each command line with the real
// program (make, git, npm, go, where installed) in a scratch project, with
// a harmless witness (touch FILE) as the carried code, and checks the
// walker's reading against what happened: whenever the witness ran, the
// walker reported it (as a judged command or an opaque part), so no rule
// that allows the outer program could have let it through unseen. Benign
// lines must run nothing and report nothing.
func TestCarriedCodeRealPrograms(t *testing.T) {
	if testing.Short() {
		t.Skip("runs real programs")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	type tc struct {
		prog, src string
		benign    bool // runs no carried code
	}
	// @W@ is replaced by a fresh witness path (HOST by the rust host triple); the scratch project has a
	// Makefile (targets t, use, build), other.mk, evil.mk, sh.sh (a shell
	// that touches W first), a git repository with three commits, and a
	// package.json whose test script echoes.
	cases := []tc{
		{"make", "make -s --eval='$(shell touch @W@)' t", false},
		{"make", "make -s -E '$(shell touch @W@)' t", false},
		{"make", "make -s --ev='$(shell touch @W@)' t", false},
		{"make", "make -s 'X!=touch @W@' t", false},
		{"make", "make -s SHELL=./sh.sh t", false},
		{"make", "make -s -f other.mk", false},
		{"make", "make -s 'X=$(shell touch @W@)' use", false},
		{"make", "make -s 'X=; touch @W@' use", false},
		{"make", "make -s CC='touch @W@' build", false},
		{"make", "CC='touch @W@' make -s build", false},
		{"make", "MAKEFLAGS='--eval=$(shell touch @W@)' make -s t", false},
		{"make", "MAKEFILES=evil.mk make -s t", false},
		{"make", "make -s t", true},
		{"make", "make -s -j2 V=1 t", true},
		{"git", "git rebase -q -x 'touch @W@' HEAD~1", false},
		{"git", "git rebase -q --exe='touch @W@' HEAD~1", false},
		{"git", "git rebase -q -ix'touch @W@' HEAD~1", false},
		{"git", "git ls-remote --upload-pack='touch @W@; git-upload-pack' .", false},
		{"git", "git fetch -q --upload-pack='touch @W@; git-upload-pack' .", false},
		{"git", "git grep -O'touch @W@' c", false},
		{"git", "git bisect start HEAD HEAD~2 && git bisect run touch @W@; git bisect reset", false},
		{"git", "git rebase -q HEAD~1", true},
		{"git", "git grep -q c", true},
		{"npm", "npm exec -- sh -c 'touch @W@'", false},
		{"npm", "npm exe -- sh -c 'touch @W@'", false},
		{"npm", "npm x -c 'touch @W@'", false},
		{"npm", "npm test --script-shell=./sh.sh", false},
		{"npm", "npm_config_script_shell=./sh.sh npm test", false},
		{"npx", "npx -c 'touch @W@'", false},
		{"npx", "npx sh -c 'touch @W@'", false},
		{"npm", "npm test", true},
		{"go", "go test -count=1 -exec ./exec.sh ./...", false},
		{"go", "GOFLAGS=-exec=./exec.sh go test -count=1 ./...", false},
		{"go", "go vet -vettool=./exec.sh ./...", false},
		{"go", "go test -count=1 ./...", true},
		{"cargo", "cargo run -q --config 'target.HOST.runner=\"./exec.sh\"'", false},
		{"cargo", "CARGO_TARGET_UHOST_RUNNER=./exec.sh cargo run -q", false},
		{"cargo", "RUSTC_WRAPPER=./exec.sh cargo build -q", false},
		{"cargo", "cargo build -q", true},
	}
	host := ""
	if out, err := exec.Command("rustc", "-vV").Output(); err == nil {
		for _, l := range strings.Split(string(out), "\n") {
			if h, ok := strings.CutPrefix(l, "host: "); ok {
				host = strings.TrimSpace(h)
			}
		}
	}
	// The go cases use the existing build cache: HOME is the scratch
	// project, and a fresh cache would rebuild the standard library.
	goCache := ""
	if out, err := exec.Command("go", "env", "GOCACHE").Output(); err == nil {
		goCache = strings.TrimSpace(string(out))
	}
	// rustup and cargo find their toolchains under the real HOME.
	realHome, _ := os.UserHomeDir()
	rustEnv := []string{"RUSTUP_HOME=" + filepath.Join(realHome, ".rustup"), "CARGO_HOME=" + filepath.Join(realHome, ".cargo")}
	for _, k := range []string{"RUSTUP_HOME", "CARGO_HOME"} {
		if v := os.Getenv(k); v != "" {
			rustEnv = append(rustEnv, k+"="+v)
		}
	}
	probes := map[string]string{"make": "make -s t", "git": "git log -1", "npm": "npm test", "npx": "npx -c true",
		"go": "go vet ./...", "cargo": "cargo build -q"}
	env := func(dir string) []string {
		return append(append(os.Environ(), "GIT_EDITOR=true", "GIT_SEQUENCE_EDITOR=true", "HOME="+dir,
			// make 4.3 runs a command-line X!= with the SHELL it inherited,
			// before its own default: CI may hand it an empty one.
			"SHELL=/bin/sh", "GIT_CONFIG_NOSYSTEM=1",
			"npm_config_update_notifier=false", "GOCACHE="+goCache, "GOFLAGS=", "GOTOOLCHAIN=local"), rustEnv...)
	}
	// A program that is missing, or cannot do its ordinary job here (no
	// toolchain), tests nothing: its cases are skipped.
	works := map[string]bool{}
	for _, c := range cases {
		if _, seen := works[c.prog]; seen {
			continue
		}
		if _, err := exec.LookPath(c.prog); err != nil || c.prog == "cargo" && host == "" {
			works[c.prog] = false
			t.Logf("skipping the %s cases: not installed", c.prog)
			continue
		}
		dir := scratchProject(t)
		probe := exec.Command(bash, "-c", probes[c.prog])
		probe.Dir, probe.Env = dir, env(dir)
		out, err := probe.CombinedOutput()
		works[c.prog] = err == nil
		if err != nil {
			t.Logf("skipping the %s cases: %q fails here: %v\n%s", c.prog, probes[c.prog], err, out)
		}
	}
	for i, c := range cases {
		if !works[c.prog] {
			continue
		}
		// Named by number: the scratch directory's name comes from it,
		// and the witness path is used unquoted.
		t.Run(fmt.Sprintf("case%02d", i), func(t *testing.T) {
			t.Parallel()
			dir := scratchProject(t)
			witness := filepath.Join(dir, "pwned")
			src := strings.ReplaceAll(c.src, "@W@", witness)
			src = strings.ReplaceAll(src, "UHOST", strings.ToUpper(strings.ReplaceAll(host, "-", "_")))
			src = strings.ReplaceAll(src, "HOST", host)
			cmd := exec.Command(bash, "-c", src)
			cmd.Dir, cmd.Env = dir, env(dir)
			out, _ := cmd.CombinedOutput()
			_, statErr := os.Stat(witness)
			ran := statErr == nil
			res, err := shellparse.Parse(src, shellparse.Options{Cwd: dir, Getenv: func(k string) string {
				if k == "HOME" {
					return dir
				}
				return ""
			}})
			if err != nil {
				t.Fatalf("%q: parse: %v", src, err)
			}
			reported := false
			for _, p := range res.Cmds {
				name := filepath.Base(p.Name())
				if p.Opaque != "" || len(p.Via) > 0 && (name == "touch" || strings.HasSuffix(name, ".sh")) {
					reported = true
				}
			}
			switch {
			case c.benign && (ran || reported):
				t.Errorf("%q: benign line ran the witness (%v) or was reported (%v):\n%s", src, ran, reported, renderAll(res))
			case !c.benign && !ran:
				t.Errorf("%q: the witness did not run: the case no longer tests anything\n%s", src, out)
			case !c.benign && !reported:
				t.Errorf("%q: ran the carried code, but the walker did not report it:\n%s", src, renderAll(res))
			}
		})
	}
}

// scratchProject makes the project the real programs run in.
func scratchProject(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"Makefile":     "t:\n\t@true\nuse:\n\t@echo $(X)\nbuild:\n\t@$(CC) x.c 2>/dev/null || true\n",
		"other.mk":     "all:\n\t@touch pwned\n",
		"evil.mk":      "$(shell touch pwned)\n",
		"sh.sh":        "#!/bin/sh\ntouch \"$(dirname \"$0\")/pwned\"\nexec /bin/sh \"$@\"\n",
		"exec.sh":      "#!/bin/sh\ntouch \"$(dirname \"$0\")/pwned\"\nexec \"$@\"\n",
		"package.json": `{"name":"p","version":"1.0.0","scripts":{"test":"echo ok"}}`,
		"go.mod":       "module example.com/p\n\ngo 1.21\n",
		"a_test.go":    "package p\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {}\n",
		"c":            "c\n",
		"Cargo.toml":   "[package]\nname = \"p\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
		"src/main.rs":  "fn main() {}\n",
	}
	if err := os.Mkdir(filepath.Join(dir, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := exec.LookPath("git"); err == nil {
		script := "git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm a && " +
			"git -c user.name=t -c user.email=t@t commit -q --allow-empty -m b && git -c user.name=t -c user.email=t@t commit -q --allow-empty -m c"
		cmd := exec.Command("sh", "-c", script)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "HOME="+dir, "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git init: %v\n%s", err, out)
		}
		// rebase needs an identity.
		cfg := exec.Command("sh", "-c", "git config user.name t && git config user.email t@t")
		cfg.Dir = dir
		if out, err := cfg.CombinedOutput(); err != nil {
			t.Fatalf("git config: %v\n%s", err, out)
		}
	}
	return dir
}
