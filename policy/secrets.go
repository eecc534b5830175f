package policy

import (
	"io/fs"
	"os"
	"os/user"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/guard-exec/guard-exec/argspec"
	"github.com/guard-exec/guard-exec/shellparse"
	"github.com/guard-exec/guard-exec/word"
)

// secretFile is one row of the table of credentials under a home
// directory: reading them asks (README: built-in defaults).
type secretFile struct {
	path   string   // doublestar pattern, relative to the home
	except []string // patterns, relative to the home, of files that are not secret
	what   string
}

// secretFiles is the one table of credential files and directories under
// the home (README: built-in defaults). A person relaxes a row with a
// configured allow rule of the same path and access = "read", one more
// specific than the row's rule.
var secretFiles = []secretFile{
	{".ssh/**", []string{".ssh/*.pub", ".ssh/known_hosts", ".ssh/known_hosts.old", ".ssh/config", ".ssh/authorized_keys", ".ssh/authorized_keys2"}, "SSH private keys"},
	{".aws/**", []string{".aws/config"}, "AWS credentials"},
	{".config/gcloud/**", nil, "Google Cloud credentials (application-default credentials, access tokens)"},
	{".azure/**", nil, "Azure token caches"},
	{".kube/config*", nil, "Kubernetes credentials"},
	{".docker/config.json", nil, "Docker registry credentials"},
	{".npmrc", nil, "npm tokens"},
	{".pypirc", nil, "PyPI tokens"},
	{".cargo/credentials*", nil, "crates.io tokens"},
	{".gem/credentials", nil, "RubyGems tokens"},
	{".config/gh/hosts.yml", nil, "GitHub CLI tokens"},
	{".config/glab-cli/config.yml", nil, "GitLab CLI tokens"},
	{".git-credentials", nil, "git credentials"},
	{".config/git/credentials", nil, "git credentials"},
	{".netrc", nil, "netrc passwords"},
	{".pgpass", nil, "PostgreSQL passwords"},
	{".my.cnf", nil, "MySQL passwords"},
	{".vault-token", nil, "Vault token"},
	{".terraform.d/credentials.tfrc.json", nil, "Terraform Cloud tokens"},
	{".gnupg/**", []string{".gnupg/*.conf"}, "GPG keyrings"},
	{".password-store/**", nil, "pass password store"},
	{".local/share/keyrings/**", nil, "desktop keyrings"},
	{".*history", nil, "shell and REPL histories"}, // .bash_history, .zsh_history, .zhistory, .python_history, .psql_history…
	{".histfile", nil, "shell history"},
	{".local/share/fish/fish_history", nil, "fish history"},
	// The agent clients' own keys and tokens.
	{".claude/.credentials.json", nil, "Claude Code's credentials"},
	{".codex/auth.json", nil, "Codex's credentials"},
	{".gemini/oauth_creds.json", nil, "Gemini CLI's credentials"},
	{".cache/huggingface/token", nil, "the Hugging Face token"},
	{".huggingface/token", nil, "the Hugging Face token"},
	// Browsers' saved passwords and cookies.
	{".mozilla/firefox/*/{logins.json,key4.db,key3.db,cookies.sqlite,signons.sqlite}", nil, "Firefox's saved passwords and cookies"},
	{".config/{google-chrome,chromium,BraveSoftware,microsoft-edge}/**/{Login Data,Cookies,Web Data}", nil, "the browser's saved passwords and cookies"},
	// Cloud and hosting CLIs' tokens.
	{".config/rclone/rclone.conf", nil, "rclone's cloud tokens"},
	{".s3cfg", nil, "s3cmd's AWS keys"},
	{".boto", nil, "boto's cloud keys"},
	{".config/doctl/config.yaml", nil, "DigitalOcean tokens"},
	{".fly/config.yml", nil, "Fly.io tokens"},
	{".config/configstore/firebase-tools.json", nil, "Firebase tokens"},
	{".config/{ngrok/ngrok.yml,.wrangler/config/default.toml}", nil, "ngrok or Cloudflare tokens"},
	{".sentryclirc", nil, "Sentry tokens"},
}

// systemSecrets are credential files outside the homes: password hashes,
// host keys, and the secrets containers and pods are given.
var systemSecrets = []struct{ path, what string }{
	{"/etc/{shadow,gshadow,shadow-,gshadow-}", "the system's password hashes"},
	{"/etc/ssh/ssh_host_*_key", "the SSH host keys"},
	{"/etc/ssl/private/**", "TLS private keys"},
	{"/etc/krb5.keytab", "the Kerberos keytab"},
	{"/{run,var/run}/secrets/**", "the secrets given to this container or pod (a service account's token among them)"},
	{"/{dev/mem,dev/kmem,proc/kcore}", "the machine's memory, every process's environment in it"},
}

// envFile reports whether a file name is a dotenv file that holds values
// (.env, .env.local, .envrc), not a template of one.
func envFile(base string) bool {
	base = word.FoldCase(base) // .ENV is .env on a case-insensitive file system
	switch base {
	case ".env", ".envrc":
		return true
	case ".env.example", ".env.sample", ".env.template", ".env.dist", ".env-example", ".env-sample", ".env-template", ".env-dist":
		return false
	}
	return strings.HasPrefix(base, ".env.") || strings.HasPrefix(base, ".env-")
}

// envFileGlobs are the patterns a file name that envFile accepts matches,
// and templateGlobs the ones it rejects, for words that are globs.
var envFileGlobs, templateGlobs = []string{"**/.env", "**/.envrc", "**/.env.*", "**/.env-*"},
	[]string{"**/.env.example", "**/.env.sample", "**/.env.template", "**/.env.dist", "**/.env-example", "**/.env-sample", "**/.env-template", "**/.env-dist"}

// otherHomes are where other users' homes are.
var otherHomes = []string{"/root", "/home/*", "/Users/*", "/var/root"}

// homes returns the home directory as given and as it really is, when a
// symbolic link leads to it.
func homes(env *Env) []string {
	if env.Home == "" || !filepath.IsAbs(env.Home) || filepath.Clean(env.Home) == "/" {
		return nil
	}
	h := filepath.Clean(env.Home)
	out := []string{h}
	resolve := env.Resolve
	if resolve == nil && env.FollowLinks {
		resolve = Resolver()
	}
	if resolve != nil {
		if real, ok := resolve(h); ok && real != h && real != "/" {
			out = append(out, real)
		}
	}
	return out
}

