package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/guard-exec/guard-exec/install"
	"github.com/guard-exec/guard-exec/internal/inert"
	"github.com/guard-exec/guard-exec/state"
)

// cmdShowStatus shows what is in force here: the integrations installed, the
// configuration layers that apply to commands run in this directory
// (and whether the project file is trusted), and this session's approvals.
func cmdShowStatus(e *env, args []string) int {
	fs := newFlags(e, "status", "")
	if code, ok := fs.parse(args, 0, 0); !ok {
		return code
	}
	w := e.stdout
	s, err := load(e, e.cwd)
	fmt.Fprintf(w, "guard-exec %s\n", versionString())
	fmt.Fprintf(w, "\nconfiguration for commands run in %s:\n", inert.Line(e.cwd))
	fmt.Fprintf(w, "  built-in defaults\n")
	if fileExists(s.configPath) {
		fmt.Fprintf(w, "  user config:    %s\n", inert.Line(s.configPath))
	} else {
		fmt.Fprintf(w, "  user config:    %s (not present)\n", inert.Line(s.configPath))
	}
	if text, rerr := os.ReadFile(s.projectFile); rerr == nil {
		trust := "NOT trusted: its allow rules and presets are ignored (run guard-exec trust after reading it)"
		if s.stateDir != "" {
			if ok, _ := state.IsTrusted(s.stateDir, s.projectFile, text); ok {
				trust = "trusted"
			}
		}
		fmt.Fprintf(w, "  project config: %s (%s)\n", inert.Line(s.projectFile), trust)
	} else {
		fmt.Fprintf(w, "  project config: none (the project root is %s)\n", inert.Line(filepath.Dir(s.projectFile)))
	}
	if err != nil {
		fmt.Fprintf(w, "  BROKEN: %s — every command is refused until it is fixed\n", inert.Line(err.Error()))
	} else {
		fmt.Fprintf(w, "  mode: %s\n", s.mode)
		if len(s.pol.Settings.Presets) > 0 {
			fmt.Fprintf(w, "  presets: %s\n", strings.Join(s.pol.Settings.Presets, ", "))
		}
	}
	fmt.Fprintf(w, "\nsession %s approvals:\n", inert.Line(s.session))
	if s.stateDir == "" || s.session == "" {
		fmt.Fprintf(w, "  (no state directory or session id: approvals are for one run only)\n")
	} else if approvals, aerr := state.Approvals(s.stateDir, s.session); len(approvals) == 0 {
		fmt.Fprintf(w, "  none\n")
		if aerr != nil && !errors.Is(aerr, state.ErrCorrupt) {
			fmt.Fprintf(w, "  (%s)\n", inert.Line(aerr.Error()))
		}
	} else {
		for i, a := range approvals {
			rule := strings.Join(strings.Fields(strings.ReplaceAll(a.Rule, "[[rule]]", "")), " ")
			fmt.Fprintf(w, "  %d. %s  (%s, approving: %s)\n", i+1, inert.Line(rule), a.Time.Local().Format("2006-01-02 15:04"), inert.Line(a.Command))
		}
		fmt.Fprintf(w, "  guard-exec forget [N…] revokes them\n")
	}
	fmt.Fprintf(w, "\nintegrations:\n")
	ienv, ierr := installEnv(e, "")
	for _, c := range install.Clients() {
		if ierr != nil {
			break
		}
		switch c {
		case "github-actions", "gitlab-ci", "path-shim":
			continue // set up in files or directories of the person's choosing
		}
		plan, perr := install.Install(c, ienv)
		switch {
		case perr != nil:
			fmt.Fprintf(w, "  %-12s cannot tell: %s\n", c, inert.Line(perr.Error()))
		case len(plan.Changes) == 0:
			fmt.Fprintf(w, "  %-12s installed\n", c)
		default:
			fmt.Fprintf(w, "  %-12s not installed (guard-exec install %s)\n", c, c)
		}
	}
	if err != nil {
		configErr(e, err)
		return ExitCheckError
	}
	return 0
}

// cmdForget revokes this session's approvals: all, or those numbered as
// status lists them. Only ever a tightening, so it needs no terminal.
func cmdForget(e *env, args []string) int {
	fs := newFlags(e, "forget", "[N…]   (numbers as guard-exec status lists them; none: all of this session's approvals)")
	if code, ok := fs.parse(args, 0, -1); !ok {
		return code
	}
	var which []int
	for _, a := range fs.Args() {
		n, err := strconv.Atoi(a)
		if err != nil || n < 1 {
			fmt.Fprintf(e.stderr, "guard-exec forget: error: %q is not an approval number\n", a)
			fs.help(e.stderr)
			return ExitUsage
		}
		which = append(which, n)
	}
	sd, id := e.stateDir(), ""
	if sid, err := state.SessionID(e.get); err == nil {
		id = sid
	}
	if sd == "" || id == "" {
		fmt.Fprintf(e.stderr, "guard-exec forget: error: no state directory or session id here, so there are no session approvals\n")
		return ExitCannotRun
	}
	n, err := state.ForgetApprovals(sd, id, which)
	if err != nil {
		fmt.Fprintf(e.stderr, "guard-exec: error: %v\n", err)
		return ExitUsage
	}
	fmt.Fprintf(e.stderr, "guard-exec: revoked %d approval(s) of session %s\n", n, id)
	return 0
}
