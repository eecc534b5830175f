package policy

import (
	"fmt"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/guard-exec/guard-exec/argspec"
	"github.com/guard-exec/guard-exec/word"
)

// Preset is a named set of allow rules for one ecosystem's everyday
// build, test and lint verbs. Publishing and destructive verbs are never in
// a preset: they keep asking.
//
// An allow covers the program's ordinary use: the project's own scripts,
// makefile and build files. Code the command line hands the program (git
// rebase -x, npm exec, make --eval, go test -exec, cargo --config …) is
// judged as a part of its own (argspec/carried.go), so no preset rule
// allows it.
type Preset struct {
	Doc   string
	Allow []string
	// Exact names commands allowed only as written, with nothing after
	// (bare yarn installs; yarn NAME runs anything).
	Exact []string
	// Ask names verbs a broader allow in the preset could reach, which
	// must keep asking.
	Ask []string
	// Detect lists files whose presence in a project suggests the preset.
	Detect []string
	// Why gives the reason of an Ask command where the preset's general
	// one ("publishes, deploys or deletes") would not say what it risks.
	Why map[string]string
}

// multiTarget are the programs that run every operand as a target or
// goal (make test install): an Ask verb of theirs asks wherever it stands.
func multiTarget(prog string) bool {
	switch prog {
	case "make", "mvn", "./mvnw", "gradle", "./gradlew":
		return true
	}
	return false
}

func (p Preset) rules() []*Rule {
	var out []*Rule
	for _, c := range p.Allow {
		out = append(out, &Rule{Decision: Allow, Command: c, Why: "an everyday build, test or lint command"})
	}
	for _, c := range p.Exact {
		out = append(out, exactRule(c))
	}
	for _, c := range p.Ask {
		why := "publishes, deploys or deletes"
		if w, ok := p.Why[c]; ok {
			why = w
		}
		out = append(out, &Rule{Decision: Ask, Command: c, Why: why})
		if f := strings.Fields(c); len(f) == 2 && multiTarget(f[0]) {
			out = append(out, targetRule(f[0], f[1]))
		}
	}
	return out
}

// exactRule allows the command exactly as written.
func exactRule(c string) *Rule {
	words := strings.Fields(c)
	return &Rule{Decision: Allow, Name: "exactly " + c, Why: "an everyday build, test or lint command", spec: 10 * len(words),
		pred: func(p *Part) word.Tri {
			if len(p.Argv) != len(words) || p.Opaque != "" || p.Special != "" {
				return word.No
			}
			for i, a := range p.Argv {
				t, ok := a.Static()
				if i == 0 {
					t = argspec.ProgName(t)
				}
				if !ok || t != words[i] {
					return word.No
				}
			}
			return word.Yes
		}}
}

// targetRule asks for a publishing verb of a multi-target program
// anywhere among its operands, as specific as "PROG VERB" (a program
// written as a path counts 20, as in a command rule).
func targetRule(prog, verb string) *Rule {
	spec := 20
	if strings.Contains(prog, "/") {
		spec = 30
	}
	return &Rule{Decision: Ask, Name: prog + " … " + verb, Why: "publishes, deploys or deletes", spec: spec,
		pred: func(p *Part) word.Tri {
			if len(p.Argv) < 2 || p.Opaque != "" {
				return word.No
			}
			name, ok := p.Argv[0].Static()
			if !ok || argspec.ProgName(name) != path.Base(prog) {
				return word.No
			}
			res := word.No
			for _, a := range p.Argv[2:] {
				t, ok := a.Static()
				switch {
				case !ok:
					res = word.Maybe
				case t == verb:
					return word.Yes
				}
			}
			return res
		}}
}

// venvActivate lists the usual virtualenv activation scripts inside the
// project. (A glob such as */bin/activate would match any path: * also
// matches /.)
func venvActivate() []string {
	var out []string
	for _, src := range []string{"source", "."} {
		for _, dir := range []string{".venv", "venv", "env"} {
			for _, pre := range []string{"", "./"} {
				out = append(out, src+" "+pre+dir+"/bin/activate")
			}
		}
	}
	return out
}

