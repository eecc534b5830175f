package prompt

import (
	"strings"
	"time"
)

// Item is one question shown on a Console.
type Item struct {
	Key    string // identity: another key is another question
	Header string // lines shown above the question (where it comes from)
	Q      Question
	Value  any // the caller's, handed back with the answer
}

// Console shows a changing series of questions on the controlling terminal
// (a person's approval queue) with the same rendering and keys as TTY.Ask,
// and hands each answer to the caller. It differs from Ask where a
// standing console must:
//
//   - When the question shown changes (it went away, another took its
//     place), keys are ignored for Grace: a key typed for one question never
//     answers the next.
//   - 'n' (or Enter alone) asks for an optional note, handed back with No.
//   - An unrecognised answer asks again; Ctrl-C, Ctrl-D or a signal leave
//     the console, deciding nothing.
type Console struct {
	Path  string        // default "/dev/tty"
	Grace time.Duration // default 1s
	Poll  time.Duration // how often current is called; default 250ms
}

// DefaultGrace is the input grace period of a Console.
const DefaultGrace = time.Second

func (c *Console) grace() time.Duration {
	if c.Grace > 0 {
		return c.Grace
	}
	return DefaultGrace
}

// maxNoteBytes bounds the note typed with a 'n'.
const maxNoteBytes = 300

// keysOf is the answer keys offered for q.
func keysOf(q *Question) string {
	var keys []string
	if !q.NoOnce {
		keys = append(keys, "y")
	}
	if q.SessionRule != "" {
		keys = append(keys, "a")
	}
	if q.PersistRule != "" {
		keys = append(keys, "w")
	}
	return strings.Join(keys, "/")
}

// headerLines renders a header for raw mode.
func headerLines(h string) string {
	if h == "" {
		return ""
	}
	var b strings.Builder
	block(&b, "", h, 0)
	return b.String()
}
