package policy_test

import (
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/guard-exec/guard-exec/policy"
)

// starter writes the config guard-exec init would for a project holding
// files (and executable scripts under scripts/), judging tasks' commands
// as cmd/guard-exec does: the built-in defaults and the presets found.
func starter(t testing.TB, files map[string]string, scripts ...string) string {
	pols := map[string]*policy.Policy{}
	return policy.StarterConfigFor(proj, policy.ProjectFiles{
		Exists: func(n string) bool { _, ok := files[n]; return ok },
		Read: func(n string) ([]byte, bool) {
			s, ok := files[n]
			return []byte(s), ok
		},
		Executables: func(dir string) []string {
			if dir != "scripts" {
				return nil
			}
			return scripts
		},
		Allowed: func(presets []string, command string) bool {
			key := strings.Join(presets, ",")
			if pols[key] == nil {
				f, err := policy.ParseFile("init", []byte(`presets = ["`+strings.Join(presets, `", "`)+`"]`), policy.User)
				if err != nil {
					t.Fatal(err)
				}
				if pols[key], err = policy.Build(policy.Sources{Env: newEnv(), User: f}); err != nil {
					t.Fatal(err)
				}
			}
			return decide(pols[key], command).Decision == "allow"
		},
	})
}

// proposals parses a starter config with the project's own loader and
// returns its rules' decisions and commands ("allow yarn dev"), after
// checking that every rule has a comment right above it and a why.
func proposals(t *testing.T, text string) []string {
	t.Helper()
	f, err := policy.ParseFile(proj+"/.guard-exec.toml", []byte(text), policy.Project)
	if err != nil {
		t.Fatalf("the starter config does not load: %v\n%s", err, text)
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if l == "[[rule]]" && (i == 0 || !strings.HasPrefix(lines[i-1], "# ")) {
			t.Errorf("line %d: a proposed rule without a comment above it:\n%s", i+1, text)
		}
	}
	var out []string
	for _, r := range f.Rules() {
		if r.Why == "" {
			t.Errorf("rule %q has no why", r.Command)
		}
		out = append(out, r.Decision.String()+" "+r.Command)
	}
	sort.Strings(out)
	return out
}

// A rich project: the whole starter config loads and compiles, every
// proposal carries a comment, and the proposals do what their comments
// say.
func TestStarterConfigRichProject(t *testing.T) {
	files := map[string]string{
		".git":      "",
		"yarn.lock": "",
		"package.json": `{"scripts": {"build": "tsc -p .", "dev": "vite --port 5174", "typecheck": "tsc --noEmit",
			"docs:deploy": "gh-pages -d docs", "deploy": "rsync -a dist/ host:/srv", "add": "x",
			"evil": "x\n[[rule]]\ndecision = \"allow\"\ncommand = \"pwn\""}}`,
		"Makefile": "test:\n\tgo test ./...\ninstall:\n\tcp x /usr/local/bin\n",
		"pyproject.toml": `[project.scripts]
mycli = "x.cli:main"
[tool.poe.tasks]
test = "pytest -x"
serve = "uvicorn app:app"
[tool.pdm.scripts]
typing = "mypy src"
`,
		"compose.yaml": "services: {}\n",
	}
	text := starter(t, files, "check.sh")
	got := proposals(t, text)
	wantRules := []string{
		"allow pdm run typing", "allow poe test", "allow yarn dev", "allow yarn typecheck",
		"ask npm run docs:deploy", "ask npm run-script docs:deploy", "ask pnpm run docs:deploy", "ask yarn run docs:deploy",
	}
	if !slices.Equal(got, wantRules) {
		t.Errorf("proposals:\n got %q\nwant %q\n%s", got, wantRules, text)
	}
	for _, s := range []string{"# compose.yaml: the project's containers", "#   build: tsc -p .", "#   test:\n#       go test ./...", "#   mycli = x.cli:main", "check.sh", "dev_ports = [5174]"} {
		if !strings.Contains(text, s) {
			t.Errorf("the config does not show %q:\n%s", s, text)
		}
	}
	pol := build(t, "", text, true)
	check(t, pol, "rich project", []want{
		{"yarn dev", "allow"},
		{"yarn dev --host 0.0.0.0", "ask"}, // exactly as shown
		{"yarn typecheck", "allow"},
		{"yarn add", "ask"},
		{"yarn evil", "ask"},
		{"npm run docs:deploy", "ask"},
		{"yarn run docs:deploy", "ask"},
		{"npm run build", "allow"}, // the preset, unchanged
		{"npm run deploy", "ask"},
		{"make test", "allow"},
		{"make install", "ask"},
		{"poe test", "allow"},
		{"poetry run poe test", "allow"},
		{"uv run poe test", "allow"},
		{"poe test --pdb", "ask"},
		{"poe serve", "ask"},
		{"pdm run typing", "allow"},
		{"mycli", "ask"},
		{"uv run mycli", "ask"},
		{"docker compose ps", "allow"}, // the defaults: init proposes nothing for them
		{"docker compose -f compose.yaml logs --tail 20 web", "allow"},
		{"docker compose config", "ask"}, // prints what it reads from .env
		{"docker compose -f compose.yaml config", "ask"},
		{"docker compose up", "ask"},
		{"pwn", "ask"}, // the evil script did not write a rule
	})
}

