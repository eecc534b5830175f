package shellparse

import (
	"path"
	"strings"

	"github.com/guard-exec/guard-exec/argspec"
	"github.com/guard-exec/guard-exec/word"
)

// Code that build tools, package managers and version control carry in
// their arguments. A rule (or preset) that allows such a program allows
// its ordinary use: the project's own makefile, scripts, tests and build
// files. An option or operand that hands it other code or another program
// to run makes that code a part of its own, judged like any command; when
// it cannot be read (a makefile fragment, a config file, a value known
// only at run time) the part is opaque, which asks.
//
// Each program's knowledge is in one function here, with the environment
// variables it reads in carriedEnv. (Issue 10 moves this into the program
// catalogue.)

// carrier returns the reader of the code a program's argv carries, or
// nil. (A switch: a map would refer back to the walk it is part of.)
func carrier(prog string) func(w *walker, sc *scope, cmd *Cmd) {
	switch prog {
	case "git":
		return gitCarried
	case "npm":
		return npmCarried
	case "npx":
		return npxCarried
	case "yarn":
		return yarnCarried
	case "pnpm":
		return pnpmCarried
	case "make", "gmake":
		return makeCarried
	case "go":
		return goCarried
	case "cargo":
		return cargoCarried
	case "poetry":
		return poetryCarried
	case "uv":
		return uvCarried
	case "uvx":
		return uvxCarried
	case "tox":
		return toxCarried
	case "nox":
		return noxCarried
	case "coverage":
		return coverageCarried
	case "mvn", "mvnw":
		return mvnCarried
	case "gradle", "gradlew":
		return gradleCarried
	case "bundle":
		return bundleCarried
	case "rake":
		return rakeCarried
	case "rspec", "rubocop":
		return rubyRequires
	case "docker":
		return dockerCarried
	}
	return nil
}

// opaquePart reports code the program runs that the guard cannot read.
func (w *walker) opaquePart(cmd *Cmd, reason string) {
	w.emit(&Cmd{Argv: cmd.Argv, Assigns: cmd.Assigns, Opaque: reason, CodeArg: -1})
}

// carriedShell judges shell code the program runs with sh -c.
func (w *walker) carriedShell(sc *scope, cmd *Cmd, v word.Word, what string) {
	t, ok := v.Static()
	if !ok {
		w.opaquePart(cmd, what+" is a command not known here")
		return
	}
	if strings.TrimSpace(t) == "" {
		return
	}
	w.codeFor(w.childScope(sc, []string{"sh"}, false), "sh", t, Layer{Kind: what, Argv: word.Strings(cmd.Argv)})
}

// carriedArgv judges a command the program runs directly, as a part of
// its own: npm exec's, go test -exec's. wrapper marks a program that only
// runs it (npm exec), whose own argv then says nothing about paths.
func (w *walker) carriedArgv(sc *scope, cmd *Cmd, argv []word.Word, what string, wrapper bool) {
	if len(argv) == 0 {
		return
	}
	if wrapper {
		cmd.Wrapper = true
	}
	w.via = append(w.via, Layer{Kind: what, Argv: word.Strings(cmd.Argv)})
	w.run(sc, argv, cmd.Assigns, nil, cmd.Stdin, true, false)
	w.via = w.via[:len(w.via)-1]
}

// carriedProgram judges a program named by an option's value, split at
// blanks into a program and its arguments (go -exec 'prog args', cargo's
// runner). The words the tool adds after them (the binary to run, the
// object files) are the tool's own products and are left out, so that a
// rule for the program decides.
func (w *walker) carriedProgram(sc *scope, cmd *Cmd, v word.Word, what string) {
	t, ok := v.Static()
	if !ok {
		w.opaquePart(cmd, what+" names a program not known here")
		return
	}
	fields := strings.Fields(t)
	if len(fields) == 0 {
		return
	}
	argv := word.Lits(fields...)
	w.carriedArgv(sc, cmd, argv, what, false)
}

// shellLike reports a program that reads -c code as bash or sh does, so
// that a tool told to run its scripts with it runs them as judged.
func shellLike(v word.Word) bool {
	t, ok := v.Static()
	if !ok || strings.ContainsAny(t, " \t") {
		return false
	}
	return shells(path.Base(t))
}

// outsideDir reports a directory or file operand that may lie outside the
// working directory: not known here, from home, climbing out with "..",
// or absolute and not under the directory the command runs in. The
// project's makefile, package.json or Cargo.toml is its own; another
// directory's is not.
func outsideDir(sc *scope, v word.Word) bool {
	t, ok := v.Static()
	if !ok || strings.HasPrefix(t, "~") {
		return true
	}
	for _, seg := range strings.Split(t, "/") {
		if seg == ".." {
			return true
		}
	}
	if !strings.HasPrefix(t, "/") {
		return false
	}
	if sc.cwd.Unknown || len(sc.cwd.Dirs) == 0 {
		return true
	}
	for _, d := range sc.cwd.Dirs {
		if d == "/" || !(t == d || strings.HasPrefix(t, d+"/")) {
			return true
		}
	}
	return false
}

// isAssignWord reports NAME=value (and make's NAME:=, +=, ?=, !=).
func assignName(t string) (name, op, value string, ok bool) {
	eq := strings.IndexByte(t, '=')
	if eq <= 0 {
		return "", "", "", false
	}
	name, op = t[:eq], "="
	for _, o := range []string{":::", "::", ":", "+", "?", "!"} {
		if strings.HasSuffix(name, o) {
			name, op = strings.TrimSuffix(name, o), o+"="
			break
		}
	}
	name = strings.TrimSpace(name)
	if name == "" || strings.ContainsAny(name, " \t") {
		return "", "", "", false
	}
	return name, op, t[eq+1:], true
}

// --- git ---

// gitStrategies are the merge strategies built into git; any other name
// runs the program git-merge-NAME.
func gitStrategy(s string) bool {
	switch s {
	case "ort", "recursive", "resolve", "octopus", "ours", "subtree":
		return true
	}
	return false
}

func gitCarried(w *walker, sc *scope, cmd *Cmd) {
	c := argspec.Normalize(cmd.Argv, false)
	w.gitConfigArgs(sc, cmd, c.Values("-c"), "git -c")
	for _, v := range c.Values("--config-env") {
		key, _, _ := v.Cut("=")
		if gitCodeKey().MatchString(key) {
			w.opaquePart(cmd, "git --config-env sets "+key+" from the environment")
		}
	}
	for _, o := range c.Opts {
		switch {
		case o.Name == "--exec-path" && o.Value != nil:
			w.opaquePart(cmd, "git --exec-path="+o.Value.String()+" runs git's helper programs (remote helpers, merge strategies) from there")
		case (o.Name == "-C" || o.Name == "--git-dir") && o.Value != nil && outsideDir(sc, *o.Value):
			w.opaquePart(cmd, "git "+o.Name+" "+o.Value.String()+" uses that repository's configuration and hooks, which can name programs to run")
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
				w.opaquePart(cmd, "git "+c.Sub[0]+" with the URL "+a.String()+", which may be an ext:: URL (a command git runs)")
				break
			}
		}
	}
	argvText := word.Strings(cmd.Argv)
	switch c.Sub[0] {
	case "rebase":
		for _, v := range c.Values("--exec") {
			w.carriedShell(sc, cmd, v, "git rebase --exec")
		}
	case "fetch", "pull", "ls-remote":
		for _, v := range c.Values("--upload-pack") {
			w.carriedShell(sc, cmd, v, "git "+c.Sub[0]+" --upload-pack")
		}
	case "clone":
		for _, v := range c.Values("--upload-pack") {
			w.carriedShell(sc, cmd, v, "git clone --upload-pack")
		}
		w.gitConfigArgs(sc, cmd, c.Values("--config"), "git clone --config")
		if len(c.Values("--template")) > 0 {
			w.opaquePart(cmd, "git clone --template copies hooks from that directory, which git then runs")
		}
	case "push":
		for _, v := range c.Values("--receive-pack") {
			w.carriedShell(sc, cmd, v, "git push --receive-pack")
		}
	case "archive":
		for _, v := range c.Values("--exec") {
			w.carriedShell(sc, cmd, v, "git archive --exec")
		}
	case "grep":
		for _, v := range c.Values("--open-files-in-pager") {
			t, ok := v.Static()
			if !ok {
				w.opaquePart(cmd, "git grep --open-files-in-pager names a command not known here")
				continue
			}
			w.code(w.childScope(sc, []string{"sh"}, true), t+` "$@"`, Layer{Kind: "git grep --open-files-in-pager", Argv: argvText})
		}
	case "difftool":
		for _, v := range c.Values("--extcmd") {
			t, ok := v.Static()
			if !ok {
				w.opaquePart(cmd, "git difftool --extcmd names a command not known here")
				continue
			}
			w.code(w.childScope(sc, []string{"sh"}, true), t+` "$1" "$2"`, Layer{Kind: "git difftool --extcmd", Argv: argvText})
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
					sub := sc.clone()
					sub.cwd = Cwd{Unknown: true}
					w.carriedShell(sub, cmd, joinWords(rest), "git submodule foreach")
				}
				break
			}
		}
	case "bisect":
		if len(c.Args) > 0 {
			if t, _ := c.Args[0].Static(); t == "run" {
				w.carriedArgv(sc, cmd, c.Args[1:], "git bisect run", false)
			}
		}
	case "filter-branch", "send-email":
		// Scripts (shell, perl) that read their own options: every
		// option word that names a command is judged, wherever it is.
		w.gitScriptOptions(sc, cmd, c.Sub[0])
	}
	switch c.Sub[0] {
	case "merge", "pull", "rebase", "cherry-pick", "revert":
		for _, v := range c.Values("--strategy") {
			t, ok := v.Static()
			if ok && gitStrategy(t) {
				continue
			}
			if !ok {
				w.opaquePart(cmd, "git "+c.Sub[0]+" --strategy names a merge program not known here")
				continue
			}
			w.carriedArgv(sc, cmd, []word.Word{word.FromLit("git-merge-" + t)}, "git "+c.Sub[0]+" --strategy", false)
		}
	}
}

