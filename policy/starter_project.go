package policy

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/BurntSushi/toml"
)

// What guard-exec init reads of a project beyond its presets, and what it
// proposes for it. The walker does not read package.json scripts or make
// recipes: the node and make presets allow npm run and make of any script
// or target (their publishing ones ask), so an exact "npm run build" or
// "make test" rule would remove no question. For those init shows what
// each script and target runs, so the person reads what the preset
// allows, and proposes rules only where a question goes away without
// allowing more than the comment shows: the yarn and pnpm shorthands
// (yarn dev is yarn run dev), and poe and pdm tasks whose command the
// guard allows typed by itself (with the presets init writes). Scripts
// whose names read like a deploy get an ask rule, since npm run would
// allow them. Console scripts run Python functions the comment cannot
// show, and get no rule. Executable files under scripts/ get none either:
// the guard reads a script each time it runs and judges what is in it,
// which a rule naming the script would skip.

// ProjectFiles is what guard-exec init may look at in a project.
type ProjectFiles struct {
	// Exists reports whether a file is at the project root.
	Exists func(name string) bool
	// Read returns a file at the project root, or false.
	Read func(name string) ([]byte, bool)
	// Executables lists the executable regular files directly in the
	// directory dir of the project (nil: none are listed).
	Executables func(dir string) []string
	// Allowed reports whether the guard, with the built-in defaults and
	// these presets, allows command typed by itself at the project root.
	// A task that runs a command is proposed only if the command would not
	// ask on its own (nil: no task is proposed). The judge lives outside
	// this package, which it imports.
	Allowed func(presets []string, command string) bool
}

// scriptName is a script, task or target name init writes into a rule:
// no glob characters, spaces or quotes, so the rule's command words match
// that name and nothing else.
var scriptName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9:._+/-]{0,63}$`)
})

// deployish finds names that read like publishing: a script "docs:deploy"
// or "release-beta" runs under npm run, which the node preset allows.
var deployish = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:^|[:._+/-])(?:deploy|publish|release|upload|push|ship)(?:$|[:._+/-])`)
})

