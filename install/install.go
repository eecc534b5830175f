// Package install computes and applies the changes that put guard-exec in
// the path of an agent's or CI system's shell commands, and speaks the
// PreToolUse/BeforeTool hook protocol of Claude Code, Codex and Gemini CLI.
//
// Contract:
//   - Install and Uninstall only read the disk. They return a Plan: the file
//     edits, links and directories to change, plus Notes for the steps a
//     person must take by hand. Plan.Diff renders it for `--dry-run`.
//   - Apply carries out a Plan. Before it first edits a file it copies the
//     file to FILE.guard-exec.bak, unless that backup already exists. It
//     writes through a temporary file in the same directory (fsync, rename,
//     mode kept), so an edited file is never left half-written. It refuses a
//     file that changed since the Plan was computed. Applying a Plan again
//     changes nothing.
//   - Installing twice gives the same files. JSON settings keep every other
//     key and the key order, and are written with a 2-space indent. A file
//     that is not valid JSON is an error naming the file, and nothing is
//     written.
//   - Uninstall removes only what Install added. When nothing else changed
//     the file since, it restores the file byte for byte from the backup (or
//     removes it if Install created it).
//   - Links are only replaced or removed when they point at guard-exec.
//     Files, or links to anything else, in the way are errors.
//
// See docs/clients-research.md for the client facts behind each plan.
package install

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Change kinds.
const (
	KindEdit    = "edit"    // replace Path's content (Before nil: create it)
	KindSymlink = "symlink" // make Path a symlink to LinkTarget
	KindMkdir   = "mkdir"   // create Path and its parents
	KindRemove  = "remove"  // remove Path: a file holding Before, a link to LinkTarget, or an empty directory
)

// A Change is one file edit or link the installer makes. Plan is what
// `install --dry-run` prints.
type Change struct {
	Path          string
	Kind          string
	Before, After []byte
	LinkTarget    string
}

// Plan is everything one install or uninstall does.
type Plan struct {
	Client  string
	Changes []Change
	Notes   []string // what the user must do by hand, e.g. the SHELL= line
}

// Env is the part of the outside world a plan depends on.
type Env struct {
	Home      string              // the user's home directory (absolute)
	GuardPath string              // absolute path of the guard-exec binary
	Getenv    func(string) string // nil: no variables
	PathDirs  []string            // $PATH, split
	// Target is the DIR of path-shim (required) or, for github-actions, a
	// workflow file to edit (optional: without it the plan is only Notes).
	Target string
	// Version is what `go install …@VERSION` should install: this
	// binary's module version or commit ("" for latest).
	Version string
	// PolicyPin pins the project's .guard-exec.toml for CI
	// (GUARD_EXEC_TRUST), "" when the project has none.
	PolicyPin string
}

// ActionsShell is the `shell:` line GitHub Actions steps run under.
const ActionsShell = "guard-exec --noprofile --norc -eo pipefail {0}"

type client struct {
	install, uninstall func(*planner) error
}

var clients = sync.OnceValue(func() map[string]client {
	return map[string]client{
		"claude-code":    {claudeInstall, claudeUninstall},
		"codex":          {codexInstall, codexUninstall},
		"gemini-cli":     {geminiInstall, geminiUninstall},
		"aider":          {shellVarInstall, shellVarUninstall},
		"cline":          {shellVarInstall, shellVarUninstall},
		"continue":       {shellVarInstall, shellVarUninstall},
		"shell":          {shellVarInstall, shellVarUninstall},
		"github-actions": {actionsInstall, actionsUninstall},
		"gitlab-ci":      {gitlabInstall, gitlabUninstall},
		"path-shim":      {shimInstall, shimUninstall},
	}
})

