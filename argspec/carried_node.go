package argspec

import (
	"strings"
	"sync"

	"github.com/guard-exec/guard-exec/word"
)

// npm, npx, yarn, pnpm: exec-style commands and the settings that name
// the shell scripts run with.

// npmValued are npm's options that take the next word as their value
// (npm's config definitions whose type is not boolean), by long name.
var npmValued = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"_auth": true, "access": true, "dir": true, // pnpm --dir DIR (npm has no --dir: reading a value there only asks more)
		"allow-directory": true, "allow-file": true, "allow-git": true, "allow-remote": true,
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
})

// npmShort are npm's one-letter (and few-letter) shorthands.
var npmShort = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"c": "call", "C": "prefix", "L": "location", "m": "message", "w": "workspace", "y": "yes", "n": "no-yes",
		"reg": "registry", "d": "loglevel=info", "dd": "loglevel=verbose", "ddd": "loglevel=silly", "q": "loglevel=warn",
		"s": "loglevel=silent", "ws": "workspaces", "iwr": "include-workspace-root", "a": "all", "f": "force", "g": "global",
		"l": "long", "p": "parseable", "S": "save", "B": "save-bundle", "D": "save-dev", "E": "save-exact", "O": "save-optional",
		"P": "save-prod", "h": "usage", "H": "usage", "?": "usage", "v": "version",
	}
})

// npmConfigCode judges one npm setting (from an option or an
// npm_config_* variable) that names a program or code, by key.
func (r *carry) npmConfigCode(key string, v word.Word, tool string) {
	key = strings.TrimPrefix(strings.ReplaceAll(strings.ToLower(key), "_", "-"), "config.") // pnpm --config.KEY=V
	switch key {
	case "script-shell", "shell":
		if !shellLike(v) {
			r.Opaque(tool + " runs its scripts with " + v.String() + " (" + key + "), a program the guard does not read as a shell")
		}
	case "node-options":
		if t, ok := v.Static(); !ok || strings.TrimSpace(t) != "" {
			r.Opaque(tool + " --node-options passes options (such as --require) to every node it starts")
		}
	case "userconfig", "globalconfig", "init-module", "onload-script":
		r.Opaque(tool + " --" + key + " reads " + v.String() + ", which can set the programs it runs")
	case "prefix", "dir":
		if r.outside(v) {
			r.Opaque(tool + " --" + key + " runs the scripts of the package in " + v.String() + ", not the project's")
		}
	case "editor", "browser", "viewer", "git", "node-gyp":
		if t, ok := v.Static(); ok && (t == "true" || t == "false" || t == "") {
			return
		}
		r.program(v, tool+" --"+key)
	}
}

