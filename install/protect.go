package install

import "path/filepath"

// AgentFiles lists the files and directories (absolute; a name may hold a
// glob) through which the agent clients are configured: their settings,
// hook entries and the guard's own links. Commands run under the guard may
// not write them (the guard denies those writes absolutely, like writes to
// its own configuration): an agent that rewrote its client's hooks or
// permission settings, or the link the client starts as its shell, would
// take the guard out of its own way. project is the project root, whose
// client settings count too.
//
// The clients' own working files under the same directories (transcripts,
// shell snapshots, caches) are not listed: the clients write them
// themselves, some through the shell.
func AgentFiles(e Env, project string) []string {
	var p planner
	p.e = e
	if p.e.Getenv == nil {
		p.e.Getenv = func(string) string { return "" }
	}
	claude := p.configDir("CLAUDE_CONFIG_DIR", ".claude")
	codex := p.configDir("CODEX_HOME", ".codex")
	out := []string{
		filepath.Join(claude, "settings*.json"),
		filepath.Join(claude, "hooks"),
		filepath.Join(claude, "plugins"),
		filepath.Join(e.Home, ".claude.json"),
		filepath.Join(codex, "config.toml"),
		filepath.Join(codex, "hooks.json"),
		filepath.Join(codex, "hooks"),
		filepath.Join(e.Home, ".gemini", "settings.json"),
		filepath.Join(e.Home, ".gemini", "hooks"),
		filepath.Dir(filepath.Dir(BashLink(p.e))), // the guard's own links
	}
	if project != "" {
		out = append(out,
			filepath.Join(project, ".claude", "settings*.json"),
			filepath.Join(project, ".claude", "hooks"),
			filepath.Join(project, ".gemini", "settings.json"),
			filepath.Join(project, ".codex"),
		)
	}
	return out
}