// homeWriteRules keep the home directory out of the project and out of
// the temporary directories (issue: HOME under /tmp, or TMPDIR=HOME, made
// ~/.bashrc a temporary file). A write in the home outside the project
// asks even where a temporary-directory allow would match, and the
// dotfiles and dot-directories ask even more specifically, so only a
// project or temporary directory inside one of them outranks it (and a
// credential directory is never a project: ProjectRootIn).
//
// Each rule's specificity is its path's, without the +1 a configured
// rule's access = "write" adds: a configured rule of the same path wins,
// whether it relaxes (allow … access = "write") or tightens (deny
// path = "~/**").
func homeWriteRules(a *ruleArena, hs []string) []*Rule {
	var out []*Rule
	for _, h := range hs {
		out = append(out,
			writeAsk(a, filepath.Join(word.EscapePath(h), "**"), "write in the home directory", "writes in your home directory, outside the project", "write inside the project or a temporary directory"),
			writeAsk(a, filepath.Join(word.EscapePath(h), ".*", "**"), "write to the home's dotfiles", "writes to your home's dotfiles (shell start-up files, ~/.ssh, tool configuration)", "ask the person to change their own configuration"))
	}
	return out
}

// credentialDir reports whether d is a credential directory of the home
// h (~/.ssh, ~/.aws, …: secretFiles' directories) or inside one.
func credentialDir(h, d string) bool {
	for _, row := range secretFiles {
		if dir, ok := strings.CutSuffix(row.path, "/**"); ok {
			c := filepath.Join(h, dir)
			if d == c || strings.HasPrefix(d, c+"/") {
				return true
			}
		}
	}
	return false
}

// writeAsk is a built-in ask for writes to a path pattern.
func writeAsk(a *ruleArena, pattern, name, why, instead string) *Rule {
	m := &writeMatcher{pattern: pattern}
	r := a.rule()
	r.Decision, r.Name, r.spec, r.Why, r.Instead, r.predEffect = Ask, name, pathSpec(pattern), why, instead, m.match
	return r
}

// writeMatcher matches writes to a pattern it compiles on first use.
type writeMatcher struct {
	pattern string
	once    sync.Once
	pat     *word.Pattern
}

func (m *writeMatcher) match(p *Part, e Effect) word.Tri {
	if e.Access&argspec.Write == 0 {
		return word.No
	}
	m.once.Do(func() { m.pat, _ = word.CompilePathFold(m.pattern) })
	if m.pat == nil {
		return word.Maybe
	}
	return matchPathWord(m.pat, e.Path)
}

// notTemporary reports whether a temporary directory given by the
// environment (TMPDIR) is the home or above it: then it is not one.
func notTemporary(hs []string, dir string) bool {
	dir = filepath.Clean(dir)
	for _, h := range hs {
		if dir == h || dir == "/" || strings.HasPrefix(h, dir+"/") {
			return true
		}
	}
	return false
}

// secretPathRules and secretCmdRules are the built-in asks that keep secrets unread: credential
// files under the home, dotenv files, secret-named variables printed,
// and the cloud metadata endpoints.
func secretPathRules(a *ruleArena, env *Env, hs []string) []*Rule {
	out := make([]*Rule, 0, len(secretFiles)+8)
	// Other users' credentials are no less secret, where they can be read
	// (cat /root/.aws/credentials, /home/*/.ssh/id_rsa).
	all := append(append(make([]string, 0, len(hs)+len(otherHomes)), hs...), otherHomes...)
	home := pathSpec(all[0]) // filepath.Join(all[0], row.path)'s segments are the two's
	ms := make([]secretMatcher, len(secretFiles))
	for i, row := range secretFiles {
		m := &ms[i]
		m.row, m.homes = row, all
		r := a.rule()
		// The source and the name share their bytes (newRule).
		src := a.str("built-in: read of ", row.what)
		r.Decision, r.Source, r.Name, r.spec, r.predEffect = Ask, src, src[len("built-in: "):], home+pathSpec(row.path), m.match
		r.Why = a.str("reads ", row.what, " (~/", row.path, "): what an agent reads goes to the model and cannot be taken back")
		r.Instead = a.str("ask the person, or allow it with a rule: path = \"~/", row.path, "\", access = \"read\"")
		out = append(out, r)
	}
	out = append(out, &Rule{Decision: Ask, Name: "read of a dotenv file", spec: pathSpec(filepath.Join(env.Project, "**", ".env*")),
		predEffect: envFileMatcher(),
		Why:        "reads a dotenv file (.env, .env.*, .envrc), which holds secrets",
		Instead:    "read the template (.env.example), or allow it with a rule: path = \".env\", access = \"read\""})
	environ := procFiles("environ")
	// A process's memory holds its environment too (on the stack, where
	// /proc/PID/maps says it is), and everything it has read.
	mem := procFiles("mem")
	out = append(out,
		&Rule{Decision: Ask, Name: "read of a process's environment", spec: pathSpec("/proc/*/environ"), predEffect: environ,
			Why: "reads a process's environment, which holds its secrets", Instead: "print the variables you need by name"},
		&Rule{Decision: Ask, Name: "read of a process's memory", spec: pathSpec("/proc/*/mem"), predEffect: mem,
			Why: "reads a process's memory, which holds its environment and everything it has read: secrets among them", Instead: "print the variables you need by name"},
		&Rule{Decision: Ask, Name: "read of git credentials", spec: pathSpec("**/.git/config"), predEffect: readsGitCredentials,
			Why:     "reads a git configuration that holds a credential (a token in a remote's URL, an Authorization header)",
			Instead: "ask the person; git remote (names only) does not print it"},
		&Rule{Decision: Ask, Name: "read of a path from run-time data", spec: 20, predEffect: readsDataPath,
			Why:     "reads a file whose path comes from data the command reads at run time (a command's output, a line read, a value made of them): it may be a secret's, and what an agent reads goes to the model",
			Instead: "name the files, or a glob of them, so that each can be checked; or ask the person"},
		&Rule{Decision: Ask, Name: "read of what find gives, not all known here", spec: 20, predEffect: readsUnreadFindOutput,
			Why:     "reads what find gives, and not all of it is known here (a starting point not known here, links followed, a large tree, a file name that splitting turns into other paths, or find's file joined to other text): it may be a secret's, and what an agent reads goes to the model",
			Instead: "give each name whole (find … -exec CMD {} +, or find … -print0 | xargs -0 CMD), look below fewer directories, or ask the person"},
		&Rule{Decision: Ask, Name: "whole read of a tree that holds secrets", spec: 20, predEffect: readsWholeTree, detail: wholeTreeDetail,
			Why:     "gives on every file below a directory whole (an archive of it, or a search that every line may match), and a dotenv or key file lies there, or the tree is not all looked through here (from run-time data, more than 20,000 entries, links followed to other directories): what an agent reads goes to the model",
			Instead: "leave the secrets out (grep --exclude='.env*', tar --exclude='.env*'), search for a pattern of your own (grep -r TODO .), name the files, or ask the person"},
		&Rule{Decision: Ask, Name: "read of a key or token file", spec: 20, predEffect: readsSecretFile,
			Why:     "reads a private key, keystore, Terraform state or token file (by its name, or by what it holds): what an agent reads goes to the model",
			Instead: "ask the person, or read a file that holds no secret (a certificate, the public key)"},
		&Rule{Decision: Ask, Name: "read of system secrets", spec: pathSpec("/etc/shadow"), predEffect: systemSecretRead(),
			Why:     "reads credentials outside the home (password hashes, host keys, TLS keys, a container's secrets): what an agent reads goes to the model",
			Instead: "ask the person"},
		&Rule{Decision: Ask, Name: "read through a process's root or working directory", spec: pathSpec("/proc/*/cwd"), predEffect: procLink(),
			Why:     "reads through /proc/PID/cwd or /proc/PID/root, which lead to wherever that process is (cd ~/.ssh; cat /proc/self/cwd/id_rsa)",
			Instead: "name the file by its own path"})
	return out
}