// npmArgs reads npm's argv the way nopt does: options anywhere before
// "--", a valued option taking the next word, unknown options boolean.
// It returns the operands (the subcommand first) and the words after
// "--"; ok is false when a word not known here stands where an option
// could be.
func (r *carry) npmArgs(args []word.Word, tool string, stopAtOperand bool) (ops, rest []word.Word, opts map[string]word.Word, ok bool) {
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
			long, known := npmShort()[name]
			if !known && len(name) > 1 {
				// A cluster of shorthands: one that takes a value hides
				// what follows from the guard.
				for _, ch := range name {
					l := npmShort()[string(ch)]
					if npmValued()[l] {
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
		case npmValued()[name] && i+1 < len(args):
			i++
			v = args[i]
		default:
			v = word.FromLit("true")
		}
		opts[name] = v
		r.npmConfigCode(name, v, tool)
	}
	return ops, nil, opts, true
}

func npmCarried(r *carry) {
	ops, rest, opts, ok := r.npmArgs(r.argv[1:], "npm", false)
	if !ok {
		r.Opaque("npm with an argument not known here where an option could be")
		return
	}
	if len(ops) == 0 {
		return
	}
	sub, _ := ops[0].Static()
	switch npmCommand(sub) {
	case "exec":
		r.npmExec(append(ops[1:], rest...), opts, "npm exec")
	case "explore":
		// npm explore PKG -- COMMAND: a shell command in the package.
		if len(rest) > 0 {
			r.shellRun(JoinWords(rest), "npm explore", ShellRun{Elsewhere: true})
		}
	case "init":
		// npm init INITIALIZER runs the package create-INITIALIZER.
		if len(ops) > 1 {
			r.Opaque("npm init " + ops[1].String() + " downloads and runs the package that creates the project")
		}
	case "install", "install-test":
		r.packageSpecs(ops[1:], "npm install")
	}
}

// packageSpecs judges what npm install, yarn add and pnpm add are told
// to install. A dependency from the registry (name, name@version,
// @scope/name) is ordinary: the presets allow installing dependencies. A
// package from a git repository, a URL, a tarball or a directory outside
// the working directory is code the command line names, whose install
// scripts run.
func (r *carry) packageSpecs(specs []word.Word, what string) {
	for _, s := range specs {
		t, ok := pathText(s)
		if !ok {
			r.Opaque(what + " of a package not known here")
			continue
		}
		local := strings.HasPrefix(t, "file:") || strings.HasPrefix(t, ".") || strings.HasPrefix(t, "/") || strings.HasPrefix(t, "~")
		// [@scope/]name[@version-or-source]
		rest := t
		if strings.HasPrefix(rest, "@") {
			if i := strings.IndexByte(rest, '/'); i > 0 {
				rest = rest[i+1:]
			}
		}
		name, version, _ := strings.Cut(rest, "@")
		version = strings.TrimPrefix(version, "npm:") // name@npm:other is the registry package other
		if i := strings.LastIndexByte(version, '@'); i >= 0 {
			version = version[i+1:]
		}
		switch {
		case local:
			if r.outside(word.FromLit(strings.TrimPrefix(t, "file:"))) {
				r.Opaque(what + " " + t + " installs the package in a directory outside the working directory, whose install scripts run")
			}
		case strings.ContainsAny(name, ":/") || strings.ContainsAny(version, ":/") ||
			strings.HasSuffix(t, ".tgz") || strings.HasSuffix(t, ".tar.gz") || strings.HasSuffix(t, ".tar"):
			// git+https://, github:u/r, u/r (GitHub), https://…tgz
			r.Opaque(what + " " + t + " installs a package from a repository, URL or tarball, whose install scripts run")
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
	case "add", "i", "in", "ins", "inst", "insta", "instal", "install", "isnt", "isnta", "isntal", "isntall":
		return "install"
	case "install-t", "install-te", "install-tes", "install-test", "it":
		return "install-test"
	}
	return s
}

// npmExec judges what npm exec (npx) runs: the command named by its first
// operand, or the --call string; a --package names code to fetch and run.
func (r *carry) npmExec(argv []word.Word, opts map[string]word.Word, what string) {
	if v, ok := opts["package"]; ok {
		r.Opaque(what + " --package runs a program from the package " + v.String())
		return
	}
	if v, ok := opts["call"]; ok {
		r.shell(v, what+" --call")
		r.Wrapper()
		return
	}
	r.Argv(argv, what, true)
}

// npxCarried: npx reads its own options only before the command; the rest
// is the command's.
func npxCarried(r *carry) {
	args := r.argv[1:]
	var opts map[string]word.Word
	var argv []word.Word
	// npx takes an unknown option's next word as its value, so only the
	// options known here keep the command in sight.
	for i := 0; i < len(args); i++ {
		t, ok := args[i].Static()
		if !ok {
			if args[i].CouldStartWith('-') {
				r.Opaque("npx with an argument not known here where an option could be")
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
					r.Opaque("npx " + t + " with a value not known here")
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
			r.npmConfigCode(long, word.FromLit(v), "npx")
		case "y", "yes", "no", "n", "q", "quiet", "s", "silent", "ws", "workspaces", "include-workspace-root", "no-install", "prefer-online", "prefer-offline", "offline":
		default:
			r.Opaque("npx with the option " + t + ", which the guard does not read")
			return
		}
	}
	r.npmExec(argv, opts, "npx")
}

// yarnCarried: yarn exec runs a shell command, yarn dlx a downloaded
// package's program, yarn node node; yarn run and yarn NAME run the
// project's scripts and its dependencies' programs.
func yarnCarried(r *carry) {
	sub, rest, ok := r.npmSubcommand("yarn")
	if !ok {
		return
	}
	switch sub {
	case "exec":
		// Yarn 1 runs COMMAND ARGS as a program; Yarn 2+ runs COMMAND as
		// a line of its shell, with ARGS as "$@". Both readings are judged.
		if len(rest) == 0 {
			return
		}
		r.Argv(rest, "yarn exec", true)
		if t, ok := rest[0].Static(); ok {
			var params []string
			known := true
			for _, a := range rest[1:] {
				p, ok := a.Static()
				if !ok {
					params, known = nil, false
					break
				}
				params = append(params, p)
			}
			r.Shell(t, "yarn exec (its shell)", ShellRun{Params: append([]string{"yarn"}, params...), ParamsUnknown: !known})
		} else {
			r.Opaque("yarn exec runs a command line not known here")
		}
	case "dlx":
		r.dlx(rest, "yarn dlx")
	case "node":
		r.Argv(append([]word.Word{word.FromLit("node")}, rest...), "yarn node", true)
	case "add", "install":
		r.addPackages(rest, "yarn", sub)
	default:
		// Settings after the script name (up to --) may still be the
		// tool's own: read them too.
		r.npmArgs(rest, "yarn", false)
	}
}

// pnpmCarried: pnpm exec runs a command (a shell string with -c), pnpm
// dlx a downloaded package's program.
func pnpmCarried(r *carry) {
	sub, rest, ok := r.npmSubcommand("pnpm")
	if !ok {
		return
	}
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
				r.shell(JoinWords(rest), "pnpm exec --shell-mode")
				r.Wrapper()
				return
			case "-r", "--recursive", "--parallel", "--no-bail", "--report-summary", "--resume-from", "-s", "--silent":
				if t == "--resume-from" && len(rest) > 0 {
					rest = rest[1:]
				}
			default:
				r.Opaque("pnpm exec with the option " + t + ", which the guard does not read")
				return
			}
			if t == "--" {
				break
			}
		}
		r.Argv(rest, "pnpm exec", true)
	case "dlx":
		r.dlx(rest, "pnpm dlx")
	case "add", "install", "i":
		r.addPackages(rest, "pnpm", sub)
	default:
		r.npmArgs(rest, "pnpm", false)
	}
}

