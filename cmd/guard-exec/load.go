package main

import (
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/guard-exec/guard-exec/audit"
	"github.com/guard-exec/guard-exec/install"
	"github.com/guard-exec/guard-exec/internal/inert"
	"github.com/guard-exec/guard-exec/internal/sha256"
	"github.com/guard-exec/guard-exec/policy"
	"github.com/guard-exec/guard-exec/shellparse"
	"github.com/guard-exec/guard-exec/state"
)

// env is the process's view of the world, passed in so tests can run the
// CLI in-process.
type env struct {
	args   []string
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	vars   map[string]string
	list   []string
	cwd    string
}

func newEnv(args []string, stdin io.Reader, stdout, stderr io.Writer, environ []string) *env {
	e := &env{args: args, stdin: stdin, stdout: stdout, stderr: stderr, vars: make(map[string]string, len(environ)), list: environ}
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			e.vars[k] = v
		}
	}
	e.cwd, _ = os.Getwd()
	if e.cwd == "" {
		e.cwd = e.vars["PWD"]
	}
	return e
}

func (e *env) get(k string) string { return e.vars[k] }

func (e *env) home() string {
	if h := e.get("HOME"); filepath.IsAbs(h) {
		return h
	}
	if h, err := os.UserHomeDir(); err == nil {
		return h
	}
	return "/"
}

// userConfigPath is the user's config file: GUARD_EXEC_CONFIG, else
// $XDG_CONFIG_HOME/guard-exec/config.toml, else ~/.config/guard-exec/config.toml.
func (e *env) userConfigPath() string {
	if p := e.get("GUARD_EXEC_CONFIG"); p != "" {
		if !filepath.IsAbs(p) {
			p = filepath.Join(e.cwd, p)
		}
		return p
	}
	if x := e.get("XDG_CONFIG_HOME"); filepath.IsAbs(x) {
		return filepath.Join(x, "guard-exec", "config.toml")
	}
	return filepath.Join(e.home(), ".config", "guard-exec", "config.toml")
}

func (e *env) stateDir() string { return state.Dir(e.get) }

// ProjectFile is the name of the project's config file.
const ProjectFile = ".guard-exec.toml"

// setup is everything a decision needs.
type setup struct {
	pol         *policy.Policy
	configPath  string
	projectFile string
	stateDir    string
	session     string
	mode        string
	audit       *audit.Log
	timeout     time.Duration
	warnings    []string
	askID       int // the approval queue's id of this command's ask, once it has one
	pinNotice   string
	// approvalsErr is what is wrong with the session's approvals (corrupt
	// lines, a file too large): found again before every command, it is
	// said once, by whichever command prints warnings (printWarnings).
	approvalsErr error
	// env is what the policy was told of where it judges (home, project,
	// protected files), for judging with other rules there (init).
	env *policy.Env
}

// TrustEnv pins the project policy a CI job trusts: "sha256:HEX" (or
// several, comma-separated). The project file is trusted when its hash is
// one of them, whatever the trust store says; a pull request that changes
// the policy is then not trusted until a person updates the pin in the
// workflow. Commands under the guard cannot change GUARD_EXEC_* variables.
const TrustEnv = "GUARD_EXEC_TRUST"