// secretCmdRules are the secret rules about what a command prints.
func secretCmdRules() []*Rule {
	return []*Rule{
		{Decision: Ask, Name: "printing git credentials", spec: 50, // above the read-only allows of git remote -v (30) and git config --list (45)
			pred:    printsGitCredentials,
			Why:     "prints git configuration or remote URLs, and one of them holds a credential (a token in a URL, an Authorization header)",
			Instead: "git remote (names only), or ask the person"},
		{Decision: Ask, Name: "printing a tracked secret", spec: 50, // above git's read-only allows
			pred:    printsTrackedSecret,
			Why:     "prints what tracked files hold (a diff, a patch, a file as committed), and this repository tracks a file whose name says it holds a secret (a .env, a key): what an agent reads goes to the model",
			Instead: "name the paths you mean after --, leaving the secret out (git diff -- src/), use --stat or --name-only, or ask the person"},
		{Decision: Ask, Name: "showing a secret variable", spec: 10, pred: printsSecretVar,
			Why:     "gives the value of a variable whose name says it holds a secret where it may show: to a program that may print it (or name it in a message), into a variable whose name does not say it is secret, as a file name; what an agent sees goes to the model",
			Instead: "use the variable where it stays unseen ([ -n \"$NAME\" ], curl -H \"Authorization: Bearer $NAME\", a variable whose name says it is secret; without set -x), or ask the person"},
		{Decision: Ask, Name: "sending a secret where the agent may read it", spec: 10, pred: sendsSecretNearby,
			Why:     "sends a secret variable's value where the agent may read it back: to this machine or a private network (where a server it started can log it), over plain http, through a proxy or another address for the host, without checking the server's certificate, or to where a redirect leads",
			Instead: "send it over https to the service's public host (without -k, a proxy, --resolve or --connect-to; -L only with the secret in Authorization), or ask the person"},
		{Decision: Ask, Name: "printing the environment", spec: 10, pred: dumpsSecretEnv,
			Why: "prints the whole environment, which holds variables whose names say they are secrets", Instead: "print the variables you need by name"},
		{Decision: Ask, Name: "printing a cluster's secrets", spec: 25, pred: printsClusterSecrets,
			Why: "prints the data of Kubernetes Secrets, which goes to the model", Instead: "kubectl get secret NAME (names, types and key counts) or kubectl describe secret NAME (key sizes), or ask the person"},
		{Decision: Ask, Name: "printing a container's environment", spec: 25, pred: printsContainerEnv,
			Why: "docker inspect prints the container's environment, where passwords and tokens are passed", Instead: "docker inspect --format with the fields you need, e.g. '{{.State.Status}}'"},
		{Decision: Ask, Name: "cloud metadata endpoint", spec: 20, pred: metadataRequest,
			Why: "the cloud metadata endpoint hands out the machine's credentials", Instead: "ask the person"}}
}

// procLink matches reads through /proc/PID/cwd and /proc/PID/root (and
// /proc/self/…): links the guard cannot follow to where they lead when
// the command runs.
func procLink() func(p *Part, e Effect) word.Tri {
	pats := sync.OnceValue(func() []*word.Pattern {
		var out []*word.Pattern
		for _, g := range []string{"/proc/*/cwd/**", "/proc/*/root/**", "/proc/*/task/*/cwd/**", "/proc/*/task/*/root/**"} {
			if p, err := word.CompilePathFold(g); err == nil {
				out = append(out, p)
			}
		}
		return out
	})
	return func(p *Part, e Effect) word.Tri {
		if !readsContent(e) {
			return word.No
		}
		if bareHole(e.Path) {
			if strings.Contains(e.Written, "/proc/") && (strings.Contains(e.Written, "/cwd") || strings.Contains(e.Written, "/root")) {
				return word.Maybe
			}
			return word.No
		}
		best := word.No
		for _, pt := range pats() {
			best = orTri(best, matchPathWord(pt, e.Path))
		}
		return best
	}
}

// secretMatcher matches effects against one row of secretFiles under
// each home.
// secretMatcher compiles its patterns on first use, in fields rather than
// closures: every command builds one for each row.
type secretMatcher struct {
	row       secretFile
	homes     []string
	patsOnce  sync.Once
	homePats  []homePats
	dirsOnce  sync.Once
	homeDirs  []rowDir
	tailsOnce sync.Once
	tail      *word.Pattern
	except    []*word.Pattern
}

