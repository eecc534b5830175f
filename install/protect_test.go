package install

import (
	"path/filepath"
	"slices"
	"testing"
)

func TestAgentFiles(t *testing.T) {
	env := map[string]string{"CODEX_HOME": "/srv/codex", "CLAUDE_CONFIG_DIR": "relative/claude"}
	get := func(k string) string { return env[k] }
	for _, tc := range []struct {
		home, project string
		want, not     []string
	}{
		{"/h", "/p",
			[]string{"/h/.claude", "/h/.claude.json", "/h/.codex", "/srv/codex", "/h/.gemini", "/h/.local/share/guard-exec", "/p/.claude/settings*.json", "/p/.codex"},
			[]string{"relative/claude", "/p/.claude"}},
		// No absolute home: nothing relative, which would protect a
		// directory of the current one.
		{"", "/p", []string{"/p/.claude/settings*.json"}, []string{".claude", ".gemini"}},
		{"h", "", nil, []string{"h/.claude"}},
	} {
		got := AgentFiles(Env{Home: tc.home, Getenv: get}, tc.project)
		for _, f := range got {
			if !filepath.IsAbs(f) {
				t.Errorf("home %q: %q is not absolute", tc.home, f)
			}
		}
		for _, w := range tc.want {
			if !slices.Contains(got, w) {
				t.Errorf("home %q: %q missing from %q", tc.home, w, got)
			}
		}
		for _, n := range tc.not {
			if slices.Contains(got, n) {
				t.Errorf("home %q: %q listed in %q", tc.home, n, got)
			}
		}
	}
}