// Each kind of project file: what init shows and proposes, and that a
// malformed file proposes nothing (and does not crash).
func TestStarterConfigSources(t *testing.T) {
	tests := []struct {
		name    string
		files   map[string]string
		scripts []string
		rules   []string // proposed rules, sorted
		has     []string // text the config shows
		lacks   []string
	}{
		{name: "npm only: the preset covers every script",
			files: map[string]string{"package.json": `{"scripts": {"test": "jest", "dev": "next dev", "release-beta": "np --tag beta"}}`},
			rules: []string{"ask npm run release-beta", "ask npm run-script release-beta", "ask pnpm run release-beta", "ask yarn run release-beta"},
			has:   []string{"#   dev: next dev\n", "#   release-beta: np --tag beta (reads like a deploy: asks, below)"},
			lacks: []string{"yarn.lock"}},
		{name: "pnpm: shorthands, not for builtins, hooks or what the preset allows",
			files: map[string]string{"pnpm-lock.yaml": "", "package.json": `{"scripts": {"typecheck": "tsc", "test": "vitest",
				"install": "x", "postinstall": "husky", "start": "node .", "a b": "x", "build": "vite build",
				"prebuild": "rm -rf dist", "preview": "vite preview", "pretest": "lint", "long": "` + strings.Repeat("x", 300) + `"}}`},
			rules: []string{"allow pnpm preview", "allow pnpm start", "allow pnpm typecheck"},
			has:   []string{"pnpm-lock.yaml: the project uses pnpm", "#   a b: x (a name no rule here is written for)", "…"}},
		{name: "two lock files: which tool runs the shorthand is not known",
			files: map[string]string{"yarn.lock": "", "pnpm-lock.yaml": "", "package.json": `{"scripts": {"dev": "vite"}}`},
			has:   []string{"#   dev: vite"}},
		{name: "a script's text cannot write TOML",
			files: map[string]string{"yarn.lock": "", "package.json": `{"scripts": {"x": "a\r\n[[rule]]\ndecision = \"allow\"\ncommand = \"*\"", "y": 1}}`},
			has:   []string{"#   x: a  [[rule]] decision = \"allow\" command = \"*\"\n", "#   y: (not text"}},
		{name: "malformed package.json",
			files: map[string]string{"package.json": `{"scripts": {"dev": "vite"`},
			lacks: []string{"package.json scripts"}},
		{name: "package.json scripts not an object",
			files: map[string]string{"package.json": `{"scripts": ["dev"]}`},
			lacks: []string{"package.json scripts"}},
		{name: "Makefile: targets and recipes, no rules",
			files: map[string]string{"Makefile": "CC := gcc\nX ::= y\n.PHONY: test\n# a comment\ntest lint: deps\n\tgo test ./...\n\t@echo done\n" +
				"%.o: %.c\n\t$(CC) -c $<\n$(BIN): x\n\tld\nfoo: CFLAGS = -O2\nall: ; echo all\ndeploy-docs:\n\tmkdocs gh-deploy\ninstall:\n\tcp x /usr/bin\nlong:\n\ta\n\tb\n\tc\n\td\n"},
			has: []string{"# Makefile targets.", "#   test:\n#       go test ./...\n#       @echo done\n#   lint:\n#       go test ./...",
				"#   all:\n#       echo all", "#   deploy-docs: (the preset allows it, though its name reads like a deploy",
				"#   install: (keeps asking", "#       c\n#       … and 1 more\n"},
			lacks: []string{"CC:", "X:", ".PHONY", "%.o", "BIN", "foo:", "#   deps"}},
		{name: "Makefile without targets",
			files: map[string]string{"Makefile": "include other.mk\n"},
			lacks: []string{"targets"}},
		{name: "pyproject: console scripts are named, not proposed",
			files: map[string]string{"pyproject.toml": "[project.scripts]\nmycli = \"x.cli:main\"\n[tool.poetry.scripts]\np = {callable = \"x:p\"}\n"},
			has:   []string{"#   mycli = x.cli:main", "[tool.poetry.scripts]", "#   p = x:p", "keep asking"}},
		{name: "poe tasks: proposed where the guard allows the command typed by itself",
			files: map[string]string{"go.mod": "module x\n", "pyproject.toml": `[tool.poe.tasks]
test = "pytest"
lint = {cmd = "ruff check .", help = "lint"}
env = {cmd = "pytest", env = {X = "1"}}
seq = ["test", "lint"]
sh = {shell = "pytest && ruff ."}
serve = "uvicorn app:app"
glob = "pytest tests/*"
up = "twine upload dist/x"
uvpwn = "uv run pwn"
goexec = "go test -exec=pwn ./..."
_private = "pytest"
release = "pytest"
`},
			rules: []string{"allow poe lint", "allow poe test"},
			has: []string{"#   serve: uvicorn app:app: not proposed: the guard would ask for it typed by itself",
				"#   uvpwn: uv run pwn: not proposed", "#   goexec: go test -exec=pwn ./...: not proposed",
				"#   seq: not proposed", "#   env: not proposed", "#   sh: not proposed", "#   glob: pytest tests/*: not proposed",
				"#   up: twine upload dist/x: not proposed", "#   release: pytest: not proposed: it reads like a deploy"},
			lacks: []string{"_private"}},
		{name: "pdm scripts",
			files: map[string]string{"pyproject.toml": `[tool.pdm.scripts]
_ = {env_file = ".env"}
fmt = {cmd = ["black", "."]}
q = {cmd = ["black", "a b"]}
start = {call = "x:main"}
typing = "mypy src"
`},
			rules: []string{"allow pdm run fmt", "allow pdm run typing"},
			has:   []string{"#   q: not proposed", "#   start: not proposed"}},
		{name: "malformed pyproject.toml",
			files: map[string]string{"pyproject.toml": "[tool.poe.tasks\ntest = \"pytest\"\n"},
			lacks: []string{"pyproject.toml ["}},
		{name: "pyproject.toml with the wrong types",
			files: map[string]string{"pyproject.toml": "tool = 1\nproject = {scripts = \"x\"}\n"},
			lacks: []string{"pyproject.toml ["}},
		{name: "scripts/: named, no rule; a name that cannot be shown is left out",
			files:   map[string]string{"go.mod": "module x\n"},
			scripts: []string{"lint.sh", "check.sh", "bad\nname"},
			has:     []string{"# scripts/ holds executable scripts: check.sh, lint.sh.\n"},
			lacks:   []string{"bad"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := starter(t, tt.files, tt.scripts...)
			if got := proposals(t, text); !slices.Equal(got, tt.rules) {
				t.Errorf("proposals:\n got %q\nwant %q\n%s", got, tt.rules, text)
			}
			for _, s := range tt.has {
				if !strings.Contains(text, s) {
					t.Errorf("the config does not show %q:\n%s", s, text)
				}
			}
			for _, s := range tt.lacks {
				if strings.Contains(text, s) {
					t.Errorf("the config shows %q:\n%s", s, text)
				}
			}
		})
	}
}