type homePats struct {
	home   string
	pat    *word.Pattern
	prefix string // the pattern's literal directory part
	glob   string // what to list to see whether the row's files exist
	except []*word.Pattern
	tree   bool // the row is a whole tree under its literal directory (.ssh/**)
}

func compileRow(home string, row secretFile) homePats {
	hp := homePats{home: home}
	hp.pat, _ = word.CompilePathFold(filepath.Join(homePattern(home), row.path))
	hp.prefix = filepath.Join(home, literalDir(row.path))
	hp.glob = filepath.Join(home, strings.TrimSuffix(row.path, "/**"))
	hp.tree = strings.HasSuffix(row.path, "/**") && literalDir(row.path) == strings.TrimSuffix(row.path, "/**")
	for _, e := range row.except {
		if p, err := word.CompilePathFold(filepath.Join(homePattern(home), e)); err == nil {
			hp.except = append(hp.except, p)
		}
	}
	return hp
}

// homePattern is a home as the start of a path pattern: a real one's
// name is literal text (word.EscapePath), otherHomes are patterns.
func homePattern(h string) string {
	if slices.Contains(otherHomes, h) {
		return h
	}
	return word.EscapePath(h)
}

// literalDir is the leading directories of a pattern that have no
// metacharacters.
func literalDir(pat string) string {
	var out []string
	for _, seg := range strings.Split(pat, "/") {
		if strings.ContainsAny(seg, "*?[{\\") {
			break
		}
		out = append(out, seg)
	}
	return strings.Join(out, "/")
}

func (m *secretMatcher) pats() []homePats {
	m.patsOnce.Do(func() {
		for _, h := range m.homes {
			// A row written with {a,b} is a pattern for each: the
			// directories above a file are then literal, as the
			// recursive reads above them are checked by those.
			for _, alt := range expandBraces(m.row.path) {
				if hp := compileRow(h, secretFile{alt, m.row.except, m.row.what}); hp.pat != nil {
					m.homePats = append(m.homePats, hp)
				}
			}
		}
	})
	return m.homePats
}

func (m *secretMatcher) tails() (*word.Pattern, []*word.Pattern) {
	m.tailsOnce.Do(func() {
		m.tail, _ = word.CompilePathFold("**/" + m.row.path)
		for _, e := range m.row.except {
			if q, err := word.CompilePathFold("**/" + e); err == nil {
				m.except = append(m.except, q)
			}
		}
	})
	return m.tail, m.except
}

func (m *secretMatcher) match(p *Part, e Effect) word.Tri {
	if !readsContent(e) {
		// ls ~/.ssh, find ~ -name '*.pem', du -sh ~, tree ~/.aws show
		// names and sizes, not keys; what find -exec runs is judged on
		// its own.
		return word.No
	}
	if m.belowFindRoots(p, e) {
		return word.Maybe
	}
	if bareHole(e.Path) {
		return m.matchUnknown(p, e)
	}
	if s, ok := e.Path.Static(); ok && !strings.Contains(s, "/.") && !(e.Recursive && m.aboveAHome(s)) {
		// Every row names a dot-entry of a home: the common path (a
		// project file) is settled here, without a pattern.
		return word.No
	}
	best := word.No
	for _, hp := range m.pats() {
		best = orTri(best, hp.matchWord(e))
		if best == word.Yes {
			break
		}
	}
	return best
}

// aboveAHome reports whether dir is one of the homes, or above one.
func (m *secretMatcher) aboveAHome(dir string) bool {
	if dir == "/" {
		return true
	}
	dir = word.FoldCase(dir) // as a case-insensitive file system finds it
	for _, h := range m.homes {
		h = word.FoldCase(h)
		if strings.ContainsAny(h, "*?[") {
			if ok, _ := filepath.Match(h, dir); ok {
				return true
			}
			h = literalDir(h)
		}
		if h == dir || strings.HasPrefix(h, dir+"/") {
			return true
		}
	}
	return false
}

// A rowDir is where a row's files lie under one home: its literal
// directory, and whether the row is the whole tree there.
type rowDir struct {
	prefix string
	tree   bool
}

// dirs are the row's rowDirs, for each home: what a path known only at
// run time is held to (matchUnknown) without compiling the row's
// patterns, which a fresh process would pay on every `cat "$f"`.
func (m *secretMatcher) dirs() []rowDir {
	m.dirsOnce.Do(func() {
		for _, h := range m.homes {
			for _, alt := range expandBraces(m.row.path) {
				lit := literalDir(alt)
				m.homeDirs = append(m.homeDirs, rowDir{filepath.Join(h, lit), strings.HasSuffix(alt, "/**") && lit == strings.TrimSuffix(alt, "/**")})
			}
		}
	})
	return m.homeDirs
}

// under reports whether a path under one of dirs may be the row's: a
// dir at or above the row's literal directory, or inside it. (Only as
// written: a value that climbs out with ".." is not followed.)
func (hp rowDir) under(dirs []string) bool {
	// Below the literal directory, only a row that is a whole tree
	// (.ssh/**) still matches: a file (.netrc) or one level of names
	// (.*history) is not deeper down. Compared as a case-insensitive
	// file system compares names (cd ~/.SSH && cat "$f").
	prefix := word.FoldCase(hp.prefix)
	if !strings.ContainsAny(prefix, "*?[\\") {
		for _, d := range dirs {
			d = word.FoldCase(strings.TrimSuffix(d, "/") + "/")
			if strings.HasPrefix(prefix+"/", d) || hp.tree && strings.HasPrefix(d, prefix+"/") {
				return true
			}
		}
		return false
	}
	// A home that is a glob (/home/*): component by component.
	pc := strings.Split(strings.Trim(prefix, "/"), "/")
	for _, d := range dirs {
		dc := strings.Split(strings.Trim(word.FoldCase(d), "/"), "/")
		if d == "/" {
			return true
		}
		if len(dc) > len(pc) && !hp.tree {
			continue
		}
		n, ok := min(len(dc), len(pc)), true
		for i := 0; i < n && ok; i++ {
			ok, _ = filepath.Match(pc[i], dc[i])
		}
		if ok {
			return true
		}
	}
	return false
}

