// Package prompt asks a person whether a command may run.
//
// The contract:
//
//   - The question is asked only on the controlling terminal (/dev/tty).
//     Standard input and output belong to the command being judged, and may
//     be driven by the very agent whose command needs approval, so they are
//     never read or written.
//   - Anything but a clear yes is No: no terminal, a background process
//     group, an unrecognised answer, end of input, Ctrl-C, a signal, a
//     timeout. Callers may treat every answer other than Once, Session and
//     Always as a refusal, whatever the error.
//   - Before a person can have a rule remembered ('a') or written to the
//     configuration ('w'), the prompt shows the exact rule text; a choice
//     whose rule is empty is not offered.
//   - The terminal's modes are restored on every path, and the outcome is
//     printed so the person sees what happened.
package prompt

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/guard-exec/guard-exec/internal/inert"
)

// Answer is a person's decision.
type Answer int

const (
	No      Answer = iota // refuse (also: anything unrecognised, EOF, Ctrl-C, a signal, a timeout)
	Once                  // 'y': allow this invocation only
	Session               // 'a': allow for this session (remember SessionRule)
	Always                // 'w': allow always (write PersistRule to ConfigPath)
)

func (a Answer) String() string {
	switch a {
	case No:
		return "no"
	case Once:
		return "once"
	case Session:
		return "session"
	case Always:
		return "always"
	}
	return fmt.Sprintf("Answer(%d)", int(a))
}

// NeedsApproval is a part of the command that needs approval, and why.
type NeedsApproval struct {
	Text   string
	Reason string
}

// Question is what the person is asked.
type Question struct {
	Command     string          // the whole command line as given; shown, truncated if huge
	Parts       []NeedsApproval // parts that need approval
	SessionRule string          // exact rule text that 'a' would remember; "" means 'a' is not offered
	PersistRule string          // exact TOML text that 'w' would append; "" means 'w' is not offered
	ConfigPath  string          // the file 'w' writes to (shown to the person)
	Timeout     time.Duration   // 0 means no timeout
	NoOnce      bool            // 'y' is not offered (a session approval is the only yes)
	// Grace: keys typed before the question was shown this long are
	// ignored (but Ctrl-C, Ctrl-\ and Ctrl-Z still refuse): an answer typed
	// ahead must not answer a question the person has not read.
	Grace time.Duration
}

// Asker is how the guard asks. Decisions are plain data so that channels
// other than a terminal (an approval queue, an agent's hook) can implement it.
type Asker interface {
	Ask(q Question) (Answer, error)
}

// Errors come back together with No. They may be wrapped with detail: test
// with errors.Is.
var (
	// ErrNoTerminal: there is no controlling terminal (opening /dev/tty
	// fails, as it does under most agents), or the process is in a
	// background process group, where reading would stop it with SIGTTIN.
	// Nothing has been shown to anyone.
	ErrNoTerminal = errors.New("no controlling terminal to ask on")
	// ErrTimeout: nobody answered within Question.Timeout.
	ErrTimeout = errors.New("no answer in time")
	// ErrInterrupted: Ctrl-C (or Ctrl-\, Ctrl-Z) was typed, a signal
	// arrived, or the terminal was taken by another process group.
	ErrInterrupted = errors.New("prompt interrupted")
)

// TTY asks on the controlling terminal.
type TTY struct {
	Path string // default "/dev/tty"
}

var _ Asker = (*TTY)(nil)

func (t *TTY) path() string {
	if t == nil || t.Path == "" {
		return "/dev/tty"
	}
	return t.Path
}

// Limits on what is shown: enough to judge a command, not so much that a
// huge script scrolls the keys off the screen.
const (
	maxCommandLines = 40
	maxPartLines    = 5
	maxParts        = 20
	maxLineRunes    = 400
	maxAnswerBytes  = 32 // answers are a few letters; more is noise
)

// render builds the prompt text. The terminal is in raw mode, where "\n"
// does not return the carriage, so lines end with "\r\n".
func render(q *Question) string { return renderFit(q, 0) }

// renderFit is render for a terminal of rows lines (0: not known). A
// question that would not fit is shortened, parts first (one line each,
// then fewer of them), so that its first line, the command, never scrolls
// away above the answers; and the answers are always preceded by a line
// saying what they answer.
func renderFit(q *Question, rows int) string {
	full := renderWith(q, maxCommandLines, maxPartLines, maxParts, true)
	if rows <= 0 || strings.Count(full, "\n") < rows {
		return full
	}
	for _, lim := range []struct{ cmd, part, parts int }{{8, 1, maxParts}, {4, 1, 10}, {2, 1, 5}, {1, 1, 2}} {
		if t := renderWith(q, lim.cmd, lim.part, lim.parts, false); strings.Count(t, "\n") < rows {
			return t
		}
	}
	return renderWith(q, 1, 1, 1, false)
}

