package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/guard-exec/guard-exec/internal/inert"
	"github.com/guard-exec/guard-exec/judge"
	"github.com/guard-exec/guard-exec/prompt"
	"github.com/guard-exec/guard-exec/state"
)

// The approval queue, the guard's side (queueAsk, recordRefusal) and the
// person's (approvals, approve, reject, allow). See state/queue.go for the
// files and how a decision binds to its request.

// defaultQueueTimeout is how long a queued ask waits: under the two
// minutes after which Claude Code kills a shell command by default, so the
// agent reads the guard's answer (and the id to allow) rather than a kill.
const defaultQueueTimeout = 90 * time.Second

// errNoQueue: there is nowhere to queue (no state directory or session).
var errNoQueue = errors.New("no approval queue (no state directory or session id)")

func askVia(s *setup) string {
	if v := s.pol.Settings.AskVia; v != "" {
		return v
	}
	return "tty"
}

func queueTimeout(s *setup) time.Duration {
	if d := s.pol.Settings.QueueTimeout; d > 0 {
		return d
	}
	return defaultQueueTimeout
}

// queueAsk puts q in the approval queue and waits for a person's decision.
// The id is kept in s.askID, for the refusal to name.
func queueAsk(e *env, s *setup, req judge.Request, q prompt.Question) (prompt.Answer, string, error) {
	if s.stateDir == "" || s.session == "" {
		return prompt.No, "", fmt.Errorf("%w: %w", prompt.ErrNoTerminal, errNoQueue)
	}
	r := state.Request{Session: s.session, Cwd: e.cwd, Client: client(e), Command: q.Command,
		SessionRule: q.SessionRule, PersistRule: q.PersistRule, ConfigPath: q.ConfigPath}
	for _, p := range q.Parts {
		r.Parts = append(r.Parts, state.RequestPart{Text: p.Text, Reason: p.Reason})
	}
	// A guard stopped while it waits withdraws its request, so nothing
	// can approve it later (one killed outright leaves a request that its
	// dead process voids). The handler is in place before the request is
	// visible: a signal that comes as soon as it is must find it.
	stop := make(chan struct{})
	var caught []os.Signal
	for _, sg := range []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		if !signal.Ignored(sg) {
			caught = append(caught, sg)
		}
	}
	sigc := make(chan os.Signal, 1)
	var interrupted os.Signal
	if len(caught) > 0 {
		signal.Notify(sigc, caught...)
		defer signal.Stop(sigc)
		go func() {
			if sg, ok := <-sigc; ok {
				interrupted = sg
				close(stop)
			}
		}()
	}
	timeout := queueTimeout(s)
	w, err := state.Enqueue(s.stateDir, r, timeout)
	if err != nil {
		return prompt.No, "", fmt.Errorf("%w: %w", prompt.ErrNoTerminal, err)
	}
	s.askID = w.Req.ID
	fmt.Fprintf(e.stderr, "guard-exec: waiting up to %v for a person to answer request %d (guard-exec approvals, in their terminal)\n", timeout, w.Req.ID)
	notify(w.Req)

	d, ok := w.Wait(stop)
	if !ok {
		d, ok = w.Withdraw()
	} else {
		w.Withdraw()
	}
	if !ok {
		select {
		case <-stop:
			return prompt.No, "", fmt.Errorf("%w by %v while waiting in the approval queue", prompt.ErrInterrupted, interrupted)
		default:
		}
		return prompt.No, "", fmt.Errorf("%w (%v in the approval queue)", prompt.ErrTimeout, timeout)
	}
	switch d.Answer {
	case "once":
		return prompt.Once, "", nil
	case "session":
		return prompt.Session, "", nil
	case "always":
		return prompt.Always, "", nil
	}
	return prompt.No, d.Note, nil
}

// notifiers are the desktop notifiers tried, by absolute path only: a
// program found on the agent's PATH would run unjudged.
var notifiers = []string{"/usr/bin/notify-send", "/bin/notify-send"}