// matchWord matches one effect under one home.
func (hp homePats) matchWord(e Effect) word.Tri {
	static := func(s string) bool {
		if !hp.pat.MatchString(s) {
			return false
		}
		for _, x := range hp.except {
			if x.MatchString(s) {
				return false
			}
		}
		return true
	}
	t := word.No
	if s, ok := e.Path.Static(); ok {
		if static(s) {
			return word.Yes
		}
	} else if rest, ok := e.Path.TrimPrefix(hp.home + "/"); ok && globFirst(rest) && !e.DotGlob {
		// ~/* and ~/?x name no dot-entry of the home (a glob matches a
		// leading dot only literally), and every row names one.
	} else {
		for _, mt := range e.Path.Matches {
			if static(mt) {
				return word.Yes
			}
		}
		t = hp.pat.Match(e.Path)
		if t == word.Yes {
			for _, x := range hp.except {
				if x.Match(e.Path) != word.No {
					t = word.Maybe
				}
			}
		}
	}
	if e.Recursive {
		t = orTri(t, covers(hp.pat, e, func(string) bool {
			// Only what is there is read: grep -r foo . over an empty
			// home reads no history.
			m, _ := filepath.Glob(hp.glob)
			return len(m) > 0
		}))
	}
	return t
}

// covers reports whether a recursive read of e.Path reads a path the
// pattern matches: Yes when the read's root is known and the pattern
// names something below it (reading ~ reads ~/.ssh/id_rsa), Maybe when
// the root is partly unknown. present reports whether
// what the pattern names below a root is there to be read.
func covers(pat *word.Pattern, e Effect, present func(root string) bool) word.Tri {
	roots := e.Path.Matches
	if s, ok := e.Path.Static(); ok {
		roots = []string{s}
	}
	hidden := func(root string) bool {
		if !e.SkipHidden {
			return false
		}
		root = strings.TrimSuffix(root, "/")
		rest, ok := strings.CutPrefix(pat.String(), root+"/")
		if !ok {
			return false
		}
		// A component below the root that starts with a literal '.'
		// matches only hidden names: every path the pattern names below
		// the root passes through a hidden entry.
		for _, c := range strings.Split(rest, "/") {
			if strings.HasPrefix(c, ".") {
				return true
			}
		}
		return false
	}
	for _, r := range roots {
		sub := word.FromLit(strings.TrimSuffix(r, "/") + "/")
		sub.Add(word.Seg{Kind: word.Hole, Text: "…"})
		if pat.Match(sub) != word.No && !hidden(r) && present(r) {
			return word.Yes
		}
	}
	if len(roots) > 0 || e.Path.IsStatic() {
		return word.No
	}
	sub := e.Path
	sub.Matches = nil
	sub = word.Word{Segs: append(append([]word.Seg(nil), sub.Segs...), word.Seg{Kind: word.Lit, Text: "/"}, word.Seg{Kind: word.Hole, Text: "…"})}
	if pat.Match(sub) != word.No {
		return word.Maybe
	}
	return word.No
}

// existsBelow reports whether what a pattern names below a recursive
// read's root may be there to be read: the pattern's literal directory
// part, where it lies below the root.
func existsBelow(root, prefix string) bool {
	root = strings.TrimSuffix(root, "/")
	if root == "" || !strings.HasPrefix(prefix, root+"/") {
		return true // the pattern's fixed part does not reach below the root
	}
	_, err := os.Lstat(prefix)
	return err == nil
}

// readsContent reports whether an effect lets its contents be read: a
// read that shows them, and also a move or link, which gives them a new
// name the next command reads (mv .env /tmp/x; ln -s .env x && cat x,
// where x is not there yet when the text is judged).
func readsContent(e Effect) bool {
	if e.Op == "move" || e.Op == "link" {
		return true
	}
	return e.Access&Read != 0 && !e.Names
}

// readsDataPath: a read of what a path names that comes from data the
// command reads or makes at run time (word.Seg.Data) may be a read of any
// file, a secret included. What find gives is judged by where find looks
// (belowFindRoots).
func readsDataPath(p *Part, e Effect) word.Tri {
	if !readsContent(e) || !bareHole(e.Path) || !e.Path.Segs[0].Data || onlyFindOutput(p, e) {
		return word.No
	}
	return word.Maybe
}

// readsUnreadFindOutput: a read of what find gives (pathFromFind) when
// what lies below its starting points is not all read here (foundTree's
// open), or find's file is joined to other text in the path.
func readsUnreadFindOutput(p *Part, e Effect) word.Tri {
	if !readsContent(e) || !pathFromFind(p, e) {
		return word.No
	}
	if joinedPlaceholder(e) || treeBelow(p, findSteps(p, e)).open {
		return word.Maybe
	}
	return word.No
}

// onlyFindOutput reports whether the data in a path is only what find
// prints, with starting points known here: what xargs reads of it (find
// … | xargs CMD), or $(find …) as a whole word. belowFindRoots judges it.
func onlyFindOutput(p *Part, e Effect) bool {
	if substFind(e) != nil {
		_, known := startingPoints(p, shellparse.Step{Argv: substFind(e)})
		return known
	}
	rest := strings.ReplaceAll(strings.ReplaceAll(e.Written, "{input}", ""), "{}", "")
	if strings.ContainsAny(rest, "$`…?") || joinedPlaceholder(e) {
		return false // another value known only at run time
	}
	for _, l := range p.Via {
		if l.Kind == "find output" {
			_, known := startingPoints(p, l)
			return known
		}
	}
	return false
}

// substFind returns the argv of the find whose output a path is, when
// the path's word is $(find …) alone (word.Seg.Found).
func substFind(e Effect) []string {
	if !bareHole(e.Path) {
		return nil
	}
	return e.Path.Segs[0].Found
}

// findSteps are the finds a path may come from: those that run the part
// (find -exec, find | xargs), and the one of $(find …) in its word.
func findSteps(p *Part, e Effect) []shellparse.Step {
	var out []shellparse.Step
	for _, l := range p.Via {
		if strings.HasPrefix(l.Kind, "find ") {
			out = append(out, l)
		}
	}
	if f := substFind(e); f != nil {
		out = append(out, shellparse.Step{Kind: "find output", Argv: f, Static: true, Split: true})
	}
	return out
}