// gitScriptOptions judges the options of git filter-branch (its filters
// are shell code) and git send-email (commands that list recipients or
// send mail; perl's Getopt accepts abbreviations of them).
func (w *walker) gitScriptOptions(sc *scope, cmd *Cmd, sub string) {
	var names []string
	if sub == "filter-branch" {
		names = []string{"--setup", "--env-filter", "--tree-filter", "--index-filter", "--parent-filter", "--msg-filter", "--commit-filter", "--tag-name-filter"}
	} else {
		names = []string{"--sendmail-cmd", "--to-cmd", "--cc-cmd", "--header-cmd", "--smtp-server"}
	}
	args := cmd.Argv[1:]
	for i := 0; i < len(args); i++ {
		t, ok := args[i].Static()
		if !ok {
			if args[i].CouldStartWith('-') {
				w.opaquePart(cmd, "git "+sub+" with an argument not known here where an option could be")
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
			v := word.FromLit(val)
			if !hasVal {
				if i+1 >= len(args) {
					break
				}
				i++
				v = args[i]
			}
			if n == "--smtp-server" {
				if strings.HasPrefix(v.Prefix(), "/") || !v.IsStatic() {
					w.carriedProgram(sc, cmd, v, "git send-email --smtp-server")
				}
				break
			}
			w.carriedShell(sc, cmd, v, "git "+sub+" "+n)
			break
		}
	}
}

// gitConfigArgs judges KEY=VALUE settings (git -c, git clone --config)
// whose key makes git run a program.
func (w *walker) gitConfigArgs(sc *scope, cmd *Cmd, vals []word.Word, what string) {
	for _, v := range vals {
		key, val, ok := v.Cut("=")
		if !ok {
			if !v.IsStatic() {
				w.opaquePart(cmd, what+" with a setting not known here")
			}
			continue
		}
		if !gitCodeKey().MatchString(key) {
			continue
		}
		t, ok := val.Static()
		if !ok {
			w.carriedShell(sc, cmd, val, what+" "+key)
			continue
		}
		t = strings.TrimPrefix(t, "!")
		if strings.EqualFold(key, "core.hookspath") || strings.HasPrefix(strings.ToLower(key), "include") {
			w.opaquePart(cmd, what+" "+key+" makes git run programs from "+t)
			continue
		}
		if t == "" || t == "true" || t == "false" {
			continue
		}
		w.carriedShell(sc, cmd, word.FromLit(t), what+" "+key)
	}
}

// --- npm, npx, yarn, pnpm ---

// npmValued are npm's options that take the next word as their value
// (npm's config definitions whose type is not boolean), by long name.
var npmValued = map[string]bool{
	"_auth": true, "access": true, "allow-directory": true, "allow-file": true, "allow-git": true, "allow-remote": true,
	"allow-scripts": true, "also": true, "audit-level": true, "auth-type": true, "before": true, "ca": true, "cache": true,
	"cache-max": true, "cache-min": true, "cafile": true, "call": true, "cert": true, "cidr": true, "cpu": true, "depth": true,
	"diff": true, "diff-dst-prefix": true, "diff-src-prefix": true, "diff-unified": true, "editor": true,
	"expect-result-count": true, "expires": true, "fetch-retries": true, "fetch-retry-factor": true,
	"fetch-retry-maxtimeout": true, "fetch-retry-mintimeout": true, "fetch-timeout": true, "git": true, "globalconfig": true,
	"heading": true, "https-proxy": true, "include": true, "init-author-email": true, "init-author-name": true,
	"init-author-url": true, "init-license": true, "init-module": true, "init-type": true, "init-version": true,
	"install-strategy": true, "key": true, "libc": true, "local-address": true, "location": true, "lockfile-version": true,
	"loglevel": true, "logs-dir": true, "logs-max": true, "name": true, "maxsockets": true, "message": true,
	"min-release-age": true, "min-release-age-exclude": true, "node-gyp": true, "node-options": true, "noproxy": true,
	"omit": true, "only": true, "orgs": true, "os": true, "otp": true, "package": true, "pack-destination": true,
	"packages": true, "prefix": true, "preid": true, "provenance-file": true, "proxy": true, "registry": true,
	"replace-registry-host": true, "save-prefix": true, "sbom-format": true, "sbom-type": true, "scope": true, "scopes": true,
	"password": true, "token-description": true, "script-shell": true, "searchexclude": true, "searchlimit": true,
	"searchopts": true, "searchstaleness": true, "shell": true, "tag": true, "tag-version-prefix": true, "umask": true,
	"user-agent": true, "userconfig": true, "viewer": true, "which": true, "workspace": true,
}

// npmShort are npm's one-letter (and few-letter) shorthands.
var npmShort = map[string]string{
	"c": "call", "C": "prefix", "L": "location", "m": "message", "w": "workspace", "y": "yes", "n": "no-yes",
	"reg": "registry", "d": "loglevel=info", "dd": "loglevel=verbose", "ddd": "loglevel=silly", "q": "loglevel=warn",
	"s": "loglevel=silent", "ws": "workspaces", "iwr": "include-workspace-root", "a": "all", "f": "force", "g": "global",
	"l": "long", "p": "parseable", "S": "save", "B": "save-bundle", "D": "save-dev", "E": "save-exact", "O": "save-optional",
	"P": "save-prod", "h": "usage", "H": "usage", "?": "usage", "v": "version",
}

// npmConfigCode judges one npm setting (from an option or an
// npm_config_* variable) that names a program or code, by key.
func (w *walker) npmConfigCode(sc *scope, cmd *Cmd, key string, v word.Word, tool string) {
	key = strings.ReplaceAll(strings.ToLower(key), "_", "-")
	switch key {
	case "script-shell", "shell":
		if !shellLike(v) {
			w.opaquePart(cmd, tool+" runs its scripts with "+v.String()+" ("+key+"), a program the guard does not read as a shell")
		}
	case "node-options":
		if t, ok := v.Static(); !ok || strings.TrimSpace(t) != "" {
			w.opaquePart(cmd, tool+" --node-options passes options (such as --require) to every node it starts")
		}
	case "userconfig", "globalconfig", "init-module", "onload-script":
		w.opaquePart(cmd, tool+" --"+key+" reads "+v.String()+", which can set the programs it runs")
	case "prefix", "dir":
		if outsideDir(sc, v) {
			w.opaquePart(cmd, tool+" --"+key+" runs the scripts of the package in "+v.String()+", not the project's")
		}
	case "editor", "browser", "viewer", "git", "node-gyp":
		if t, ok := v.Static(); ok && (t == "true" || t == "false" || t == "") {
			return
		}
		w.carriedProgram(sc, cmd, v, tool+" --"+key)
	}
}

// npmArgs reads npm's argv the way nopt does: options anywhere before
// "--", a valued option taking the next word, unknown options boolean.
// It returns the operands (the subcommand first) and the words after
// "--"; ok is false when a word not known here stands where an option
// could be.
func (w *walker) npmArgs(sc *scope, cmd *Cmd, args []word.Word, tool string, stopAtOperand bool) (ops, rest []word.Word, opts map[string]word.Word, ok bool) {
	opts = map[string]word.Word{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		t, static := a.Static()
		if !static {
			if a.CouldStartWith('-') {
				return nil, nil, nil, false
			}
			ops = append(ops, a)
			if stopAtOperand {
				return ops, args[i+1:], opts, true
			}
			continue
		}
		if t == "--" {
			return ops, args[i+1:], opts, true
		}
		if !strings.HasPrefix(t, "-") || t == "-" {
			ops = append(ops, a)
			if stopAtOperand {
				return ops, args[i+1:], opts, true
			}
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(t, "-"), "=")
		if !strings.HasPrefix(t, "--") {
			long, known := npmShort[name]
			if !known && len(name) > 1 {
				// A cluster of shorthands: one that takes a value hides
				// what follows from the guard.
				for _, r := range name {
					l := npmShort[string(r)]
					if npmValued[l] {
						return nil, nil, nil, false
					}
				}
				continue
			}
			if !known {
				continue
			}
			if k, v, set := strings.Cut(long, "="); set {
				name, val, hasVal = k, v, true
			} else {
				name = long
			}
		}
		if tool == "npx" && name == "shell" {
			name = "script-shell"
		}
		var v word.Word
		switch {
		case hasVal:
			v = word.FromLit(val)
		case npmValued[name] && i+1 < len(args):
			i++
			v = args[i]
		default:
			v = word.FromLit("true")
		}
		opts[name] = v
		w.npmConfigCode(sc, cmd, name, v, tool)
	}
	return ops, nil, opts, true
}

func npmCarried(w *walker, sc *scope, cmd *Cmd) {
	ops, rest, opts, ok := w.npmArgs(sc, cmd, cmd.Argv[1:], "npm", false)
	if !ok {
		w.opaquePart(cmd, "npm with an argument not known here where an option could be")
		return
	}
	if len(ops) == 0 {
		return
	}
	sub, _ := ops[0].Static()
	switch npmCommand(sub) {
	case "exec":
		w.npmExec(sc, cmd, append(ops[1:], rest...), opts, "npm exec")
	case "explore":
		// npm explore PKG -- COMMAND: a shell command in the package.
		if len(rest) > 0 {
			sub := sc.clone()
			sub.cwd = Cwd{Unknown: true}
			w.carriedShell(sub, cmd, joinWords(rest), "npm explore")
		}
	case "init":
		// npm init INITIALIZER runs the package create-INITIALIZER.
		if len(ops) > 1 {
			w.opaquePart(cmd, "npm init "+ops[1].String()+" downloads and runs the package that creates the project")
		}
	}
}

// npmCommand resolves the abbreviations npm accepts for the commands
// that run code named on the command line (npm's deref: an alias, or a
// prefix of one command alone).
func npmCommand(s string) string {
	switch s {
	case "exe", "exec", "x":
		return "exec"
	case "explo", "explor", "explore":
		return "explore"
	case "ini", "init", "cr", "cre", "crea", "creat", "create", "inn", "inni", "innit":
		return "init"
	}
	return s
}

// npmExec judges what npm exec (npx) runs: the command named by its first
// operand, or the --call string; a --package names code to fetch and run.
func (w *walker) npmExec(sc *scope, cmd *Cmd, argv []word.Word, opts map[string]word.Word, what string) {
	if v, ok := opts["package"]; ok {
		w.opaquePart(cmd, what+" --package runs a program from the package "+v.String())
		return
	}
	if v, ok := opts["call"]; ok {
		w.carriedShell(sc, cmd, v, what+" --call")
		cmd.Wrapper = true
		return
	}
	w.carriedArgv(sc, cmd, argv, what, true)
}

// npxCarried: npx reads its own options only before the command; the rest
// is the command's.
func npxCarried(w *walker, sc *scope, cmd *Cmd) {
	args := cmd.Argv[1:]
	var opts map[string]word.Word
	var argv []word.Word
	// npx takes an unknown option's next word as its value, so only the
	// options known here keep the command in sight.
	for i := 0; i < len(args); i++ {
		t, ok := args[i].Static()
		if !ok {
			if args[i].CouldStartWith('-') {
				w.opaquePart(cmd, "npx with an argument not known here where an option could be")
				return
			}
			argv = args[i:]
			break
		}
		if t == "--" {
			argv = args[i+1:]
			break
		}
		if !strings.HasPrefix(t, "-") {
			argv = args[i:]
			break
		}
		name, _, _ := strings.Cut(strings.TrimLeft(t, "-"), "=")
		switch name {
		case "p", "package", "c", "call", "shell", "script-shell", "userconfig", "cache", "w", "workspace", "prefix", "C", "registry":
			_, v, hasVal := strings.Cut(t, "=")
			if !hasVal && i+1 < len(args) {
				i++
				v, _ = args[i].Static()
				if !args[i].IsStatic() {
					w.opaquePart(cmd, "npx "+t+" with a value not known here")
					return
				}
			}
			if opts == nil {
				opts = map[string]word.Word{}
			}
			long := map[string]string{"p": "package", "c": "call", "w": "workspace", "C": "prefix", "shell": "script-shell"}[name]
			if long == "" {
				long = name
			}
			opts[long] = word.FromLit(v)
			w.npmConfigCode(sc, cmd, long, word.FromLit(v), "npx")
		case "y", "yes", "no", "n", "q", "quiet", "s", "silent", "ws", "workspaces", "include-workspace-root", "no-install", "prefer-online", "prefer-offline", "offline":
		default:
			w.opaquePart(cmd, "npx with the option "+t+", which the guard does not read")
			return
		}
	}
	w.npmExec(sc, cmd, argv, opts, "npx")
}

// yarnCarried: yarn exec runs a shell command, yarn dlx a downloaded
// package's program, yarn node node; yarn run and yarn NAME run the
// project's scripts and its dependencies' programs.
func yarnCarried(w *walker, sc *scope, cmd *Cmd) {
	ops, rest, _, ok := w.npmArgs(sc, cmd, cmd.Argv[1:], "yarn", true)
	if !ok {
		w.opaquePart(cmd, "yarn with an argument not known here where an option could be")
		return
	}
	if len(ops) == 0 {
		return
	}
	sub, _ := ops[0].Static()
	switch sub {
	case "exec":
		// Yarn 1 runs COMMAND ARGS as a program; Yarn 2+ runs COMMAND as
		// a line of its shell, with ARGS as "$@". Both readings are judged.
		if len(rest) == 0 {
			return
		}
		w.carriedArgv(sc, cmd, rest, "yarn exec", true)
		if t, ok := rest[0].Static(); ok {
			params, known := staticArgs(rest[1:])
			w.codeFor(w.childScope(sc, append([]string{"yarn"}, params...), !known), "sh", t, Layer{Kind: "yarn exec (its shell)", Argv: word.Strings(cmd.Argv)})
		} else {
			w.opaquePart(cmd, "yarn exec runs a command line not known here")
		}
	case "dlx":
		w.dlx(sc, cmd, rest, "yarn dlx")
	case "node":
		w.carriedArgv(sc, cmd, append([]word.Word{word.FromLit("node")}, rest...), "yarn node", true)
	}
}

// pnpmCarried: pnpm exec runs a command (a shell string with -c), pnpm
// dlx a downloaded package's program.
func pnpmCarried(w *walker, sc *scope, cmd *Cmd) {
	ops, rest, _, ok := w.npmArgs(sc, cmd, cmd.Argv[1:], "pnpm", true)
	if !ok {
		w.opaquePart(cmd, "pnpm with an argument not known here where an option could be")
		return
	}
	if len(ops) == 0 {
		return
	}
	sub, _ := ops[0].Static()
	switch sub {
	case "exec":
		for len(rest) > 0 {
			t, ok := rest[0].Static()
			if !ok || !strings.HasPrefix(t, "-") {
				break
			}
			rest = rest[1:]
			switch t {
			case "--":
			case "-c", "--shell-mode":
				w.carriedShell(sc, cmd, joinWords(rest), "pnpm exec --shell-mode")
				cmd.Wrapper = true
				return
			case "-r", "--recursive", "--parallel", "--no-bail", "--report-summary", "--resume-from", "-s", "--silent":
				if t == "--resume-from" && len(rest) > 0 {
					rest = rest[1:]
				}
			default:
				w.opaquePart(cmd, "pnpm exec with the option "+t+", which the guard does not read")
				return
			}
			if t == "--" {
				break
			}
		}
		w.carriedArgv(sc, cmd, rest, "pnpm exec", true)
	case "dlx":
		w.dlx(sc, cmd, rest, "pnpm dlx")
	}
}

// dlx judges yarn/pnpm dlx: PACKAGE ARGS runs the package's program.
func (w *walker) dlx(sc *scope, cmd *Cmd, args []word.Word, what string) {
	for len(args) > 0 {
		t, ok := args[0].Static()
		if !ok || !strings.HasPrefix(t, "-") {
			break
		}
		switch t {
		case "-q", "--quiet", "-s", "--silent":
			args = args[1:]
		default:
			w.opaquePart(cmd, what+" with the option "+t+" runs a program from a package named there")
			return
		}
	}
	w.carriedArgv(sc, cmd, args, what, true)
}

// --- make ---

// makeCarried: make runs the recipes of the project's makefile. What the
// command line adds is code: --eval text, a makefile named with -f, a
// directory elsewhere, the shell recipes run with, and variables.
//
// A variable given on the command line (or in make's environment) can
// change what any recipe runs: recipes use variables as programs ($(CC),
// $(GO), $(TEST_CMD)) and as text the shell parses. So its value is
// judged as the shell command a recipe could make of it: `CC=clang` judges
// clang, `X='a; b'` judges a and b, and a value make would expand itself
// ($(shell …)) is opaque. Empty and numeric values and option words
// (V=1, -j, CFLAGS=-O2) cannot name a program and carry no shell syntax.
func makeCarried(w *walker, sc *scope, cmd *Cmd) {
	c := argspec.Normalize(cmd.Argv, false)
	if c.Open {
		w.opaquePart(cmd, "make with an argument not known here (it could be an option or a variable)")
	}
	w.makeReading(sc, cmd, c)
	for _, a := range cmd.Assigns {
		if a.Name == "PATH" || codeVars(a.Name) != "" || hiddenCodeVars(a.Name) != "" || buildProgramVar(a.Name) ||
			strings.HasPrefix(a.Name, "MAKE") || a.Name == "MFLAGS" || a.Name == "GNUMAKEFLAGS" {
			continue // judged where it is set (checkAssigns, carriedEnv)
		}
		w.makeVar(sc, cmd, a.Name, "=", a.Value, true)
	}
}

func (w *walker) makeReading(sc *scope, cmd *Cmd, c *argspec.Cmd) {
	for _, o := range c.Opts {
		if o.Value == nil {
			continue
		}
		switch o.Name {
		case "--eval":
			w.opaquePart(cmd, "make --eval evaluates "+o.Value.String()+" as makefile text, which can run commands")
		case "--file":
			t, _ := o.Value.Static()
			switch strings.TrimPrefix(t, "./") {
			case "Makefile", "makefile", "GNUmakefile":
			default:
				w.opaquePart(cmd, "make -f reads the makefile "+o.Value.String()+", whose recipes the guard does not read")
			}
		case "--directory":
			if outsideDir(sc, *o.Value) {
				w.opaquePart(cmd, "make -C runs the makefile in "+o.Value.String()+", which may not be the project's")
			}
		case "--include-dir":
			if outsideDir(sc, *o.Value) {
				w.opaquePart(cmd, "make -I includes makefiles from "+o.Value.String()+", which may not be the project's")
			}
		}
	}
	for _, a := range c.Args {
		t, ok := a.Static()
		if !ok {
			if !c.Open {
				w.opaquePart(cmd, "make with an argument not known here (it could set a variable)")
			}
			continue
		}
		if name, op, val, ok := assignName(t); ok {
			w.makeVar(sc, cmd, name, op, word.FromLit(val), false)
		}
	}
}

// makeVar judges one variable make sees.
func (w *walker) makeVar(sc *scope, cmd *Cmd, name, op string, v word.Word, env bool) {
	what := "make variable " + name
	if env {
		what = "variable " + name + " in make's environment"
	}
	t, ok := v.Static()
	switch {
	case op == "!=":
		w.carriedShell(sc, cmd, v, "make "+name+" != (run by make's shell)")
		return
	case name == "SHELL" || name == "MAKESHELL":
		if env && name == "SHELL" {
			return // make ignores SHELL from the environment
		}
		if !shellLike(v) {
			w.opaquePart(cmd, "make "+name+"="+v.String()+" runs every recipe with that program")
		}
		return
	case name == ".SHELLFLAGS":
		if !ok || !shellFlagsOnly(t) {
			w.opaquePart(cmd, "make .SHELLFLAGS="+v.String()+" changes how the shell reads every recipe")
		}
		return
	case name == "MAKEFLAGS" || name == "MFLAGS" || name == "GNUMAKEFLAGS":
		if !ok {
			w.opaquePart(cmd, name+" is set to options not known here")
			return
		}
		// make reads MAKEFLAGS as options; a first word without a dash
		// is a cluster of one-letter options.
		words := strings.Fields(t)
		if len(words) > 0 && !strings.HasPrefix(words[0], "-") && !strings.Contains(words[0], "=") {
			words[0] = "-" + words[0]
		}
		argv := append([]word.Word{word.FromLit("make")}, word.Lits(words...)...)
		w.makeReading(sc, cmd, argspec.Normalize(argv, false))
		return
	case name == "MAKEFILES":
		if !ok || strings.TrimSpace(t) != "" {
			w.opaquePart(cmd, "MAKEFILES makes make read "+v.String()+" before the project's makefile")
		}
		return
	}
	if !ok {
		w.opaquePart(cmd, what+" is set to a value not known here, which a recipe may run")
		return
	}
	if inertValue(t) {
		return
	}
	if strings.ContainsAny(t, "$") {
		w.opaquePart(cmd, what+" is set to "+t+", which make expands (and $(shell …) runs)")
		return
	}
	w.carriedShell(sc, cmd, v, what+" (a recipe may run its value)")
}

// inertValue reports a variable value that a recipe cannot turn into a
// program or extra shell syntax: empty, a number, or option words.
func inertValue(t string) bool {
	if strings.ContainsAny(t, ";&|<>()`\"'\\*?[]{}~!#$\n") {
		return false
	}
	fields := strings.Fields(t)
	for _, f := range fields {
		if strings.HasPrefix(f, "-") || strings.Trim(f, "0123456789.") == "" {
			continue
		}
		return false
	}
	return true
}

// shellFlagsOnly reports .SHELLFLAGS that only set shell options and end
// in -c (-c, -ec, -eu -o pipefail -c).
func shellFlagsOnly(t string) bool {
	fields := strings.Fields(t)
	if len(fields) == 0 || !strings.HasSuffix(fields[len(fields)-1], "c") {
		return false
	}
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		if f == "-o" && i+1 < len(fields)-1 && isName(fields[i+1]) {
			i++
			continue
		}
		if len(f) < 2 || f[0] != '-' || strings.Trim(f[1:], "abcdefhkmnptuvxBCEHPT") != "" {
			return false
		}
	}
	return true
}

