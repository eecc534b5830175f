package main

import (
	"fmt"
	"strings"

	"github.com/guard-exec/guard-exec/judge"
	"github.com/guard-exec/guard-exec/policy"
)

// report explains a refusal on stderr: what was refused, why, and which
// route is open instead. Its words avoid those that agents read as a
// sandbox denial ("permission denied", "not permitted", "sandbox" …).
func report(e *env, s *setup, req judge.Request, res *judge.Result, outcome string, warning bool) {
	label := "refused"
	if warning {
		label = "warning"
	}
	w := e.stderr
	what := firstLine(req.Source)
	if req.Name != "" {
		what = req.Name // each refused part below carries its own file:line
	}
	fmt.Fprintf(w, "guard-exec: %s (%s): %s\n", label, outcome, what)
	if res.ParseError != "" {
		if req.Name != "" && res.Line > 0 {
			fmt.Fprintf(w, "guard-exec:   at %s:%d\n", req.Name, res.Line)
		}
		fmt.Fprintf(w, "guard-exec:   why: %s\n", res.Reason)
		if res.Instead != "" {
			fmt.Fprintf(w, "guard-exec:   instead: %s\n", res.Instead)
		}
		annotate(e, req, res.Line, res.Reason, warning)
		return
	}
	var rules []policy.Remembered
	rememberable := true
	for _, p := range res.Refused() {
		loc := ""
		if req.Name != "" && p.Line > 0 {
			loc = fmt.Sprintf("%s:%d: ", req.Name, p.Line)
		}
		fmt.Fprintf(w, "guard-exec:   %s%s: %s\n", loc, p.Decision, p.Text())
		why := p.Reason
		if p.Source != "" && !strings.HasPrefix(p.Source, "built-in") {
			why += " (rule at " + p.Source + ")"
		}
		fmt.Fprintf(w, "guard-exec:     why: %s\n", why)
		if len(p.Via) > 0 {
			fmt.Fprintf(w, "guard-exec:     found in: %s\n", strings.Join(p.Via, " > "))
		}
		switch {
		case p.Instead != "":
			fmt.Fprintf(w, "guard-exec:     instead: %s\n", p.Instead)
		case p.Verdict.Decision == policy.Ask:
			fmt.Fprintf(w, "guard-exec:     instead: ask the person to run it, or to allow it (below)\n")
		}
		if p.Verdict.Decision == policy.Ask {
			rs, ok := policy.Remember(p.P, p.Verdict)
			rememberable = rememberable && ok
			for _, r := range rs {
				if !containsRule(rules, r) {
					rules = append(rules, r)
				}
			}
		}
		annotate(e, req, p.Line, p.Decision+": "+p.Text()+": "+p.Reason, warning)
	}
	if res.D == policy.Deny {
		for _, p := range res.Refused() {
			if p.Verdict.Rule != nil && p.Verdict.Rule.Absolute {
				fmt.Fprintf(w, "guard-exec:   this is on the absolute denylist: no configuration allows it under the guard\n")
				return
			}
		}
		return
	}
	if len(rules) > 0 && rememberable && !warning {
		fmt.Fprintf(w, "guard-exec:   a person can allow it by adding to %s:\n", s.configPath)
		for _, r := range rules {
			for _, l := range strings.Split(strings.TrimSpace(r.TOML("")), "\n") {
				fmt.Fprintf(w, "guard-exec:     %s\n", l)
			}
		}
	}
}

// annotate writes a GitHub Actions workflow command, the one case where
// the guard writes to stdout: the runner reads annotations from there.
func annotate(e *env, req judge.Request, line int, msg string, warning bool) {
	if e.get("GITHUB_ACTIONS") != "true" {
		return
	}
	kind := "error"
	if warning {
		kind = "warning"
	}
	props := ""
	if req.Name != "" {
		props = " file=" + escapeProp(req.Name)
		if line > 0 {
			props += fmt.Sprintf(",line=%d", line)
		}
	}
	fmt.Fprintf(e.stdout, "::%s%s::guard-exec: %s\n", kind, props, escapeData(msg))
}

func escapeData(s string) string {
	s = strings.ReplaceAll(s, "%", "%25")
	s = strings.ReplaceAll(s, "\r", "%0D")
	return strings.ReplaceAll(s, "\n", "%0A")
}

func escapeProp(s string) string {
	s = escapeData(s)
	s = strings.ReplaceAll(s, ":", "%3A")
	return strings.ReplaceAll(s, ",", "%2C")
}