// bareHole reports whether a path is wholly unknown (resolve turns a path
// with a value known only at run time into one hole).
func bareHole(w word.Word) bool {
	return len(w.Segs) == 1 && w.Segs[0].Kind == word.Hole
}

// matchUnknown judges a path known only at run time by what it was
// written as: ~name/… is that user's home, and a literal tail such as
// $D/.ssh/id_rsa names a credential whatever $D is. A path with no
// telling tail ("$f") is not a read of a secret as far as anyone can see:
// asking for every cat "$f" would ask for everything.
func (m *secretMatcher) matchUnknown(p *Part, e Effect) word.Tri {
	if h, rest, ok := tildeUser(e.Written); ok {
		hp := compileRow(h, m.row)
		if hp.pat == nil {
			return word.Maybe
		}
		w := word.FromLit(filepath.Join(h, rest))
		return hp.matchWord(Effect{Path: w, Access: e.Access, Recursive: e.Recursive, SkipHidden: e.SkipHidden})
	}
	tail, ok := writtenTail(e)
	var pat *word.Pattern
	var except []*word.Pattern
	if ok {
		pat, except = m.tails()
		for _, x := range except {
			if x.MatchString(tail) {
				return word.No // ~/.ssh/$k.pub: a public key, whatever $k is
			}
		}
	}
	// cat ~/.ssh/"$k", cd ~/.aws && cat "$f": under a credential
	// directory as written, whatever the value.
	if len(e.Under) > 0 {
		for _, d := range m.dirs() {
			if d.under(e.Under) {
				return word.Maybe
			}
		}
	}
	if !ok {
		return word.No
	}
	if pat == nil || !pat.MatchString(tail) {
		return word.No
	}
	for _, x := range except {
		if x.MatchString(tail) {
			return word.No
		}
	}
	return word.Maybe
}

// belowFindRoots reports whether a path find gives a command (find
// -exec's {}, what find | xargs appends or puts for -I's placeholder) may
// lie in a credential below find's starting points.
func (m *secretMatcher) belowFindRoots(p *Part, e Effect) bool {
	if !pathFromFind(p, e) {
		return false
	}
	t := treeBelow(p, findSteps(p, e)) // what is not read here: readsUnreadFindOutput
	for _, root := range append(findRootsOf(p, e), t.links...) {
		for _, hp := range m.pats() {
			if hp.matchWord(Effect{Path: word.FromLit(root), Access: Read, Recursive: true}) != word.No {
				return true
			}
		}
	}
	return false
}

// foundTree is what lies below the starting points of the finds a path
// may come from (findSteps), read once for a part.
type foundTree struct {
	dotenvs []string // the names of the dotenv files there
	// linkDotenv: a link there that find may give leads to a dotenv file.
	linkDotenv bool
	links      []string // where the symbolic links there lead, resolved
	// open: what find may give is not all read here: a starting point
	// not known here, links followed (-L, -follow), more than
	// maxFoundWalk entries, or a name that splitting or globbing turns
	// into other paths, when the output is split (Step.Split).
	open bool
}

// oddName reports whether a file name is not one path once xargs or bash
// has split (blanks, quotes, backslashes) and globbed it.
func oddName(name string) bool {
	return strings.ContainsAny(name, " \t\n\v\f\r'\"\\*?[")
}

// maxFoundWalk bounds the entries treeBelow reads.
const maxFoundWalk = 20000

// treeBelow reads what lies below the finds' starting points now. A link
// there is a file find gives (or, with -L, a directory it walks) and cat
// reads what it leads to. What the command itself writes there first is
// what it wrote; what it copies there is a read judged on its own.
func treeBelow(p *Part, steps []shellparse.Step) foundTree {
	var key strings.Builder
	for _, l := range steps {
		key.WriteString(strings.Join(l.Argv, "\x00") + "\x01" + strconv.FormatBool(l.Split))
		if l.Cwd != nil {
			key.WriteString("\x01" + strings.Join(l.Cwd.Dirs, "\x00") + strconv.FormatBool(l.Cwd.Unknown))
		}
		key.WriteString("\x02")
	}
	if t, ok := p.trees[key.String()]; ok {
		return t
	}
	var t foundTree
	budget := p.walkBudget()
	left := budget
	defer func() { p.walked(budget, left) }()
	for _, l := range steps {
		if slices.ContainsFunc(l.Argv, func(a string) bool { return a == "-L" || a == "-follow" }) {
			t.open = true
			break
		}
		roots, known := startingPoints(p, l)
		if !known {
			t.open = true
			break
		}
		for _, root := range roots {
			complete := walkBounded(root, &left, func(path string, d fs.DirEntry) error {
				if envFile(d.Name()) {
					t.dotenvs = append(t.dotenvs, d.Name())
				}
				if l.Split && oddName(d.Name()) {
					t.open = true
					return filepath.SkipAll
				}
				if d.Type()&fs.ModeSymlink != 0 && (!l.Static || argspec.FindMayName(l.Argv, d.Name())) {
					if to, err := filepath.EvalSymlinks(path); err == nil {
						t.links = append(t.links, to)
						t.linkDotenv = t.linkDotenv || envFile(filepath.Base(to))
					}
				}
				return nil
			})
			t.open = t.open || !complete
		}
	}
	if p.trees == nil {
		p.trees = map[string]foundTree{}
	}
	p.trees[key.String()] = t
	return t
}

// pathFromFind reports whether a path known only at run time may be one
// find gives: find -exec's {}, or any in a command find | xargs runs
// (what it appends, or puts for its placeholder, whatever that is).
func pathFromFind(p *Part, e Effect) bool {
	if e.Path.IsStatic() {
		return false
	}
	if strings.Contains(e.Written, "{}") || substFind(e) != nil {
		return true
	}
	relative := !strings.HasPrefix(e.Written, "/") && !strings.HasPrefix(e.Written, "~")
	for _, l := range p.Via {
		if l.Kind == "find output" {
			return true
		}
		if relative && (l.Kind == "find -execdir" || l.Kind == "find -okdir") {
			return true // in the directory of a file find found
		}
	}
	return false
}