// notify shows a desktop notification where one is available. It never
// waits for it, nor fails the ask.
func notify(r state.Request) {
	for _, p := range notifiers {
		if fi, err := os.Stat(p); err != nil || !fi.Mode().IsRegular() {
			continue
		}
		cmd := exec.Command(p, "--app-name=guard-exec", "guard-exec: approval needed ("+strconv.Itoa(r.ID)+")",
			inert.Line(firstLine(r.Command))+"\nanswer with: guard-exec approvals")
		cmd.Stdin, cmd.Stdout, cmd.Stderr = nil, nil, nil
		if cmd.Start() == nil {
			go cmd.Wait()
		}
		return
	}
}

// recordRefusal keeps a refused ask for guard-exec allow and keeps its id
// in s.askID for the refusal to name. Without a state directory nothing
// is kept and no id is named.
func recordRefusal(e *env, s *setup, req judge.Request, rules []string, why string) {
	if s.stateDir == "" || s.session == "" || len(rules) == 0 {
		// Nothing to allow: no id, so the agent is not sent to ask for
		// what allow cannot give.
		s.askID = 0
		return
	}
	cmd := req.Source
	if len(cmd) > 8192 {
		cmd = cmd[:8192] + "…"
	}
	id, err := state.RecordRefusal(s.stateDir, state.Refusal{ID: s.askID, Session: s.session, Cwd: e.cwd,
		Command: cmd, Why: why, Rules: rules})
	if err != nil {
		s.askID = 0
		return
	}
	s.askID = id
}

// personOnly refuses the person's approval commands under a guard or
// without a terminal: an agent must not be able to give its own approval.
func personOnly(e *env, name string, needTerminal bool) (int, bool) {
	if underGuard(e) {
		fmt.Fprintf(e.stderr, "guard-exec: refused: approvals are given by a person; run guard-exec %s in your own terminal, outside the guard\n", name)
		return ExitRefused, false
	}
	if needTerminal {
		if err := prompt.Terminal(); err != nil {
			fmt.Fprintf(e.stderr, "guard-exec: refused: guard-exec %s needs your terminal (%v): run it yourself, in a terminal\n", name, err)
			return ExitRefused, false
		}
	}
	if e.stateDir() == "" {
		fmt.Fprintf(e.stderr, "guard-exec: error: no state directory (HOME and XDG_STATE_HOME are unset)\n")
		return ExitCannotRun, false
	}
	return 0, true
}

// question is how a queued request is shown to the person.
func question(r state.Request) prompt.Question {
	q := prompt.Question{Command: r.Command, SessionRule: r.SessionRule, PersistRule: r.PersistRule, ConfigPath: r.ConfigPath}
	for _, p := range r.Parts {
		q.Parts = append(q.Parts, prompt.NeedsApproval{Text: p.Text, Reason: p.Reason})
	}
	return q
}

func header(r state.Request, more int) string {
	h := fmt.Sprintf("request %d · %s · session %s", r.ID, r.Time.Local().Format("15:04:05"), r.Session)
	if r.Client != "" {
		h += " · " + r.Client
	}
	h += "\nin " + r.Cwd + fmt.Sprintf(" · waits until %s", r.Deadline.Local().Format("15:04:05"))
	if more > 0 {
		h += fmt.Sprintf(" · %d more waiting", more)
	}
	return h
}

var answerNames = map[prompt.Answer]string{prompt.Once: "once", prompt.Session: "session", prompt.Always: "always", prompt.No: "no"}

