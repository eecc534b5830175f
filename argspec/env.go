package argspec

import (
	"strings"

	"github.com/guard-exec/guard-exec/word"
)

// EnvEffects are the paths a program writes because of a variable set for
// it (GOCACHE=DIR go build, CARGO_TARGET_DIR=DIR cargo build,
// PYTEST_ADDOPTS=--basetemp=DIR pytest): each program reads its own
// variables as places to write, or as more options. Variables that make a
// program run code are the walker's (shellparse's carried code).
func EnvEffects(prog, name string, value word.Word) []Effect {
	if v, ok := value.Static(); ok && strings.TrimSpace(v) == "" {
		return nil // unset in effect
	}
	tree := func() []Effect { return []Effect{{Path: value, Access: Write, Recursive: true}} }
	file := func() []Effect { return []Effect{{Path: value, Access: Write}} }
	switch {
	case prog == "go":
		switch name {
		case "GOCACHE", "GOMODCACHE", "GOPATH", "GOBIN", "GOTMPDIR", "GOCOVERDIR", "GOTELEMETRYDIR":
			return tree()
		}
	case prog == "cargo":
		switch name {
		case "CARGO_TARGET_DIR", "CARGO_BUILD_TARGET_DIR", "CARGO_HOME", "CARGO_BUILD_DEP_INFO_BASEDIR":
			return tree()
		}
	case prog == "pip" || prog == "pip3" || strings.HasPrefix(prog, "pip3."):
		switch name {
		case "PIP_TARGET", "PIP_PREFIX", "PIP_ROOT", "PIP_CACHE_DIR", "PIP_SRC", "PIP_BUILD", "PIP_DEST", "PIP_DOWNLOAD_DIR":
			return tree()
		case "PIP_LOG", "PIP_LOG_FILE", "PIP_REPORT":
			return file()
		}
	case prog == "pytest" || prog == "py.test":
		if name == "PYTEST_ADDOPTS" {
			// Read as options before the command line's (shlex-split:
			// a value not known here may be any option).
			if v, ok := value.Static(); ok {
				var args []word.Word
				for _, f := range strings.Fields(v) {
					args = append(args, word.FromLit(f))
				}
				return pytestEffects(args)
			}
			return []Effect{{Path: word.Word{Segs: []word.Seg{{Kind: word.Hole, Text: value.String()}}}, Access: Write, Op: "delete", Recursive: true}}
		}
	case prog == "mypy" && name == "MYPY_CACHE_DIR", prog == "ruff" && name == "RUFF_CACHE_DIR",
		prog == "uv" && (name == "UV_CACHE_DIR" || name == "UV_PROJECT_ENVIRONMENT" || name == "UV_TOOL_DIR" || name == "UV_PYTHON_INSTALL_DIR"),
		prog == "poetry" && (name == "POETRY_CACHE_DIR" || name == "POETRY_VIRTUALENVS_PATH"):
		return tree()
	case IsPython(prog) && name == "PYTHONPYCACHEPREFIX":
		return tree()
	case prog == "npm" || prog == "npx" || prog == "pnpm" || prog == "yarn":
		switch strings.ToLower(name) {
		case "npm_config_cache", "npm_config_prefix", "npm_config_userconfig", "npm_config_globalconfig", "npm_config_tmp":
			return tree()
		}
	}
	return nil
}
