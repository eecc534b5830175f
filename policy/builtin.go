package policy

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"unsafe"

	"github.com/guard-exec/guard-exec/argspec"
	"github.com/guard-exec/guard-exec/shellparse"
	"github.com/guard-exec/guard-exec/word"
)

type ruleSpec struct {
	d       Decision
	command string
	flags   []string
	why     string
	instead string
}

// defaults are the built-in command rules beyond the catalogues.
var defaults = []ruleSpec{
	// Destructive but legitimate: a person decides.
	{Ask, "rm", []string{"-r"}, "recursive delete", "delete the specific files you mean, or ask the person to run it"},
	{Ask, "find -delete", nil, "find -delete removes every file the expression matches", "list the files with find first (without -delete) and remove specific ones"},
	{Ask, "tar", []string{"--remove-files"}, "tar --remove-files deletes what it stores, trees and all", "make the archive without --remove-files, then delete specific files"},
	{Ask, "zip", []string{"-m", "--move"}, "zip -m deletes what it stores", "make the archive without -m, then delete specific files"},
	{Ask, "shred", nil, "shred destroys file contents beyond recovery", ""},
	{Ask, "git reset --hard", nil, "git reset --hard discards uncommitted changes", "git stash, or git reset --keep"},
	{Ask, "git clean", []string{"-f"}, "git clean -f deletes untracked files", "git clean -n to see what would be deleted"},
	{Allow, "git clean -n", nil, "a dry run only lists files", ""},
	{Ask, "git push --force", nil, "force-pushing rewrites shared history", "git push --force-with-lease, or push to a new branch"},
	{Ask, "git push +*", nil, "a +ref push forces the update and rewrites shared history", "push without + to a new branch"},
	{Ask, "git push * +*", nil, "a +ref push forces the update and rewrites shared history", "push without + to a new branch"},
	{Ask, "git checkout .", nil, "git checkout . discards uncommitted changes", "git stash"},
	{Ask, "git restore", nil, "git restore discards uncommitted changes", "git stash, or git restore --staged to unstage only"},
	{Ask, "git branch -D", nil, "git branch -D deletes a branch even if it is not merged", "git branch -d (refuses unmerged branches)"},
	{Ask, "git branch --delete --force", nil, "deletes a branch even if it is not merged", "git branch -d"},
	{Ask, "git tag", []string{"-d", "-f"}, "deletes or moves a tag", "create a new tag instead"},
	{Ask, "git stash drop", nil, "dropping a stash loses its changes", ""},
	{Ask, "git stash clear", nil, "clearing the stash loses every stashed change", ""},
	{Ask, "git -c", nil, "git -c can point configuration at programs git runs", "run git without -c"},
	{Ask, "git config", []string{"--includes"}, "--includes follows a config file's include.path to files it names, and prints what they hold (git config -f F --includes --list)", "git config without --includes"},
	{Ask, "git --git-dir", nil, "--git-dir makes any directory the repository, and its config file can name programs git runs (core.fsmonitor runs on git status)", "run git in the repository itself"},
	{Ask, "git init", []string{"--bare"}, "a bare repository's config (DIR/config) can name programs git runs there", "ask the person to make the repository"},
	{Ask, "git clone", []string{"--bare", "--mirror"}, "a bare repository's config (DIR/config) can name programs git runs there", "ask the person to make the repository"},
	{Ask, "git diff --ext-diff", nil, "--ext-diff runs the external diff program from configuration", ""},
	{Ask, "git log --ext-diff", nil, "--ext-diff runs the external diff program from configuration", ""},
	{Ask, "git show --ext-diff", nil, "--ext-diff runs the external diff program from configuration", ""},
	{Ask, "git diff-tree --ext-diff", nil, "--ext-diff runs the external diff program from configuration", ""},
	{Ask, "git diff-index --ext-diff", nil, "--ext-diff runs the external diff program from configuration", ""},
	{Ask, "git diff-files --ext-diff", nil, "--ext-diff runs the external diff program from configuration", ""},
	{Ask, "git whatchanged --ext-diff", nil, "--ext-diff runs the external diff program from configuration", ""},
	{Ask, "git reflog", []string{"--ext-diff"}, "--ext-diff runs the external diff program from configuration", ""},
	{Ask, "git stash show --ext-diff", nil, "--ext-diff runs the external diff program from configuration", ""},
	{Ask, "git ls-remote", []string{"--upload-pack"}, "--upload-pack (--exec) names a program git runs", "git ls-remote without --upload-pack"},
	{Ask, "kill -9", nil, "kill -9 gives the process no chance to clean up", "kill (SIGTERM) first"},
	{Ask, "pkill", nil, "pkill signals every process whose name matches", "kill a specific process id"},
	{Ask, "killall", nil, "killall signals every process with that name", "kill a specific process id"},
	{Ask, "chmod", []string{"-R"}, "a recursive permission change affects a whole tree", "change the specific files"},
	{Ask, "chown", []string{"-R"}, "a recursive ownership change affects a whole tree", "change the specific files"},
	{Ask, "chgrp", []string{"-R"}, "a recursive group change affects a whole tree", "change the specific files"},
	{Ask, "date -s", nil, "date -s sets the system clock", ""},
	{Ask, "date --set", nil, "date --set sets the system clock", ""},
	{Ask, "fd", []string{"-x", "--exec", "-X", "--exec-batch"}, "fd -x/-X runs a command for the matches", "list the matches with fd, then run the command on the files you mean"},
	{Ask, "fdfind", []string{"-x", "--exec", "-X", "--exec-batch"}, "fd -x/-X runs a command for the matches", "list the matches with fd, then run the command on the files you mean"},
	{Ask, "sort --compress-program", nil, "sort runs the compression program", ""},
	{Ask, "tar", []string{"-I", "--use-compress-program", "--to-command", "--checkpoint-action", "-F", "--info-script", "--rsh-command", "--rmt-command"}, "tar runs the program the option names (in any mode, listing included)", "tar with -z, -j, -J or --zstd"},
	{Ask, "docker rm", nil, "removes containers", ""},
	{Ask, "docker rmi", nil, "removes images", ""},
	{Ask, "docker kill", nil, "kills containers", ""},
	{Ask, "docker system prune", nil, "removes unused containers, networks, images and caches", ""},
	{Ask, "docker volume rm", nil, "removes volumes and the data in them", ""},
	{Ask, "docker volume prune", nil, "removes unused volumes and the data in them", ""},
	{Ask, "docker image prune", nil, "removes images", ""},
	{Ask, "docker container prune", nil, "removes stopped containers", ""},
	{Ask, "docker compose down", nil, "stops and removes the project's containers", ""},
	{Ask, "kubectl delete", nil, "deletes cluster resources", "kubectl delete --dry-run=client to preview"},
	{Ask, "kubectl drain", nil, "evicts every pod from a node", ""},
	{Ask, "terraform destroy", nil, "destroys managed infrastructure", "terraform plan -destroy to preview"},
	{Ask, "terraform apply", nil, "changes real infrastructure", "terraform plan to preview"},
	{Ask, "terraform output", []string{"--json", "--raw"}, "terraform output -json and -raw print the values of sensitive outputs (passwords, keys) from the state", "terraform output, which hides sensitive values"},
	{Ask, "terraform show", []string{"--json"}, "terraform show -json prints the state with its sensitive values", "terraform show, which hides them"},
	{Ask, "helm uninstall", nil, "removes a release from the cluster", ""},
	{Ask, "helm delete", nil, "removes a release from the cluster", ""},
	// Network reads: what curl and wget write is judged by the path rules;
	// sending data or changing things on the server is asked.
	{Allow, "curl", nil, "fetches a URL; any file it writes is judged by the path rules", ""},
	{Ask, "curl", []string{"-d", "--data", "--data-ascii", "--data-binary", "--data-raw", "--data-urlencode", "-F", "--form", "--form-string", "-T", "--upload-file", "--json", "-K", "--config", "-X", "-Q", "--quote", "--mail-rcpt", "--upload-flags"}, "sends data to a server, or changes something there", "fetch without sending data, or ask the person"},
	{Allow, "curl -X GET", nil, "fetches a URL", ""}, {Allow, "curl -X HEAD", nil, "fetches a URL's headers", ""},
	{Allow, "wget", nil, "downloads; the files it writes are judged by the path rules", ""},
	{Ask, "wget", []string{"--post-data", "--post-file", "--body-data", "--body-file", "--method", "-i", "--input-file"}, "sends data to a server, or fetches a list of URLs from a file", ""},
	{Ask, "wget", []string{"--config", "--use-askpass"}, "wget runs a program (use_askpass), or reads settings that may say to", ""},
	{Allow, "gh pr view", nil, "read-only", ""}, {Allow, "gh pr list", nil, "read-only", ""},
	{Allow, "gh pr status", nil, "read-only", ""}, {Allow, "gh pr diff", nil, "read-only", ""},
	{Allow, "gh pr checks", nil, "read-only", ""}, {Allow, "gh issue view", nil, "read-only", ""},
	{Allow, "gh issue list", nil, "read-only", ""}, {Allow, "gh issue status", nil, "read-only", ""},
	{Allow, "gh run view", nil, "read-only", ""}, {Allow, "gh run list", nil, "read-only", ""},
	{Allow, "gh repo view", nil, "read-only", ""}, {Allow, "gh release list", nil, "read-only", ""},
	{Allow, "gh release view", nil, "read-only", ""}, {Allow, "gh auth status", nil, "read-only", ""},
	{Allow, "gh api", nil, "reads from the GitHub API", ""},
	{Ask, "gh api", []string{"-X", "--method", "-f", "-F", "--field", "--raw-field", "--input"}, "changes something through the GitHub API", ""},
	{Ask, "gh auth status", []string{"-t", "--show-token"}, "prints the GitHub token", "gh auth status without --show-token"},
	// Read-only uses of tools that are not read-only in general.
	{Allow, "git status", nil, "read-only", ""}, {Allow, "git log", nil, "read-only", ""},
	{Allow, "git diff", nil, "read-only", ""}, {Allow, "git show", nil, "read-only", ""},
	{Allow, "git branch", nil, "lists or creates branches", ""}, {Allow, "git rev-parse", nil, "read-only", ""},
	{Allow, "git ls-files", nil, "read-only", ""}, {Allow, "git ls-tree", nil, "read-only", ""},
	{Allow, "git ls-remote", nil, "read-only", ""}, {Allow, "git blame", nil, "read-only", ""},
	{Allow, "git describe", nil, "read-only", ""}, {Allow, "git shortlog", nil, "read-only", ""},
	{Allow, "git reflog show", nil, "read-only", ""}, {Allow, "git cat-file", nil, "read-only", ""},
	// git reflog is git reflog show unless its first word names another
	// subcommand (options before one make it show's: git reflog -n1
	// expire shows a revision "expire").
	{Allow, "git reflog", nil, "read-only", ""},
	{Ask, "git reflog expire", nil, "git reflog expire deletes reflog entries, which are how lost commits are found again", ""},
	{Ask, "git reflog delete", nil, "git reflog delete deletes reflog entries, which are how lost commits are found again", ""},
	{Ask, "git reflog drop", nil, "git reflog drop deletes a reflog, which is how lost commits are found again", ""},
	{Allow, "git grep", nil, "read-only", ""}, {Allow, "git merge-base", nil, "read-only", ""},
	{Allow, "git rev-list", nil, "read-only", ""}, {Allow, "git for-each-ref", nil, "read-only", ""},
	{Allow, "git show-ref", nil, "read-only", ""}, {Allow, "git name-rev", nil, "read-only", ""},
	{Allow, "git count-objects", nil, "read-only", ""}, {Allow, "git check-ignore", nil, "read-only", ""},
	{Allow, "git config --get", nil, "read-only", ""}, {Allow, "git config --list", nil, "read-only", ""},
	{Allow, "git config --get-all", nil, "read-only", ""}, {Allow, "git stash list", nil, "read-only", ""},
	{Allow, "git stash show", nil, "read-only", ""}, {Allow, "git worktree list", nil, "read-only", ""},
	{Allow, "git submodule status", nil, "read-only", ""}, {Allow, "git tag", nil, "lists or creates tags", ""},
	{Allow, "git remote -v", nil, "read-only", ""},
	{Allow, "git remote show", nil, "read-only", ""}, {Allow, "git remote get-url", nil, "read-only", ""},
	{Allow, "git version", nil, "read-only", ""}, {Allow, "git help", nil, "read-only", ""},
	{Allow, "git diff-tree", nil, "read-only", ""}, {Allow, "git diff-index", nil, "read-only", ""},
	{Allow, "git whatchanged", nil, "read-only", ""}, {Allow, "git var", nil, "read-only", ""},
	{Allow, "git grep -O", nil, "", ""},
	{Allow, "ssh-keygen -l", nil, "prints a key's fingerprint", ""}, {Allow, "ssh-keygen -lf", nil, "prints a key's fingerprint", ""},
	{Allow, "ssh-keygen -y", nil, "prints a private key's public key", ""},
	{Allow, "docker ps", nil, "read-only", ""}, {Allow, "docker images", nil, "read-only", ""},
	{Allow, "docker logs", nil, "read-only", ""}, {Allow, "docker inspect", nil, "read-only", ""},
	{Allow, "docker version", nil, "read-only", ""}, {Allow, "docker info", nil, "read-only", ""},
	// The project's containers, as docker ps and logs show them; compose
	// config asks: it prints what it reads from .env and env_file.
	{Allow, "docker compose ps", nil, "read-only", ""}, {Allow, "docker compose logs", nil, "read-only", ""},
	{Allow, "docker compose images", nil, "read-only", ""}, {Allow, "docker compose top", nil, "read-only", ""},
	{Allow, "docker compose ls", nil, "read-only", ""}, {Allow, "docker compose version", nil, "read-only", ""},
	{Allow, "docker-compose ps", nil, "read-only", ""}, {Allow, "docker-compose logs", nil, "read-only", ""},
	{Allow, "docker-compose images", nil, "read-only", ""}, {Allow, "docker-compose top", nil, "read-only", ""},
	{Allow, "docker-compose ls", nil, "read-only", ""}, {Allow, "docker-compose version", nil, "read-only", ""},
	{Allow, "kubectl get", nil, "read-only", ""}, {Allow, "kubectl describe", nil, "read-only", ""},
	{Allow, "kubectl logs", nil, "read-only", ""}, {Allow, "kubectl explain", nil, "read-only", ""},
	{Allow, "kubectl version", nil, "read-only", ""}, {Allow, "kubectl api-resources", nil, "read-only", ""},
	{Allow, "kubectl cluster-info", nil, "read-only", ""}, {Allow, "kubectl top", nil, "read-only", ""},
	{Allow, "helm list", nil, "read-only", ""}, {Allow, "helm status", nil, "read-only", ""},
	{Allow, "helm history", nil, "read-only", ""}, {Allow, "helm show", nil, "read-only", ""},
	{Allow, "terraform validate", nil, "read-only", ""}, {Allow, "terraform show", nil, "read-only", ""},
	{Allow, "terraform output", nil, "read-only", ""}, {Allow, "terraform version", nil, "read-only", ""},
}