// --- go ---

// goValued are the go command's flags that take a value (go help
// build, go help testflag): a value is the next word unless attached.
var goValued = map[string]bool{
	"C": true, "p": true, "covermode": true, "coverpkg": true, "asmflags": true, "buildmode": true,
	"compiler": true, "gccgoflags": true, "gcflags": true, "installsuffix": true, "ldflags": true, "mod": true,
	"modfile": true, "overlay": true, "pgo": true, "pkgdir": true, "tags": true, "toolexec": true, "exec": true,
	"o": true, "vettool": true, "vet": true, "run": true, "skip": true, "bench": true, "benchtime": true, "count": true,
	"cpu": true, "list": true, "parallel": true, "timeout": true, "shuffle": true, "fuzz": true, "fuzztime": true,
	"fuzzminimizetime": true, "coverprofile": true, "blockprofile": true, "blockprofilerate": true, "cpuprofile": true,
	"memprofile": true, "memprofilerate": true, "mutexprofile": true, "mutexprofilefraction": true, "outputdir": true,
	"trace": true, "f": true, "debug-actiongraph": true, "debug-deprioritize": true,
	"debug-runtime-trace": true, "debug-trace": true,
}

// goCarried: go runs the project's code; -exec, -toolexec, -vettool and
// the linker flags name other programs to run, -C and package operands
// outside the project name other code.
func goCarried(w *walker, sc *scope, cmd *Cmd) {
	args := cmd.Argv[1:]
	// go -C DIR SUBCOMMAND … (as well as go SUBCOMMAND -C DIR).
	for len(args) > 0 {
		t, _ := args[0].Static()
		name, val, hasVal := strings.Cut(strings.TrimLeft(t, "-"), "=")
		if !strings.HasPrefix(t, "-") || name != "C" {
			break
		}
		args = args[1:]
		dir := word.FromLit(val)
		if !hasVal && len(args) > 0 {
			dir, args = args[0], args[1:]
		}
		w.goFlag(sc, cmd, "", "C", dir)
	}
	if len(args) == 0 {
		return
	}
	sub, _ := args[0].Static()
	args = args[1:]
	switch sub {
	case "build", "install", "run", "test", "vet", "list", "generate", "get", "tool":
	case "env":
		for _, a := range args {
			if t, _ := a.Static(); t == "-w" || t == "-u" || !a.IsStatic() {
				w.opaquePart(cmd, "go env -w changes the settings every later go command reads (GOFLAGS, CC, … can name programs)")
				return
			}
		}
		return
	default:
		return
	}
	ops := w.goFlags(sc, cmd, args, sub)
	if sub == "run" && len(ops) > 0 {
		for _, op := range ops {
			t, ok := op.Static()
			if !ok || strings.Contains(t, "@") || outsideDir(sc, op) {
				w.opaquePart(cmd, "go run runs "+op.String()+", code from outside the project")
				break
			}
			if !strings.HasSuffix(t, ".go") {
				break // the package; the rest are its arguments
			}
		}
	}
}

