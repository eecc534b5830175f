package install

import "testing"

func TestSplitHookCommand(t *testing.T) {
	for _, path := range []string{"/usr/local/bin/guard-exec", "/home/a b/bin/guard-exec", "/x/it's/guard-exec", "/opt/g@1.2/guard-exec"} {
		p := &planner{e: Env{GuardPath: path}}
		for _, c := range HookClients {
			got, client, ok := SplitHookCommand(p.hookCommand(c))
			if !ok || got != path || client != c {
				t.Errorf("SplitHookCommand(%q) = %q, %q, %v", p.hookCommand(c), got, client, ok)
			}
		}
	}
	for _, s := range []string{
		"", "guard-exec", "'/g' hook", "'/g' hook aider", "'/g' hook codex ", "'/g' hook codex; rm -rf ~",
		"'/g' hook codex\n", "/g  hook codex", "'/g hook codex", "/a b hook codex", "$G hook codex",
		"'/g' hook  codex", "/g hook codex extra", `"/g" hook codex`,
	} {
		if _, _, ok := SplitHookCommand(s); ok {
			t.Errorf("SplitHookCommand(%q) took it for a hook command", s)
		}
	}
}