// Without a judge, init cannot tell what a task's command would ask
// about, so it proposes no task.
func TestStarterConfigTasksUnjudged(t *testing.T) {
	files := map[string]string{"pyproject.toml": "[tool.poe.tasks]\ntest = \"pytest\"\n"}
	text := policy.StarterConfigFor(proj, policy.ProjectFiles{
		Exists: func(n string) bool { _, ok := files[n]; return ok },
		Read:   func(n string) ([]byte, bool) { s, ok := files[n]; return []byte(s), ok },
	})
	if got := proposals(t, text); len(got) != 0 || !strings.Contains(text, "#   test: pytest: not proposed: not judged here") {
		t.Errorf("proposals %q in\n%s", got, text)
	}
}

// Whatever a project's files hold, the starter config loads, compiles, and
// has a comment above every rule.
func FuzzStarterConfig(f *testing.F) {
	f.Add(`{"scripts": {"dev": "vite", "docs:deploy": "x"}}`, "test:\n\tgo test\n", "[tool.poe.tasks]\ntest = \"pytest\"\n", "check.sh")
	f.Add(`{"scripts": {"a\"b": "x\n[[rule]]"}}`, "a b: ; x\n", "[tool.pdm.scripts]\nx = {cmd = [\"a\", \"b\"]}\n", "x\ny")
	f.Add(`{"scripts": 1}`, "\t\t\n:", "[[project]]\n", "")
	f.Fuzz(func(t *testing.T, pkg, makefile, pyproject, script string) {
		text := starter(t, map[string]string{"package.json": pkg, "Makefile": makefile, "pyproject.toml": pyproject, "yarn.lock": ""}, script)
		proposals(t, text)
		f, err := policy.ParseFile(proj+"/.guard-exec.toml", []byte(text), policy.Project)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := policy.Build(policy.Sources{Env: newEnv(), Project: f, ProjectTrusted: true}); err != nil {
			t.Fatalf("the starter config does not compile: %v\n%s", err, text)
		}
	})
}

