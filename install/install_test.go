package install

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

const guard = "/opt/guard/bin/guard-exec"

// fakeHome makes a HOME laid out like a user's: config dirs that exist once
// the client is installed, ~/.local/share, and the given files.
func fakeHome(t *testing.T, files map[string]string) Env {
	t.Helper()
	home := t.TempDir()
	for _, d := range []string{".claude", ".codex", ".gemini", ".local/share", "bin"} {
		must(t, os.MkdirAll(filepath.Join(home, d), 0o755))
	}
	for name, content := range files {
		must(t, os.WriteFile(filepath.Join(home, name), []byte(content), 0o600))
	}
	return Env{Home: home, GuardPath: guard, Getenv: func(string) string { return "" }}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func fixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	must(t, err)
	return string(b)
}

// snapshot records every file, link and directory under root with its
// content, target or mode.
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	m := map[string]string{}
	must(t, filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			t, _ := os.Readlink(p)
			m[rel] = "-> " + t
		case fi.IsDir():
			m[rel] = "dir"
		default:
			b, _ := os.ReadFile(p)
			m[rel] = fi.Mode().Perm().String() + " " + string(b)
		}
		return nil
	}))
	return m
}

func run(t *testing.T, install bool, client string, e Env) *Plan {
	t.Helper()
	f := Uninstall
	if install {
		f = Install
	}
	p, err := f(client, e)
	must(t, err)
	must(t, Apply(p))
	return p
}

func TestClients(t *testing.T) {
	want := []string{"aider", "claude-code", "cline", "codex", "continue", "gemini-cli", "github-actions", "gitlab-ci", "path-shim", "shell"}
	if got := Clients(); !reflect.DeepEqual(got, want) {
		t.Fatalf("Clients() = %v", got)
	}
	if _, err := Install("vim", Env{Home: "/h", GuardPath: guard}); err == nil || !strings.Contains(err.Error(), "claude-code") {
		t.Fatalf("unknown client error should list the clients: %v", err)
	}
	if _, err := Install("shell", Env{Home: "h", GuardPath: guard}); err == nil {
		t.Fatal("relative HOME accepted")
	}
}