func cmdApprovals(e *env, args []string) int {
	fs := newFlags(e, "approvals", "[--list|--json]")
	list := fs.Bool("list", false, "print the pending requests and exit")
	asJSON := fs.Bool("json", false, "print the pending requests as JSON lines and exit")
	if code, ok := fs.parse(args, 0, 0); !ok {
		return code
	}
	scripted := *list || *asJSON
	if code, ok := personOnly(e, "approvals", !scripted); !ok {
		return code
	}
	dir := e.stateDir()
	if scripted {
		rs, err := state.Pending(dir)
		if err != nil {
			fmt.Fprintf(e.stderr, "guard-exec: error: %v\n", err)
			return ExitCannotRun
		}
		for _, r := range rs {
			if *asJSON {
				b, _ := jsonMarshal(pendingJSON(r))
				e.stdout.Write(append(b, '\n'))
				continue
			}
			fmt.Fprintf(e.stdout, "%d\t%s\t%s\t%s\t%s\n", r.ID, r.Time.Local().Format(time.RFC3339), r.Session, inert.Line(r.Cwd), inert.Line(firstLine(r.Command)))
		}
		if len(rs) == 0 && !*asJSON {
			fmt.Fprintf(e.stderr, "guard-exec: no pending requests\n")
		}
		return 0
	}
	current := func() (prompt.Item, bool) {
		rs, err := state.Pending(dir)
		if err != nil || len(rs) == 0 {
			return prompt.Item{}, false
		}
		r := rs[0]
		return prompt.Item{Key: strconv.Itoa(r.ID) + ":" + r.Digest, Header: header(r, len(rs)-1), Q: question(r), Value: r}, true
	}
	answer := func(it prompt.Item, a prompt.Answer, note string) string {
		r := it.Value.(state.Request)
		if err := state.Decide(dir, r, answerNames[a], note); err != nil {
			return fmt.Sprintf("→ not recorded: %v", err)
		}
		switch a {
		case prompt.Once:
			return fmt.Sprintf("→ request %d allowed once", r.ID)
		case prompt.Session:
			return fmt.Sprintf("→ request %d allowed for session %s", r.ID, r.Session)
		case prompt.Always:
			return fmt.Sprintf("→ request %d allowed always", r.ID)
		}
		return fmt.Sprintf("→ request %d refused", r.ID)
	}
	if err := (&prompt.Console{}).Run(current, answer); err != nil {
		fmt.Fprintf(e.stderr, "guard-exec: error: %v\n", err)
		return ExitCannotRun
	}
	return 0
}

// pendingJSON is what --json prints: the request without its nonce.
func pendingJSON(r state.Request) any {
	return struct {
		ID          int                 `json:"id"`
		Time        time.Time           `json:"time"`
		Deadline    time.Time           `json:"deadline"`
		Session     string              `json:"session"`
		Cwd         string              `json:"cwd"`
		Client      string              `json:"client,omitempty"`
		Command     string              `json:"command"`
		Parts       []state.RequestPart `json:"parts,omitempty"`
		SessionRule string              `json:"session_rule,omitempty"`
		PersistRule string              `json:"persist_rule,omitempty"`
		PID         int                 `json:"pid"`
	}{r.ID, r.Time, r.Deadline, r.Session, r.Cwd, r.Client, r.Command, r.Parts, r.SessionRule, r.PersistRule, r.PID}
}

func parseID(e *env, name, s string) (int, bool) {
	id, err := strconv.Atoi(strings.TrimPrefix(s, "#"))
	if err != nil || id <= 0 {
		fmt.Fprintf(e.stderr, "guard-exec %s: error: %q is not a request id (guard-exec approvals --list shows them)\n", name, s)
		return 0, false
	}
	return id, true
}

func cmdApprove(e *env, args []string) int {
	fs := newFlags(e, "approve", "[--session|--always] ID")
	session := fs.Bool("session", false, "allow for the request's session, remembering its rule (the 'a' answer)")
	always := fs.Bool("always", false, "allow always, writing its rule to the config (the 'w' answer)")
	if code, ok := fs.parse(args, 1, 1); !ok {
		return code
	}
	if code, ok := personOnly(e, "approve", true); !ok {
		return code
	}
	id, ok := parseID(e, "approve", fs.Arg(0))
	if !ok {
		return ExitUsage
	}
	ans := "once"
	switch {
	case *session && *always:
		fmt.Fprintf(e.stderr, "guard-exec approve: error: --session and --always exclude each other\n")
		return ExitUsage
	case *session:
		ans = "session"
	case *always:
		ans = "always"
	}
	return decideCLI(e, id, ans, "")
}