// npmSubcommand reads yarn's or pnpm's own options up to the subcommand,
// and returns it and the words after it; ok is false when there is none
// to read, or the options cannot be read (which is opaque).
func (r *carry) npmSubcommand(tool string) (sub string, rest []word.Word, ok bool) {
	ops, rest, _, ok := r.npmArgs(r.argv[1:], tool, true)
	if !ok {
		r.Opaque(tool + " with an argument not known here where an option could be")
		return "", nil, false
	}
	if len(ops) == 0 {
		return "", nil, false
	}
	sub, _ = ops[0].Static()
	return sub, rest, true
}

// addPackages judges yarn add and pnpm add (sub): the packages they are
// told to install.
func (r *carry) addPackages(args []word.Word, tool, sub string) {
	specs, _, _, ok := r.npmArgs(args, tool, false)
	if !ok {
		r.Opaque(tool + " add with an argument not known here")
		return
	}
	r.packageSpecs(specs, tool+" "+sub)
}

// dlx judges yarn/pnpm dlx: PACKAGE ARGS runs the package's program.
func (r *carry) dlx(args []word.Word, what string) {
	for len(args) > 0 {
		t, ok := args[0].Static()
		if !ok || !strings.HasPrefix(t, "-") {
			break
		}
		switch t {
		case "-q", "--quiet", "-s", "--silent":
			args = args[1:]
		default:
			r.Opaque(what + " with the option " + t + " runs a program from a package named there")
			return
		}
	}
	r.Argv(args, what, true)
}