// TestRoundTrip installs every client on a fake HOME with settings files
// that have other keys, checks what changed, installs again (no change),
// then uninstalls and expects the HOME back byte for byte.
func TestRoundTrip(t *testing.T) {
	link := ".local/share/guard-exec/bin/bash"
	for _, tc := range []struct {
		client string
		target string                                                  // relative to HOME
		check  func(t *testing.T, e Env, p *Plan, m map[string]string) // after install
	}{
		{client: "claude-code", check: func(t *testing.T, e Env, p *Plan, m map[string]string) {
			var s struct {
				Env   map[string]string `json:"env"`
				Model string            `json:"model"`
				Hooks map[string][]hookGroup
			}
			must(t, json.Unmarshal([]byte(strings.SplitN(m[".claude/settings.json"], " ", 2)[1]), &s))
			if s.Env["CLAUDE_CODE_SHELL"] != filepath.Join(e.Home, link) || s.Env["DISABLE_TELEMETRY"] != "1" || s.Model != "opus" {
				t.Errorf("settings lost or missed keys: %+v", s)
			}
			if g := s.Hooks["PreToolUse"]; len(g) != 1 || g[0].Matcher != "Bash" || g[0].Hooks[0].Command != guard+" hook claude-code" {
				t.Errorf("PreToolUse = %+v", g)
			}
			if len(s.Hooks["PostToolUse"]) != 1 {
				t.Error("PostToolUse hook lost")
			}
			if m[".claude/settings.json.guard-exec.bak"] != "-rw------- "+fixture(t, "claude-settings.json") {
				t.Error("backup missing or not the original")
			}
			if !strings.HasPrefix(m[".claude/settings.json"], "-rw------- ") {
				t.Error("file mode not kept")
			}
		}},
		{client: "codex", check: func(t *testing.T, e Env, p *Plan, m map[string]string) {
			want := "-rw-r--r-- " + `{
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {
            "type": "command",
            "command": "` + guard + ` hook codex"
          }
        ]
      }
    ]
  }
}
`
			if m[".codex/hooks.json"] != want {
				t.Errorf("hooks.json:\n%s", m[".codex/hooks.json"])
			}
			if !slices.ContainsFunc(p.Notes, func(n string) bool { return strings.Contains(n, "/hooks") }) {
				t.Error("no note about trusting the hook")
			}
		}},
		{client: "gemini-cli", check: func(t *testing.T, e Env, p *Plan, m map[string]string) {
			s := m[".gemini/settings.json"]
			if !strings.Contains(s, `"BeforeTool": [`) || !strings.Contains(s, `"matcher": "run_shell_command"`) || !strings.Contains(s, `"theme": "GitHub"`) {
				t.Errorf("gemini settings:\n%s", s)
			}
			if !slices.ContainsFunc(p.Notes, func(n string) bool { return strings.Contains(n, "PATH") }) {
				t.Error("no PATH note")
			}
		}},
		{client: "aider"}, {client: "cline"}, {client: "continue"},
		{client: "shell", check: func(t *testing.T, e Env, p *Plan, m map[string]string) {
			if !slices.ContainsFunc(p.Notes, func(n string) bool { return strings.Contains(n, "SHELL="+filepath.Join(e.Home, link)) }) {
				t.Errorf("no SHELL= note: %q", p.Notes)
			}
		}},
		{client: "github-actions", target: "wf.yml", check: func(t *testing.T, e Env, p *Plan, m map[string]string) {
			if !strings.Contains(m["wf.yml"], "defaults:\n  run:\n    shell: "+ActionsShell+"\n\n# the jobs\njobs:") {
				t.Errorf("workflow:\n%s", m["wf.yml"])
			}
		}},
		{client: "gitlab-ci"},
		{client: "path-shim", target: "bin", check: func(t *testing.T, e Env, p *Plan, m map[string]string) {
			if m["bin/bash"] != "-> "+guard || m["bin/sh"] != "-> "+guard {
				t.Errorf("shim links: %q %q", m["bin/bash"], m["bin/sh"])
			}
		}},
	} {
		t.Run(tc.client, func(t *testing.T) {
			e := fakeHome(t, map[string]string{
				".claude/settings.json": fixture(t, "claude-settings.json"),
				".gemini/settings.json": fixture(t, "gemini-settings.json"),
				"wf.yml":                fixture(t, "workflow.yml"),
			})
			if tc.target != "" {
				e.Target = filepath.Join(e.Home, tc.target)
			}
			before := snapshot(t, e.Home)
			p := run(t, true, tc.client, e)
			if len(p.Notes) == 0 {
				t.Error("no notes")
			}
			after := snapshot(t, e.Home)
			linked := tc.client != "github-actions" && tc.client != "gitlab-ci" && tc.client != "path-shim"
			if linked && after[link] != "-> "+guard {
				t.Errorf("link = %q", after[link])
			}
			if tc.check != nil {
				tc.check(t, e, p, after)
			}
			again, err := Install(tc.client, e)
			must(t, err)
			if len(again.Changes) != 0 {
				t.Errorf("second install is not a no-op:\n%s", again.Diff())
			}
			must(t, Apply(p)) // applying the old plan again changes nothing
			if got := snapshot(t, e.Home); !reflect.DeepEqual(got, after) {
				t.Error("re-applying a plan changed files")
			}
			run(t, false, tc.client, e)
			if got := snapshot(t, e.Home); !reflect.DeepEqual(got, before) {
				t.Errorf("uninstall did not restore HOME:\nbefore %q\nafter  %q", before, got)
			}
			if again, _ := Uninstall(tc.client, e); len(again.Changes) != 0 {
				t.Errorf("second uninstall is not a no-op:\n%s", again.Diff())
			}
		})
	}
}