func cmdReject(e *env, args []string) int {
	fs := newFlags(e, "reject", "[--note TEXT] ID")
	note := fs.String("note", "", "the reason the agent reads")
	if code, ok := fs.parse(args, 1, 1); !ok {
		return code
	}
	if code, ok := personOnly(e, "reject", true); !ok {
		return code
	}
	id, ok := parseID(e, "reject", fs.Arg(0))
	if !ok {
		return ExitUsage
	}
	return decideCLI(e, id, "no", *note)
}

func decideCLI(e *env, id int, ans, note string) int {
	dir := e.stateDir()
	r, err := state.Get(dir, id)
	if err == nil {
		switch {
		case ans == "session" && r.SessionRule == "":
			err = fmt.Errorf("request %d cannot be remembered for the session: approve it once", id)
		case ans == "always" && r.PersistRule == "":
			err = fmt.Errorf("request %d cannot be remembered in the config: approve it once", id)
		default:
			err = state.Decide(dir, r, ans, note)
		}
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "guard-exec: error: %v\n", err)
		return ExitRefused
	}
	verb := map[string]string{"once": "allowed once", "session": "allowed for its session", "always": "allowed always", "no": "refused"}[ans]
	fmt.Fprintf(e.stderr, "guard-exec: request %d %s: %s\n", id, verb, inert.Line(firstLine(r.Command)))
	return 0
}

func cmdAllow(e *env, args []string) int {
	fs := newFlags(e, "allow", "--last | ID")
	last := fs.Bool("last", false, "the latest refusal")
	if code, ok := fs.parse(args, 0, 1); !ok {
		return code
	}
	if *last == (fs.NArg() == 1) {
		fmt.Fprintf(e.stderr, "guard-exec allow: error: give either --last or the id a refusal named\n")
		return ExitUsage
	}
	if code, ok := personOnly(e, "allow", true); !ok {
		return code
	}
	id := 0
	if !*last {
		var ok bool
		if id, ok = parseID(e, "allow", fs.Arg(0)); !ok {
			return ExitUsage
		}
	}
	dir := e.stateDir()
	ref, err := state.GetRefusal(dir, id)
	if err != nil {
		fmt.Fprintf(e.stderr, "guard-exec: error: %v\n", err)
		return ExitRefused
	}
	if len(ref.Rules) == 0 {
		fmt.Fprintf(e.stderr, "guard-exec: error: refusal %d cannot become a rule (%s); approve it when it is asked again (ask_via = \"queue\", guard-exec approvals)\n", ref.ID, inert.Line(ref.Why))
		return ExitRefused
	}
	// The person confirms what they allow: with --last, the latest refusal
	// may not be the one they think, and an answer typed ahead does not
	// count.
	q := prompt.Question{Command: ref.Command, NoOnce: true, SessionRule: strings.Join(ref.Rules, "\n"), Grace: prompt.DefaultGrace,
		Parts: []prompt.NeedsApproval{{Text: fmt.Sprintf("refusal %d, session %s, at %s in %s", ref.ID, ref.Session, ref.Time.Local().Format("15:04:05"), ref.Cwd), Reason: ref.Why}}}
	if ans, _ := (&prompt.TTY{}).Ask(q); ans != prompt.Session {
		fmt.Fprintf(e.stderr, "guard-exec: refusal %d stays refused\n", ref.ID)
		return ExitRefused
	}
	if err := rememberForSession(dir, ref.Session, ref.Rules, ref.Command); err != nil {
		fmt.Fprintf(e.stderr, "guard-exec: error: %v\n", err)
		return ExitCannotRun
	}
	state.RemoveRefusal(dir, ref.ID)
	fmt.Fprintf(e.stderr, "guard-exec: allowed for session %s: the agent can run it again\n", ref.Session)
	return 0
}
