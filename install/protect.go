package install

import (
	"path/filepath"

	"github.com/guard-exec/guard-exec/word"
)

// AgentFiles lists the files and directories (absolute; a name may hold a
// glob) through which the agent clients are configured. Commands run under
// the guard may not write them (the guard denies those writes absolutely,
// like writes to its own configuration): an agent that rewrote its
// client's hooks or permission settings, or the link the client starts as
// its shell, would take the guard out of its own way. project is the
// project root, whose client settings count too.
//
// In the home, each client's whole directory is listed, not the files
// known today to hold permissions: those directories keep growing files
// that do (Codex's rules/, Gemini's trustedFolders.json and policies/,
// Claude Code's agents/, skills/ and plugins/), and the shell snapshot
// that Claude Code sources before every command lives there too. The
// clients write their own working files themselves, not through the
// guarded shell; the one exception, the shell snapshot Claude Code writes
// through the shell, is refused, and Claude Code runs without it.
//
// Without an absolute home nothing of the home is listed: a relative name
// would protect the wrong directory.
func AgentFiles(e Env, project string) []string {
	var p planner
	p.e = e
	if p.e.Getenv == nil {
		p.e.Getenv = func(string) string { return "" }
	}
	var out []string
	if filepath.IsAbs(e.Home) {
		out = homeAgentFiles(&p)
	}
	if project != "" {
		project = word.EscapePath(project)
		out = append(out,
			filepath.Join(project, ".claude", "settings*.json"),
			filepath.Join(project, ".claude", "hooks"),
			filepath.Join(project, ".gemini", "settings.json"),
			filepath.Join(project, ".codex"),
		)
	}
	return out
}

// homeAgentFiles is AgentFiles' part in the home.
func homeAgentFiles(p *planner) []string {
	e := p.e
	home := word.EscapePath(e.Home)
	return []string{
		word.EscapePath(p.configDir("CLAUDE_CONFIG_DIR", ".claude")),
		filepath.Join(home, ".claude"),
		filepath.Join(home, ".claude.json"),
		word.EscapePath(p.configDir("CODEX_HOME", ".codex")),
		filepath.Join(home, ".codex"),
		filepath.Join(home, ".gemini"),
		word.EscapePath(filepath.Dir(filepath.Dir(BashLink(p.e)))), // the guard's own links
	}
}

// GuardFiles are the guard's own files, which commands run under it may
// not write: the user configuration in use and its lock, the default
// configuration directories, the project file and the state directory.
// Empty names are left out.
func GuardFiles(e Env, configPath, projectFile, stateDir string) []string {
	var out []string
	add := func(p string) {
		if p != "" {
			out = append(out, p)
		}
	}
	add(configPath)
	if configPath != "" {
		add(configPath + ".lock")
	}
	add(projectFile)
	if filepath.IsAbs(e.Home) {
		add(filepath.Join(e.Home, ".config", "guard-exec"))
	}
	if e.Getenv != nil {
		if x := e.Getenv("XDG_CONFIG_HOME"); filepath.IsAbs(x) {
			add(filepath.Join(x, "guard-exec"))
		}
	}
	add(stateDir)
	return out
}