func TestFreshHome(t *testing.T) {
	home := t.TempDir()
	e := Env{Home: home, GuardPath: guard}
	p := run(t, true, "claude-code", e)
	want := "{\n  \"hooks\": {\n" + claudeGroups("    ") + "\n  },\n  \"env\": {\n    \"CLAUDE_CODE_SHELL\": \"" + home + "/.local/share/guard-exec/bin/bash\"\n  }\n}\n"
	b, err := os.ReadFile(filepath.Join(home, ".claude/settings.json"))
	must(t, err)
	if string(b) != want {
		t.Errorf("new settings.json:\n%s", b)
	}
	if _, err := os.Stat(filepath.Join(home, ".claude/settings.json.guard-exec.bak")); err == nil {
		t.Error("backup made of a file that did not exist")
	}
	d := p.Diff()
	for _, line := range []string{"mkdir -p " + home + "/.local/share/guard-exec/bin", "ln -sf " + guard + " " + home + "/.local/share/guard-exec/bin/bash", "--- /dev/null", "+++ " + home + "/.claude/settings.json", "@@ -0,0 +1,62 @@"} {
		if !strings.Contains(d, line+"\n") {
			t.Errorf("diff lacks %q:\n%s", line, d)
		}
	}
	run(t, false, "claude-code", e)
	got := snapshot(t, home)
	want2 := map[string]string{".": "dir", ".claude": "dir", ".local": "dir", ".local/share": "dir"}
	if !reflect.DeepEqual(got, want2) {
		t.Errorf("after uninstall: %q", got)
	}
}

func TestDryRunDiff(t *testing.T) {
	e := fakeHome(t, map[string]string{".claude/settings.json": "{\n  \"model\": \"opus\",\n  \"env\": {\n    \"A\": \"1\"\n  },\n  \"theme\": \"dark\"\n}\n"})
	must(t, os.MkdirAll(filepath.Join(e.Home, ".local/share/guard-exec/bin"), 0o755))
	must(t, os.Symlink(guard, filepath.Join(e.Home, ".local/share/guard-exec/bin/bash")))
	p, err := Install("claude-code", e)
	must(t, err)
	f := e.Home + "/.claude/settings.json"
	want := "--- " + f + "\n+++ " + f + `
@@ -1,7 +1,65 @@
 {
   "model": "opus",
   "env": {
-    "A": "1"
+    "A": "1",
+    "CLAUDE_CODE_SHELL": "` + e.Home + `/.local/share/guard-exec/bin/bash"
   },
-  "theme": "dark"
+  "theme": "dark",
+  "hooks": {
` + prefixLines("+", claudeGroups("    ")) + `
+  }
 }
`
	if got := p.Diff(); got != want {
		t.Errorf("diff:\n%s\nwant:\n%s", got, want)
	}
	if _, err := os.Stat(f + ".guard-exec.bak"); err == nil {
		t.Error("Install wrote to disk")
	}
}

func TestUnifiedHunks(t *testing.T) {
	a := "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n"
	b := "1\nTWO\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\nSIXTEEN"
	want := "--- a\n+++ b\n@@ -1,5 +1,5 @@\n 1\n-2\n+TWO\n 3\n 4\n 5\n@@ -13,4 +13,4 @@\n 13\n 14\n 15\n-16\n+SIXTEEN\n\\ No newline at end of file\n"
	if got := unified("a", "b", a, b); got != want {
		t.Errorf("got:\n%s", got)
	}
	if unified("a", "b", a, a) != "" {
		t.Error("equal texts gave a diff")
	}
}

func TestUserChangedSettings(t *testing.T) {
	e := fakeHome(t, map[string]string{".claude/settings.json": fixture(t, "claude-settings.json")})
	run(t, true, "claude-code", e)
	path := filepath.Join(e.Home, ".claude/settings.json")
	b, _ := os.ReadFile(path)
	// The user adds a key and a hook of their own next to ours.
	s := strings.Replace(string(b), `"model": "opus",`, `"model": "opus",`+"\n  \"theme\": \"dark\",", 1)
	s = strings.Replace(s, `"matcher": "Bash",`, `"matcher": "Bash|Edit",`, 1)
	must(t, os.WriteFile(path, []byte(s), 0o600))
	p := run(t, false, "claude-code", e)
	if len(p.Changes) == 0 {
		t.Fatal("nothing uninstalled")
	}
	b, _ = os.ReadFile(path)
	var got map[string]any
	must(t, json.Unmarshal(b, &got))
	if got["theme"] != "dark" || got["model"] != "opus" || strings.Contains(string(b), "guard-exec") {
		t.Errorf("after uninstall:\n%s", b)
	}
	if env := got["env"].(map[string]any); len(env) != 1 || env["DISABLE_TELEMETRY"] != "1" {
		t.Errorf("env = %v", env)
	}
	if hooks := got["hooks"].(map[string]any); hooks["PreToolUse"] != nil || hooks["PostToolUse"] == nil {
		t.Errorf("hooks = %v", hooks)
	}
	if !strings.Contains(string(b), `"ratio": 1.50e3`) || !strings.Contains(string(b), `"caf\u00e9 <&>"`) {
		t.Error("scalars were rewritten")
	}
}