// plainWord is a word of a task's command that a shell and the task
// runners read the same way: no quoting, expansion, redirection or
// separator.
var plainWord = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[A-Za-z0-9_./:=,@%+-]+$`)
})

// shown makes found text safe for a one-line TOML comment: control
// characters (a newline would end the comment and start TOML) become
// spaces, and long text is cut with "…".
func shown(s string, max int) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || r == utf8.RuneError {
			return ' '
		}
		return r
	}, s)
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) > max {
		r := []rune(s)
		s = string(r[:max]) + "…"
	}
	return s
}

// clean reports text that shown leaves as it is: what a rule's comment
// shows must be the whole text.
func clean(s string, max int) bool {
	return utf8.ValidString(s) && len(s) <= max && shown(s, max) == s
}

// tomlQuote writes clean text as a TOML basic string.
func tomlQuote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

func hasPreset(found []string, name string) bool {
	for _, f := range found {
		if f == name {
			return true
		}
	}
	return false
}

// plainTaskCommand reports a task command that poe and pdm run as the guard
// would judge it typed: plain words, at most 16, none that a shell or the
// task runner would expand, quote, redirect or split.
func plainTaskCommand(text string) bool {
	words := strings.Fields(text)
	if len(words) == 0 || len(words) > 16 {
		return false
	}
	for _, w := range words {
		if !plainWord().MatchString(w) {
			return false
		}
	}
	return true
}

// exactAllow writes one proposed rule allowing exactly command, with the
// comment above it.
func exactAllow(b *strings.Builder, comment, command, why string) {
	fmt.Fprintf(b, "# %s\n[[rule]]\ndecision = \"allow\"\ncommand  = %s\nexact    = true\nwhy      = %s\n\n",
		comment, tomlQuote(command), tomlQuote(why))
}

// yarnBuiltin and pnpmBuiltin are the commands that win over a script of
// the same name in "yarn NAME" and "pnpm NAME" (yarn 1 and berry; pnpm
// 8–10): for those names the shorthand is not the script.
var yarnBuiltin = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"access": true, "add": true, "audit": true, "autoclean": true, "bin": true, "cache": true,
		"check": true, "config": true, "constraints": true, "create": true, "dedupe": true, "dlx": true, "exec": true,
		"explain": true, "generate-lock-entry": true, "global": true, "help": true, "import": true, "info": true, "init": true,
		"install": true, "licenses": true, "link": true, "list": true, "login": true, "logout": true, "node": true, "npm": true,
		"outdated": true, "owner": true, "pack": true, "patch": true, "patch-commit": true, "plugin": true, "policies": true,
		"publish": true, "rebuild": true, "remove": true, "run": true, "search": true, "set": true, "stage": true, "tag": true,
		"team": true, "unlink": true, "unplug": true, "up": true, "upgrade": true, "upgrade-interactive": true,
		"version": true, "versions": true, "why": true, "workspace": true, "workspaces": true}
})

var pnpmBuiltin = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"add": true, "approve-builds": true, "audit": true, "bin": true, "c": true,
		"cat-file": true, "cat-index": true, "ci": true, "config": true, "create": true, "dedupe": true, "deploy": true,
		"dlx": true, "doctor": true, "env": true, "exec": true, "fetch": true, "find-hash": true, "help": true,
		"i": true, "ignored-builds": true, "import": true, "init": true, "install": true, "install-test": true, "it": true,
		"licenses": true, "link": true, "list": true, "ln": true, "ls": true, "outdated": true, "pack": true, "patch": true,
		"patch-commit": true, "patch-remove": true, "prune": true, "publish": true, "rb": true, "rebuild": true,
		"remove": true, "rm": true, "root": true, "run": true, "self-update": true, "server": true, "setup": true,
		"store": true, "t": true, "test": true, "tst": true, "un": true, "uninstall": true, "unlink": true, "up": true,
		"update": true, "upgrade": true, "why": true}
})

// npmLifecycle are the scripts npm runs on its own (install, pack,
// publish, version …): nobody types them.
var npmLifecycle = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"preinstall": true, "install": true, "postinstall": true, "prepare": true,
		"prepublish": true, "prepublishOnly": true, "prepack": true, "postpack": true, "dependencies": true,
		"preuninstall": true, "uninstall": true, "postuninstall": true, "preversion": true, "version": true,
		"postversion": true, "preshrinkwrap": true, "shrinkwrap": true, "postshrinkwrap": true}
})

// npmHook reports a script npm runs around another (prebuild before
// build) or on its own; "preview" is not one unless there is a "view".
func npmHook(name string, scripts map[string]any) bool {
	if npmLifecycle()[name] {
		return true
	}
	for _, pre := range []string{"pre", "post"} {
		if rest, ok := strings.CutPrefix(name, pre); ok && rest != "" {
			if _, ok := scripts[rest]; ok {
				return true
			}
			switch rest {
			case "test", "start", "stop", "restart":
				return true
			}
		}
	}
	return false
}

// nodeProposals shows what the package.json scripts run, which the node
// preset's npm run allows; asks for scripts named like a deploy that the
// preset would allow; and, in a yarn or pnpm project, allows the
// shorthand "yarn NAME" for each script exactly as the preset allows
// "yarn run NAME".
func nodeProposals(read func(string) ([]byte, bool), found []string) string {
	if !hasPreset(found, "node") {
		return ""
	}
	data, ok := read("package.json")
	if !ok {
		return ""
	}
	var pkg struct {
		Scripts map[string]any `json:"scripts"`
	}
	if json.Unmarshal(data, &pkg) != nil || len(pkg.Scripts) == 0 {
		return ""
	}
	names := make([]string, 0, len(pkg.Scripts))
	for n := range pkg.Scripts {
		names = append(names, n)
	}
	sort.Strings(names)
	// Only one lock file says which tool runs the shorthand.
	manager := ""
	_, yarn := read("yarn.lock")
	_, pnpm := read("pnpm-lock.yaml")
	switch {
	case yarn && !pnpm:
		manager = "yarn"
	case pnpm && !yarn:
		manager = "pnpm"
	}
	presetAsks := map[string]bool{"deploy": true, "publish": true, "release": true}
	var list, asks, short strings.Builder
	for i, n := range names {
		if i == 60 {
			fmt.Fprintf(&list, "#   … and %d more\n", len(names)-i)
			break
		}
		text, isText := pkg.Scripts[n].(string)
		if !isText {
			fmt.Fprintf(&list, "#   %s: (not text: npm does not run it)\n", shown(n, 40))
			continue
		}
		note := ""
		ok := scriptName().MatchString(n)
		switch {
		case !ok:
			note = " (a name no rule here is written for)"
		case presetAsks[n]:
			note = " (keeps asking: the preset asks for it)"
		case deployish().MatchString(n):
			note = " (reads like a deploy: asks, below)"
			fmt.Fprintf(&asks, "# package.json script %q reads like a deploy or a release, which the\n# node preset's npm run would allow; it runs: %s\n", n, shown(text, 100))
			for _, c := range []string{"npm run", "npm run-script", "yarn run", "pnpm run"} {
				fmt.Fprintf(&asks, "# %s %s: asks\n[[rule]]\ndecision = \"ask\"\ncommand  = %s\nwhy      = %s\n\n",
					c, n, tomlQuote(c+" "+n), tomlQuote("package.json script "+n+" reads like a deploy"))
			}
		}
		fmt.Fprintf(&list, "#   %s: %s%s\n", shown(n, 40), shown(text, 100), note)
		if manager == "" || !ok || note != "" || !clean(text, 200) || npmHook(n, pkg.Scripts) {
			continue
		}
		if manager == "yarn" && yarnBuiltin()[n] || manager == "pnpm" && pnpmBuiltin()[n] {
			continue
		}
		if n == "build" || n == "lint" || n == "test" {
			continue // the preset allows yarn build, pnpm lint … already
		}
		exactAllow(&short, fmt.Sprintf("%s %s: the script %q: %s", manager, n, n, text), manager+" "+n,
			"package.json script "+n+": "+text)
	}
	var b strings.Builder
	b.WriteString("# package.json scripts. The node preset allows npm run, yarn run and pnpm run\n")
	b.WriteString("# of every one of them (npm run deploy, publish and release ask) without\n")
	b.WriteString("# reading it, so read what each runs:\n")
	b.WriteString(list.String())
	b.WriteString("\n")
	b.WriteString(asks.String())
	if short.Len() > 0 {
		lock := map[string]string{"yarn": "yarn.lock", "pnpm": "pnpm-lock.yaml"}[manager]
		fmt.Fprintf(&b, "# %s: the project uses %s, which runs a script by its name alone\n", lock, manager)
		fmt.Fprintf(&b, "# (%s NAME is %s run NAME, which the preset allows). These allow exactly\n# that, with no more arguments:\n\n", manager, manager)
		b.WriteString(short.String())
	}
	return b.String()
}

// makeTarget is a target of a makefile and its recipe lines.
type makeTarget struct {
	name   string
	recipe []string
}

var makeRule = sync.OnceValue(func() *regexp.Regexp {
	// targets: prerequisites [; recipe] (not VAR := value)
	return regexp.MustCompile(`^([^:=#\t][^:=#]*?)\s*::?(.*)$`)
})