// goFlags judges the go command's flags and returns its operands. go
// test reads flags among its packages too, up to -args; the others stop
// at the first operand.
func (w *walker) goFlags(sc *scope, cmd *Cmd, args []word.Word, sub string) []word.Word {
	var ops []word.Word
	for i := 0; i < len(args); i++ {
		a := args[i]
		t, ok := a.Static()
		if !ok {
			if a.CouldStartWith('-') {
				w.opaquePart(cmd, "go "+sub+" with an argument not known here where a flag could be")
				return ops
			}
			ops = append(ops, a)
			if sub != "test" && sub != "vet" {
				return append(ops, args[i+1:]...)
			}
			continue
		}
		if t == "--" || t == "-args" || t == "--args" {
			return append(ops, args[i+1:]...)
		}
		if !strings.HasPrefix(t, "-") || t == "-" {
			ops = append(ops, a)
			if sub != "test" && sub != "vet" {
				return append(ops, args[i+1:]...)
			}
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(t, "-"), "-"), "=")
		name = strings.TrimPrefix(name, "test.")
		v := word.FromLit(val)
		if !hasVal && goValued[name] && i+1 < len(args) {
			i++
			v = args[i]
		}
		if hasVal || goValued[name] {
			w.goFlag(sc, cmd, sub, name, v)
		}
	}
	return ops
}