// absoluteCommands can never run under the guard.
var absoluteCommands = []ruleSpec{
	{Deny, "mkfs*", nil, "formatting a file system destroys everything on it", "this is never run by an agent; a person does it outside the guard"},
	{Deny, "mke2fs", nil, "formatting a file system destroys everything on it", "a person does it outside the guard"},
	{Deny, "mkswap", nil, "turns a device into swap, destroying its contents", "a person does it outside the guard"},
	{Deny, "wipefs", nil, "erases file-system signatures", "a person does it outside the guard"},
	{Deny, "blkdiscard", nil, "discards every block of a device", "a person does it outside the guard"},
	{Deny, "guard-exec trust", nil, "trusting a project file is a person's decision, made outside the guard", "ask the person to run guard-exec trust in their own terminal"},
	{Deny, "guard-exec untrust", nil, "project trust is changed by a person outside the guard", "ask the person"},
	{Deny, "guard-exec install", nil, "installing the guard is done by a person outside the guard", "ask the person"},
	{Deny, "guard-exec uninstall", nil, "removing the guard is done by a person outside the guard", "ask the person"},
	{Deny, "guard-exec init", nil, "writing the guard's configuration is done by a person outside the guard", "ask the person"},
	{Deny, "guard-exec hook", nil, "hook answers come from the client, not from commands run under the guard", "ask the person"},
	{Deny, "guard-exec approve", nil, "approvals are given by a person outside the guard", "ask the person"},
	{Deny, "guard-exec reject", nil, "approvals are given by a person outside the guard", "ask the person"},
	{Deny, "guard-exec allow", nil, "approvals are given by a person outside the guard", "ask the person to run it in their own terminal"},
	{Deny, "guard-exec approvals", nil, "the approval queue is answered by a person outside the guard", "ask the person to answer it in their own terminal"},
}

