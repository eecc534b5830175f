package main

import (
	"fmt"
	"strings"

	"github.com/guard-exec/guard-exec/internal/inert"
	"github.com/guard-exec/guard-exec/judge"
	"github.com/guard-exec/guard-exec/policy"
	"github.com/guard-exec/guard-exec/word"
)

// report explains a refusal on stderr: what was refused, why, and which
// route is open instead. Its words avoid those that agents read as a
// sandbox denial ("permission denied", "not permitted", "sandbox" …).
//
// What it prints reaches the model, which has file-edit tools the guard
// never sees: it names the person's road (ask them; they can see how to
// allow it with guard-exec explain), never a configuration edit that would
// unblock the command. Command text is shown inert: a command cannot move
// the cursor, erase these lines or retitle the window of whoever reads
// them.
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
	fmt.Fprintf(w, "guard-exec: %s (%s): %s\n", label, outcome, inert.Line(what))
	if res.ParseError != "" {
		if req.Name != "" && res.Line > 0 {
			fmt.Fprintf(w, "guard-exec:   at %s:%d\n", inert.Line(req.Name), res.Line)
		}
		fmt.Fprintf(w, "guard-exec:   why: %s\n", inert.Line(res.Reason))
		if res.Instead != "" {
			fmt.Fprintf(w, "guard-exec:   instead: %s\n", inert.Line(res.Instead))
		}
		annotate(e, req, res.Line, res.Reason, warning)
		return
	}
	asks := false
	for _, p := range res.Refused() {
		loc := ""
		if req.Name != "" && p.Line > 0 {
			loc = fmt.Sprintf("%s:%d: ", req.Name, p.Line)
		}
		fmt.Fprintf(w, "guard-exec:   %s%s: %s\n", inert.Line(loc), p.Decision, inert.Line(p.Text()))
		fmt.Fprintf(w, "guard-exec:     why: %s\n", inert.Line(p.Reason))
		if len(p.Via) > 0 {
			fmt.Fprintf(w, "guard-exec:     found in: %s\n", inert.Line(strings.Join(p.Via, " > ")))
		}
		switch {
		case p.Instead != "":
			fmt.Fprintf(w, "guard-exec:     instead: %s\n", inert.Line(p.Instead))
		case p.Verdict.Decision == policy.Ask:
			fmt.Fprintf(w, "guard-exec:     instead: ask the person to approve it\n")
		}
		asks = asks || p.Verdict.Decision == policy.Ask && p.Verdict.AbsoluteDeny == word.No
		annotate(e, req, p.Line, p.Decision+": "+p.Text()+": "+p.Reason, warning)
	}
	if res.Decided == policy.Deny {
		for _, p := range res.Refused() {
			if p.Verdict.Rule != nil && p.Verdict.Rule.Absolute {
				fmt.Fprintf(w, "guard-exec:   this is on the absolute denylist: no configuration allows it under the guard\n")
				return
			}
		}
		return
	}
	if asks && !warning {
		// The person's own view (explain) shows the rule that would allow
		// it; the model is told to ask, not how to change the policy.
		fmt.Fprintf(w, "guard-exec:   this needs a person: ask them to run it themselves, or to approve it where they can see the question (guard-exec explain shows them why it asks)\n")
		if s.askID > 0 {
			fmt.Fprintf(w, "guard-exec:   to allow it for this session, the person runs in their own terminal: guard-exec allow %d (then run the command again)\n", s.askID)
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
		props = " file=" + escapeProp(inert.Line(req.Name))
		if line > 0 {
			props += fmt.Sprintf(",line=%d", line)
		}
	}
	fmt.Fprintf(e.stdout, "::%s%s::guard-exec: %s\n", kind, props, escapeData(inert.Line(msg)))
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