// Clients lists the names Install accepts, sorted.
func Clients() []string {
	names := make([]string, 0, len(clients()))
	for n := range clients() {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Install computes the plan that installs guard-exec for client. It does
// not touch the disk.
func Install(name string, e Env) (*Plan, error) { return plan(name, e, true) }

// Uninstall computes the plan that reverses Install.
func Uninstall(name string, e Env) (*Plan, error) { return plan(name, e, false) }

func plan(name string, e Env, install bool) (*Plan, error) {
	c, ok := clients()[name]
	if !ok {
		return nil, fmt.Errorf("unknown client %q: choose one of %s", name, strings.Join(Clients(), ", "))
	}
	if !filepath.IsAbs(e.Home) {
		return nil, fmt.Errorf("home directory %q is not an absolute path: set HOME", e.Home)
	}
	if !filepath.IsAbs(e.GuardPath) {
		return nil, fmt.Errorf("guard-exec path %q is not absolute: pass the resolved path of the binary", e.GuardPath)
	}
	if e.Getenv == nil {
		e.Getenv = func(string) string { return "" }
	}
	p := &planner{e: e, plan: &Plan{Client: name}, removed: map[string]bool{}}
	f := c.install
	if !install {
		f = c.uninstall
	}
	if err := f(p); err != nil {
		return nil, err
	}
	return p.plan, nil
}

// BashLink is where the `bash`-named link to guard-exec lives:
// $XDG_DATA_HOME/guard-exec/bin/bash, by default ~/.local/share/guard-exec/bin/bash.
func BashLink(e Env) string {
	data := ""
	if e.Getenv != nil {
		data = e.Getenv("XDG_DATA_HOME")
	}
	if !filepath.IsAbs(data) {
		data = filepath.Join(e.Home, ".local", "share")
	}
	return filepath.Join(data, "guard-exec", "bin", "bash")
}

// planner accumulates a Plan.
type planner struct {
	e       Env
	plan    *Plan
	removed map[string]bool // paths this plan removes
}

func (p *planner) add(c Change)            { p.plan.Changes = append(p.plan.Changes, c) }
func (p *planner) note(f string, a ...any) { p.plan.Notes = append(p.plan.Notes, fmt.Sprintf(f, a...)) }

// configDir is $VAR when set to an absolute path, else ~/def.
func (p *planner) configDir(envVar, def string) string {
	if d := p.e.Getenv(envVar); filepath.IsAbs(d) {
		return d
	}
	return filepath.Join(p.e.Home, def)
}

// isGuardTarget reports whether a link target is a guard-exec binary.
func (p *planner) isGuardTarget(t string) bool {
	return t == p.e.GuardPath || filepath.Base(t) == "guard-exec"
}

// mkdirFor plans the creation of dir when it does not exist yet.
func (p *planner) mkdirFor(dir string) error {
	fi, err := os.Stat(dir)
	switch {
	case err == nil && fi.IsDir():
		return nil
	case err == nil:
		return fmt.Errorf("%s is not a directory: move it away and run install again", dir)
	case !errors.Is(err, os.ErrNotExist):
		return err
	}
	for _, c := range p.plan.Changes {
		if c.Kind == KindMkdir && (c.Path == dir || strings.HasPrefix(c.Path, dir+string(filepath.Separator))) {
			return nil
		}
	}
	p.add(Change{Path: dir, Kind: KindMkdir})
	return nil
}

// link plans path -> GuardPath.
func (p *planner) link(path string) error {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if err := p.mkdirFor(filepath.Dir(path)); err != nil {
			return err
		}
	case err != nil:
		return err
	case fi.Mode()&os.ModeSymlink == 0:
		return fmt.Errorf("%s exists and is not a link to guard-exec: move it away or choose another place", path)
	default:
		t, err := os.Readlink(path)
		if err != nil {
			return err
		}
		if t == p.e.GuardPath {
			return nil
		}
		if !p.isGuardTarget(t) {
			return fmt.Errorf("%s is a link to %s, not to guard-exec: remove it or choose another place", path, t)
		}
	}
	p.add(Change{Path: path, Kind: KindSymlink, LinkTarget: p.e.GuardPath})
	return nil
}

// unlink plans the removal of path when it is a link to guard-exec, then of
// the parent directories in dirs that this leaves empty.
func (p *planner) unlink(path string, dirs ...string) error {
	fi, err := os.Lstat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if fi.Mode()&os.ModeSymlink == 0 {
		p.note("left %s alone: it is not a link to guard-exec", path)
		return nil
	}
	t, err := os.Readlink(path)
	if err != nil {
		return err
	}
	if !p.isGuardTarget(t) {
		p.note("left %s alone: it links to %s, not to guard-exec", path, t)
		return nil
	}
	p.add(Change{Path: path, Kind: KindRemove, LinkTarget: t})
	p.removed[path] = true
	for _, d := range dirs {
		ents, err := os.ReadDir(d)
		if err != nil {
			return nil
		}
		for _, en := range ents {
			if !p.removed[filepath.Join(d, en.Name())] {
				return nil
			}
		}
		p.add(Change{Path: d, Kind: KindRemove})
		p.removed[d] = true
	}
	return nil
}

// readFile returns the content of path, nil when it does not exist.
func readFile(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if b == nil {
		b = []byte{}
	}
	return b, nil
}

// realPath follows a symlinked config file to the file it names, so that
// Apply edits the target (dotfile managers link these files).
func realPath(path string) string {
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	return path
}

// BackupPath is where Apply keeps the first copy of an edited file.
func BackupPath(path string) string { return realPath(path) + ".guard-exec.bak" }

// edit plans path = fwd(path). fwd must be deterministic: Uninstall uses it
// to recognise a file still exactly as Install left it.
func (p *planner) edit(path string, fwd func([]byte) ([]byte, error)) error {
	before, err := readFile(path)
	if err != nil {
		return err
	}
	after, err := fwd(before)
	if err != nil {
		return err
	}
	if before != nil && string(before) == string(after) {
		return nil
	}
	if before == nil {
		if err := p.mkdirFor(filepath.Dir(path)); err != nil {
			return err
		}
	}
	p.add(Change{Path: path, Kind: KindEdit, Before: before, After: after})
	return nil
}

// revert plans the undoing of fwd on path. When the file is exactly what fwd
// made of the backup (or of no file), the original comes back byte for byte
// and the backup goes; otherwise back(current) removes only our entries.
func (p *planner) revert(path string, fwd, back func([]byte) ([]byte, error)) error {
	cur, err := readFile(path)
	if err != nil || cur == nil {
		return err
	}
	bakPath := BackupPath(path)
	bak, err := readFile(bakPath)
	if err != nil {
		return err
	}
	if made, err := fwd(bak); err == nil && string(made) == string(cur) {
		if bak == nil {
			p.add(Change{Path: path, Kind: KindRemove, Before: cur})
			return nil
		}
		p.add(Change{Path: path, Kind: KindEdit, Before: cur, After: bak})
		p.add(Change{Path: bakPath, Kind: KindRemove, Before: bak})
		return nil
	}
	after, err := back(cur)
	if err != nil {
		return err
	}
	if string(after) != string(cur) {
		p.add(Change{Path: path, Kind: KindEdit, Before: cur, After: after})
	}
	return nil
}

// linkUsers names what else still relies on the shared bash link, so that
// uninstalling one client does not break another.
func (p *planner) linkUsers(except string) []string {
	link := BashLink(p.e)
	var users []string
	if except != "claude-code" {
		if b, _ := readFile(p.claudeSettings()); b != nil {
			if t, err := parseTree(b); err == nil && t.kind == '{' {
				if env := t.get("env"); env != nil && env.kind == '{' {
					if s, _ := env.get("CLAUDE_CODE_SHELL").str(); s == link {
						users = append(users, "claude-code")
					}
				}
			}
		}
	}
	for _, h := range []struct{ client, file, event string }{
		{"codex", p.codexHooks(), "PreToolUse"},
		{"gemini-cli", p.geminiSettings(), "BeforeTool"},
	} {
		if h.client == except {
			continue
		}
		if b, _ := readFile(h.file); b != nil && hasOurHook(b, h.event, h.client) {
			users = append(users, h.client)
		}
	}
	if p.e.Getenv("SHELL") == link {
		users = append(users, "SHELL")
	}
	if slices.Contains(p.e.PathDirs, filepath.Dir(link)) {
		users = append(users, "PATH")
	}
	return users
}

// unlinkShared removes the shared bash link unless something still uses it.
func (p *planner) unlinkShared(client string) error {
	link := BashLink(p.e)
	if users := p.linkUsers(client); len(users) > 0 {
		p.note("kept %s: still used by %s", link, strings.Join(users, ", "))
		return nil
	}
	bin := filepath.Dir(link)
	return p.unlink(link, bin, filepath.Dir(bin))
}

// firstOnPath reports whether dir comes before any other directory holding
// a `bash` in PathDirs (the order a PATH lookup uses).
func (p *planner) firstOnPath(dir string) bool {
	for _, d := range p.e.PathDirs {
		if d == dir {
			return true
		}
		if _, err := os.Stat(filepath.Join(d, "bash")); err == nil {
			return false
		}
	}
	return false
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+=:,@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