// blockDevices are the paths of disks and partitions.
var blockDevices = []string{"/dev/sd*", "/dev/hd*", "/dev/vd*", "/dev/xvd*", "/dev/nvme*", "/dev/mmcblk*",
	"/dev/loop*", "/dev/md*", "/dev/dm-*", "/dev/mapper/**", "/dev/disk/**", "/dev/sr*", "/dev/disk*",
	"/dev/rdisk*", "/dev/mem", "/dev/kmem", "/dev/port", "/dev/nbd*", "/dev/zd*", "/dev/bcache*"}

// topLevel are the system directories whose recursive deletion is never
// right.
var topLevel = []string{"/bin", "/boot", "/dev", "/etc", "/home", "/lib", "/lib32", "/lib64", "/libx32",
	"/media", "/mnt", "/opt", "/proc", "/root", "/run", "/sbin", "/snap", "/srv", "/sys", "/usr", "/var",
	"/Applications", "/Library", "/System", "/Users", "/Volumes", "/private", "/usr/bin", "/usr/lib",
	"/usr/local", "/usr/sbin", "/usr/share", "/var/lib", "/var/log", "/etc/ssh"}

var sqlDestroy = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(drop\s+(table|database|schema|index|view|user|role)|truncate(\s+table)?\s+\w|flushall|flushdb|dropdatabase)\b`)
})

func dbClients(name string) bool {
	switch name {
	case "psql", "mysql", "mariadb", "sqlite3", "sqlcmd", "clickhouse-client", "cockroach", "mongosh",
		"mongo", "redis-cli", "duckdb", "cqlsh", "bq", "snowsql":
		return true
	}
	return false
}

// ruleArena is where the built-in rules of a policy live. Every command
// builds the hundred or so rules about any program, in a fresh process
// where each page first touched costs a fault: the rules are allocated a
// block at a time and their texts cut from one buffer, instead of a few
// hundred allocations spread over as many size classes (each a fresh
// span of its own).
type ruleArena struct {
	block []Rule
	text  []byte
}

// rule returns a new zero rule.
func (a *ruleArena) rule() *Rule {
	if len(a.block) == cap(a.block) {
		a.block = make([]Rule, 0, 64)
	}
	a.block = a.block[:len(a.block)+1]
	return &a.block[len(a.block)-1]
}

// str returns the concatenation of parts. The bytes behind a string are
// never written again: appending past the buffer's capacity moves on to
// a new one, and the old stays as the strings cut from it.
func (a *ruleArena) str(parts ...string) string {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	if n == 0 {
		return ""
	}
	if len(a.text)+n > cap(a.text) {
		a.text = make([]byte, 0, max(n, 16<<10))
	}
	start := len(a.text)
	for _, p := range parts {
		a.text = append(a.text, p...)
	}
	return unsafe.String(&a.text[start], n)
}

// builtins holds the built-in rules. The rules about one program (the
// catalogues and the defaults) are made when a command names that program:
// a guard process judges one command and needs a handful of them.
type builtins struct {
	env    *Env
	mu     sync.Mutex
	byProg map[string][2][]*Rule // prog → rules, absolute rules
	// extra are rules about one program that depend on env (not in the
	// static tables), kept out of any so that other programs never
	// compile them.
	extra map[string][]*Rule
	arena ruleArena
	// The rules about any program are anyHead, the write rules' any, the
	// read rules, then anyTail; the absolute ones absHead, then the write
	// rules' abs. The rules about paths are made on first use (writes,
	// reads): a part that touches no path needs none of them.
	anyHead, anyTail, absHead []*Rule
	anyCmd                    []*Rule  // anyHead and anyTail: all about the command
	hs                        []string // homes(env)
	writeOnce, readOnce       sync.Once
	w                         writeRules
	r                         []*Rule
}

// catalogRule is the rule for prog's class in the program catalogue
// (argspec.ClassOf: writer, carrier or read-only), if any.
func catalogRule(prog string) (ruleSpec, bool) {
	c := argspec.ClassOf(prog)
	switch { // a program of two classes (env, xargs) is read-only
	case c&argspec.ReadOnly != 0:
		return ruleSpec{Allow, quoteWord(prog), nil, "read-only", "read-only " + prog}, true
	case c&(argspec.Carrier|argspec.Shell|argspec.Interpreter) != 0:
		// Interpreters: the program is allowed, the code it runs is
		// judged on its own (opaque unless a rule names the script or
		// the inline form).
		return ruleSpec{Allow, prog, nil, "runs another command, which is judged on its own", "carrier " + prog}, true
	case c&argspec.Writer != 0:
		return ruleSpec{Allow, prog, nil, "writes files; where it writes is judged by the path rules", "writer " + prog}, true
	}
	return ruleSpec{}, false
}

// specProg is the program a built-in rule's command names ((*Rule).progKey
// without parsing the rule), or "" when it names no single program.
func specProg(command string) string {
	first, _, _ := strings.Cut(strings.TrimLeft(command, " "), " ")
	if len(first) >= 2 && first[0] == '\'' && first[len(first)-1] == '\'' {
		return first[1 : len(first)-1]
	}
	if first == "" || strings.ContainsAny(first, "*?[]\\'\"/") {
		return ""
	}
	return first
}

// specIs reports whether specProg(command) is prog. A program is looked
// for among every default rule: most are ruled out by their first byte,
// which specProg's answer starts with unless quoted.
func specIs(command, prog string) bool {
	c := strings.TrimLeft(command, " ")
	if prog != "" && (c == "" || c[0] != prog[0] && c[0] != '\'') {
		return false
	}
	return specProg(command) == prog
}

func (b *builtins) newRule(r *Rule, abs bool) *Rule {
	r.Layer, r.lazy, r.env, r.Absolute = Builtin, true, b.env, abs
	if r.Source == "" {
		r.Source = b.arena.str("built-in: ", r.Name)
	}
	return r
}

func ruleFromSpec(d ruleSpec) *Rule {
	name := d.command
	switch {
	case len(d.flags) == 1:
		name += " " + d.flags[0]
	case len(d.flags) > 1:
		name += " " + d.flags[0] + "|…"
	}
	return &Rule{Decision: d.d, Command: d.command, Flags: d.flags, Why: d.why, Instead: d.instead, Name: name}
}

// forProg returns the built-in rules about one program.
func (b *builtins) forProg(prog string) (rules, abs []*Rule) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if got, ok := b.byProg[prog]; ok {
		return got[0], got[1]
	}
	if t, ok := catalogRule(prog); ok {
		// For catalogue entries the spec's instead field holds the name.
		rules = append(rules, b.newRule(&Rule{Decision: t.d, Command: t.command, Why: t.why, Name: t.instead}, false))
	}
	for _, d := range defaults {
		if specIs(d.command, prog) {
			rules = append(rules, b.newRule(ruleFromSpec(d), false))
		}
	}
	rules = append(rules, b.extra[prog]...)
	for _, d := range absoluteCommands {
		if specIs(d.command, prog) {
			abs = append(abs, b.newRule(ruleFromSpec(d), true))
		}
	}
	b.byProg[prog] = [2][]*Rule{rules, abs}
	return rules, abs
}

// all returns every built-in rule.
func (b *builtins) all() (rules, abs []*Rule) {
	progs := map[string]bool{}
	for _, p := range argspec.Names(argspec.ReadOnly | argspec.Writer | argspec.Carrier | argspec.Shell | argspec.Interpreter) {
		progs[p] = true
	}
	for _, l := range [][]ruleSpec{defaults, absoluteCommands} {
		for _, d := range l {
			if p := specProg(d.command); p != "" {
				progs[p] = true
			}
		}
	}
	for p := range b.extra {
		progs[p] = true
	}
	for p := range progs {
		r, a := b.forProg(p)
		rules, abs = append(rules, r...), append(abs, a...)
	}
	w := b.writes()
	rules = append(append(append(append(rules, b.anyHead...), w.any...), b.reads()...), b.anyTail...)
	return rules, append(append(abs, b.absHead...), w.abs...)
}

// builtinRules returns the built-in rules for env.
func builtinRules(env *Env) (*builtins, error) {
	b := &builtins{env: env, byProg: map[string][2][]*Rule{}}
	// The predicates below: the rules about paths come after them.
	rules, absolute := make([]*Rule, 0, 8), make([]*Rule, 0, 8)
	add := func(r *Rule, abs bool) error {
		b.newRule(r, abs)
		if abs {
			absolute = append(absolute, r)
		} else {
			rules = append(rules, r)
		}
		return nil
	}
	for _, d := range absoluteCommands {
		if specProg(d.command) == "" {
			add(ruleFromSpec(d), true)
		}
	}
	// Predicates for what the rule schema cannot say.
	preds := []Rule{
		{Decision: Ask, Name: "git in another repository", spec: pathSpec(env.Project) + 15, pred: gitInOtherRepo(env),
			Why: "git runs in a repository made inside the project or a temporary directory, whose config and hooks can name programs git runs", Instead: "run git in the project's own repository"},
		{Decision: Ask, Name: "code the guard cannot see", spec: 5, pred: func(p *Part) word.Tri {
			if p.Opaque != "" {
				return word.Yes
			}
			return word.No
		}, Why: "runs code the guard cannot see", Instead: "run the commands directly, so they can be checked, or add a rule naming this script or inline form"},
		{Decision: Allow, Name: "a script judged by its content", spec: 5, pred: func(p *Part) word.Tri {
			// shellparse read the script (CodeArg names it, nothing is
			// hidden) and reports its commands as parts of their own.
			if p.Wrapper && p.Opaque == "" && p.CodeArg >= 0 && len(p.Argv) > 0 {
				return word.Yes
			}
			return word.No
		}, Why: "runs a shell script whose commands are judged on their own"},
		{Decision: Allow, Name: "version or help query", spec: 11, pred: func(p *Part) word.Tri {
			if len(p.Argv) != 2 || p.Opaque != "" {
				return word.No
			}
			s, _ := p.Argv[1].Static()
			switch s {
			case "--version", "-version", "-V", "--help", "-h", "version", "help":
				return word.Yes
			}
			return word.No
		}, Why: "prints a version or usage"},
		{Decision: Ask, Name: "destructive database statement", spec: 25, pred: func(p *Part) word.Tri {
			if len(p.Argv) == 0 || !dbClients(filepath.Base(p.Name())) {
				return word.No
			}
			texts := []string{}
			for _, a := range p.Argv[1:] {
				texts = append(texts, a.String())
			}
			if p.Stdin != nil {
				texts = append(texts, p.Stdin.Text)
			}
			for _, t := range texts {
				if sqlDestroy().MatchString(t) {
					return word.Yes
				}
			}
			return word.No
		}, Why: "a literal DROP, TRUNCATE or FLUSH destroys data", Instead: "run it against a disposable database, or ask the person"},
	}
	// The clients' own scaffolding: Claude Code and Codex source a snapshot
	// of the user's shell (functions, aliases, options) before every
	// command. It is the user's own configuration, trusted like ~/.bashrc.
	if env.Home != "" {
		snaps := []string{"/.claude/shell-snapshots/*", "/.codex/shell_snapshots/*", "/.codex/shell-snapshots/*"}
		b.extra = map[string][]*Rule{"source": make([]*Rule, 0, len(snaps)), ".": make([]*Rule, 0, len(snaps))}
		for _, snap := range snaps {
			dir := quoteWord(b.arena.str(env.Home, snap[:len(snap)-1]))
			for _, verb := range []string{"source", "."} {
				r := b.arena.rule()
				r.Decision, r.Command, r.Name, r.Why = Allow, b.arena.str(verb, " ", dir, "*"), "client shell snapshot", "the agent client's snapshot of your own shell configuration"
				b.extra[verb] = append(b.extra[verb], b.newRule(r, false))
			}
		}
	}
	for i := range preds {
		add(&preds[i], false)
	}
	absPreds := []Rule{
		{Decision: Deny, Name: "fork bomb", pred: specialIs("fork-bomb"), Why: "a function that calls itself in the background, an endless loop that starts a job on every turn, or xargs -P 0 fed without end, multiplies processes until the machine stops", Instead: "there is no safe form of this"},
		{Decision: Deny, Name: "changing the guard's environment", pred: specialIs("guard-env"), Why: "GUARD_EXEC_* variables configure the guard that is judging this command; changing them under it is not allowed", Instead: "a person changes the guard's configuration outside the guard"},
		{Decision: Ask, Name: "a program named at run time", pred: func(p *Part) word.Tri {
			if len(p.Argv) > 0 && !p.Argv[0].IsStatic() {
				return word.Yes
			}
			return word.No
		}, Why: "the program's name is known only at run time", Instead: "name the program directly"},
	}
	for i := range absPreds {
		add(&absPreds[i], true)
	}
	b.hs = homes(env) // the home, and where a link to it leads
	b.anyHead = rules
	b.anyTail = secretCmdRules()
	for _, r := range b.anyTail {
		b.newRule(r, false)
	}
	b.absHead = absolute
	b.anyCmd = append(append(make([]*Rule, 0, len(b.anyHead)+len(b.anyTail)), b.anyHead...), b.anyTail...)
	return b, nil
}

// writeRules are the built-in rules about writes only, made the first
// time a part that writes is judged: most commands an agent runs read.
// Every one of them matches no effect but a write (access = "write", or a
// predicate that looks for Write first), so a part that writes nothing is
// judged alike without them; the absolute ones are looked at only for a
// part that writes (Decide).
type writeRules struct {
	any []*Rule // after anyHead and before anyTail in any's order
	abs []*Rule // after absHead
}

// reads returns the other built-in rules about paths (the secrets'),
// making them the first time: they are needed by a part that touches a
// path, and most of what an agent runs touches one.
func (b *builtins) reads() []*Rule {
	b.readOnce.Do(func() {
		b.mu.Lock() // the arena is forProg's too
		defer b.mu.Unlock()
		b.r = secretPathRules(&b.arena, b.env, b.hs)
		for _, r := range b.r {
			b.newRule(r, false)
		}
	})
	return b.r
}

// writes returns the rules about writes, making them the first time.
func (b *builtins) writes() *writeRules {
	b.writeOnce.Do(func() {
		b.mu.Lock() // the arena is forProg's too
		defer b.mu.Unlock()
		b.w = b.makeWrites()
	})
	return &b.w
}

func (b *builtins) makeWrites() writeRules {
	env, hs := b.env, b.hs
	var w writeRules
	w.any = make([]*Rule, 0, 24)
	w.abs = make([]*Rule, 0, 4+len(blockDevices)+len(env.Protect)+len(env.ProtectAgent))
	add := func(r *Rule, abs bool) {
		b.newRule(r, abs)
		if abs {
			w.abs = append(w.abs, r)
		} else {
			w.any = append(w.any, r)
		}
	}
	absPaths := []Rule{
		{Decision: Ask, Name: "a write to an open file of the shell", predEffect: writesOwnFile,
			Why: "writes to a file the shell has open (/dev/fd/N, /proc/self/fd/N, /dev/stdin: its script or its input, which changes what it runs next; /dev/stdout once the command has put fd 1 on a file it reads, or closed it)", Instead: "write to a named file"},
		{Decision: Ask, Name: "a write to a path known only at run time", predEffect: func(p *Part, e Effect) word.Tri {
			if e.Access&2 != 0 && len(e.Path.Segs) == 1 && e.Path.Segs[0].Kind == word.Hole {
				return word.Yes
			}
			return word.No
		}, Why: "writes to a path known only at run time", Instead: "name the path directly, so it can be checked"},
		{Decision: Deny, Name: "recursive delete of a system directory or home", predEffect: destroysRoot(env, deletes), Why: "recursively deleting /, your home directory or a top-level system directory destroys the system", Instead: "delete the specific files or build directories you mean"},
		{Decision: Deny, Name: "recursive permission change of a system directory or home", predEffect: destroysRoot(env, chmods), Why: "recursively changing permissions or ownership of /, home or a system directory breaks the system", Instead: "change the specific files you mean"},
	}
	for i := range absPaths {
		add(&absPaths[i], true)
	}
	gitPreds := []Rule{
		{Decision: Ask, Name: "git hooks and config", spec: pathSpec(env.Project) + 15, predEffect: gitCode(env),
			Why: "files in .git decide what git runs and checks out: hooks run, config (and another config commondir or alternates names) can name programs, objects and refs are commits git merge or switch write", Instead: "use git's own commands, or ask the person to change git's files"},
		{Decision: Ask, Name: "discarding uncommitted changes", spec: pathSpec(env.Project) + 15, predEffect: discardsChanges,
			Why:     "git checkout with a path rewrites it as the index or a commit holds it, and its uncommitted changes are lost",
			Instead: "git stash first, or git switch BRANCH (which refuses to overwrite changes)"},
		{Decision: Ask, Name: "a bare repository made by hand", spec: pathSpec(env.Project) + 15, predEffect: writesGitHead,
			Why: "a directory with HEAD, objects and refs is a git repository, and its config can name programs git runs there", Instead: "ask the person to make the repository"},
	}
	if !env.NoProject && env.Project != "" && env.Project != "/" {
		// Writes inside the project are allowed; deleting all of it, or
		// its history, is not an everyday write (pytest --basetemp=.).
		proj := filepath.Clean(env.Project)
		gitPreds = append(gitPreds, Rule{Decision: Ask, Name: "recursive delete of the project", spec: pathSpec(env.Project) + 15,
			predEffect: destroysDirs([]string{proj, filepath.Join(proj, ".git")}, deletes),
			Why:        "recursively deleting the whole project, or its .git directory, loses work that may not be saved anywhere else",
			Instead:    "delete the specific build or output directories you mean"})
	}
	for i := range gitPreds {
		add(&gitPreds[i], false)
	}
	// Paths.
	a := &b.arena
	path := func(d Decision, pat, name, why, instead string) *Rule {
		r := a.rule()
		r.Decision, r.Path, r.Access, r.Name, r.Why, r.Instead = d, pat, "write", name, why, instead
		return r
	}
	add(path(Ask, "/**", "write outside the project", "writes outside the project tree and temporary directories", "write inside the project or a temporary directory"), false)
	if !env.NoProject {
		add(path(Allow, filepath.Join(word.EscapePath(env.Project), "**"), "write inside the project", "writes inside the project tree", ""), false)
	}
	for _, r := range homeWriteRules(a, hs) {
		add(r, false)
	}
	fixed := shellparse.TempDirs()
	for i, t := range append(fixed, env.Temp...) {
		if i >= len(fixed) && notTemporary(hs, t) {
			continue // TMPDIR=$HOME: the home is never temporary
		}
		add(path(Allow, filepath.Join(word.EscapePath(t), "**"), a.str("write in ", t), "writes in a temporary directory", ""), false)
	}
	for _, f := range env.RunnerData {
		add(path(Allow, word.EscapePath(f), "the CI runner's output files", "step outputs, the job summary and state are data the runner reads", ""), false)
	}
	for _, f := range env.RunnerEnv {
		add(path(Ask, word.EscapePath(f), "the CI runner's environment files",
			"GITHUB_ENV and GITHUB_PATH change the environment and the programs of the job's later steps (BASH_ENV, PATH, LD_PRELOAD …), which the guard then takes as given",
			"pass values between steps with $GITHUB_OUTPUT, or allow this path in the project's policy if the job needs it"), false)
	}
	for _, d := range []string{"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd/**", "/proc/self/fd/**", "/dev/zero", "/dev/full"} {
		add(path(Allow, d, a.str("write to ", d), "a harmless device", ""), false)
	}
	for _, d := range blockDevices {
		add(path(Deny, d, a.str("write to a disk device ", d), "writing to a disk device destroys the file systems on it", "write to a file instead"), true)
	}
	for _, f := range env.Protect {
		// "f/**" matches f itself too: a file is protected, and a directory
		// with everything in it, without a stat to tell which.
		add(path(Deny, filepath.Join(word.EscapePath(f), "**"), "the guard's own files", "the guard's program, configuration, trust store and audit log cannot be changed by the commands it judges", "a person edits them outside the guard"), true)
	}
	for _, f := range env.ProtectAgent {
		add(path(Deny, filepath.Join(f, "**"), "the agent client's own files", "the agent client's settings, hooks and files configure what the agent may do; the commands it runs cannot change them", "a person changes them outside the guard"), true)
	}
	return w
}

// gitCode matches writes (not deletions) that plant code git will run.
func gitCode(env *Env) func(p *Part, e Effect) word.Tri {
	return (&gitCodeMatcher{project: env.Project}).match
}

// gitCodeMatcher is gitCode's matcher, which compiles its patterns on
// first use.
//
// Any repository's, not only the project's: a repository made by hand
// inside the project (or in /tmp) (sub/.git/HEAD, objects, refs and a
// config naming core.fsmonitor) runs that program on git -C sub status,
// and a .git file (gitdir: DIR) makes any directory the repository. The
// nested ones are matched against paths known as written (or globs): a
// name made at run time (find -exec CMD {}) may be anything, and is not
// taken for one.
type gitCodeMatcher struct {
	project           string
	ownOnce, nestOnce sync.Once
	own, nested       []*word.Pattern
}

// gitFiles compiles the patterns of fs under root.
func gitFiles(root string, fs ...string) []*word.Pattern {
	var pats []*word.Pattern
	for _, f := range fs {
		if p, err := word.CompilePathFold(filepath.Join(word.EscapePath(root), f)); err == nil {
			pats = append(pats, p)
		}
	}
	return pats
}

func (m *gitCodeMatcher) match(p *Part, e Effect) word.Tri {
	if e.Access&2 == 0 || e.Op == "delete" {
		return word.No
	}
	t := word.No
	// A file named .git, as written (a glob or a name made at run
	// time is not taken for one: find -exec py_compile {} is not).
	if s, ok := e.Path.Static(); ok && word.EqualFold(filepath.Base(s), ".git") {
		t = word.Yes
	}
	// All of .git: not only hooks and config, but commondir (another
	// directory's config), objects/info/alternates, objects and refs
	// (commits that git merge or switch then checks out over protected
	// files) decide what git runs and writes. Deletes are not (rm
	// .git/index.lock).
	m.ownOnce.Do(func() { m.own = gitFiles(m.project, ".git/**") })
	pats := m.own
	if !e.Path.HasHole() {
		// Nested ones anywhere: a repository made in /tmp (an allowed
		// write) runs its core.fsmonitor on git -C /tmp/r status as well.
		m.nestOnce.Do(func() { m.nested = gitFiles("/", "**/.git/**") })
		pats = append(pats[:len(pats):len(pats)], m.nested...)
	}
	for _, pat := range pats {
		t = orTri(t, matchPathWord(pat, e.Path))
	}
	return t
}

func specialIs(s string) func(p *Part) word.Tri {
	return func(p *Part) word.Tri {
		if p.Special == s {
			return word.Yes
		}
		return word.No
	}
}

// deletes and chmods are the operations of the recursive rules.
func deletes(op string) bool { return op == "delete" || op == "move" }
func chmods(op string) bool  { return op == "chmod" || op == "chown" }

// destroysRoot matches a recursive operation on /, HOME or a top-level
// system directory, in any spelling: the path cleaned, globs that cover a
// whole directory (/*, ~/*), symbolic links followed.
func destroysRoot(env *Env, ops func(op string) bool) func(p *Part, e Effect) word.Tri {
	roots := make([]string, 0, 2+len(topLevel))
	roots = append(append(roots, "/"), topLevel...)
	if env.Home != "" && env.Home != "/" {
		roots = append(roots, filepath.Clean(env.Home))
	}
	return destroysDirs(roots, ops)
}

// destroysDirs matches a recursive operation of ops on one of roots (or
// a glob covering all of one's entries), in any spelling.
func destroysDirs(roots []string, ops func(op string) bool) func(p *Part, e Effect) word.Tri {
	return (&dirMatcher{roots: roots, ops: ops}).match
}

// dirMatcher is destroysDirs' matcher, which compiles its patterns on
// first use.
type dirMatcher struct {
	roots []string
	ops   func(op string) bool
	once  sync.Once
	pats  []*word.Pattern
}

func (m *dirMatcher) isRoot(s string) bool {
	s = cleanPath(s)
	for _, r := range m.roots {
		if word.EqualFold(s, r) { // rm -rf /USR on a case-insensitive file system
			return true
		}
	}
	return false
}

func (m *dirMatcher) match(p *Part, e Effect) word.Tri {
	if !m.ops(e.Op) || e.Access&2 == 0 || !(e.Recursive || e.Op == "move") {
		return word.No
	}
	if s, ok := e.Path.Static(); ok {
		if m.isRoot(s) {
			return word.Yes
		}
		return word.No
	}
	for _, s := range e.Path.Matches {
		if m.isRoot(s) {
			return word.Yes
		}
	}
	// A glob that covers every entry of a root: /*, ~/*, /etc/*.
	if n := len(e.Path.Segs); n >= 2 && e.Path.Segs[n-1].Kind == word.Star && !e.Path.HasHole() {
		dir := strings.TrimSuffix(word.Word{Segs: e.Path.Segs[:n-1]}.String(), "/")
		if dir == "" {
			dir = "/"
		}
		if e.Path.Segs[n-2].Kind == word.Lit && strings.HasSuffix(e.Path.Segs[n-2].Text, "/") && m.isRoot(dir) {
			return word.Yes
		}
	}
	m.once.Do(func() {
		for _, r := range m.roots {
			if p, err := word.CompilePathFold(r); err == nil {
				m.pats = append(m.pats, p)
			}
		}
	})
	best := word.No
	for _, pat := range m.pats {
		if t := pat.Match(e.Path); t > best {
			best = t
		}
	}
	if best == word.Yes {
		return word.Yes
	}
	return best
}

// quoteWord makes a word literal in a rule (":" and "[" are names).
func quoteWord(s string) string {
	if strings.ContainsAny(s, "[*?' \t") {
		return "'" + s + "'"
	}
	return s
}

// writesOwnFile matches a write to one of the process's open files other
// than its output and errors: bash reads its script from fd 255 (or its
// input) as it goes, and what is written there runs after the text
// judged (printf CMD >> /dev/fd/255).
func writesOwnFile(p *Part, e Effect) word.Tri {
	if e.Access&argspec.Write == 0 && e.Op != "link" {
		return word.No // (a link made to one is a way to write it later)
	}
	s, ok := e.Path.Static()
	if !ok {
		// A glob into /dev or /proc (/dev/std?ut, /dev/fd/[3]) may name
		// one of the shell's descriptors, as a red team's did; any other
		// path known only at run time asks anyway.
		if pre := e.Path.Prefix(); pre == "/dev" || pre == "/proc" || strings.HasPrefix(pre, "/dev/") || strings.HasPrefix(pre, "/proc/") {
			return word.Yes
		}
		return word.No
	}
	if e.Op == "link" && (s == "/proc" || s == "/dev/fd" || strings.HasPrefix(s, "/proc/self") || strings.HasPrefix(s, "/proc/thread-self")) {
		return word.Yes // ln -s /proc/self/fd pfd; … >> pfd/255
	}
	// /dev/stdout is the output the guard was given only while fd 1 is:
	// after 1<F, >&- or 1>&3 it names F, or whatever file a program opens
	// next (echo x 1<victim >/dev/stdout truncates victim).
	if r := p.Cmd.Reopened; r != 0 {
		switch s {
		case "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1", "/proc/thread-self/fd/1":
			if r&2 != 0 {
				return word.Yes
			}
		case "/dev/stderr", "/dev/fd/2", "/proc/self/fd/2", "/proc/thread-self/fd/2":
			if r&4 != 0 {
				return word.Yes
			}
		}
	}
	switch {
	case s == "/dev/stdin":
		return word.Yes
	case strings.HasPrefix(s, "/dev/fd/"):
		n := strings.TrimPrefix(s, "/dev/fd/")
		if n != "1" && n != "2" {
			return word.Yes
		}
	case strings.HasPrefix(s, "/proc/"):
		rest := strings.Split(strings.TrimPrefix(s, "/proc/"), "/")
		if len(rest) >= 3 && rest[1] == "fd" && !(rest[0] == "self" && (rest[2] == "1" || rest[2] == "2")) {
			return word.Yes
		}
		if len(rest) >= 5 && rest[1] == "task" && rest[3] == "fd" {
			return word.Yes
		}
	}
	return word.No
}

// writesGitHead matches a write of a file named HEAD outside a .git
// directory: with objects/ and refs/ beside it, git takes the directory
// for a bare repository and runs what its config names (diff.external on
// git -C DIR diff --no-index).
func writesGitHead(p *Part, e Effect) word.Tri {
	if e.Access&argspec.Write == 0 || e.Op == "delete" {
		return word.No
	}
	s, ok := e.Path.Static()
	if !ok || filepath.Base(s) != "HEAD" || filepath.Base(filepath.Dir(s)) == ".git" {
		return word.No
	}
	return word.Yes
}

// gitInOtherRepo matches a git command that runs in a repository other
// than the project's: one git finds, from where it runs (-C too), below
// the project's root or in a temporary directory, as a .git there or a
// bare repository (HEAD, objects, refs). Such a repository was made by
// the agent as likely as not, and its config and hooks are code. Where
// git runs is not known here: not known either.
func gitInOtherRepo(env *Env) func(p *Part) word.Tri {
	return func(p *Part) word.Tri {
		c := p.Norm
		if c == nil || c.Prog != "git" || len(p.Cwd.Dirs) == 0 || env == nil {
			return word.No
		}
		if p.Cwd.Unknown {
			return word.Maybe
		}
		out := word.No
		for _, dir := range p.Cwd.Dirs {
			for _, v := range c.Values("-C") {
				d, ok := v.Static()
				if !ok {
					return word.Maybe
				}
				if !filepath.IsAbs(d) {
					d = filepath.Join(dir, d)
				}
				dir = filepath.Clean(d)
			}
			out = orTri(out, otherRepo(env, dir))
		}
		return out
	}
}

// otherRepo finds the repository git would take from dir, as git does
// (D/.git, else D itself when it is a bare one, then D's parent), and
// says whether it is one made where the agent writes.
func otherRepo(env *Env, dir string) word.Tri {
	if _, err := os.Stat(dir); err != nil {
		// Not there yet: a repository the text makes first is asked about
		// where it is made (a HEAD, a .git/config, git init --bare).
		return word.No
	}
	for d := dir; ; d = filepath.Dir(d) {
		if fileThere(filepath.Join(d, ".git")) || bareRepo(d) {
			if d == filepath.Clean(env.Project) {
				return word.No // the project's own
			}
			if under(d, env.Project) || inTemp(env, d) {
				return word.Yes
			}
			return word.No
		}
		if d == "/" || d == filepath.Dir(d) {
			return word.No
		}
	}
}

func fileThere(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// bareRepo reports whether git takes d for a bare repository.
func bareRepo(d string) bool {
	if !fileThere(filepath.Join(d, "HEAD")) {
		return false
	}
	for _, sub := range []string{"objects", "refs"} {
		if fi, err := os.Stat(filepath.Join(d, sub)); err != nil || !fi.IsDir() {
			return false
		}
	}
	return true
}

// under reports whether p is root or below it.
func under(p, root string) bool {
	if root == "" || root == "/" {
		return false
	}
	root = filepath.Clean(root)
	return p == root || strings.HasPrefix(p, root+"/")
}

// inTemp reports whether p is in a temporary directory.
func inTemp(env *Env, p string) bool {
	for _, t := range append(shellparse.TempDirs(), env.Temp...) {
		if under(p, t) {
			return true
		}
	}
	return false
}

// discardsChanges matches git checkout's pathspecs (argspec: Op
// "discard"), and its one operand when a file of that name is there
// ("discard?"): git takes NAME for a branch or commit first, and a
// pathspec that names nothing is an error, so with no such file it is a
// switch (or a deleted file restored, which loses nothing).
func discardsChanges(p *Part, e Effect) word.Tri {
	switch e.Op {
	case "discard":
		return word.Yes
	case "discard?":
		s, ok := e.Path.Static()
		if !ok {
			return word.Yes
		}
		if _, err := os.Lstat(s); errors.Is(err, fs.ErrNotExist) {
			return word.No
		}
		return word.Yes
	}
	return word.No
}