// npmEnv: npm reads npm_config_KEY (any case) as its --KEY option.
func (r *carry) npmEnv(a envVar) bool {
	if !strings.HasPrefix(strings.ToLower(a.Name), "npm_config_") {
		return false
	}
	r.npmConfigCode(a.Name[len("npm_config_"):], a.Value, "npm ("+a.Name+")")
	return true
}

// kebabToo adds the kebab-case spelling of each camelCase option, which
// yargs (jest) takes as well: --testEnvironment, --test-environment.
func kebabToo(opts string) string {
	out := opts
	for _, o := range strings.Fields(opts) {
		var b strings.Builder
		for _, ch := range o {
			if ch >= 'A' && ch <= 'Z' {
				b.WriteByte('-')
				ch += 'a' - 'A'
			}
			b.WriteRune(ch)
		}
		if k := b.String(); k != o {
			out += " " + k
		}
	}
	return out
}

// Test runners and linters load configs that are code (jest.config.js,
// eslint.config.js), setup files, plugins, rule directories and test
// files.
var (
	jestLoader   = &codeLoader{valued: "-t --testNamePattern --testPathPattern --testPathIgnorePatterns -w --maxWorkers --coverageDirectory --outputFile --env --selectProjects --shard --seed --testTimeout --coverageProvider --json-output --cacheDirectory --transform", code: "-c --config --rootDir --roots --setupFiles --setupFilesAfterEnv --globalSetup --globalTeardown --testRunner --resolver --preset --runner --snapshotResolver --testSequencer --modulePaths --reporters --testEnvironment --env --coverageReporters --testResultsProcessor --filter --watchPlugins --snapshotSerializers --moduleLoader --dependencyExtractor --haste", operands: true, always: "--transform", kebab: true}
	vitestLoader = &codeLoader{valued: "-t --testNamePattern --reporter --outputFile --pool --environment --project --shard --mode --testTimeout --typecheck.checker --coverage.customProviderModule", code: "-c --config -r --root --dir --setupFiles --globalSetup --workspace --reporter --environment", operands: true, always: "--typecheck.checker --coverage.customProviderModule"}
	// tsc: another project's configuration says where it writes and what
	// it loads (tsc -p, -b; checked with TypeScript 7: -b DIR --clean
	// removed DIR's outputs). playwright loads its config and reporters.
	tscLoader        = &codeLoader{valued: "-p --project -b --build --outDir --declarationDir --tsBuildInfoFile --generateTrace --rootDir --baseUrl", code: "-p --project -b --build"}
	playwrightLoader = &codeLoader{valued: "-c --config --reporter --add-reporter --project -g --grep --grep-invert --output --workers -j --retries --timeout --shard --repeat-each --max-failures", code: "-c --config --reporter --add-reporter"}
	mochaLoader      = &codeLoader{valued: "-g --grep -f --fgrep -R --reporter -O --reporter-option -t --timeout -s --slow -j --jobs --extension --ignore --spec", code: "-r --require --file --config --package -u --ui -R --reporter", operands: true}
	eslintLoader     = &codeLoader{valued: "-f --format -o --output-file --ext --parser-options --env --global --rule --max-warnings --cache-location --ignore-path --ignore-pattern --fix-type", code: "-c --config --rulesdir --resolve-plugins-relative-to --plugin --parser -f --format"}
	prettierLoader   = &codeLoader{valued: "--parser --ignore-path --stdin-filepath --log-level --cache-location --print-width --tab-width --trailing-comma --prose-wrap --end-of-line --arrow-parens --quote-props", code: "--config --plugin", operands: true}
)