func TestMalformedSettings(t *testing.T) {
	for _, bad := range []string{"{\n  \"model\": \"opus\",\n  // comment\n}\n", "[1, 2]", `{"hooks": []}`, `{"env": "x"}`} {
		e := fakeHome(t, map[string]string{".claude/settings.json": bad})
		before := snapshot(t, e.Home)
		_, err := Install("claude-code", e)
		if err == nil || !strings.Contains(err.Error(), filepath.Join(e.Home, ".claude/settings.json")) {
			t.Errorf("%q: error %v does not name the file", bad, err)
		}
		if !reflect.DeepEqual(snapshot(t, e.Home), before) {
			t.Errorf("%q: files changed", bad)
		}
	}
	e := fakeHome(t, map[string]string{".claude/settings.json": "{\n  \"a\": 1,\n  oops\n}"})
	if _, err := Install("claude-code", e); err == nil || !strings.Contains(err.Error(), "line 3") {
		t.Errorf("error should give the line: %v", err)
	}
}

func TestApplyRefusesChangedFile(t *testing.T) {
	e := fakeHome(t, map[string]string{".claude/settings.json": `{"model": "opus"}`})
	p, err := Install("claude-code", e)
	must(t, err)
	path := filepath.Join(e.Home, ".claude/settings.json")
	must(t, os.WriteFile(path, []byte(`{"model": "sonnet"}`), 0o600))
	if err := Apply(p); err == nil || !strings.Contains(err.Error(), "changed since") {
		t.Fatalf("Apply = %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != `{"model": "sonnet"}` {
		t.Errorf("file overwritten: %s", b)
	}
}

func TestSymlinkedSettings(t *testing.T) {
	e := fakeHome(t, map[string]string{"dotfiles.json": `{"model": "opus"}` + "\n"})
	path := filepath.Join(e.Home, ".claude/settings.json")
	must(t, os.Symlink(filepath.Join(e.Home, "dotfiles.json"), path))
	run(t, true, "claude-code", e)
	if fi, err := os.Lstat(path); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatal("the settings link was replaced by a file")
	}
	b, _ := os.ReadFile(filepath.Join(e.Home, "dotfiles.json"))
	if !strings.Contains(string(b), "hook claude-code") {
		t.Errorf("target not edited: %s", b)
	}
	run(t, false, "claude-code", e)
	if b, _ := os.ReadFile(filepath.Join(e.Home, "dotfiles.json")); string(b) != `{"model": "opus"}`+"\n" {
		t.Errorf("not restored: %s", b)
	}
}

func TestStaleGuardPath(t *testing.T) {
	e := fakeHome(t, nil)
	run(t, true, "codex", e)
	e.GuardPath = "/usr/local/bin/guard-exec"
	p, err := Install("codex", e)
	must(t, err)
	must(t, Apply(p))
	b, _ := os.ReadFile(filepath.Join(e.Home, ".codex/hooks.json"))
	if strings.Count(string(b), "hook codex") != 1 || !strings.Contains(string(b), "/usr/local/bin/guard-exec hook codex") {
		t.Errorf("hooks.json:\n%s", b)
	}
	if l, _ := os.Readlink(BashLink(e)); l != e.GuardPath {
		t.Errorf("link not moved: %s", l)
	}
}

