package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/guard-exec/guard-exec/audit"
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
	e := &env{args: args, stdin: stdin, stdout: stdout, stderr: stderr, vars: map[string]string{}, list: environ}
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
	// approvalsErr is what is wrong with the session's approvals (corrupt
	// lines, a file too large): found again before every command, it is
	// said once, by whichever command prints warnings (printWarnings).
	approvalsErr error
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
	project := policy.ProjectRoot(cwd)
	s.projectFile = filepath.Join(project, ProjectFile)
	penv := &policy.Env{Home: home, Project: project, FollowLinks: true}
	if t := e.get("TMPDIR"); filepath.IsAbs(t) {
		penv.Temp = append(penv.Temp, filepath.Clean(t))
	}
	// The guard's own files: the config in use (and its lock), the
	// default config directories, the project file, the state directory.
	penv.Protect = append(penv.Protect, s.configPath, s.configPath+".lock", s.projectFile, filepath.Join(home, ".config", "guard-exec"))
	if x := e.get("XDG_CONFIG_HOME"); filepath.IsAbs(x) {
		penv.Protect = append(penv.Protect, filepath.Join(x, "guard-exec"))
	}
	if s.stateDir != "" {
		penv.Protect = append(penv.Protect, s.stateDir)
	}
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
		if s.stateDir != "" {
			trusted, err = state.IsTrusted(s.stateDir, s.projectFile, text)
			if err != nil {
				s.warnings = append(s.warnings, err.Error())
			}
		}
	}
	src := policy.Sources{Env: penv, User: user, Project: proj, ProjectTrusted: trusted, CheckExamples: true}
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
	fmt.Fprintf(e.stderr, "guard-exec: error: %v\n", err)
	var ce *policy.ConfigError
	if errors.As(err, &ce) && ce.Hint != "" {
		fmt.Fprintf(e.stderr, "guard-exec: hint: %s\n", ce.Hint)
	}
	fmt.Fprintf(e.stderr, "guard-exec: hint: until the configuration is fixed the guard refuses every command; check it with: guard-exec test\n")
}