func projectHash(text []byte) string {
	sum := sha256.Sum256(text)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// pinned reports whether text is one of the pinned policies.
func pinned(pin string, text []byte) bool {
	h := projectHash(text)
	for _, p := range strings.Split(pin, ",") {
		if strings.EqualFold(strings.TrimSpace(p), h) {
			return true
		}
	}
	return false
}

// printWarnings returns the warnings to print now, and records that the
// approvals' problem has been said.
func (s *setup) printWarnings() []string {
	if s.approvalsErr != nil && state.FirstReport(s.stateDir, s.session, s.approvalsErr) {
		return append(s.warnings[:len(s.warnings):len(s.warnings)], s.approvalsErr.Error())
	}
	return s.warnings
}

// load reads the configuration layers for a command run in cwd. A broken
// configuration is an error: the caller refuses everything.
func load(e *env, cwd string) (*setup, error) {
	s := &setup{configPath: e.userConfigPath(), stateDir: e.stateDir()}
	home := e.home()
	configRoot, project, inProject := policy.ProjectRoots(cwd, home)
	s.projectFile = filepath.Join(configRoot, ProjectFile)
	penv := &policy.Env{Home: home, Project: project, NoProject: !inProject, FollowLinks: true, Vars: make([]string, 0, len(e.vars))}
	for k, v := range e.vars {
		if v != "" { // an empty variable holds no secret
			penv.Vars = append(penv.Vars, k)
		}
	}
	if t := e.get("TMPDIR"); filepath.IsAbs(t) {
		penv.Temp = append(penv.Temp, filepath.Clean(t))
	}
	if e.get("GITHUB_ACTIONS") == "true" {
		// The runner's files of workflow commands: outputs, the job
		// summary and state are data the runner reads; GITHUB_ENV and
		// GITHUB_PATH change what the job's later steps run.
		for _, k := range []string{"GITHUB_OUTPUT", "GITHUB_STEP_SUMMARY", "GITHUB_STATE"} {
			if f := e.get(k); filepath.IsAbs(f) {
				penv.RunnerData = append(penv.RunnerData, filepath.Clean(f))
			}
		}
		for _, k := range []string{"GITHUB_ENV", "GITHUB_PATH"} {
			if f := e.get(k); filepath.IsAbs(f) {
				penv.RunnerEnv = append(penv.RunnerEnv, filepath.Clean(f))
			}
		}
	}
	// The guard's own files: the config in use (and its lock), the
	// default config directories, the project file, the state directory.
	ienv := install.Env{Home: home, Getenv: e.get}
	penv.Protect = append(penv.Protect, install.GuardFiles(ienv, s.configPath, s.projectFile, s.stateDir)...)
	// And the guard's own program: one in a directory commands may write
	// (a temporary one, the project's bin/) could be replaced by the
	// next command, and every command after it would run unjudged.
	if exe, err := os.Executable(); err == nil && filepath.IsAbs(exe) {
		penv.Protect = append(penv.Protect, exe)
	}
	// The agents' own settings and hook files, and the guard's links.
	penv.ProtectAgent = install.AgentFiles(ienv, project)
	user, err := policy.LoadFile(s.configPath, policy.User)
	if err != nil {
		return s, err
	}
	var proj *policy.File
	trusted := false
	// A project file that exists but cannot be read (a FIFO, a device, too
	// large) refuses everything: it may hold deny rules.
	if text, err := policy.ReadConfig(s.projectFile); err != nil && !errors.Is(err, os.ErrNotExist) {
		return s, err
	} else if err == nil {
		proj, err = policy.ParseFile(s.projectFile, text, policy.Project)
		if err != nil {
			return s, err
		}
		if pin := e.get(TrustEnv); pin != "" {
			// A pinned policy (CI on a throwaway runner): trusted when it
			// is the file the workflow names by its hash, and only then.
			if trusted = pinned(pin, text); !trusted {
				s.pinNotice = fmt.Sprintf("%s does not match %s (its sha256 is %s): its allow rules and presets are ignored until a person updates the pin", s.projectFile, TrustEnv, projectHash(text))
			}
		} else if s.stateDir != "" {
			trusted, err = state.IsTrusted(s.stateDir, s.projectFile, text)
			if err != nil {
				s.warnings = append(s.warnings, err.Error())
			}
		}
	}
	src := policy.Sources{Env: penv, User: user, Project: proj, ProjectTrusted: trusted, CheckExamples: true}
	s.env = penv
	if id, err := state.SessionID(e.get); err == nil {
		s.session = id
		if s.stateDir != "" {
			approvals, aerr := state.Approvals(s.stateDir, id)
			s.approvalsErr = aerr
			texts, sources := make([]string, len(approvals)), make([]string, len(approvals))
			for i, a := range approvals {
				texts[i], sources[i] = a.Rule, "session "+id+" approval "+strconv.Itoa(i+1)
			}
			rules, _ := policy.ParseRuleTexts(texts, sources)
			for _, r := range rules {
				if r != nil {
					src.Session = append(src.Session, r)
				}
			}
		}
	}
	s.pol, err = policy.Build(src)
	if err != nil {
		return s, err
	}
	if s.pinNotice != "" {
		// Said instead of the trust store's notice, which would send a
		// CI job's reader to guard-exec trust.
		var keep []string
		for _, n := range s.pol.Notices {
			if !strings.HasPrefix(n, s.projectFile+" is not trusted") {
				keep = append(keep, n)
			}
		}
		s.pol.Notices = append(keep, s.pinNotice)
	}
	s.mode = s.pol.Settings.Mode
	if m := e.get("GUARD_EXEC_MODE"); m != "" {
		if m != "enforce" && m != "audit" {
			return s, fmt.Errorf("GUARD_EXEC_MODE must be \"enforce\" or \"audit\", not %q", m)
		}
		s.mode = m
	}
	if s.mode == "" {
		s.mode = "enforce"
	}
	s.timeout = s.pol.Settings.PromptTimeout
	if s.timeout == 0 {
		s.timeout = 5 * time.Minute
	}
	if s.stateDir != "" {
		redact := e.get("CI") != ""
		if s.pol.Settings.AuditRedact != nil {
			redact = *s.pol.Settings.AuditRedact
		}
		s.audit = &audit.Log{Path: filepath.Join(s.stateDir, "audit.jsonl"), Redact: redact}
	}
	return s, nil
}

// readScript reads a script to judge: at most one byte more than the
// guard examines (shellparse.MaxBytes), so that /dev/zero or an endless
// pipe is judged too large instead of filling memory. Unlike a config, a
// script may be a FIFO: bash <(…) reads one, and waits for it as bash does.
func readScript(r io.Reader) ([]byte, error) {
	return io.ReadAll(io.LimitReader(r, shellparse.MaxBytes+1))
}

// readScriptFile is readScript of the file at path.
func readScriptFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readScript(f)
}

// configErr prints a configuration error the way every command does.
func configErr(e *env, err error) {
	for _, ce := range configErrors(err) {
		fmt.Fprintf(e.stderr, "guard-exec: error: %s\n", inert.Line(ce.Error()))
		if ce.Hint != "" {
			fmt.Fprintf(e.stderr, "guard-exec: hint: %s\n", inert.Line(ce.Hint))
		}
	}
	fmt.Fprintf(e.stderr, "guard-exec: hint: until the configuration is fixed the guard refuses every command; check it with: guard-exec test\n")
}

// configErrors lists every problem an error holds: each *ConfigError of
// a policy.ConfigErrors, or the error itself.
func configErrors(err error) []*policy.ConfigError {
	var all policy.ConfigErrors
	if errors.As(err, &all) {
		return all
	}
	var ce *policy.ConfigError
	if errors.As(err, &ce) {
		return []*policy.ConfigError{ce}
	}
	return []*policy.ConfigError{{Msg: err.Error()}}
}