func TestSharedLinkKept(t *testing.T) {
	e := fakeHome(t, nil)
	run(t, true, "claude-code", e)
	run(t, true, "codex", e)
	p := run(t, false, "claude-code", e)
	if _, err := os.Lstat(BashLink(e)); err != nil {
		t.Fatal("link removed while codex still uses it")
	}
	if !slices.ContainsFunc(p.Notes, func(n string) bool { return strings.Contains(n, "used by codex") }) {
		t.Errorf("notes: %q", p.Notes)
	}
	run(t, false, "codex", e)
	if _, err := os.Lstat(BashLink(e)); err == nil {
		t.Error("link left after the last user went")
	}
}

func TestConflicts(t *testing.T) {
	e := fakeHome(t, nil)
	must(t, os.MkdirAll(filepath.Dir(BashLink(e)), 0o755))
	must(t, os.WriteFile(BashLink(e), []byte("#!/bin/sh\n"), 0o755))
	if _, err := Install("shell", e); err == nil || !strings.Contains(err.Error(), "not a link to guard-exec") {
		t.Errorf("file in the way: %v", err)
	}
	if p, err := Uninstall("shell", e); err != nil || len(p.Changes) != 0 {
		t.Errorf("uninstall touched a foreign file: %v %v", p, err)
	}
	if _, err := Install("path-shim", fakeHome(t, nil)); err == nil || !strings.Contains(err.Error(), "DIR") {
		t.Errorf("path-shim without DIR: %v", err)
	}
	e = fakeHome(t, nil)
	e.Target = filepath.Join(e.Home, "bin")
	must(t, os.Symlink("/usr/bin/bash", filepath.Join(e.Target, "bash")))
	if _, err := Install("path-shim", e); err == nil || !strings.Contains(err.Error(), "/usr/bin/bash") {
		t.Errorf("foreign link: %v", err)
	}
}

func TestEnvDirs(t *testing.T) {
	home := t.TempDir()
	vars := map[string]string{"XDG_DATA_HOME": home + "/data", "CODEX_HOME": home + "/cx", "CLAUDE_CONFIG_DIR": home + "/cc"}
	e := Env{Home: home, GuardPath: guard, Getenv: func(k string) string { return vars[k] }}
	if BashLink(e) != home+"/data/guard-exec/bin/bash" {
		t.Errorf("BashLink = %s", BashLink(e))
	}
	for client, file := range map[string]string{"codex": "/cx/hooks.json", "claude-code": "/cc/settings.json"} {
		p, err := Install(client, e)
		must(t, err)
		if !slices.ContainsFunc(p.Changes, func(c Change) bool { return c.Path == home+file && c.Kind == KindEdit }) {
			t.Errorf("%s: no edit of %s", client, file)
		}
	}
}

func TestGeminiPathNote(t *testing.T) {
	e := fakeHome(t, nil)
	e.PathDirs = []string{filepath.Dir(BashLink(e)), "/usr/bin"}
	p, err := Install("gemini-cli", e)
	must(t, err)
	if !slices.ContainsFunc(p.Notes, func(n string) bool { return strings.Contains(n, "already first on PATH") }) {
		t.Errorf("notes: %q", p.Notes)
	}
}

// claudeGroups is the hooks object's body that install writes for
// claude-code (indented by ind): the PreToolUse hook and the events that
// clear its questions.
func claudeGroups(ind string) string {
	var parts []string
	for _, ev := range []struct{ event, matcher string }{{"PreToolUse", "Bash"}, {"PostToolBatch", ""}, {"UserPromptSubmit", ""}, {"Stop", ""}, {"PermissionDenied", "Bash"}} {
		parts = append(parts, ind+`"`+ev.event+`": [
`+ind+`  {
`+ind+`    "matcher": "`+ev.matcher+`",
`+ind+`    "hooks": [
`+ind+`      {
`+ind+`        "type": "command",
`+ind+`        "command": "`+guard+` hook claude-code"
`+ind+`      }
`+ind+`    ]
`+ind+`  }
`+ind+`]`)
	}
	return strings.Join(parts, ",\n")
}

func prefixLines(p, s string) string {
	return p + strings.ReplaceAll(s, "\n", "\n"+p)
}
