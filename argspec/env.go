package argspec

import (
	"slices"
	"strings"

	"github.com/guard-exec/guard-exec/word"
)

// EnvEffects are the paths a tool writes (or, for TAR_OPTIONS and
// ZIPOPT, archives) because a variable has a value
// (GOCACHE=DIR go build, CARGO_TARGET_DIR=DIR cargo build,
// PYTEST_ADDOPTS=--basetemp=DIR pytest): each tool reads its own
// variables as places to write, or as more options. The names are the
// tools' own, so the variable is judged wherever the text sets it
// (exported, assigned, read), whichever program runs later. Variables that
// make a tool run code are read by CarriedEnv.
func EnvEffects(name string, value word.Word) []Effect {
	if v, ok := value.Static(); ok && strings.TrimSpace(v) == "" {
		return nil // unset in effect
	}
	switch name {
	case "GOCACHE", "GOMODCACHE", "GOPATH", "GOBIN", "GOTMPDIR", "GOCOVERDIR", "GOTELEMETRYDIR", // go
		"CARGO_TARGET_DIR", "CARGO_BUILD_TARGET_DIR", "CARGO_HOME", "CARGO_BUILD_DEP_INFO_BASEDIR", // cargo
		"PIP_TARGET", "PIP_PREFIX", "PIP_ROOT", "PIP_CACHE_DIR", "PIP_SRC", "PIP_BUILD", "PIP_DEST", // pip
		"MYPY_CACHE_DIR", "RUFF_CACHE_DIR", "UV_CACHE_DIR", "UV_PROJECT_ENVIRONMENT", "UV_TOOL_DIR",
		"UV_PYTHON_INSTALL_DIR", "POETRY_CACHE_DIR", "POETRY_VIRTUALENVS_PATH", "PYTHONPYCACHEPREFIX",
		"GOLANGCI_LINT_CACHE", "XDG_CACHE_HOME",
		"PYLINTHOME", "BLACK_CACHE_DIR", "RUBOCOP_CACHE_ROOT", "BUNDLE_PATH", "GEM_HOME", "UV_PYTHON_BIN_DIR",
		"GIT_OBJECT_DIRECTORY", "PLAYWRIGHT_JUNIT_OUTPUT_DIR", "PLAYWRIGHT_JSON_OUTPUT_DIR":
		return []Effect{{Path: value, Access: Write, Recursive: true}}
	case "PIP_LOG", "PIP_LOG_FILE", "PIP_REPORT", "COVERAGE_FILE", "RUFF_OUTPUT_FILE", "GIT_INDEX_FILE",
		"PLAYWRIGHT_JSON_OUTPUT_FILE", "PLAYWRIGHT_JUNIT_OUTPUT_FILE", "PLAYWRIGHT_LAST_RUN_OUTPUT_FILE":
		return []Effect{{Path: value, Access: Write}}
	case "PLAYWRIGHT_HTML_OUTPUT_DIR", "PLAYWRIGHT_BLOB_OUTPUT_DIR":
		// Emptied before the reporter writes there.
		return []Effect{{Path: value, Access: Write, Op: "delete", Recursive: true}}
	case "PIP_USER":
		if v, ok := value.Static(); ok && (v == "0" || v == "false" || v == "no") {
			return nil
		}
		return []Effect{{Path: word.Word{Segs: []word.Seg{{Kind: word.Hole, Text: "$HOME/.local"}}}, Access: Write, Recursive: true}}
	case "PYTEST_DEBUG_TEMPROOT":
		// pytest makes pytest-of-USER there, and removes its older runs.
		return []Effect{{Path: value, Access: Write, Recursive: true}}
	case "TOX_WORK_DIR":
		// tox 4 reads it as --workdir: it empties DIR/log.
		return toolEffects("tox", []word.Word{word.FromLit("--workdir"), value})
	case "GIT_TRACE", "GIT_TRACE2", "GIT_TRACE2_EVENT", "GIT_TRACE2_PERF", "GIT_TRACE_PERFORMANCE", "GIT_TRACE_PACKET",
		"GIT_TRACE_PACKFILE", "GIT_TRACE_SETUP", "GIT_TRACE_CURL", "GIT_TRACE_SHALLOW", "GIT_TRACE_REFS", "GIT_TRACE_FSMONITOR":
		// An absolute path is a file git appends its trace to; 1, 2,
		// true and the like are standard error.
		if v, ok := value.Static(); ok && !strings.HasPrefix(v, "/") {
			return nil
		}
		return []Effect{{Path: value, Access: Write}}
	case "GIT_ICASE_PATHSPECS":
		// Every pathspec of every git command matches in any case
		// (.GUARD-EXEC.TOML is .guard-exec.toml): what git rm, checkout
		// and restore may write is not the path as written.
		if v, ok := value.Static(); ok && (v == "0" || strings.EqualFold(v, "false") || strings.EqualFold(v, "no")) {
			return nil
		}
		return []Effect{{Path: word.UnknownData("(what git's case-insensitive pathspecs match, GIT_ICASE_PATHSPECS)"), Access: Write}}
	case "CURL_HOME":
		// curl reads CURL_HOME/.curlrc, whose url = and options may
		// name any file (url = "file:///…/.env").
		return []Effect{{Path: word.UnknownData("the files a .curlrc in " + value.String() + " may name"), Access: Read}}
	case "TAR_OPTIONS", "ZIPOPT", "ZIP":
		// Options tar and zip read before their command line's: -h, -r
		// or --anchored there change what a whole read takes in, so
		// what they archive is not known here (whole.go), unless every
		// option only changes how (owners, modes, compression, -v, -q).
		effs, _ := envCodeEffects(name, value) // --checkpoint-action=exec=…
		if v, ok := value.Static(); ok && !slices.ContainsFunc(strings.Fields(v), func(o string) bool { return !archiveStyleOption(o) }) {
			return effs
		}
		if len(effs) > 0 {
			return effs // asked for already: what it runs
		}
		return []Effect{{Path: word.UnknownData("the files tar or zip archive as " + name + " says"), Access: Read, Recursive: true, Whole: &WholeRead{Follow: true}}}
	case "PYTEST_ADDOPTS":
		// Read as options before the command line's (shlex-split: a
		// value not known here may be any option).
		if v, ok := value.Static(); ok {
			var args []word.Word
			for _, f := range strings.Fields(v) {
				args = append(args, word.FromLit(f))
			}
			return pytestEffects(args)
		}
		return []Effect{{Path: word.Word{Segs: []word.Seg{{Kind: word.Hole, Text: value.String()}}}, Access: Write, Op: "delete", Recursive: true}}
	}
	if effs, ok := envCodeEffects(name, value); ok {
		return effs
	}
	switch strings.ToLower(name) {
	case "npm_config_cache", "npm_config_prefix", "npm_config_userconfig", "npm_config_globalconfig", "npm_config_tmp",
		"npm_config_logs_dir":
		return []Effect{{Path: value, Access: Write, Recursive: true}}
	case "npm_config_global", "npm_config_location":
		// Global installs write the global prefix (npm prefix -g).
		if v, ok := value.Static(); ok && (v == "false" || v == "project" || v == "user") {
			return nil
		}
		return []Effect{{Path: word.Word{Segs: []word.Seg{{Kind: word.Hole, Text: "$(npm prefix -g)"}}}, Access: Write, Recursive: true}}
	}
	return nil
}

