package argspec

import (
	"strings"
	"sync"

	"github.com/guard-exec/guard-exec/word"
)

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
func poetryCarried(r *carry) {
	if len(r.argv) < 2 {
		return
	}
	// --directory/-C and --project/-P make poetry work on another
	// project, and install runs its build code (checked with Poetry 1.3:
	// a build script there ran). What poetry run runs is not poetry's.
	own := r.argv[1:]
	for i, a := range own {
		if t, _ := a.Static(); t == "run" {
			own = own[:i]
			break
		}
	}
	for _, v := range OptionValues(own, "-C", "--directory", "-P", "--project") {
		if r.outside(v) {
			r.Opaque("poetry works on the project in " + v.String() + ", and runs its build code")
			return
		}
	}
	if t, _ := r.argv[1].Static(); t == "run" {
		r.Argv(pythonCommand(r.argv[2:]), "poetry run", true)
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
var uvRunSpec = &Spec{Name: "uv run", Notation: "extra= all-extras no-extra= no-dev dev only-dev group= no-group= no-default-groups only-group= all-groups m,module no-editable exact no-env-file with= with-editable= with-requirements= isolated active no-active no-sync locked frozen s,script gui-script all-packages package= no-project p,python= directory= project= offline q,quiet v,verbose no-cache n cache-dir= index= default-index= i,index-url= extra-index-url= f,find-links= no-index U,upgrade P,upgrade-package= reinstall reinstall-package= refresh refresh-package= compile-bytecode color= native-tls no-progress no-config no-python-downloads managed-python no-managed-python python-preference= preview no-preview env-file= config-file= link-mode= resolution= prerelease= exclude-newer= no-build no-build-isolation no-binary h,help"}

// uvCarried: uv run COMMAND runs it in the project's environment; uv
// tool run (uvx) downloads a tool named on the command line and runs it.
func uvCarried(r *carry) {
	if len(r.argv) < 2 {
		return
	}
	switch t, _ := r.argv[1].Static(); t {
	case "run":
		r.uvRun(r.argv[1:])
	case "pip":
		if len(r.argv) > 2 {
			if t, _ := r.argv[2].Static(); t == "install" {
				r.pipInstall(r.argv[3:])
			}
		}
	case "add":
		r.pipInstall(r.argv[2:])
	case "tool":
		if len(r.argv) > 2 {
			if t, _ := r.argv[2].Static(); t == "run" {
				r.Opaque("uv tool run downloads and runs a tool named on the command line")
			}
		}
	}
}

func uvxCarried(r *carry) {
	r.Opaque("uvx downloads and runs a tool named on the command line")
}

func (r *carry) uvRun(args []word.Word) {
	c, rest, reason := ReadWrapper(args, uvRunSpec)
	if reason != "" {
		r.Opaque(reason)
		return
	}
	for _, o := range c.Opts {
		switch o.Name {
		case "--with", "--with-editable", "--with-requirements":
			r.Opaque("uv run " + o.Name + " adds packages named on the command line, whose code may run")
		case "--env-file", "--config-file":
			r.Opaque("uv run " + o.Name + " reads settings (and environment) from " + o.Value.String())
		case "--directory", "--project":
			if r.outside(*o.Value) {
				r.Opaque("uv run " + o.Name + " runs in the project at " + o.Value.String() + ", not this one")
			}
		case "--python":
			if t, ok := o.Value.Static(); !ok || strings.ContainsAny(t, "/~") {
				r.Opaque("uv run --python " + o.Value.String() + " runs that interpreter")
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
	r.Argv(rest, "uv run", true)
}

// toxCarried: tox runs the project's tox.ini; tox exec runs a command in
// an environment; -c names another configuration, --override changes it.
func toxCarried(r *carry) {
	args := r.argv[1:]
	for i := 0; i < len(args); i++ {
		t, ok := args[i].Static()
		if !ok {
			if args[i].CouldStartWith('-') {
				r.Opaque("tox with an argument not known here where an option could be")
				return
			}
			continue
		}
		switch {
		case t == "--":
			if hasOperand(r.argv[:i+1], "exec") || hasOperand(r.argv[:i+1], "e") {
				r.Argv(args[i+1:], "tox exec", true)
			}
			return
		case t == "-x" || t == "--override" || strings.HasPrefix(t, "--override="):
			r.Opaque("tox --override changes the commands tox.ini runs")
		case t == "-c" || t == "--conf" || t == "--root" || t == "--installpkg" || strings.HasPrefix(t, "-c") && !strings.HasPrefix(t, "--") ||
			strings.HasPrefix(t, "--conf=") || strings.HasPrefix(t, "--root=") || strings.HasPrefix(t, "--installpkg="):
			name, val, hasVal := strings.Cut(t, "=")
			if strings.HasPrefix(t, "-c") && len(t) > 2 && !strings.HasPrefix(t, "--") {
				name, val, hasVal = "-c", t[2:], true // -c/tmp/tox.ini
			}
			v := word.FromLit(val)
			if !hasVal && i+1 < len(args) {
				i++
				v = args[i]
			}
			if r.outside(v) {
				r.Opaque("tox " + name + " uses " + v.String() + " (a configuration or package from outside the project)")
			}
		}
	}
}

// noxCarried: nox -f names another noxfile.
func noxCarried(r *carry) {
	args := r.argv[1:]
	// An interpreter nox runs: a name (python3.12) or a path.
	for _, v := range OptionValues(args, "-P", "--force-python", "--extra-python") {
		if s, ok := v.Static(); !ok || strings.Contains(s, "/") {
			r.program(v, "nox -P (the python it runs)")
		}
	}
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
			if t2, _ := v.Static(); r.outside(v) || !strings.HasSuffix(t2, "noxfile.py") {
				r.Opaque("nox -f runs the noxfile " + v.String() + ", not the project's")
			}
		}
	}
}

var coverageRunSpec = &Spec{Name: "coverage run", Notation: "a,append branch concurrency= context= data-file= L,pylib m,module p,parallel-mode source= timid include= omit= rcfile= debug= save-signal= h,help"}

// coverageCarried: coverage run PROGRAM or -m MODULE runs it with python.
func coverageCarried(r *carry) {
	if len(r.argv) < 2 {
		return
	}
	if t, _ := r.argv[1].Static(); t != "run" {
		return
	}
	c, rest, reason := ReadWrapper(r.argv[1:], coverageRunSpec)
	if reason != "" {
		r.Opaque(reason)
		return
	}
	// The rc file can write data anywhere and names plugins it imports;
	// the data file is written (checked with coverage 6.5: an ordinary
	// file became an SQLite database). The data file's place is a path
	// effect (argspec's WrapperEffects).
	for _, v := range c.Values("--rcfile") {
		if r.outside(v) {
			r.Opaque("coverage run --rcfile " + v.String() + " reads a configuration outside the working directory, which can import plugins")
		}
	}
	if len(rest) == 0 {
		return
	}
	argv := append([]word.Word{word.FromLit("python")}, rest...)
	if c.Has("--module") {
		argv = append([]word.Word{word.FromLit("python"), word.FromLit("-m")}, rest...)
	}
	r.Argv(argv, "coverage run", true)
}

// pytest loads its test files and their conftest.py, and a config file
// (-c) or root directory whose settings add plugins.
// pylint, mypy and flake8 load configuration that names code (pylint's
// init-hook and load-plugins, mypy's plugins, flake8's local-plugins) and
// plugins; pylint --init-hook is Python code, mypy --python-executable a
// program (checked with pylint 2.16, mypy 1.0, flake8 5.0: each ran a
// witness).
var (
	pylintLoader  = &codeLoader{valued: "--output -j --jobs -d --disable -e --enable -f --output-format --max-line-length --ignore --ignore-patterns --ignore-paths --fail-under --msg-template --init-hook", code: "--rcfile --load-plugins", operands: true, always: "--init-hook"}
	mypyLoader    = &codeLoader{valued: "--cache-dir --junit-xml --html-report --txt-report --xml-report --linecount-report --any-exprs-report --cobertura-xml-report --lineprecision-report --python-version --platform -m --module -p --package --exclude --python-executable --config-file", code: "--config-file", operands: true, always: "--python-executable"}
	pyrightLoader = &codeLoader{valued: "-p --project --pythonpath --pythonplatform --pythonversion --venvpath -t --typeshedpath --level --threads", code: "-p --project --venvpath -t --typeshedpath", operands: true, always: "--pythonpath"}
	flake8Loader  = &codeLoader{valued: "--output-file --max-line-length --select --ignore --extend-ignore --extend-select --exclude --extend-exclude --per-file-ignores --format --max-complexity -j --jobs --config --append-config", code: "--config --append-config", operands: true}
)

var pytestLoader = &codeLoader{valued: "-k -m -p -o --override-ini -W --pythonwarnings -n --numprocesses -r --maxfail --junitxml --junit-xml --basetemp --cov --cov-report --durations --tb --log-level --log-file --log-cli-level --deselect --ignore --ignore-glob --import-mode --timeout --capture --color --junit-prefix --dist --reruns --cov-fail-under", code: "-c --config-file --rootdir --confcutdir --cov-config", operands: true, exact: true}

// pipValued are pip install's options that take a value.
var pipValued = "-r --requirement -c --constraint -e --editable -t --target --platform --python-version --implementation --abi --root --prefix --src --upgrade-strategy -C --config-settings --global-option --no-binary --only-binary --progress-bar --root-user-action --report -i --index-url --extra-index-url -f --find-links --log --proxy --retries --timeout --exists-action --trusted-host --cert --client-cert --cache-dir --use-feature --use-deprecated --python --keyring-provider --resume-retries --group"

var pipSets = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, f := range strings.Fields(pipValued) {
		m[f] = true
	}
	return m
})

// pipLong is the valued option a unique prefix names, as optparse reads
// it; otherwise the name as it is.
func pipLong(name string) string {
	found := ""
	for _, f := range strings.Fields(pipValued) {
		if strings.HasPrefix(f, "--") && strings.HasPrefix(f, name) {
			if found != "" {
				return name // ambiguous: pip refuses it
			}
			found = f
		}
	}
	if found == "" {
		return name
	}
	return found
}

// pipCarried: pip install of the project (., -e ., -r requirements.txt)
// and of named packages is ordinary; a path outside the working
// directory or a URL (git+https://…, a file://) hands pip code to build.
func pipCarried(r *carry) {
	if len(r.argv) < 2 {
		return
	}
	if t, _ := r.argv[1].Static(); t != "install" && t != "download" && t != "wheel" {
		return
	}
	r.pipInstall(r.argv[2:])
}

func (r *carry) pipInstall(args []word.Word) {
	valued := pipSets()
	for i := 0; i < len(args); i++ {
		a := args[i]
		t, ok := pathText(a) // a glob such as .[dev] is a requirement's extras
		if !ok {
			r.Opaque("pip install with an argument not known here")
			return
		}
		name, val, hasVal := strings.Cut(t, "=")
		if strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--") && len(t) > 2 && valued[t[:2]] {
			name, val, hasVal = t[:2], t[2:], true
		}
		if strings.HasPrefix(name, "--") && !valued[name] {
			name = pipLong(name) // optparse takes a unique prefix: --index-u
		}
		switch {
		case strings.HasPrefix(t, "-") && valued[name]:
			v := val
			if !hasVal {
				if i+1 >= len(args) {
					continue
				}
				i++
				if v, ok = pathText(args[i]); !ok {
					r.Opaque("pip install " + name + " with a value not known here")
					continue
				}
			}
			switch name {
			case "-r", "--requirement", "-c", "--constraint", "-e", "--editable":
				r.pipSource(v)
			case "-f", "--find-links", "-i", "--index-url", "--extra-index-url":
				// A local directory or file:// index: pip builds the
				// sdists there, running their setup.py (checked with pip
				// 23.2). A remote index is no worse than PyPI.
				if strings.HasPrefix(v, "file:") || !strings.Contains(v, "://") && r.outside(word.FromLit(v)) {
					r.Opaque("pip install " + name + " " + v + " builds packages from there, running their code")
				}
			}
		case strings.HasPrefix(t, "-"):
		default:
			r.pipSource(t)
		}
	}
}

