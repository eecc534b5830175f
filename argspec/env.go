package argspec

import (
	"strings"

	"github.com/guard-exec/guard-exec/word"
)

// EnvEffects are the paths a tool writes because a variable has a value
// (GOCACHE=DIR go build, CARGO_TARGET_DIR=DIR cargo build,
// PYTEST_ADDOPTS=--basetemp=DIR pytest): each tool reads its own
// variables as places to write, or as more options. The names are the
// tools' own, so the variable is judged wherever the text sets it
// (exported, assigned, read), whichever program runs later. Variables that
// make a tool run code are the walker's (shellparse's carried code).
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
		"GOLANGCI_LINT_CACHE", "XDG_CACHE_HOME":
		return []Effect{{Path: value, Access: Write, Recursive: true}}
	case "PIP_LOG", "PIP_LOG_FILE", "PIP_REPORT":
		return []Effect{{Path: value, Access: Write}}
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
	switch strings.ToLower(name) {
	case "npm_config_cache", "npm_config_prefix", "npm_config_userconfig", "npm_config_globalconfig", "npm_config_tmp":
		return []Effect{{Path: value, Access: Write, Recursive: true}}
	}
	return nil
}