// goFlag judges one flag of a go build command (from its argv or GOFLAGS).
func (w *walker) goFlag(sc *scope, cmd *Cmd, sub, name string, v word.Word) {
	what := strings.TrimSpace("go "+sub) + " -" + name
	switch name {
	case "exec":
		w.carriedProgram(sc, cmd, v, what)
	case "toolexec":
		w.carriedProgram(sc, cmd, v, what)
	case "vettool":
		w.carriedProgram(sc, cmd, v, what)
	case "overlay":
		w.opaquePart(cmd, what+" replaces source files with the ones "+v.String()+" lists")
	case "C":
		if outsideDir(sc, v) {
			w.opaquePart(cmd, what+" builds the code in "+v.String()+", which may not be the project's")
		}
	case "ldflags":
		w.goLinkerFlags(sc, cmd, v, what)
	case "compiler":
		if t, _ := v.Static(); t != "gc" {
			w.opaquePart(cmd, what+"="+v.String()+" builds with another compiler")
		}
	}
}

// goLinkerFlags finds -extld (the external linker program) and
// -extldflags (flags for it, which can name programs) in -ldflags.
func (w *walker) goLinkerFlags(sc *scope, cmd *Cmd, v word.Word, what string) {
	t, ok := v.Static()
	if !ok {
		w.opaquePart(cmd, what+" with flags not known here (the linker flags can name programs)")
		return
	}
	if _, flags, ok := strings.Cut(t, "="); ok && !strings.HasPrefix(t, "-") {
		t = flags // -ldflags=PATTERN=FLAGS
	}
	fields := strings.Fields(strings.NewReplacer(`"`, " ", `'`, " ").Replace(t))
	for i, f := range fields {
		f = "-" + strings.TrimLeft(f, "-")
		name, val, has := strings.Cut(f, "=")
		if !has && i+1 < len(fields) {
			val = fields[i+1]
		}
		switch name {
		case "-extld":
			w.carriedProgram(sc, cmd, word.FromLit(val), what+" -extld")
		case "-extldflags":
			w.opaquePart(cmd, what+" -extldflags passes flags to the C linker, which can name programs")
		}
	}
}

// --- cargo ---

// cargoCarried: cargo builds and runs the project's crate. --config
// settings, --manifest-path elsewhere and -Z flags change what it runs.
func cargoCarried(w *walker, sc *scope, cmd *Cmd) {
	args := cmd.Argv[1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		t, ok := a.Static()
		if !ok {
			if a.CouldStartWith('-') {
				w.opaquePart(cmd, "cargo with an argument not known here where an option could be")
				return
			}
			continue
		}
		if t == "--" {
			return // the program's or test binary's arguments
		}
		name, val, hasVal := strings.Cut(t, "=")
		if strings.HasPrefix(t, "-Z") {
			w.opaquePart(cmd, "cargo "+t+" turns on unstable behaviour the guard does not read")
			continue
		}
		if strings.HasPrefix(t, "+") && strings.ContainsAny(t, "/.") {
			w.opaquePart(cmd, "cargo "+t+" runs the toolchain at that path")
			continue
		}
		switch name {
		case "--config", "--manifest-path", "-C":
		default:
			continue
		}
		v := word.FromLit(val)
		if !hasVal {
			if i+1 >= len(args) {
				continue
			}
			i++
			v = args[i]
		}
		switch name {
		case "--config":
			w.cargoConfigArg(sc, cmd, v)
		case "--manifest-path", "-C":
			if outsideDir(sc, v) {
				w.opaquePart(cmd, "cargo "+name+" builds the crate at "+v.String()+", which may not be the project's")
			}
		}
	}
}

// cargoConfigArg judges --config KEY=VALUE (a TOML setting) or --config
// FILE.
func (w *walker) cargoConfigArg(sc *scope, cmd *Cmd, v word.Word) {
	t, ok := v.Static()
	if !ok {
		w.opaquePart(cmd, "cargo --config with a setting not known here")
		return
	}
	key, val, isSetting := strings.Cut(t, "=")
	key = strings.TrimSpace(key)
	if !isSetting || key == "" || strings.ContainsAny(key, "/ ") {
		w.opaquePart(cmd, "cargo --config reads the file "+t+", which can name programs to run")
		return
	}
	key = strings.ReplaceAll(key, `"`, "")
	w.cargoSetting(sc, cmd, key, strings.TrimSpace(val), "cargo --config "+key, true)
}

// cargoSetting judges one cargo configuration key (from --config or a
// CARGO_* variable). Keys that name a program are judged as that program;
// keys known to change nothing that runs pass; every other key may (its
// rustflags, env, paths, patches, aliases, includes) and asks.
func (w *walker) cargoSetting(sc *scope, cmd *Cmd, key, val, what string, toml bool) {
	k := strings.ToLower(key)
	parts := strings.Split(k, ".")
	last := parts[len(parts)-1]
	switch {
	case k == "build.rustc" || k == "build.rustc-wrapper" || k == "build.rustc-workspace-wrapper" || k == "build.rustdoc" ||
		k == "doc.browser" || k == "registry.credential-provider" || k == "credential-provider" ||
		(parts[0] == "target" || parts[0] == "host") && (last == "runner" || last == "linker") ||
		parts[0] == "registries" && last == "credential-provider":
		prog, ok := val, true
		if toml {
			prog, ok = tomlProgram(val)
		}
		if !ok {
			w.opaquePart(cmd, what+" names a program the guard cannot read ("+val+")")
			return
		}
		w.carriedProgram(sc, cmd, word.FromLit(prog), what)
	case parts[0] == "build" && (last == "jobs" || last == "target" || last == "target-dir" || last == "incremental" || last == "dep-info-basedir"),
		parts[0] == "term", parts[0] == "cargo-new", parts[0] == "future-incompat-report",
		k == "net.offline" || k == "net.retry" || k == "net.git-fetch-with-cli",
		parts[0] == "http" && (last == "timeout" || last == "multiplexing" || last == "debug" || last == "low-speed-limit"),
		parts[0] == "profile" && len(parts) == 3 && cargoProfileKey(last):
	case parts[0] == "build" && (last == "rustflags" || last == "rustdocflags"),
		parts[0] == "target" && (last == "rustflags" || last == "rustdocflags"):
		if !toml {
			w.rustFlags(sc, cmd, val, what)
			return
		}
		w.opaquePart(cmd, what+" passes flags to rustc, which can name programs")
	default:
		w.opaquePart(cmd, what+" changes cargo's configuration in a way that can run other programs or code")
	}
}

func cargoProfileKey(k string) bool {
	switch k {
	case "opt-level", "debug", "split-debuginfo", "strip", "debug-assertions", "overflow-checks", "lto", "panic",
		"incremental", "codegen-units":
		return true
	}
	return false
}