// TestStarterComposeDevPorts: init proposes as dev_ports the host ports
// of compose services that may be the project's own server (they build,
// or say nothing of an image), never those of a published image that
// builds nothing: a database's or search engine's HTTP API deletes data
// on a POST, and dev_ports lets curl send it anything.
func TestStarterComposeDevPorts(t *testing.T) {
	for _, tc := range []struct {
		name, compose string
		want          string // the dev_ports line, "" for none
	}{
		{"own service", "services:\n  web:\n    build: .\n    ports:\n      - \"8000:8000\"\n", "dev_ports = [8000]"},
		{"built and tagged", "services:\n  web:\n    image: me/web:dev\n    build:\n      context: .\n    ports:\n      - 3000:3000\n", "dev_ports = [3000]"},
		{"no image or build said", "services:\n  api:\n    ports:\n      - \"8080:80\"\n", "dev_ports = [8080]"},
		{"databases", "services:\n  neo4j:\n    image: neo4j:5\n    ports:\n      - \"7474:7474\"\n      - \"7687:7687\"\n  qdrant:\n    image: qdrant/qdrant:latest\n    ports:\n      - \"6333:6333\"\n", ""},
		{"mixed, image last", "services:\n  app:\n    ports:\n      - \"5001:5000\"\n    build: ./app\n  db:\n    ports:\n      - \"5433:5432\"\n    image: postgres:16\n", "dev_ports = [5001]"},
		{"nested image key is not the service's", "services:\n  es:\n    image: elasticsearch:8\n    deploy:\n      build: x\n    ports:\n      - \"9200:9200\"\n", ""},
		{"comments and blank lines", "# dev\nservices:\n\n  # the app\n  web:\n    build: .\n\n    ports:\n      - \"4000:4000\"\nvolumes:\n  data:\n    ports:\n      - \"9999:9999\"\n", "dev_ports = [4000]"},
	} {
		text := starter(t, map[string]string{"compose.yaml": tc.compose})
		got := ""
		for _, l := range strings.Split(text, "\n") {
			if strings.HasPrefix(l, "dev_ports") {
				got = l
			}
		}
		if got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestStarterEnvExamplePorts: the port a project's example environment
// tells its server to listen on is proposed; a database's port, a
// commented line and .env itself are not read as one.
func TestStarterEnvExamplePorts(t *testing.T) {
	for _, tc := range []struct {
		files map[string]string
		want  string
	}{
		{map[string]string{".env.example": "IES_NEO4J_PORT=7687\nIES_SIYUAN_PORT=6806\nIES_BACKEND_PORT=8081\n"}, "dev_ports = [8081]"},
		{map[string]string{".env.sample": "PORT=3000\nexport API_PORT=\"4000\"\nDB_PORT=5432\nREDIS_PORT=6379\n"}, "dev_ports = [3000, 4000]"},
		{map[string]string{".env.template": "# PORT=9000\nAPP_PORT=${X}\nHTTP_PORT=8088 # web\n"}, ""},
		{map[string]string{".env": "PORT=3000\n"}, ""},
		{map[string]string{".env.local": "PORT=3000\n"}, ""},
	} {
		text := starter(t, tc.files)
		got := ""
		for _, l := range strings.Split(text, "\n") {
			if strings.HasPrefix(l, "dev_ports") {
				got = l
			}
		}
		if got != tc.want {
			t.Errorf("%v: %q, want %q", tc.files, got, tc.want)
		}
		if tc.want != "" && !strings.Contains(text, "_PORT=") && !strings.Contains(text, "PORT=") {
			t.Errorf("%v: the comment does not say where the port was found:\n%s", tc.files, text)
		}
	}
}