func renderWith(q *Question, cmdLines, partLines, partsShown int, reasons bool) string {
	var b strings.Builder
	line := func(parts ...string) {
		for _, p := range parts {
			b.WriteString(p)
		}
		b.WriteString("\r\n")
	}
	line("guard-exec: this command needs your approval:")
	block(&b, "    ", q.Command, cmdLines)
	if len(q.Parts) > 0 {
		line("  needing approval:")
		for i, p := range q.Parts {
			if i == partsShown {
				line(fmt.Sprintf("    … (%d more)", len(q.Parts)-i))
				break
			}
			if !reasons && p.Reason != "" {
				block(&b, "    - ", p.Text+"   (because: "+firstOf(p.Reason)+")", partLines)
				continue
			}
			block(&b, "    - ", p.Text, partLines)
			if p.Reason != "" {
				block(&b, "      because: ", p.Reason, partLines)
			}
		}
	}
	line()
	if len(q.Parts) > 1 {
		line(fmt.Sprintf("  your answer covers all %d parts above, and nothing else:", len(q.Parts)))
	}
	if !q.NoOnce {
		line("  y  allow once")
	}
	keys := keysOf(q)
	if q.SessionRule != "" {
		line("  a  allow for this session, remembering:")
		block(&b, "       ", q.SessionRule, 0)
	}
	if q.PersistRule != "" {
		line("  w  allow always, with:")
		block(&b, "       ", q.PersistRule, 0)
		where := q.ConfigPath
		if where == "" {
			where = "the configuration file"
		}
		line("     (appended to ", visible(where), ")")
	}
	line("  n  no")
	if q.Timeout > 0 {
		b.WriteString("answer [" + keys + "/N] (no answer within " + q.Timeout.String() + " is no): ")
	} else {
		b.WriteString("answer [" + keys + "/N]: ")
	}
	return b.String()
}

func firstOf(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// block writes text indented, its first line after prefix and the others
// under it, keeping at most maxLines lines (0: all).
func block(b *strings.Builder, prefix, text string, maxLines int) {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	indent := strings.Repeat(" ", utf8.RuneCountInString(prefix))
	for i, l := range lines {
		if maxLines > 0 && i == maxLines {
			fmt.Fprintf(b, "%s… (%d more lines)\r\n", indent, len(lines)-i)
			return
		}
		p := indent
		if i == 0 {
			p = prefix
		}
		b.WriteString(p + visible(clip(l)) + "\r\n")
	}
}

func clip(l string) string {
	n := utf8.RuneCountInString(l)
	if n <= maxLineRunes {
		return l
	}
	cut := 0
	for i := range l {
		if cut == maxLineRunes {
			return fmt.Sprintf("%s… (%d more characters)", l[:i], n-maxLineRunes)
		}
		cut++
	}
	return l
}

// visible escapes what a terminal would act on rather than show. The text
// comes from the command under review: an escape sequence, a carriage return
// or a bidi override in it could hide or disguise what the person approves.
func visible(s string) string { return inert.Line(s) }

// event is what a key did to the answer line.
type event int

const (
	evNone      event = iota
	evEnter           // the line is complete
	evEOF             // end of input: refuse
	evInterrupt       // a key that would have sent a signal: refuse
)

// editor is the minimal line editing done in raw mode.
type editor struct {
	line  []byte
	esc   int // 0: normal; 1: after ESC; 2: inside a CSI/SS3 sequence
	limit int // longest line; 0: maxAnswerBytes
}

// key takes one input byte and returns what to echo and what happened.
func (e *editor) key(c byte) (echo string, ev event) {
	switch c {
	case '\r', '\n':
		return "", evEnter
	case 0x03, 0x1c, 0x1a: // Ctrl-C, Ctrl-\, Ctrl-Z
		return "", evInterrupt
	case 0x04:
		return "", evEOF
	case 0x00:
		// A Ctrl-D typed while the terminal was still in line mode (as
		// testscript's ttyin does) is stored as a NUL byte, which is what a
		// raw read returns for it.
		return "", evEOF
	}
	switch e.esc {
	case 1:
		// Arrow and function keys arrive as ESC [ … or ESC O …; drop
		// them (and Alt+key) rather than echo half of a sequence.
		e.esc = 0
		if c == '[' || c == 'O' {
			e.esc = 2
		}
		return "", evNone
	case 2:
		if c >= 0x40 && c <= 0x7e {
			e.esc = 0
		}
		return "", evNone
	}
	switch {
	case c == 0x1b:
		e.esc = 1
	case c == 0x7f || c == 0x08: // backspace
		if len(e.line) > 0 {
			e.line = e.line[:len(e.line)-1]
			return "\b \b", evNone
		}
	case c == 0x15: // Ctrl-U: erase the line
		echo = strings.Repeat("\b \b", len(e.line))
		e.line = e.line[:0]
		return echo, evNone
	case c >= 0x20 && c < 0x7f && len(e.line) < e.max():
		// ASCII only: every answer is ASCII, and echoing other bytes
		// would let typed-ahead input send C1 controls to the terminal.
		e.line = append(e.line, c)
		return string(c), evNone
	}
	return "", evNone
}

func (e *editor) max() int {
	if e.limit > 0 {
		return e.limit
	}
	return maxAnswerBytes
}

// decide maps a completed answer line to an Answer and a note for the
// person when the line was not understood.
func decide(q *Question, line string) (Answer, string) {
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		if !q.NoOnce {
			return Once, ""
		}
	case "a":
		if q.SessionRule != "" {
			return Session, ""
		}
	case "w":
		if q.PersistRule != "" {
			return Always, ""
		}
	case "n", "no", "":
		return No, ""
	}
	return No, "unrecognised answer, treated as no"
}

// outcome is the last line shown, so the person sees what was decided.
func outcome(a Answer, err error) string {
	switch {
	case a == Once:
		return "→ allowed once"
	case a == Session:
		return "→ allowed for this session"
	case a == Always:
		return "→ allowed always"
	case errors.Is(err, ErrTimeout):
		return "→ refused (no answer in time)"
	case errors.Is(err, ErrInterrupted):
		return "→ refused (interrupted)"
	case err != nil:
		return "→ refused (error)"
	}
	return "→ refused"
}
