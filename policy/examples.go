package policy

import (
	"fmt"
	"os"

	"github.com/guard-exec/guard-exec/shellparse"
	"github.com/guard-exec/guard-exec/word"
)

// Parts reads a command into parts, with the working directory at the
// project root. It is how examples are read.
func (pol *Policy) Parts(command, cwd string) ([]*Part, error) {
	if cwd == "" {
		cwd = pol.Env.Project
	}
	res, err := shellparse.Parse(command, shellparse.Options{Cwd: cwd, Getenv: pol.getenv})
	if err != nil {
		return nil, err
	}
	parts := make([]*Part, len(res.Cmds))
	env := pol.Env.ForJudgement()
	for i, c := range res.Cmds {
		parts[i] = NewPart(c, env)
	}
	return parts, nil
}

func (pol *Policy) getenv(k string) string {
	switch k {
	case "HOME":
		return pol.Env.Home
	case "TMPDIR":
		if len(pol.Env.Temp) > 0 {
			return pol.Env.Temp[0]
		}
	}
	return os.Getenv(k)
}

// Matches reports whether the rule certainly matches some part of command.
func (r *Rule) Matches(pol *Policy, command string) (bool, error) {
	parts, err := pol.Parts(command, "")
	if err != nil {
		return false, err
	}
	for _, p := range parts {
		if r.isPath() {
			if t, _, _ := r.matchPart(p, coverNone); t == word.Yes {
				return true, nil
			}
			continue
		}
		if r.matchCommandAspect(p) == word.Yes {
			return true, nil
		}
	}
	return false, nil
}

// CheckExamples runs a rule's match and not_match examples.
func (pol *Policy) CheckExamples(r *Rule) error {
	fail := func(msg string) error {
		file, line := splitSource(r.Source)
		return &ConfigError{File: file, Line: line, Msg: msg, Hint: "fix the rule or its example"}
	}
	for _, ex := range r.Match {
		ok, err := r.Matches(pol, ex)
		if err != nil {
			return fail(fmt.Sprintf("example %q cannot be read: %v", ex, err))
		}
		if !ok {
			return fail(fmt.Sprintf("rule does not match its example %q (listed in match)", ex))
		}
	}
	for _, ex := range r.NotMatch {
		ok, err := r.Matches(pol, ex)
		if err != nil {
			return fail(fmt.Sprintf("example %q cannot be read: %v", ex, err))
		}
		if ok {
			return fail(fmt.Sprintf("rule matches %q, which is listed in not_match", ex))
		}
	}
	return nil
}

func splitSource(src string) (string, int) {
	for i := len(src) - 1; i >= 0; i-- {
		if src[i] == ':' {
			n := 0
			if _, err := fmt.Sscanf(src[i+1:], "%d", &n); err == nil {
				return src[:i], n
			}
			break
		}
	}
	return src, 0
}
