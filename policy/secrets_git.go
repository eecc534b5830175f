package policy

import (
	"errors"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/guard-exec/guard-exec/argspec"
	"github.com/guard-exec/guard-exec/atomicfile"
	"github.com/guard-exec/guard-exec/internal/gitindex"
	"github.com/guard-exec/guard-exec/word"
)

// Git configuration files hold credentials when a remote's URL carries
// them (https://user:TOKEN@host/…) or a checkout left an Authorization
// header in them (actions/checkout's http.…extraheader). Such a file is
// read as any other file would be until it does: then reading it, and the
// git commands that print it (git config -l, git remote -v), ask. What is
// in the file is looked at when the command is judged.

// gitCredential finds a credential in git configuration text.
var gitCredential = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?im)://[^/\s:@"]+:[^/\s@"]+@|extraheader\s*=\s*"?\s*authorization\s*:|^\s*(password|token|oauthtoken)\s*=`)
})

// maxGitConfig bounds what is read of one configuration file.
const maxGitConfig = 1 << 20

type credCache struct {
	mu sync.Mutex
	m  map[string]bool
}

// gitConfigHasCredential reports whether the file at path holds a
// credential, reading each file once in a judgement (see ForJudgement).
func (e *Env) gitConfigHasCredential(path string) bool {
	read := func() bool {
		b, err := atomicfile.ReadFile(path, maxGitConfig)
		return err == nil && gitCredential().Match(b)
	}
	c := e.gitCreds
	if c == nil {
		return read()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.m[path]; ok {
		return v
	}
	c.m[path] = read()
	return c.m[path]
}

// readsGitCredentials matches a read of a repository's or the user's git
// configuration while it holds a credential.
func readsGitCredentials(p *Part, e Effect) word.Tri {
	if !readsContent(e) || p.env == nil {
		return word.No
	}
	paths := e.Path.Matches // a glob's matches (cat .git/conf*)
	if s, ok := e.Path.Static(); ok {
		paths = []string{s}
	}
	if len(paths) == 0 && pathFromFind(p, e) {
		// find … -exec cat {} +, find | xargs cat: what it reads lies
		// below find's roots.
		e.Recursive, e.SkipHidden = true, false
		paths = findRootsOf(p, e)
	}
	for _, s := range paths {
		if t := gitConfigRead(p, e, s); t != word.No {
			return t
		}
	}
	return word.No
}

// gitConfigRead judges a read of the file or tree at s.
func gitConfigRead(p *Part, e Effect, s string) word.Tri {
	if !strings.HasSuffix(s, "/.git/config") && !strings.HasSuffix(s, "/.gitconfig") && !strings.HasSuffix(s, "/git/config") {
		if !e.Recursive {
			return word.No
		}
		// grep -r token .git, grep -r x .: the repository's config below.
		if cfg := filepath.Join(s, "config"); filepath.Base(s) == ".git" && p.env.gitConfigHasCredential(cfg) {
			return word.Yes
		}
		if cfg := filepath.Join(s, ".git", "config"); p.env.gitConfigHasCredential(cfg) && !e.SkipHidden {
			return word.Yes
		}
		return word.No
	}
	if p.env.gitConfigHasCredential(s) {
		return word.Yes
	}
	return word.No
}

// printsGitCredentials matches git commands that print configuration or
// remote URLs (git config -l/--get…, git remote -v, git remote get-url)
// in a repository whose configuration, or the user's, holds a
// credential.
func printsGitCredentials(p *Part) word.Tri {
	c := p.Norm
	if c == nil || c.Prog != "git" || len(c.Sub) == 0 || p.env == nil {
		return word.No
	}
	switch c.Sub[0] {
	case "config":
		if c.HasAny("--unset", "--unset-all", "--add", "--replace-all", "--rename-section", "--remove-section", "--edit") {
			return word.No
		}
		// git config KEY VALUE sets; git config KEY, -l, --get… print.
		if len(c.Args) >= 2 && !c.HasAny("--get", "--get-all", "--get-regexp", "--get-urlmatch", "--list") {
			return word.No
		}
	case "remote":
		if !c.HasAny("--verbose") && (len(c.Args) == 0 || c.Args[0].String() != "get-url" && c.Args[0].String() != "show" && c.Args[0].String() != "-v") {
			return word.No
		}
	case "ls-remote":
		// --get-url prints the remote's URL, with what it carries.
		if !slices.ContainsFunc(p.Argv, func(w word.Word) bool { s, _ := w.Static(); return s == "--get-url" }) {
			return word.No
		}
	case "var":
		// git var -l lists the configuration too.
		if !slices.ContainsFunc(p.Argv, func(w word.Word) bool { s, _ := w.Static(); return s == "-l" }) {
			return word.No
		}
	default:
		return word.No
	}
	for _, f := range gitConfigFiles(p) {
		if p.env.gitConfigHasCredential(f) {
			return word.Yes
		}
	}
	return word.No
}

// maxGitIndex bounds what is read of a repository's index: past it, what
// the repository tracks is not known, and printing it asks.
const maxGitIndex = 64 << 20

// printsTrackedSecret matches git commands that print what tracked files
// hold (git diff, git show, git log -p, git format-patch, git cat-file -p
// of an object) in a repository whose index tracks a file whose name says
// it holds a secret: a .env committed by mistake is printed by every diff
// that touches it. With paths after --, only a tracked secret below them
// counts. A secret that history holds and the index no longer does is not
// looked for (README).
func printsTrackedSecret(p *Part) word.Tri {
	c := p.Norm
	if c == nil || c.Prog != "git" || len(c.Sub) == 0 || p.env == nil {
		return word.No
	}
	// git's own options come before the subcommand (-C DIR, -c K=V), the
	// subcommand's after it.
	var flags, global []string
	var chdir []word.Word // git -C DIR, in order
	sub := false
	for i := 1; i < len(p.Argv); i++ {
		a := p.Argv[i]
		s, ok := a.Static()
		switch {
		case !sub && ok && strings.HasPrefix(s, "-"):
			global = append(global, s)
			if s == "-C" || s == "-c" || s == "--git-dir" || s == "--work-tree" || s == "--namespace" {
				i++ // its value
				if s == "-C" && i < len(p.Argv) {
					chdir = append(chdir, p.Argv[i])
				}
			}
		case !sub:
			sub = true
		case ok && strings.HasPrefix(s, "-") && s != "--":
			flags = append(flags, s)
		case !ok && a.CouldStartWith('-'):
			flags = append(flags, "?")
		}
	}
	inGlobal := func(names ...string) bool {
		for _, g := range global {
			for _, n := range names {
				if g == n || strings.HasPrefix(g, n+"=") {
					return true
				}
			}
		}
		return false
	}
	has := func(names ...string) bool {
		for _, f := range flags {
			for _, n := range names {
				if f == n || strings.HasPrefix(f, n+"=") {
					return true
				}
			}
		}
		return false
	}
	patch := has("-p", "-u", "--patch", "--cc", "-c", "--word-diff", "--color-words", "--patch-with-stat", "--patch-with-raw", "-U", "--unified", "--full-diff", "?") ||
		slices.ContainsFunc(flags, func(f string) bool { return strings.HasPrefix(f, "-L") }) // log -L prints the lines' history as patches
	// Paths after -- restrict what is printed, unless the patch is whole
	// (--full-diff) or they are read otherwise (--icase-pathspecs).
	restricted := !has("--full-diff", "--submodule", "--recurse-submodules") && !inGlobal("--icase-pathspecs", "--glob-pathspecs", "--literal-pathspecs")
	quiet := has("--stat", "--numstat", "--shortstat", "--name-only", "--name-status", "--summary", "--dirstat", "-s", "--no-patch", "--quiet", "--raw", "--check")
	prints := false
	switch c.Sub[0] {
	case "diff":
		prints = !has("--no-index") && (patch || !quiet)
	case "show":
		prints = patch || !quiet
	case "log", "whatchanged", "reflog", "diff-index", "diff-files", "diff-tree":
		prints = patch
	case "stash":
		show := len(c.Sub) > 1 && c.Sub[1] == "show" || len(c.Args) > 0 && c.Args[0].String() == "show"
		prints = show && patch
	case "format-patch":
		prints = true
	case "cat-file":
		prints = has("-p", "--batch", "--batch-all-objects", "--textconv", "--filters", "?") ||
			slices.ContainsFunc(c.Args, func(w word.Word) bool { return w.String() == "blob" })
	}
	if !prints {
		return word.No
	}
	out := word.No
	dirs := p.Cwd.Dirs
	if p.Cwd.Unknown || len(dirs) == 0 {
		// Some repository not known here (cd "$D" && git log -p).
		dirs, out = []string{p.env.Project}, word.Maybe
	}
	for _, a := range p.Assigns {
		if a.Name == "GIT_DIR" || a.Name == "GIT_INDEX_FILE" || a.Name == "GIT_WORK_TREE" {
			out = word.Maybe // another repository's, or another index
		}
	}
	if inGlobal("--git-dir", "--work-tree") {
		out = word.Maybe // another repository's
	}
	dirs = slices.Clone(dirs)
	for _, cd := range chdir {
		// git -C DIR: where it looks, from where it runs.
		s, ok := cd.Static()
		if !ok {
			out = word.Maybe
			break
		}
		for i, d := range dirs {
			if !filepath.IsAbs(s) {
				dirs[i] = filepath.Join(d, s)
			} else {
				dirs[i] = s
			}
		}
	}
	for _, d := range dirs {
		root, ok := gitRoot(d)
		if !ok {
			continue
		}
		indexes, err := gitIndexFiles(root)
		if err != nil {
			out = orTri(out, word.Maybe)
		}
		for _, ix := range indexes {
			paths, err := gitindex.Paths(ix, maxGitIndex)
			if errors.Is(err, atomicfile.ErrTooLarge) {
				out = orTri(out, word.Maybe)
				continue
			}
			for _, t := range paths {
				if trackedSecret(root, t) && (!restricted || underPathspecs(c, d, root, t)) {
					return word.Yes
				}
			}
		}
	}
	return out
}

// gitIndexFiles are the index files of the repository at root: its .git
// directory's, or, for a worktree or a submodule, the git directory its
// .git file names; with a split index, the shared ones beside it too.
func gitIndexFiles(root string) ([]string, error) {
	gitDir := filepath.Join(root, ".git")
	fi, err := os.Lstat(gitDir)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		b, err := atomicfile.ReadFile(gitDir, 4096)
		if err != nil {
			return nil, err
		}
		d, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
		if !ok {
			return nil, errors.New("a .git file without gitdir")
		}
		if d = strings.TrimSpace(d); !filepath.IsAbs(d) {
			d = filepath.Join(root, d)
		}
		gitDir = d
	}
	out := []string{filepath.Join(gitDir, "index")}
	shared, _ := filepath.Glob(filepath.Join(gitDir, "sharedindex.*"))
	return append(out, shared...), nil
}