// tildeUser expands ~name/rest as bash does, through the user database.
func tildeUser(written string) (home, rest string, ok bool) {
	if !strings.HasPrefix(written, "~") {
		return "", "", false
	}
	name, rest, _ := strings.Cut(written[1:], "/")
	if name == "" || strings.ContainsAny(name, "$`*?[{}()…") {
		return "", "", false
	}
	u, err := user.Lookup(name)
	if err != nil || !filepath.IsAbs(u.HomeDir) {
		return "", "", false
	}
	return filepath.Clean(u.HomeDir), rest, true
}

// writtenTail is the literal path after the last part of e's path known
// only at run time: as written ($D/.ssh/id_rsa), or, for a relative path
// in a directory known only at run time (cd "$D"; cat .ssh/id_rsa), as
// it is below that directory.
func writtenTail(e Effect) (string, bool) {
	if t, ok := literalTail(e.Written); ok {
		return t, true
	}
	return literalTail(e.Path.String())
}

// literalTail returns the literal path after the last unknown part of a
// word as written ("$D/.ssh/id_rsa" → ".ssh/id_rsa"), when there is one.
func literalTail(written string) (string, bool) {
	i := strings.LastIndexAny(written, "$`)}…~")
	if i < 0 {
		return "", false
	}
	// The unknown part runs to the next '/' ($X/…, ~bob/…, ${X}/…).
	j := strings.IndexByte(written[i:], '/')
	if j < 0 {
		return "", false
	}
	tail := written[i+j:]
	if len(tail) < 2 {
		return "", false
	}
	return "x" + tail, true // "x/.ssh/id_rsa": ** matches the unknown part
}

// envFileMatcher matches reads of dotenv files anywhere, in any spelling.
// A recursive read of a directory that holds one (grep -r TODO . in a
// project with a .env) is not asked: it is the everyday work of an agent,
// it shows the lines that match, and asking would ask for most searches of
// most web projects. Recursive reads of the home's credentials are asked
// (secretFiles).
func envFileMatcher() func(p *Part, e Effect) word.Tri {
	pats := sync.OnceValue(func() [2][]*word.Pattern {
		var out [2][]*word.Pattern
		for i, l := range [][]string{envFileGlobs, templateGlobs} {
			for _, g := range l {
				if pt, err := word.CompilePathFold(g); err == nil {
					out[i] = append(out[i], pt)
				}
			}
		}
		return out
	})
	return func(p *Part, e Effect) word.Tri {
		if !readsContent(e) {
			return word.No // a name is not a value: ls -a, find -name .env
		}
		if envFile(path.Base(e.Written)) && !strings.ContainsAny(e.Written, "$`*?[{") {
			return word.Yes // cat .env, wherever the command runs
		}
		if bareHole(e.Path) {
			if tail, ok := writtenTail(e); ok && envFile(filepath.Base(tail)) {
				return word.Maybe
			}
			if !pathFromFind(p, e) {
				return word.No
			}
			if last, ok := writtenName(e); ok {
				// find -execdir cat .env: that name wherever find goes.
				if envFile(last) {
					return word.Maybe
				}
				return word.No
			}
			if joinedPlaceholder(e) || dotenvGiven(p, findSteps(p, e)) {
				return word.Maybe // a file find found (-exec cat {}, xargs)
			}
			return word.No
		}
		if s, ok := e.Path.Static(); ok {
			if envFile(filepath.Base(s)) {
				return word.Yes
			}
			return word.No
		}
		for _, m := range e.Path.Matches {
			if envFile(filepath.Base(m)) {
				return word.Yes
			}
		}
		if !e.DotGlob && !mayBeDotfile(e.Path) {
			return word.No // dist/*: a glob's * never matches a leading dot (without dotglob)
		}
		ps := pats()
		t := word.No
		for _, pt := range ps[0] {
			t = orTri(t, pt.Match(e.Path))
		}
		if t == word.Yes {
			for _, x := range ps[1] {
				if x.Match(e.Path) != word.No {
					t = word.Maybe
				}
			}
		}
		if t == word.Maybe && e.Path.HasHole() {
			// A value known only at run time (find's {}): only a literal
			// name tells, or the name test of the find that found it
			// (find . -name .env -exec cat {} \;).
			if tail, ok := literalTail(e.Path.String()); ok && envFile(filepath.Base(tail)) {
				return t
			}
			if joinedPlaceholder(e) || dotenvGiven(p, findSteps(p, e)) {
				return word.Maybe
			}
			return word.No
		}
		return t
	}
}

// globFirst reports whether a word starts with a glob character.
func globFirst(w word.Word) bool {
	for _, s := range w.Segs {
		switch s.Kind {
		case word.Lit:
			if s.Text != "" {
				return false
			}
		case word.Star, word.Quest, word.Class:
			return true
		default:
			return false
		}
	}
	return false
}

// mayBeDotfile reports whether the last component of a path word can be
// a name starting with '.': a glob that starts with *, ? or [...] cannot
// (bash matches a leading dot only literally, dotglob being off).
func mayBeDotfile(w word.Word) bool {
	start := -1 // the segment where the last component starts
	for i, s := range w.Segs {
		if s.Kind == word.Lit {
			if j := strings.LastIndexByte(s.Text, '/'); j >= 0 {
				if j < len(s.Text)-1 {
					return s.Text[j+1] == '.'
				}
				start = i + 1
			}
		}
		if s.Kind == word.Hole {
			start = -2 // unknown text may hold a '/'
		}
	}
	if start < 0 || start >= len(w.Segs) {
		return true
	}
	switch w.Segs[start].Kind {
	case word.Star, word.Quest, word.Class:
		return false
	}
	return true
}

// findMayGive reports whether a part run by find (-exec, -execdir, -ok,
// or xargs reading find's output) may get a file of one of the sample
// names: unless the find's expression keeps every such file from its
// actions (argspec.FindMayName), find . -type f | xargs cat reads the
// project's .env, and find . -name '*.py' | xargs cat does not. A find
// whose words are not all known text (-name "$p") may give anything.
func findMayGive(steps []shellparse.Step, samples ...string) bool {
	for _, l := range steps {
		if !l.Static {
			return true
		}
		for _, name := range samples {
			if argspec.FindMayName(l.Argv, name) {
				return true
			}
		}
	}
	return false
}