// tomlProgram reads a TOML string ("prog args", 'prog') or array of
// strings (["prog", "arg"]) as a command line.
func tomlProgram(v string) (string, bool) {
	v = strings.TrimSpace(v)
	if len(v) >= 2 && (v[0] == '"' && v[len(v)-1] == '"' || v[0] == '\'' && v[len(v)-1] == '\'') {
		s := v[1 : len(v)-1]
		if v[0] == '"' && strings.Contains(s, `\`) {
			return "", false
		}
		return s, true
	}
	if strings.HasPrefix(v, "[") && strings.HasSuffix(v, "]") {
		var out []string
		for _, e := range strings.Split(v[1:len(v)-1], ",") {
			e = strings.TrimSpace(e)
			if e == "" {
				continue
			}
			s, ok := tomlProgram(e)
			if !ok || strings.ContainsAny(s, " \t") {
				return "", false
			}
			out = append(out, s)
		}
		return strings.Join(out, " "), len(out) > 0
	}
	return "", false
}

// rustFlags judges RUSTFLAGS: lint levels, cfgs and code-generation
// settings that run nothing pass; -C linker names a program; any other
// flag can load code (-Z codegen-backend, -C link-arg, plugins) and asks.
func (w *walker) rustFlags(sc *scope, cmd *Cmd, t, what string) {
	fields := strings.FieldsFunc(t, func(r rune) bool { return r == ' ' || r == '\t' || r == '\x1f' })
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		switch {
		case f == "-D" || f == "-W" || f == "-A" || f == "-F" || f == "--cfg" || f == "--cap-lints" || f == "--check-cfg":
			i++
		case len(f) > 2 && (f[:2] == "-D" || f[:2] == "-W" || f[:2] == "-A" || f[:2] == "-F"),
			strings.HasPrefix(f, "--cfg=") || strings.HasPrefix(f, "--cap-lints=") || f == "-g" || f == "-O":
		case f == "-C" || strings.HasPrefix(f, "-C"):
			setting := strings.TrimPrefix(f, "-C")
			if setting == "" && i+1 < len(fields) {
				i++
				setting = fields[i]
			}
			k, v, _ := strings.Cut(setting, "=")
			switch k {
			case "linker":
				w.carriedProgram(sc, cmd, word.FromLit(v), what+" -C linker")
			case "target-cpu", "target-feature", "opt-level", "debuginfo", "debug-assertions", "overflow-checks",
				"codegen-units", "incremental", "instrument-coverage", "lto", "panic", "relocation-model",
				"force-frame-pointers", "strip", "embed-bitcode", "split-debuginfo", "symbol-mangling-version", "code-model":
			default:
				w.opaquePart(cmd, what+" passes -C "+k+" to rustc, which the guard does not read")
			}
		default:
			w.opaquePart(cmd, what+" passes "+f+" to rustc, which the guard does not read")
		}
	}
}

// --- python tools ---

// pythonCommand maps what uv run, poetry run and coverage run were given
// to the command that runs: a .py file runs with python.
func pythonCommand(argv []word.Word) []word.Word {
	if len(argv) > 0 {
		if t, ok := argv[0].Static(); ok && (strings.HasSuffix(t, ".py") || strings.HasSuffix(t, ".pyw")) {
			return append([]word.Word{word.FromLit("python")}, argv...)
		}
	}
	return argv
}

// poetryCarried: poetry run COMMAND runs it in the project's
// environment. (A rule for "poetry run" matches only when run is the
// first word, so options before it need not be read here.)
func poetryCarried(w *walker, sc *scope, cmd *Cmd) {
	if len(cmd.Argv) < 2 {
		return
	}
	if t, _ := cmd.Argv[1].Static(); t == "run" {
		w.carriedArgv(sc, cmd, pythonCommand(cmd.Argv[2:]), "poetry run", true)
	}
}

func hasOperand(argv []word.Word, s string) bool {
	for _, a := range argv[1:] {
		if t, _ := a.Static(); t == s {
			return true
		}
	}
	return false
}

// uvRunSpec lists uv run's options; an option not listed asks.
var uvRunSpec = &argspec.Spec{Name: "uv run", Notation: "extra= all-extras no-extra= no-dev dev only-dev group= no-group= no-default-groups only-group= all-groups m,module no-editable exact no-env-file with= with-editable= with-requirements= isolated active no-active no-sync locked frozen s,script gui-script all-packages package= no-project p,python= directory= project= offline q,quiet v,verbose no-cache n cache-dir= index= default-index= i,index-url= extra-index-url= f,find-links= no-index U,upgrade P,upgrade-package= reinstall reinstall-package= refresh refresh-package= compile-bytecode color= native-tls no-progress no-config no-python-downloads managed-python no-managed-python python-preference= preview no-preview env-file= config-file= link-mode= resolution= prerelease= exclude-newer= no-build no-build-isolation no-binary h,help"}

// uvCarried: uv run COMMAND runs it in the project's environment; uv
// tool run (uvx) downloads a tool named on the command line and runs it.
func uvCarried(w *walker, sc *scope, cmd *Cmd) {
	if len(cmd.Argv) < 2 {
		return
	}
	switch t, _ := cmd.Argv[1].Static(); t {
	case "run":
		w.uvRun(sc, cmd, cmd.Argv[1:])
	case "tool":
		if len(cmd.Argv) > 2 {
			if t, _ := cmd.Argv[2].Static(); t == "run" {
				w.opaquePart(cmd, "uv tool run downloads and runs a tool named on the command line")
			}
		}
	}
}

func uvxCarried(w *walker, _ *scope, cmd *Cmd) {
	w.opaquePart(cmd, "uvx downloads and runs a tool named on the command line")
}

func (w *walker) uvRun(sc *scope, cmd *Cmd, args []word.Word) {
	c, rest, reason := readWrapper(args, uvRunSpec)
	if reason != "" {
		w.opaquePart(cmd, reason)
		return
	}
	for _, o := range c.Opts {
		switch o.Name {
		case "--with", "--with-editable", "--with-requirements":
			w.opaquePart(cmd, "uv run "+o.Name+" adds packages named on the command line, whose code may run")
		case "--env-file", "--config-file":
			w.opaquePart(cmd, "uv run "+o.Name+" reads settings (and environment) from "+o.Value.String())
		case "--directory", "--project":
			if outsideDir(sc, *o.Value) {
				w.opaquePart(cmd, "uv run "+o.Name+" runs in the project at "+o.Value.String()+", not this one")
			}
		case "--python":
			if t, ok := o.Value.Static(); !ok || strings.ContainsAny(t, "/~") {
				w.opaquePart(cmd, "uv run --python "+o.Value.String()+" runs that interpreter")
			}
		}
	}
	switch {
	case c.Has("--module") && len(rest) > 0:
		rest = append([]word.Word{word.FromLit("python"), word.FromLit("-m")}, rest...)
	case c.HasAny("--script", "--gui-script") && len(rest) > 0:
		rest = append([]word.Word{word.FromLit("python")}, rest...)
	default:
		rest = pythonCommand(rest)
	}
	w.carriedArgv(sc, cmd, rest, "uv run", true)
}

// toxCarried: tox runs the project's tox.ini; tox exec runs a command in
// an environment; -c names another configuration, --override changes it.
func toxCarried(w *walker, sc *scope, cmd *Cmd) {
	args := cmd.Argv[1:]
	for i := 0; i < len(args); i++ {
		t, ok := args[i].Static()
		if !ok {
			if args[i].CouldStartWith('-') {
				w.opaquePart(cmd, "tox with an argument not known here where an option could be")
				return
			}
			continue
		}
		switch {
		case t == "--":
			if hasOperand(cmd.Argv[:i+1], "exec") || hasOperand(cmd.Argv[:i+1], "e") {
				w.carriedArgv(sc, cmd, args[i+1:], "tox exec", true)
			}
			return
		case t == "-x" || t == "--override" || strings.HasPrefix(t, "--override="):
			w.opaquePart(cmd, "tox --override changes the commands tox.ini runs")
		case t == "-c" || t == "--conf" || t == "--root" || strings.HasPrefix(t, "--conf=") || strings.HasPrefix(t, "--root="):
			v := word.FromLit(strings.SplitN(t, "=", 2)[len(strings.SplitN(t, "=", 2))-1])
			if !strings.Contains(t, "=") && i+1 < len(args) {
				i++
				v = args[i]
			}
			if outsideDir(sc, v) {
				w.opaquePart(cmd, "tox "+t+" reads the configuration at "+v.String()+", not the project's")
			}
		}
	}
}

// noxCarried: nox -f names another noxfile.
func noxCarried(w *walker, sc *scope, cmd *Cmd) {
	args := cmd.Argv[1:]
	for i := 0; i < len(args); i++ {
		t, _ := args[i].Static()
		if t == "--" {
			return
		}
		if t == "-f" || t == "--noxfile" || strings.HasPrefix(t, "--noxfile=") || strings.HasPrefix(t, "-f") && len(t) > 2 {
			var v word.Word
			switch {
			case strings.Contains(t, "="):
				v = word.FromLit(t[strings.IndexByte(t, '=')+1:])
			case len(t) > 2 && t[1] == 'f':
				v = word.FromLit(t[2:])
			case i+1 < len(args):
				i++
				v = args[i]
			}
			if t2, _ := v.Static(); outsideDir(sc, v) || !strings.HasSuffix(t2, "noxfile.py") {
				w.opaquePart(cmd, "nox -f runs the noxfile "+v.String()+", not the project's")
			}
		}
	}
}

var coverageRunSpec = &argspec.Spec{Name: "coverage run", Notation: "a,append branch concurrency= context= data-file= L,pylib m,module p,parallel-mode source= timid include= omit= rcfile= debug= save-signal= h,help"}

// coverageCarried: coverage run PROGRAM or -m MODULE runs it with python.
func coverageCarried(w *walker, sc *scope, cmd *Cmd) {
	if len(cmd.Argv) < 2 {
		return
	}
	if t, _ := cmd.Argv[1].Static(); t != "run" {
		return
	}
	c, rest, reason := readWrapper(cmd.Argv[1:], coverageRunSpec)
	if reason != "" {
		w.opaquePart(cmd, reason)
		return
	}
	if len(rest) == 0 {
		return
	}
	argv := append([]word.Word{word.FromLit("python")}, rest...)
	if c.Has("--module") {
		argv = append([]word.Word{word.FromLit("python"), word.FromLit("-m")}, rest...)
	}
	w.carriedArgv(sc, cmd, argv, "coverage run", true)
}

// --- java ---

// mavenPhase reports a phase of Maven's default, clean or site lifecycle:
// it runs the plugins the project's POM binds. Any other goal
// (plugin:goal, exec:exec) runs a plugin named on the command line.
func mavenPhase(s string) bool {
	switch s {
	case "validate", "initialize", "generate-sources", "process-sources", "generate-resources", "process-resources",
		"compile", "process-classes", "generate-test-sources", "process-test-sources", "generate-test-resources",
		"process-test-resources", "test-compile", "process-test-classes", "test", "prepare-package", "package",
		"pre-integration-test", "integration-test", "post-integration-test", "verify", "install", "deploy",
		"pre-clean", "clean", "post-clean", "pre-site", "site", "post-site", "site-deploy":
		return true
	}
	return false
}

// mvnValued are Maven's options that take a value, short and long.
var mvnValued = map[string]bool{
	"-b": true, "--builder": true, "-D": true, "--define": true, "-f": true, "--file": true, "-gs": true,
	"--global-settings": true, "-gt": true, "--global-toolchains": true, "-l": true, "--log-file": true, "-P": true,
	"--activate-profiles": true, "-pl": true, "--projects": true, "-rf": true, "--resume-from": true, "-s": true,
	"--settings": true, "-t": true, "--toolchains": true, "-T": true, "--threads": true, "--color": true,
}

// mvnCarried: mvn runs the lifecycle phases the project's POM defines.
// Plugin goals named on the command line, another POM, settings or
// toolchains files, and properties that name programs or JVM options are
// code of their own.
func mvnCarried(w *walker, sc *scope, cmd *Cmd) {
	args := cmd.Argv[1:]
	for i := 0; i < len(args); i++ {
		t, ok := args[i].Static()
		if !ok {
			w.opaquePart(cmd, "mvn with an argument not known here (a goal or an option)")
			continue
		}
		if !strings.HasPrefix(t, "-") {
			if !mavenPhase(t) {
				w.opaquePart(cmd, "mvn "+t+" runs a plugin goal named on the command line")
			}
			continue
		}
		name, val, hasVal := strings.Cut(t, "=")
		if strings.HasPrefix(t, "-D") && len(t) > 2 {
			name, val, hasVal = "-D", t[2:], true
		}
		if !mvnValued[name] {
			continue // a switch, or an option mvn refuses
		}
		v := word.FromLit(val)
		if !hasVal {
			if i+1 >= len(args) {
				continue
			}
			i++
			v = args[i]
		}
		switch name {
		case "-f", "--file":
			if tv, _ := v.Static(); outsideDir(sc, v) || path.Base(tv) != "pom.xml" && tv != "." {
				w.opaquePart(cmd, "mvn -f builds the POM "+v.String()+", not the project's")
			}
		case "-s", "--settings", "-gs", "--global-settings", "-t", "--toolchains", "-gt", "--global-toolchains":
			w.opaquePart(cmd, "mvn "+name+" reads "+v.String()+", which can change the programs the build runs")
		case "-D", "--define":
			w.mavenProperty(sc, cmd, v)
		}
	}
}

// mavenProperty judges -Dname=value. Properties configure the POM's
// plugins; those that name the program a plugin runs or the JVM options of
// a forked JVM are code.
func (w *walker) mavenProperty(sc *scope, cmd *Cmd, v word.Word) {
	name, val, _ := v.Cut("=")
	n := strings.ToLower(name)
	switch {
	case strings.HasSuffix(n, "executable") || n == "jvm" || strings.HasSuffix(n, ".jvm") || strings.HasSuffix(n, "command"):
		w.carriedProgram(sc, cmd, val, "mvn -D"+name)
	case strings.HasSuffix(n, "argline") || strings.HasSuffix(n, "jvmargs") || strings.HasPrefix(n, "maven.ext.") ||
		strings.Contains(n, "javaagent") || n == "exec.args" || n == "exec.mainclass":
		w.opaquePart(cmd, "mvn -D"+name+" sets code or JVM options a plugin runs")
	}
}

// gradleCarried: init scripts, another build or settings file, another
// project directory and JVM options are code the project did not name.
func gradleCarried(w *walker, sc *scope, cmd *Cmd) {
	args := cmd.Argv[1:]
	for i := 0; i < len(args); i++ {
		t, ok := args[i].Static()
		if !ok {
			if args[i].CouldStartWith('-') {
				w.opaquePart(cmd, "gradle with an argument not known here where an option could be")
			}
			continue
		}
		name, _, _ := strings.Cut(t, "=")
		switch name {
		case "-I", "--init-script":
			w.opaquePart(cmd, "gradle "+name+" runs an init script")
		case "-b", "--build-file", "-c", "--settings-file":
			w.opaquePart(cmd, "gradle "+name+" runs another build script")
		case "-p", "--project-dir", "--include-build", "-g", "--gradle-user-home":
			v := word.FromLit("")
			if strings.Contains(t, "=") {
				v = word.FromLit(t[len(name)+1:])
			} else if i+1 < len(args) {
				i++
				v = args[i]
			}
			if outsideDir(sc, v) || name == "-g" || name == "--gradle-user-home" {
				w.opaquePart(cmd, "gradle "+name+" "+v.String()+" builds or configures from outside the project")
			}
		default:
			if strings.HasPrefix(t, "-I") && len(t) > 2 {
				w.opaquePart(cmd, "gradle -I runs an init script")
			}
			if strings.HasPrefix(t, "-Dorg.gradle.java.home") || strings.HasPrefix(t, "-Dorg.gradle.jvmargs") ||
				strings.HasPrefix(t, "-Porg.gradle.java.home") || strings.HasPrefix(t, "-Porg.gradle.jvmargs") {
				w.opaquePart(cmd, "gradle "+name+" changes the JVM the build runs in")
			}
		}
	}
}

// --- ruby ---

// bundleCarried: bundle exec COMMAND runs it with the bundle; another
// Gemfile is code.
func bundleCarried(w *walker, sc *scope, cmd *Cmd) {
	args := cmd.Argv[1:]
	for i, a := range args {
		t, _ := a.Static()
		if t == "--gemfile" || strings.HasPrefix(t, "--gemfile=") {
			w.opaquePart(cmd, "bundle --gemfile evaluates another Gemfile, which is ruby code")
			return
		}
		if t == "exec" {
			rest := args[i+1:]
			for len(rest) > 0 {
				if o, _ := rest[0].Static(); o == "--keep-file-descriptors" || o == "--no-keep-file-descriptors" {
					rest = rest[1:]
					continue
				}
				break
			}
			w.carriedArgv(sc, cmd, rest, "bundle exec", true)
			return
		}
		if !strings.HasPrefix(t, "-") {
			return
		}
	}
}

// rakeCarried: rake runs the project's Rakefile. -e runs ruby code, -f
// another Rakefile, -r/-I/-R load other files; NAME=value operands set
// the environment of the tasks.
func rakeCarried(w *walker, sc *scope, cmd *Cmd) {
	args := cmd.Argv[1:]
	for i := 0; i < len(args); i++ {
		t, ok := args[i].Static()
		if !ok {
			w.opaquePart(cmd, "rake with an argument not known here")
			continue
		}
		name, _, _ := strings.Cut(t, "=")
		switch {
		case name == "-e" || name == "--execute" || name == "-E" || name == "--execute-continue" || name == "-p" || name == "--execute-print" ||
			strings.HasPrefix(t, "-e") && len(t) > 2 && !strings.HasPrefix(t, "--"):
			w.opaquePart(cmd, "rake "+name+" runs inline ruby code")
		case name == "-f" || name == "--rakefile" || name == "-g" || name == "--system":
			w.opaquePart(cmd, "rake "+name+" runs another Rakefile")
		case name == "-r" || name == "--require" || name == "-I" || name == "--libdir" || name == "-R" || name == "--rakelibdir" || name == "--rakelib":
			v := word.FromLit("")
			if strings.Contains(t, "=") {
				v = word.FromLit(t[len(name)+1:])
			} else if i+1 < len(args) {
				i++
				v = args[i]
			}
			if outsideDir(sc, v) {
				w.opaquePart(cmd, "rake "+name+" loads ruby code from "+v.String())
			}
		case !strings.HasPrefix(t, "-"):
			if n, _, val, ok := assignName(t); ok && isName(n) {
				// rake sets ENV[NAME] for its tasks and the programs they run.
				w.checkAssigns(sc, []Assign{{Name: n, Value: word.FromLit(val)}}, false)
			}
		}
	}
}

// rubyRequires: rspec and rubocop -r load ruby files; the project's own
// are ordinary, others are code.
func rubyRequires(w *walker, sc *scope, cmd *Cmd) {
	args := cmd.Argv[1:]
	prog := argspec.ProgName(cmd.Name())
	for i := 0; i < len(args); i++ {
		t, _ := args[i].Static()
		if t == "--" {
			return
		}
		var v word.Word
		switch {
		case t == "-r" || t == "--require" || t == "--plugin":
			if i+1 >= len(args) {
				continue
			}
			i++
			v = args[i]
		case strings.HasPrefix(t, "--require=") || strings.HasPrefix(t, "--plugin="):
			v = word.FromLit(t[strings.IndexByte(t, '=')+1:])
		case strings.HasPrefix(t, "-r") && len(t) > 2:
			v = word.FromLit(t[2:])
		default:
			continue
		}
		if outsideDir(sc, v) {
			w.opaquePart(cmd, prog+" "+t+" loads ruby code from "+v.String())
		}
	}
}

// --- docker ---

// dockerCarried: docker's read-only verbs carry no code of their own;
// -H ssh://HOST makes the client run ssh.
func dockerCarried(w *walker, sc *scope, cmd *Cmd) {
	c := argspec.Normalize(cmd.Argv, false)
	for _, v := range c.Values("--host") {
		if t, ok := v.Static(); !ok || strings.HasPrefix(t, "ssh://") {
			if !ok {
				w.opaquePart(cmd, "docker -H with a host not known here (an ssh:// host runs ssh)")
				continue
			}
			w.carriedArgv(sc, cmd, word.Lits("ssh", strings.TrimPrefix(t, "ssh://"), "docker", "system", "dial-stdio"), "docker -H", false)
		}
	}
}

// --- the environment ---

// carriedEnv reports how a variable the build tools read is code: a
// program to judge (program), rustc or go flags to read, or opaque (a
// reason). The caller judges it wherever the variable is set.
func (w *walker) carriedEnv(sc *scope, a Assign) bool {
	name := a.Name
	v := a.Value
	t, static := v.Static()
	if static && strings.TrimSpace(t) == "" {
		return name == "GOFLAGS" || strings.HasPrefix(name, "CARGO") || strings.HasPrefix(name, "RUST") || strings.HasPrefix(strings.ToLower(name), "npm_config_") || strings.HasPrefix(name, "MAKE")
	}
	cmd := &Cmd{Assigns: []Assign{a}, CodeArg: -1}
	switch {
	case buildProgramVar(name):
		w.carriedProgram(sc, cmd, v, name+" (the program build tools run as "+name+")")
	case name == "GOFLAGS":
		if !static {
			w.opaquePart(cmd, "GOFLAGS is set to flags not known here (they can name programs go runs)")
			return true
		}
		for _, f := range strings.Fields(t) {
			n, val, _ := strings.Cut(strings.TrimLeft(f, "-"), "=")
			w.goFlag(sc, cmd, "(GOFLAGS)", n, word.FromLit(val))
		}
	case name == "GIT_PROXY_COMMAND":
		w.carriedProgram(sc, cmd, v, name+" (git's proxy command)")
	case name == "GIT_EXEC_PATH" || name == "GIT_TEMPLATE_DIR" || name == "GIT_CONFIG_GLOBAL" || name == "GIT_CONFIG_SYSTEM" ||
		name == "GIT_CONFIG" || (name == "GIT_DIR" || name == "GIT_COMMON_DIR") && outsideDir(sc, v):
		w.opaquePart(cmd, "setting "+name+" makes git read configuration, hooks or helpers from "+v.String()+", which can name programs to run")
	case name == "DOCKER_HOST" && (!static || strings.HasPrefix(t, "ssh://")):
		w.carriedArgv(sc, cmd, word.Lits("ssh", strings.TrimPrefix(t, "ssh://")), name+" (docker connects with ssh)", false)
	case name == "GOROOT" || name == "GOTOOLDIR" || name == "GOENV":
		w.opaquePart(cmd, "setting "+name+" changes which compiler and tools (or settings) go uses")
	case name == "RUSTC" || name == "RUSTC_WRAPPER" || name == "RUSTC_WORKSPACE_WRAPPER" || name == "RUSTDOC" || name == "CARGO" ||
		name == "RUSTC_LINKER":
		w.carriedProgram(sc, cmd, v, name+" (a program cargo runs)")
	case name == "RUSTFLAGS" || name == "RUSTDOCFLAGS" || name == "CARGO_ENCODED_RUSTFLAGS" || name == "CARGO_ENCODED_RUSTDOCFLAGS":
		if !static {
			w.opaquePart(cmd, name+" is set to flags not known here (rustc flags can name programs)")
			return true
		}
		w.rustFlags(sc, cmd, t, name)
	case strings.HasPrefix(name, "CARGO_"):
		key := cargoEnvKey(name)
		if key == "" {
			return false
		}
		if !static {
			w.opaquePart(cmd, name+" is set to a value not known here (cargo reads it as its "+key+" setting)")
			return true
		}
		w.cargoSetting(sc, cmd, key, t, name, false)
	case strings.HasPrefix(strings.ToLower(name), "npm_config_"):
		w.npmConfigCode(sc, cmd, name[len("npm_config_"):], v, "npm ("+name+")")
	case name == "MAKEFLAGS" || name == "MFLAGS" || name == "GNUMAKEFLAGS" || name == "MAKEFILES" || name == "MAKESHELL":
		w.makeVar(sc, cmd, name, "=", v, true)
	case name == "BUNDLE_GEMFILE" || name == "RAKEOPT" || name == "SPEC_OPTS" || name == "RUBYLIB":
		w.opaquePart(cmd, "setting "+name+" makes ruby tools load code from elsewhere")
	case name == "MAVEN_OPTS" || name == "JAVA_TOOL_OPTIONS" || name == "JDK_JAVA_OPTIONS" || name == "_JAVA_OPTIONS" ||
		name == "GRADLE_OPTS" || name == "JAVA_OPTS" || name == "MAVEN_ARGS":
		w.opaquePart(cmd, "setting "+name+" passes options (such as -javaagent) to every JVM")
	case name == "PYTHONPATH" || name == "PYTHONHOME" || name == "PYTEST_ADDOPTS" || name == "PYTEST_PLUGINS":
		w.opaquePart(cmd, "setting "+name+" makes python load code from elsewhere")
	default:
		return false
	}
	return true
}

// buildProgramVar are the variables build systems (make's implicit
// rules, configure, go's cgo, cargo's cc crate, pip builds) run as the
// compiler, linker or archiver.
func buildProgramVar(name string) bool {
	switch name {
	case "CC", "CXX", "CPP", "LD", "AR", "AS", "FC", "F77", "RANLIB", "NM", "STRIP", "OBJCOPY", "GCCGO", "PKG_CONFIG",
		"HOST_CC", "TARGET_CC", "CC_LD", "CXX_LD":
		return true
	}
	return false
}

// cargoEnvKey maps a CARGO_* variable to the configuration key cargo
// reads from it, or "" when it is not configuration (CARGO_PKG_NAME and
// the other variables cargo sets for build scripts). A variable not
// listed maps to a key cargoSetting does not know, which asks.
func cargoEnvKey(name string) string {
	rest := strings.TrimPrefix(name, "CARGO_")
	switch rest {
	case "MANIFEST_DIR", "MANIFEST_PATH", "CRATE_NAME", "PRIMARY_PACKAGE", "TARGET_TMPDIR", "MAKEFLAGS", "LOG", "LOG_COLOR":
		return ""
	case "TARGET_DIR", "BUILD_TARGET_DIR":
		return "build.target-dir"
	case "INCREMENTAL", "BUILD_INCREMENTAL":
		return "build.incremental"
	case "BUILD_JOBS":
		return "build.jobs"
	case "BUILD_TARGET":
		return "build.target"
	case "BUILD_RUSTC":
		return "build.rustc"
	case "BUILD_RUSTC_WRAPPER":
		return "build.rustc-wrapper"
	case "BUILD_RUSTC_WORKSPACE_WRAPPER":
		return "build.rustc-workspace-wrapper"
	case "BUILD_RUSTDOC":
		return "build.rustdoc"
	case "BUILD_RUSTFLAGS":
		return "build.rustflags"
	case "BUILD_RUSTDOCFLAGS":
		return "build.rustdocflags"
	case "NET_OFFLINE":
		return "net.offline"
	case "NET_RETRY":
		return "net.retry"
	case "NET_GIT_FETCH_WITH_CLI":
		return "net.git-fetch-with-cli"
	case "HTTP_TIMEOUT":
		return "http.timeout"
	case "HTTP_MULTIPLEXING":
		return "http.multiplexing"
	case "HTTP_DEBUG":
		return "http.debug"
	case "REGISTRY_CREDENTIAL_PROVIDER":
		return "registry.credential-provider"
	}
	switch {
	case strings.HasPrefix(rest, "PKG_") || strings.HasPrefix(rest, "CFG_") || strings.HasPrefix(rest, "BIN_") ||
		strings.HasPrefix(rest, "FEATURE_"):
		return ""
	case strings.HasPrefix(rest, "TERM_"):
		return "term.x"
	case strings.HasPrefix(rest, "TARGET_") && strings.HasSuffix(rest, "_RUNNER"):
		return "target.x.runner"
	case strings.HasPrefix(rest, "TARGET_") && strings.HasSuffix(rest, "_LINKER"):
		return "target.x.linker"
	case strings.HasPrefix(rest, "TARGET_") && strings.HasSuffix(rest, "_RUSTFLAGS"):
		return "target.x.rustflags"
	case strings.HasPrefix(rest, "REGISTRIES_") && strings.HasSuffix(rest, "_CREDENTIAL_PROVIDER"):
		return "registries.x.credential-provider"
	case strings.HasPrefix(rest, "PROFILE_"):
		for _, k := range []string{"OPT_LEVEL", "DEBUG", "SPLIT_DEBUGINFO", "STRIP", "DEBUG_ASSERTIONS", "OVERFLOW_CHECKS", "LTO", "PANIC", "INCREMENTAL", "CODEGEN_UNITS"} {
			if strings.HasSuffix(rest, "_"+k) {
				return "profile.x." + strings.ReplaceAll(strings.ToLower(k), "_", "-")
			}
		}
	}
	return "(" + name + ")"
}