// Presets returns the built-in presets, by name. The table is made on
// first use: most guard processes name no preset.
var Presets = sync.OnceValue(func() map[string]Preset {
	return map[string]Preset{
		"go": {Doc: "go build, test, vet, fmt, run, mod tidy …", Detect: []string{"go.mod"},
			Allow: []string{"go build", "go test", "go vet", "go fmt", "gofmt", "go run", "go mod tidy", "go mod download",
				"go mod verify", "go mod why", "go mod graph", "go list", "go version", "go env", "go doc", "go tool cover",
				"golangci-lint run", "staticcheck", "goimports"}},
		"node": {Doc: "npm/yarn/pnpm install, test, run <script>; npx of local tools", Detect: []string{"package.json"},
			Allow: []string{"npm test", "npm t", "npm run", "npm run-script", "npm install", "npm i", "npm ci", "npm ls",
				"npm outdated", "npm view", "npm audit", "npm exec", "npm start", "yarn test", "yarn run", "yarn install",
				"yarn build", "yarn lint", "pnpm test", "pnpm run", "pnpm install", "pnpm i", "pnpm build", "pnpm lint",
				"npx tsc", "npx jest", "npx vitest", "npx eslint", "npx prettier", "npx playwright test", "tsc", "jest", "vitest",
				"eslint", "prettier", "playwright test", "node --test"},
			Exact: []string{"yarn"},
			Ask: []string{"npm publish", "npm unpublish", "npm deprecate", "npm dist-tag", "npm owner", "npm access", "npm token",
				"yarn publish", "pnpm publish", "npm run deploy", "npm run publish", "npm run release"}},
		"python": {Doc: "pytest, unittest, pip install -r, ruff, black, mypy, tox, poetry/uv run", Detect: []string{"pyproject.toml", "setup.py", "requirements.txt", "setup.cfg", "tox.ini"},
			Allow: append([]string{"pytest", "python -m pytest", "python3 -m pytest", "python -m unittest", "python3 -m unittest",
				"pip install -r", "pip3 install -r", "pip install -e", "pip list", "pip show", "pip freeze", "pip3 list",
				"ruff", "black", "isort", "flake8", "mypy", "pyright", "pylint", "tox", "nox", "poetry run", "poetry install",
				"poetry show", "uv run", "uv sync", "uv pip install", "uv pip list", "uv add", "uv lock", "uv venv", "coverage run",
				"coverage report", "pip install", "pip3 install", "python -m pip install", "python3 -m pip install", "python -m venv",
				"python3 -m venv"}, venvActivate()...),
			Ask: []string{"twine upload", "poetry publish", "uv publish", "pip uninstall"}},
		"rust": {Doc: "cargo build, test, check, clippy, fmt, run, doc", Detect: []string{"Cargo.toml"},
			Allow: []string{"cargo build", "cargo test", "cargo check", "cargo clippy", "cargo fmt", "cargo run", "cargo doc",
				"cargo bench", "cargo tree", "cargo metadata", "rustfmt", "cargo nextest"},
			Ask: []string{"cargo publish", "cargo yank", "cargo owner", "cargo login"}},
		"make": {Doc: "make and its targets, except install, deploy and release", Detect: []string{"Makefile", "makefile", "GNUmakefile"},
			Allow: []string{"make"},
			Ask:   []string{"make install", "make deploy", "make release", "make publish", "make uninstall"}},
		// git rm removes only what HEAD holds as it is (it refuses a file
		// with changes, without -f), git mv refuses to overwrite (without
		// -f), git reset keeps the work tree (the built-in rules ask for
		// --hard; --merge deletes staged new files, git 2.39), and git
		// restore --staged only unstages.
		"git": {Doc: "everyday git writes: add, commit, switch, checkout of a branch, stash, fetch, pull, merge, rebase, mv, rm, reset, unstage", Detect: []string{".git"},
			Allow: []string{"git add", "git commit", "git switch", "git checkout", "git checkout -b", "git stash push", "git stash", "git stash pop",
				"git stash apply", "git fetch", "git pull", "git merge", "git rebase", "git cherry-pick", "git tag", "git mv", "git rm",
				"git reset", "git restore --staged"},
			Ask: []string{"git rm --force", "git mv --force", "git restore --staged --worktree", "git reset --merge",
				"git switch --force", "git switch --force-create", "git checkout --force", "git checkout -B", "git checkout --patch"},
			Why: map[string]string{"git rm --force": "git rm -f deletes files with changes that no commit holds",
				"git switch --force":              "git switch -f discards uncommitted changes",
				"git switch --force-create":       "git switch -C moves an existing branch, and the commits only it held are no longer on a branch",
				"git checkout --force":            "git checkout -f discards uncommitted changes",
				"git checkout --patch":            "git checkout -p discards the changes it is told to",
				"git checkout -B":                 "git checkout -B moves an existing branch, and the commits only it held are no longer on a branch",
				"git mv --force":                  "git mv -f overwrites the destination, which no commit may hold",
				"git restore --staged --worktree": "git restore --worktree discards uncommitted changes",
				"git reset --merge":               "git reset --merge deletes new files that are staged and undoes staged changes"}},
		"git-readonly": {Doc: "git fetch and read-only git beyond the defaults", Allow: []string{"git fetch", "git remote"}},
		"java": {Doc: "mvn and gradle build, test, verify", Detect: []string{"pom.xml", "build.gradle", "build.gradle.kts"},
			Allow: []string{"mvn test", "mvn verify", "mvn package", "mvn compile", "mvn clean", "./mvnw", "gradle build", "gradle test",
				"gradle check", "./gradlew build", "./gradlew test", "./gradlew check"},
			Ask: []string{"mvn deploy", "mvn install", "./mvnw deploy", "./mvnw install", "gradle publish", "./gradlew publish"}},
		"ruby": {Doc: "bundle install, rspec, rake test, rubocop", Detect: []string{"Gemfile"},
			Allow: []string{"bundle install", "bundle exec rspec", "bundle exec rake test", "rspec", "rake test", "rubocop", "bundle exec rubocop"},
			Ask:   []string{"gem push", "bundle exec rake release"}},
		"docker-readonly": {Doc: "docker ps, images, logs, inspect (also the defaults)", Allow: []string{"docker ps", "docker images", "docker logs", "docker inspect"}},
	}
})