// trackedSecret reports a tracked file whose name says it is a secret (a
// dotenv file, a key), or whose name says it may be one and whose copy in
// the work tree is (server.pem holding a PRIVATE KEY block).
func trackedSecret(root, tracked string) bool {
	base := path.Base(tracked)
	if secretByName(base) || envFile(base) {
		return true
	}
	if re := secretContent(base); re != nil {
		f := filepath.Join(root, tracked)
		if _, err := os.Lstat(f); err != nil {
			return true // deleted here, but tracked (and committed) as it was
		}
		return probeSecret(f, re) != word.No
	}
	return false
}

// underPathspecs reports whether a tracked path (relative to root) is
// among what the command's paths after -- name, run in dir; without them,
// or with any that is not a plain static path, every tracked path is.
func underPathspecs(c *argspec.Cmd, dir, root, tracked string) bool {
	if c.DashDash < 0 || c.DashDash >= len(c.Args) {
		return true
	}
	for _, a := range c.Args[c.DashDash:] {
		s, ok := a.Static()
		if !ok || strings.HasPrefix(s, ":") || strings.ContainsAny(s, "*?[") {
			return true // pathspec magic, a glob: may be anything
		}
		abs := filepath.Join(dir, s)
		if filepath.IsAbs(s) {
			abs = filepath.Clean(s)
		}
		t := filepath.Join(root, tracked)
		if abs == t || strings.HasPrefix(t, strings.TrimSuffix(abs, "/")+"/") || abs == root {
			return true
		}
	}
	return false
}

// gitConfigFiles are the configuration files git reads for a command run
// in the part's directories: each one's repository's, and the user's.
func gitConfigFiles(p *Part) []string {
	var out []string
	dirs := p.Cwd.Dirs
	if p.Cwd.Unknown || len(dirs) == 0 {
		dirs = []string{p.env.Project}
	}
	for _, d := range dirs {
		if root, ok := gitRoot(d); ok {
			out = append(out, filepath.Join(root, ".git", "config"))
		}
	}
	if home := p.env.Home; home != "" {
		// (An XDG_CONFIG_HOME elsewhere is not looked at: the guard's
		// environment is the caller's to give.)
		out = append(out, filepath.Join(home, ".gitconfig"), filepath.Join(home, ".config", "git", "config"))
	}
	return out
}