var makeName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.+/-]{0,63}$`)
})

// makeTargets reads the explicit targets of a makefile, in order, with
// their recipes. Pattern rules, special targets (.PHONY), targets named by
// variables and target-specific variables are not targets a person types.
func makeTargets(text string) []makeTarget {
	var out []makeTarget
	at := map[string]int{}
	var cur []int
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(line, "\r")
		if strings.HasPrefix(line, "\t") {
			if r := strings.TrimSpace(line); r != "" {
				for _, i := range cur {
					out[i].recipe = append(out[i].recipe, r)
				}
			}
			continue
		}
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		m := makeRule().FindStringSubmatch(line)
		cur = nil
		if m == nil {
			continue
		}
		rest := m[2]
		inline := ""
		if i := strings.IndexByte(rest, ';'); i >= 0 {
			rest, inline = rest[:i], strings.TrimSpace(rest[i+1:])
		}
		if strings.HasPrefix(m[2], "=") || strings.Contains(rest, "=") {
			continue // VAR ::= value, or target: VAR = value
		}
		for _, n := range strings.Fields(m[1]) {
			if !makeName().MatchString(n) {
				continue
			}
			i, seen := at[n]
			if !seen {
				i = len(out)
				at[n] = i
				out = append(out, makeTarget{name: n})
			}
			if inline != "" {
				out[i].recipe = append(out[i].recipe, inline)
			}
			cur = append(cur, i)
		}
	}
	return out
}

// makeProposals shows what each target of the project's makefile runs:
// the make preset allows make with any of them without reading the
// recipes. It proposes no rule: none would remove a question.
func makeProposals(read func(string) ([]byte, bool), found []string) string {
	if !hasPreset(found, "make") {
		return ""
	}
	// GNU make's order of looking.
	for _, f := range []string{"GNUmakefile", "makefile", "Makefile"} {
		data, ok := read(f)
		if !ok {
			continue
		}
		targets := makeTargets(string(data))
		if len(targets) == 0 {
			return ""
		}
		presetAsks := map[string]bool{}
		for _, a := range Presets()["make"].Ask {
			presetAsks[strings.TrimPrefix(a, "make ")] = true
		}
		var b strings.Builder
		fmt.Fprintf(&b, "# %s targets. The make preset allows make with any of them (install,\n", f)
		b.WriteString("# deploy, release, publish and uninstall ask) without reading the recipes,\n")
		b.WriteString("# so read what each runs:\n")
		for i, t := range targets {
			if i == 30 {
				fmt.Fprintf(&b, "#   … and %d more\n", len(targets)-i)
				break
			}
			note := ""
			switch {
			case presetAsks[t.name]:
				note = " (keeps asking: the preset asks for it)"
			case deployish().MatchString(t.name):
				note = " (the preset allows it, though its name reads like a deploy or a release)"
			}
			if len(t.recipe) == 0 {
				fmt.Fprintf(&b, "#   %s: no recipe of its own%s\n", t.name, note)
				continue
			}
			fmt.Fprintf(&b, "#   %s:%s\n", t.name, note)
			for j, r := range t.recipe {
				if j == 3 {
					fmt.Fprintf(&b, "#       … and %d more\n", len(t.recipe)-j)
					break
				}
				fmt.Fprintf(&b, "#       %s\n", shown(r, 100))
			}
		}
		b.WriteString("\n")
		return b.String()
	}
	return ""
}

// table walks nested TOML tables.
func table(doc map[string]any, keys ...string) map[string]any {
	cur := doc
	for _, k := range keys {
		next, ok := cur[k].(map[string]any)
		if !ok {
			return nil
		}
		cur = next
	}
	return cur
}

func sortedKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// taskCommand returns the command a poe or pdm task runs when the file
// shows it whole: a string, or a table of cmd (a string, or for pdm a
// list of plain words) and help. Scripts, shells, sequences, references
// and tasks with deps, env or args are not shown whole.
func taskCommand(v any) (string, bool) {
	switch t := v.(type) {
	case string:
		return t, true
	case map[string]any:
		for k := range t {
			if k != "cmd" && k != "help" {
				return "", false
			}
		}
		switch c := t["cmd"].(type) {
		case string:
			return c, true
		case []any:
			words := make([]string, 0, len(c))
			for _, w := range c {
				s, ok := w.(string)
				if !ok || !plainWord().MatchString(s) {
					return "", false
				}
				words = append(words, s)
			}
			return strings.Join(words, " "), len(words) > 0
		}
	}
	return "", false
}

// pyprojectProposals reads pyproject.toml: its console scripts, which it
// only names (each runs a Python function this file cannot show), and
// its poe and pdm tasks, allowing "poe NAME" or "pdm run NAME" exactly
// where the guard allows the task's command typed by itself.
func pyprojectProposals(read func(string) ([]byte, bool), found []string, allowed func([]string, string) bool) string {
	data, ok := read("pyproject.toml")
	if !ok {
		return ""
	}
	var doc map[string]any
	if _, err := toml.Decode(string(data), &doc); err != nil {
		return ""
	}
	var b strings.Builder
	for _, ep := range []struct {
		section string
		keys    []string
	}{{"[project.scripts]", []string{"project", "scripts"}}, {"[tool.poetry.scripts]", []string{"tool", "poetry", "scripts"}}} {
		scripts := table(doc, ep.keys...)
		if len(scripts) == 0 {
			continue
		}
		var items []string
		for _, n := range sortedKeys(scripts) {
			target := "?"
			switch v := scripts[n].(type) {
			case string:
				target = v
			case map[string]any:
				if c, ok := v["callable"].(string); ok {
					target = c
				} else if r, ok := v["reference"].(string); ok {
					target = r
				}
			}
			items = append(items, shown(n, 40)+" = "+shown(target, 60))
			if len(items) == 12 {
				items = append(items, fmt.Sprintf("… and %d more", len(scripts)-12))
				break
			}
		}
		fmt.Fprintf(&b, "# pyproject.toml %s, the project's commands:\n", ep.section)
		for _, it := range items {
			fmt.Fprintf(&b, "#   %s\n", it)
		}
		b.WriteString("# No rule proposed: each runs the Python function it names, which this file\n")
		b.WriteString("# cannot show, so they (and uv run or poetry run of them) keep asking.\n\n")
	}
	for _, tr := range []struct {
		section, prefix, through string
		keys                     []string
	}{{"[tool.poe.tasks]", "poe", " (also through poetry\n# run or uv run)", []string{"tool", "poe", "tasks"}},
		{"[tool.pdm.scripts]", "pdm run", "", []string{"tool", "pdm", "scripts"}}} {
		tasks := table(doc, tr.keys...)
		if len(tasks) == 0 {
			continue
		}
		var list, rules strings.Builder
		n := 0
		for _, name := range sortedKeys(tasks) {
			if name == "_" || strings.HasPrefix(name, "_") {
				continue // pdm's settings; poe's private tasks
			}
			if n++; n > 40 {
				fmt.Fprintf(&list, "#   … and more\n")
				break
			}
			text, whole := taskCommand(tasks[name])
			why := ""
			covered := false
			switch {
			case !scriptName().MatchString(name):
				why = "a name no rule here is written for"
			case !whole:
				why = "a script, shell, sequence or task with settings, which this file does not show whole"
			case deployish().MatchString(name):
				why = "it reads like a deploy or a release"
			case !clean(text, 200):
				why = "its command cannot be shown whole here"
			case !plainTaskCommand(text):
				why = "not plain words the guard reads as the task runner does"
			case allowed == nil:
				why = "not judged here"
			default:
				if covered = allowed(found, text); !covered {
					why = "the guard would ask for it typed by itself"
				}
			}
			if !whole {
				fmt.Fprintf(&list, "#   %s: not proposed: %s\n", shown(name, 40), why)
				continue
			}
			if !covered {
				fmt.Fprintf(&list, "#   %s: %s: not proposed: %s\n", shown(name, 40), shown(text, 100), why)
				continue
			}
			fmt.Fprintf(&list, "#   %s: %s: proposed below (allowed typed by itself)\n", name, text)
			exactAllow(&rules, fmt.Sprintf("%s %s: the task runs %s", tr.prefix, name, text), tr.prefix+" "+name,
				"pyproject.toml task "+name+": "+text)
		}
		if n == 0 {
			continue
		}
		fmt.Fprintf(&b, "# pyproject.toml %s: %s runs a task by name. A task is proposed\n", tr.section, tr.prefix)
		b.WriteString("# only where its command is shown whole and the guard, with the presets\n")
		fmt.Fprintf(&b, "# above, allows it typed by itself. Each rule allows exactly \"%s NAME\",\n# with no more arguments%s:\n", tr.prefix, tr.through)
		b.WriteString(list.String())
		b.WriteString("\n")
		b.WriteString(rules.String())
	}
	return b.String()
}

// scriptsDirNote names the executable scripts under scripts/ and says
// why init proposes no rule for them.
func scriptsDirNote(executables func(string) []string) string {
	if executables == nil {
		return ""
	}
	var names []string
	for _, n := range executables("scripts") {
		if clean(n, 80) {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return ""
	}
	sort.Strings(names)
	more := ""
	if len(names) > 20 {
		more = fmt.Sprintf(" and %d more", len(names)-20)
		names = names[:20]
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# scripts/ holds executable scripts: %s%s.\n", strings.Join(names, ", "), more)
	b.WriteString("# No rule proposed: the guard reads a script each time it runs\n")
	b.WriteString("# (./scripts/NAME, bash scripts/NAME) and judges the commands in it. A rule\n")
	b.WriteString("# naming the script would skip that reading and allow whatever the file\n")
	b.WriteString("# says later.\n\n")
	return b.String()
}