// PresetNames lists the presets, sorted.
func PresetNames() []string {
	out := make([]string, 0, len(Presets()))
	for n := range Presets() {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// PresetRules renders a preset's rules as the TOML a person could write
// instead of naming the preset.
func PresetRules(name string) (string, bool) {
	p, ok := Presets()[name]
	if !ok {
		return "", false
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# preset %q: %s\n", name, p.Doc)
	for _, r := range p.rules() {
		fmt.Fprintf(&b, "\n[[rule]]\ndecision = %q\ncommand  = %s\nwhy      = %q\n", r.Decision.String(), tomlString(r.Command), r.Why)
	}
	return b.String(), true
}

// DescribePresets renders the presets for people.
func DescribePresets() string {
	var b strings.Builder
	for _, n := range PresetNames() {
		b.WriteString(n + ": " + Presets()[n].Doc + "\n")
	}
	return b.String()
}

// StarterConfig writes a commented config with the presets a project
// suggests; exists reports whether a file is at the project root.
func StarterConfig(root string, exists func(string) bool) string {
	return StarterConfigFrom(root, exists, nil)
}

// StarterConfigFrom is StarterConfig that also reads the project's files
// (read returns a file at the project root, or false): the ports of its
// development server, its compose files. Every proposal is a rule or a
// setting with a comment saying what it allows and where it was found, for
// the person to read before they trust the file.
func StarterConfigFrom(root string, exists func(string) bool, read func(string) ([]byte, bool)) string {
	return StarterConfigFor(root, ProjectFiles{Exists: exists, Read: read})
}

// StarterConfigFor is StarterConfigFrom for a project whose files p
// shows: besides ports and compose files, its package.json scripts,
// Makefile targets, pyproject.toml scripts and tasks, and executable
// scripts under scripts/ (see projectProposals).
func StarterConfigFor(root string, p ProjectFiles) string {
	var found []string
	for _, name := range PresetNames() {
		for _, f := range Presets()[name].Detect {
			if p.Exists(f) {
				found = append(found, name)
				break
			}
		}
	}
	var b strings.Builder
	b.WriteString("# guard-exec configuration (written by guard-exec init).\n")
	b.WriteString("# Rules: decision = \"allow\" | \"ask\" | \"deny\"; command = words matched against\n")
	b.WriteString("# the argv (a prefix, each word a glob), flags = options anywhere, or path = a\n")
	b.WriteString("# doublestar pattern with access = \"read\" | \"write\" | \"any\". The most specific\n")
	b.WriteString("# rule wins; at equal specificity the strictest. See the README.\n\n")
	if len(found) > 0 {
		fmt.Fprintf(&b, "# Presets found for %s: they allow everyday build, test and lint\n# commands, never publishing or deleting ones. Run guard-exec presets to list all.\n", root)
		fmt.Fprintf(&b, "presets = [%s]\n\n", quoteList(found))
	} else {
		b.WriteString("# Presets allow everyday build/test commands of an ecosystem:\n# presets = [\"go\", \"node\", \"python\", \"rust\", \"make\", \"git\"]\n\n")
	}
	if p.Read != nil {
		b.WriteString(projectProposals(p, found))
	}
	b.WriteString("# mode = \"audit\"   # log and warn instead of refusing (for a trial period)\n\n")
	b.WriteString(`# Examples:
# [[rule]]
# decision = "deny"
# path     = "test/**"
# access   = "write"
# why      = "tests are the acceptance criterion; change the code under test"
#
# [[rule]]
# decision  = "allow"
# command   = "docker compose up"
# match     = ["docker compose up -d"]
# not_match = ["docker compose down"]
`)
	return b.String()
}

func quoteList(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}