// pipSource judges one requirement: a name (with a version or extras),
// a local path, or a URL.
func (r *carry) pipSource(t string) {
	if _, url, ok := strings.Cut(t, " @ "); ok {
		t = strings.TrimSpace(url)
	}
	switch {
	case strings.Contains(t, "://") || strings.HasPrefix(t, "git+") || strings.HasPrefix(t, "hg+") || strings.HasPrefix(t, "svn+") || strings.HasPrefix(t, "bzr+"):
		r.Opaque("pip builds and installs " + t + ", code named by a URL")
	case strings.ContainsAny(t, "/~") || t == "." || t == "..":
		if r.outside(word.FromLit(t)) {
			r.Opaque("pip builds and installs " + t + ", code from outside the working directory")
		}
	}
}

// pythonEnv: PYTHONPATH entries outside the working directory and
// PYTHONHOME make python import code from elsewhere.
func (r *carry) pythonEnv(a envVar) bool {
	switch a.Name {
	case "PYTHONHOME":
		r.untrustedLocation(a, "python loads its standard library")
	case "PYTHONPATH":
		r.searchPath(a, "python imports modules")
	case "PIP_FIND_LINKS", "PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL":
		if t, ok := a.Value.Static(); !ok || strings.HasPrefix(t, "file:") || !strings.Contains(t, "://") && r.outside(a.Value) {
			r.Opaque(a.Name + "=" + a.Value.String() + " makes pip build packages from there, running their code")
		}
	case "PIP_EDITABLE", "PIP_REQUIREMENT", "PIP_CONSTRAINT":
		// pip reads them as -e, -r and -c (checked with pip 23.2: a
		// setup.py named by PIP_EDITABLE ran).
		if t, ok := a.Value.Static(); ok {
			for _, f := range strings.Fields(t) {
				r.pipSource(f)
			}
		} else {
			r.Opaque(a.Name + " is set to a value not known here: pip installs from it")
		}
	case "POETRY_VIRTUALENVS_PATH", "UV_PROJECT_ENVIRONMENT":
		// Where poetry run and uv run find the programs they run.
		if r.outside(a.Value) {
			r.Opaque(a.Name + "=" + a.Value.String() + " is outside the working directory: the tool runs the programs of the environments there")
		}
	case "UV_PYTHON":
		if t, ok := a.Value.Static(); !ok || strings.Contains(t, "/") {
			r.program(a.Value, "UV_PYTHON (the python uv runs)")
		}
	case "PIP_CONFIG_FILE", "UV_CONFIG_FILE", "POETRY_CONFIG_DIR":
		r.Opaque(a.Name + " names a tool's configuration, which can name indexes, find-links and sources to build from")
	case "PYTHONUSERBASE", "VIRTUAL_ENV":
		// site imports .pth code from the user base; poetry run and uv
		// run the programs of VIRTUAL_ENV/bin. The project's own (.venv)
		// is the project's code.
		if r.outside(a.Value) {
			r.Opaque(a.Name + "=" + a.Value.String() + " is outside the working directory: python loads code, or its tools run programs, from there")
		}
	case "PYLINTRC", "COVERAGE_RCFILE":
		// pylint's init-hook is code; coverage's [run] plugins are
		// imported (checked with pylint 2.16 and coverage 6.5).
		if r.outside(a.Value) {
			r.Opaque(a.Name + "=" + a.Value.String() + " names a configuration outside the working directory, which can run code")
		}
	case "PYTEST_PLUGINS":
		r.Opaque("PYTEST_PLUGINS names modules pytest imports as plugins")
	case "PYTEST_ADDOPTS":
		// pytest reads it as options (what they write: argspec's
		// EnvEffects); -p and --pyargs load modules, -c and --rootdir a
		// configuration.
		t, ok := a.Value.Static()
		if !ok {
			r.Opaque("PYTEST_ADDOPTS is set to options not known here (pytest -p loads plugins)")
			return true
		}
		fs := strings.Fields(t)
		for i, f := range fs {
			if strings.HasPrefix(f, "-pno:") || f == "-p" && i+1 < len(fs) && strings.HasPrefix(fs[i+1], "no:") {
				continue // -p no:NAME disables a plugin
			}
			if strings.HasPrefix(f, "no:") && i > 0 && fs[i-1] == "-p" {
				continue
			}
			if strings.HasPrefix(f, "-p") || f == "--pyargs" || strings.HasPrefix(f, "-c") || strings.HasPrefix(f, "--rootdir") ||
				strings.HasPrefix(f, "--confcutdir") || strings.HasPrefix(f, "--config-file") || strings.HasPrefix(f, "-o") || strings.HasPrefix(f, "--override-ini") {
				r.Opaque("PYTEST_ADDOPTS passes " + f + " to pytest, which loads code or configuration by it")
				return true
			}
		}
	default:
		return false
	}
	return true
}
