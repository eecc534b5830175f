package argspec

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/guard-exec/guard-exec/word"
)

// git: the commands its options, URLs and global options carry.

// gitCodeKey matches the configuration keys whose value git runs as a
// program, or that make it read configuration or programs from elsewhere.
var gitCodeKey = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(core\.(pager|editor|sshcommand|fsmonitor|askpass|hookspath|gitproxy)|sequence\.editor|diff\.external|diff\..*\.(textconv|command)|filter\..*\.(clean|smudge|process)|merge\..*\.driver|credential(\..*)?\.helper|gpg(\..*)?\.program|alias\..*|pager\..*|uploadpack\.packobjectshook|include\.path|includeif\..*|remote\..*\.(uploadpack|receivepack|proxy)|http\.proxy|interactive\.difffilter|mergetool\..*\.cmd|difftool\..*\.cmd|sendemail\..*|web\.browser|browser\..*\.cmd|man\..*\.cmd)$`)
})

// gitStrategy reports a merge strategy built into git; any other name
// runs the program git-merge-NAME.
func gitStrategy(s string) bool {
	switch s {
	case "ort", "recursive", "resolve", "octopus", "ours", "subtree":
		return true
	}
	return false
}

func gitCarried(r *carry) {
	c := Normalize(r.argv, false)
	r.gitConfigArgs(c.Values("-c"), "git -c")
	for _, v := range c.Values("--config-env") {
		key, _, _ := v.Cut("=")
		if gitCodeKey().MatchString(key) {
			r.Opaque("git --config-env sets " + key + " from the environment")
		}
	}
	for _, o := range c.Opts {
		switch {
		case o.Name == "--exec-path" && o.Value != nil:
			if _, bad := r.UntrustedDir(*o.Value); bad {
				r.Opaque("git --exec-path=" + o.Value.String() + " runs git's helper programs (remote helpers, merge strategies) from there")
			}
		case (o.Name == "-C" || o.Name == "--git-dir") && o.Value != nil && r.outside(*o.Value),
			o.Name == "--git-dir" && o.Value != nil && !inGitDir(*o.Value):
			r.Opaque("git " + o.Name + " " + o.Value.String() + " uses that repository's configuration and hooks, which can name programs to run")
		case o.Name == "--work-tree" && o.Value != nil && r.outside(*o.Value):
			r.Opaque(workTreeReason("git --work-tree", *o.Value))
		}
	}
	if len(c.Sub) == 0 {
		return
	}
	switch c.Sub[0] {
	case "fetch", "pull", "clone", "ls-remote", "push", "archive", "submodule", "remote":
		// An ext:: URL is a command git runs (when protocol.ext.allow
		// lets it): its words, with %-escapes, not shell code.
		for _, a := range append(append([]word.Word(nil), c.Args...), c.Values("--remote")...) {
			if strings.HasPrefix(a.Prefix(), "ext::") || !a.IsStatic() && a.CouldStartWith('e') {
				r.Opaque("git " + c.Sub[0] + " with the URL " + a.String() + ", which may be an ext:: URL (a command git runs)")
				break
			}
		}
	}
	switch c.Sub[0] {
	case "rebase":
		for _, v := range c.Values("--exec") {
			r.shell(v, "git rebase --exec")
		}
	case "fetch", "pull", "ls-remote":
		for _, v := range c.Values("--upload-pack") {
			r.shell(v, "git "+c.Sub[0]+" --upload-pack")
		}
	case "clone":
		for _, v := range c.Values("--upload-pack") {
			r.shell(v, "git clone --upload-pack")
		}
		r.gitConfigArgs(c.Values("--config"), "git clone --config")
		if len(c.Values("--template")) > 0 {
			r.Opaque("git clone --template copies hooks from that directory, which git then runs")
		}
	case "push":
		for _, v := range c.Values("--receive-pack") {
			r.shell(v, "git push --receive-pack")
		}
	case "archive":
		for _, v := range c.Values("--exec") {
			r.shell(v, "git archive --exec")
		}
	case "grep":
		for _, v := range c.Values("--open-files-in-pager") {
			t, ok := v.Static()
			if !ok {
				r.Opaque("git grep --open-files-in-pager names a command not known here")
				continue
			}
			r.Shell(t+` "$@"`, "git grep --open-files-in-pager", ShellRun{ParamsUnknown: true, Caller: true})
		}
	case "difftool":
		for _, v := range c.Values("--extcmd") {
			t, ok := v.Static()
			if !ok {
				r.Opaque("git difftool --extcmd names a command not known here")
				continue
			}
			r.Shell(t+` "$1" "$2"`, "git difftool --extcmd", ShellRun{ParamsUnknown: true, Caller: true})
		}
	case "submodule":
		// git submodule [--quiet] foreach [--recursive] COMMAND: the
		// command runs with sh in each submodule.
		args := c.Args
		for i, a := range args {
			if t, _ := a.Static(); t == "foreach" {
				rest := args[i+1:]
				for len(rest) > 0 {
					if t, _ := rest[0].Static(); t == "--recursive" || t == "-q" || t == "--quiet" {
						rest = rest[1:]
						continue
					}
					break
				}
				if len(rest) > 0 {
					r.shellRun(JoinWords(rest), "git submodule foreach", ShellRun{Elsewhere: true})
				}
				break
			}
		}
	case "bisect":
		if len(c.Args) > 0 {
			if t, _ := c.Args[0].Static(); t == "run" {
				r.Argv(c.Args[1:], "git bisect run", false)
			}
		}
	case "filter-branch", "send-email":
		// Scripts (shell, perl) that read their own options: every
		// option word that names a command is judged, wherever it is.
		r.gitScriptOptions(c.Sub[0])
	}
	switch c.Sub[0] {
	case "merge", "pull", "rebase", "cherry-pick", "revert":
		for _, v := range c.Values("--strategy") {
			t, ok := v.Static()
			if ok && gitStrategy(t) {
				continue
			}
			if !ok {
				r.Opaque("git " + c.Sub[0] + " --strategy names a merge program not known here")
				continue
			}
			r.Argv([]word.Word{word.FromLit("git-merge-" + t)}, "git "+c.Sub[0]+" --strategy", false)
		}
	}
}

// gitScriptOptions judges the options of git filter-branch (its filters
// are shell code) and git send-email (commands that list recipients or
// send mail; perl's Getopt accepts abbreviations of them).
func (r *carry) gitScriptOptions(sub string) {
	var names []string
	if sub == "filter-branch" {
		names = []string{"--setup", "--env-filter", "--tree-filter", "--index-filter", "--parent-filter", "--msg-filter", "--commit-filter", "--tag-name-filter"}
	} else {
		names = []string{"--sendmail-cmd", "--to-cmd", "--cc-cmd", "--header-cmd", "--smtp-server"}
	}
	args := r.argv[1:]
	for i := 0; i < len(args); i++ {
		t, ok := args[i].Static()
		if !ok {
			if args[i].CouldStartWith('-') {
				r.Opaque("git " + sub + " with an argument not known here where an option could be")
			}
			continue
		}
		if t == "--" {
			return
		}
		name, val, hasVal := strings.Cut(t, "=")
		if !strings.HasPrefix(name, "--") || len(name) < 4 {
			continue
		}
		for _, n := range names {
			if name != n && (sub == "filter-branch" || !strings.HasPrefix(n, name)) {
				continue
			}
			v, ok := optionValue(args, &i, val, hasVal)
			if !ok {
				break
			}
			if n == "--smtp-server" {
				if strings.HasPrefix(v.Prefix(), "/") || !v.IsStatic() {
					r.program(v, "git send-email --smtp-server")
				}
				break
			}
			r.shell(v, "git "+sub+" "+n)
			break
		}
	}
}

// gitConfigArgs judges KEY=VALUE settings (git -c, git clone --config)
// whose key makes git run a program.
func (r *carry) gitConfigArgs(vals []word.Word, what string) {
	for _, v := range vals {
		key, val, ok := v.Cut("=")
		if !ok {
			if !v.IsStatic() {
				r.Opaque(what + " with a setting not known here")
			}
			continue
		}
		if !gitCodeKey().MatchString(key) {
			continue
		}
		t, ok := val.Static()
		if !ok {
			r.shell(val, what+" "+key)
			continue
		}
		t = strings.TrimPrefix(t, "!")
		if strings.EqualFold(key, "core.hookspath") || strings.HasPrefix(strings.ToLower(key), "include") {
			r.Opaque(what + " " + key + " makes git run programs from " + t)
			continue
		}
		if t == "" || t == "true" || t == "false" {
			continue
		}
		r.shell(word.FromLit(t), what+" "+key)
	}
}

// gitEnv: variables that name a program git runs, or make it read
// helpers, hooks and configuration from elsewhere. (The pager, editor
// and ssh variables are the walker's codeVars, judged as shell code wherever
// they are set.)
func (r *carry) gitEnv(a envVar) bool {
	switch a.Name {
	case "GIT_PROXY_COMMAND":
		r.program(a.Value, a.Name+" (git's proxy command)")
	case "GIT_EXEC_PATH", "GIT_TEMPLATE_DIR", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG":
		r.untrustedLocation(a, "git reads helpers, hooks or configuration (which can name programs)")
	case "GIT_WORK_TREE":
		// A relative value is read where git runs, which a later cd
		// may move (export GIT_WORK_TREE=.; cd elsewhere; git stash -u).
		if t, ok := a.Value.Static(); !ok || !strings.HasPrefix(t, "/") || r.outside(a.Value) {
			r.Opaque(workTreeReason("GIT_WORK_TREE", a.Value))
		}
	case "GIT_DIR", "GIT_COMMON_DIR":
		if t, ok := a.Value.Static(); !ok || !strings.HasPrefix(t, "/") || r.outside(a.Value) || !inGitDir(a.Value) {
			r.Opaque("setting " + a.Name + " makes git use the repository at " + a.Value.String() + ", whose configuration and hooks can name programs to run")
		}
	default:
		return false
	}
	return true
}

// inGitDir reports whether a repository path is a .git directory or
// below one (.git/worktrees/x, .git/modules/m), whose configuration and
// hooks the path rules keep the command from writing. Any other
// directory of the project is one the agent may fill: a config there
// with core.fsmonitor runs on git status (a red team's).
func inGitDir(v word.Word) bool {
	t, ok := pathText(v)
	if !ok {
		return false
	}
	return slices.Contains(strings.Split(filepath.Clean(t), "/"), ".git")
}

// workTreeReason: with another work tree, git's checkouts, merges and
// stashes write the files there, and stash -u removes every untracked
// file in it (checked with git 2.39: git --work-tree=DIR stash -u
// emptied DIR of its untracked files).
func workTreeReason(what string, dir word.Word) string {
	return what + " " + dir.String() + " makes git write, and stash -u delete, the files there as its work tree"
}