// writtenName returns the name a path ends in when the command wrote it
// (find -execdir cat x reads x wherever find goes); not when it may be
// one find gives (find -exec cat {}, xargs's input) or another value.
func writtenName(e Effect) (string, bool) {
	last := e.Written[strings.LastIndexByte(e.Written, '/')+1:]
	if last == "" || last == "." || last == ".." || strings.ContainsAny(last, "{$`…*?[") {
		return "", false
	}
	return last, true
}

// dotenvGiven reports whether the finds a path may come from may give a
// dotenv file: one below their starting points (treeBelow) whose name
// their expressions let through, or a link there that leads to one.
func dotenvGiven(p *Part, steps []shellparse.Step) bool {
	t := treeBelow(p, steps) // what is not read here: readsUnreadFindOutput
	if t.linkDotenv {
		return true
	}
	for _, name := range t.dotenvs {
		if findMayGive(steps, name) {
			return true
		}
	}
	return false
}

// joinedPlaceholder reports whether find's file is joined to other text
// in one path component ({}env, {}.bak): the name read is then not a
// name find gives.
func joinedPlaceholder(e Effect) bool {
	for _, c := range strings.Split(e.Written, "/") {
		if c != "{}" && c != "{input}" && (strings.Contains(c, "{}") || strings.Contains(c, "{input}")) {
			return true
		}
	}
	return false
}

// findRootsOf returns the absolute starting points of the finds a path
// may come from (findSteps).
func findRootsOf(p *Part, e Effect) []string {
	var out []string
	for _, l := range findSteps(p, e) {
		roots, _ := startingPoints(p, l)
		out = append(out, roots...)
	}
	return out
}

// startingPoints are the starting points a find's argv names, made
// absolute against each directory p may run in; known is false when one
// is relative to a directory not known here (it is then left out).
func startingPoints(p *Part, l shellparse.Step) (roots []string, known bool) {
	argv, cwd := l.Argv, p.Cwd
	if l.Cwd != nil {
		cwd = *l.Cwd // find -execdir: the part runs elsewhere
	}
	known = true
	points, _ := argspec.FindStartingPoints(argv)
	if len(points) == 0 {
		points = []string{"."} // GNU find's default starting point
	}
	for _, a := range points {
		if filepath.IsAbs(a) {
			roots = append(roots, filepath.Clean(a))
			continue
		}
		if cwd.Unknown || len(cwd.Dirs) == 0 {
			known = false
		}
		for _, d := range cwd.Dirs {
			roots = append(roots, filepath.Join(d, a))
		}
	}
	return roots, known
}

// systemSecretRead matches reads of systemSecrets, and recursive reads of
// a directory above one (grep -r pass /etc).
func systemSecretRead() func(p *Part, e Effect) word.Tri {
	type pat struct {
		p      *word.Pattern
		prefix string // the literal directories the pattern starts with
	}
	pats := sync.OnceValue(func() []pat {
		var out []pat
		for _, row := range systemSecrets {
			for _, g := range expandBraces(row.path) {
				if p, err := word.CompilePathFold(g); err == nil {
					out = append(out, pat{p, literalDir(g)})
				}
			}
		}
		return out
	})
	var match func(p *Part, e Effect) word.Tri
	match = func(p *Part, e Effect) word.Tri {
		if !readsContent(e) {
			return word.No
		}
		if bareHole(e.Path) {
			if !pathFromFind(p, e) {
				return word.No
			}
			// What find gives: below its starting points, or where the
			// links there lead (find /etc -name shadow | xargs cat).
			t := treeBelow(p, findSteps(p, e)) // what is not read here: readsUnreadFindOutput
			best := word.No
			for _, root := range append(findRootsOf(p, e), t.links...) {
				best = orTri(best, match(p, Effect{Path: word.FromLit(root), Access: Read, Recursive: true}))
			}
			if best != word.No {
				return word.Maybe
			}
			return word.No
		}
		s, static := e.Path.Static()
		s = word.FoldCase(s) // /ETC/ssh is /etc/ssh on a case-insensitive file system
		if static && !strings.HasPrefix(s, "/etc/") && !strings.HasPrefix(s, "/run/") && !strings.HasPrefix(s, "/var/") &&
			!strings.HasPrefix(s, "/dev/") && !strings.HasPrefix(s, "/proc/") &&
			!(e.Recursive && (s == "/" || s == "/etc" || s == "/run" || s == "/var" || s == "/dev" || s == "/proc")) {
			return word.No
		}
		best := word.No
		for _, q := range pats() {
			best = orTri(best, matchPathWord(q.p, e.Path))
			if static && e.Recursive && (s == "/" || strings.HasPrefix(word.FoldCase(q.prefix)+"/", strings.TrimSuffix(s, "/")+"/")) {
				best = word.Yes
			}
			if best == word.Yes {
				break
			}
		}
		return best
	}
	return match
}

// expandBraces expands each {a,b} in a pattern (not nested), for the
// rows written with them.
func expandBraces(g string) []string {
	i := strings.IndexByte(g, '{')
	j := strings.IndexByte(g, '}')
	if i < 0 || j < i {
		return []string{g}
	}
	var out []string
	for _, alt := range strings.Split(g[i+1:j], ",") {
		out = append(out, expandBraces(g[:i]+alt+g[j+1:])...)
	}
	return out
}

// procFiles matches a read of the file /proc/PID/NAME of any process or
// thread (/proc/PID/task/TID/NAME has the same), and of a path known only
// at run time whose text ends in /NAME (/proc/$$/NAME).
func procFiles(name string) func(p *Part, e Effect) word.Tri {
	pats := sync.OnceValue(func() [2]*word.Pattern {
		a, _ := word.CompilePathFold("/proc/*/" + name)
		b, _ := word.CompilePathFold("/proc/*/task/*/" + name)
		return [2]*word.Pattern{a, b}
	})
	return func(p *Part, e Effect) word.Tri {
		if e.Access&Read == 0 || e.Names {
			return word.No
		}
		if bareHole(e.Path) {
			if tail, ok := writtenTail(e); ok && strings.HasSuffix(tail, "/"+name) {
				return word.Maybe
			}
			return word.No
		}
		ps := pats()
		return max(matchPathWord(ps[0], e.Path), matchPathWord(ps[1], e.Path))
	}
}