// EnvDefault is where a tool writes when the variable is not set, relative
// to the home (GOPATH: go): setting the variable to it changes nothing,
// so it is no new write.
func EnvDefault(name string) string {
	switch name {
	case "GOPATH":
		return "go"
	case "GOBIN":
		return "go/bin"
	case "GOMODCACHE":
		return "go/pkg/mod"
	case "GOCACHE":
		return ".cache/go-build"
	case "CARGO_HOME":
		return ".cargo"
	case "XDG_CACHE_HOME":
		return ".cache"
	case "PIP_CACHE_DIR":
		return ".cache/pip"
	case "UV_CACHE_DIR":
		return ".cache/uv"
	case "POETRY_CACHE_DIR":
		return ".cache/pypoetry"
	case "GOLANGCI_LINT_CACHE":
		return ".cache/golangci-lint"
	}
	if strings.EqualFold(name, "npm_config_cache") {
		return ".npm"
	}
	return ""
}

// envCodeEffects are the variables that make a read-only program run a
// program a file names (checked: less 590, tar 1.34, ripgrep 13, bat
// 0.22, kubectl 1.32):
//   - LESSKEYIN=F (LESSKEY, LESSKEY_SRC and the system ones) and
//     LESS='--lesskey-src=F' make less load a lesskey file whose #env
//     LESSOPEN it runs (lessEffects);
//   - TAR_OPTIONS='--checkpoint-action=exec=CMD' (or -I CMD, …) are
//     options before tar's own, in every tar command;
//   - RIPGREP_CONFIG_PATH=F is a file of options, --pre CMD among them;
//   - BAT_PAGER=CMD runs with bat --paging=always;
//   - KUBECONFIG=F:G are kubeconfigs, whose exec credential plugins
//     kubectl and helm run;
//   - MANOPT='-H CMD' (or -P, -C) are options before man's own;
//   - XZ_OPT='--files=F' (and XZ_DEFAULTS) make every xz, tar -J's too,
//     compress and remove the files F lists.
//
// What they run is a write to a place known only at run time, so the
// assignment asks wherever the text makes it.
func envCodeEffects(name string, value word.Word) ([]Effect, bool) {
	fields := func() []word.Word {
		v, ok := value.Static()
		if !ok {
			return nil
		}
		var ws []word.Word
		for _, f := range strings.Fields(v) {
			ws = append(ws, word.FromLit(f))
		}
		return ws
	}
	runs := func(what string) Effect {
		return Effect{Path: word.Unknown(what + " (" + name + "=" + value.String() + ")"), Access: Write}
	}
	switch name {
	case "LESSKEYIN", "LESSKEY", "LESSKEY_SRC", "LESSKEYIN_SYSTEM", "LESSKEY_SYSTEM", "LESSKEY_SRC_SYSTEM":
		return []Effect{{Path: value, Access: Read}, runs("a program the lesskey file may name")}, true
	case "LESSKEY_CONTENT", "BAT_PAGER":
		return []Effect{runs("a program the variable names")}, true
	case "LESS":
		if !value.IsStatic() {
			return []Effect{runs("options of less's not known here")}, true
		}
		return lessEffects(fields()), true
	case "TAR_OPTIONS":
		if !value.IsStatic() {
			return []Effect{runs("options of tar's not known here")}, true
		}
		c := Normalize(append([]word.Word{word.FromLit("tar")}, fields()...), false)
		effs := tarOptionEffects(c)
		if c.HasAny("--use-compress-program", "--to-command", "--checkpoint-action", "--info-script", "--rsh-command", "--rmt-command") {
			effs = append(effs, runs("a program tar's options name"))
		}
		return effs, true
	case "MANOPT":
		// man reads MANOPT as options before its own: -H/--html runs a
		// browser, -P/--pager a pager, -C/--config-file a configuration
		// that names programs (man-db).
		f := fields()
		if !value.IsStatic() || gnuFlag(f, "--html") || gnuShort(f, manFlags, 'H') || gnuFlag(f, "--pager") || gnuShort(f, manFlags, 'P') ||
			gnuFlag(f, "--config-file") || gnuShort(f, manFlags, 'C') {
			return []Effect{runs("a program man's options name")}, true
		}
		return nil, true
	case "XZ_OPT", "XZ_DEFAULTS":
		// xz reads them as options before its own, wherever it runs (tar
		// -J runs it): --files=F compresses the files F names, and
		// removes each (xz 5.4: XZ_OPT=--files=list tar cJf o empty
		// replaced the file in list by its .xz).
		f := fields()
		names := gnuValues(f, "", "--files", "--files0")
		if !value.IsStatic() || len(names) > 0 {
			effs := []Effect{runs("the files xz's --files list names, compressed and removed")}
			for _, n := range names {
				effs = append(effs, Effect{Path: n, Access: Read})
			}
			return effs, true
		}
		return nil, true
	case "RIPGREP_CONFIG_PATH":
		return []Effect{{Path: value, Access: Read}, runs("a program the ripgrep configuration may name (--pre)")}, true
	case "KUBECONFIG":
		var effs []Effect
		if v, ok := value.Static(); ok {
			for _, f := range strings.Split(v, ":") {
				if f != "" {
					effs = append(effs, Effect{Path: word.FromLit(f), Access: Read})
				}
			}
		}
		return append(effs, runs("a program the kubeconfig may name (a user's exec credential plugin)")), true
	}
	return nil, false
}

// archiveStyleOption reports whether a tar or zip option only changes
// how members are stored or restored, not which are read.
func archiveStyleOption(o string) bool {
	name, _, _ := strings.Cut(o, "=")
	switch name {
	case "--no-same-owner", "--same-owner", "--no-same-permissions", "--same-permissions", "--preserve-permissions",
		"-p", "-v", "--verbose", "--warning", "--numeric-owner", "--owner", "--group", "--mode", "--mtime", "--sort",
		"--format", "-z", "-j", "-J", "--gzip", "--bzip2", "--xz", "--zstd", "--no-overwrite-dir", "--overwrite",
		"--keep-old-files", "--skip-old-files", "--delay-directory-restore", "--touch", "-m", "-q", "--quiet", "-X":
		return true
	}
	return len(o) == 2 && o[0] == '-' && o[1] >= '0' && o[1] <= '9' // zip -0 … -9
}
