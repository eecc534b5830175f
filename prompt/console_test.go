//go:build linux

package prompt

import (
	"strings"
	"testing"
	"time"
)

// A question that offers no 'y' (guard-exec allow: a session approval is
// the only yes) neither shows it nor takes it.
func TestNoOnce(t *testing.T) {
	q := Question{Command: "make", SessionRule: "rule", NoOnce: true}
	text := render(&q)
	if strings.Contains(text, "allow once") || !strings.Contains(text, "answer [a/N]: ") {
		t.Errorf("render with NoOnce:\n%s", text)
	}
	for line, want := range map[string]Answer{"y": No, "yes": No, "a": Session, "w": No, "": No} {
		if got, _ := decide(&q, line); got != want {
			t.Errorf("decide(%q) = %v, want %v", line, got, want)
		}
	}
	q.NoOnce = false
	if got, _ := decide(&q, "y"); got != Once {
		t.Errorf("decide(y) = %v without NoOnce", got)
	}
	for _, c := range []struct {
		q    Question
		want string
	}{
		{Question{}, "y"},
		{Question{SessionRule: "r", PersistRule: "p"}, "y/a/w"},
		{Question{PersistRule: "p"}, "y/w"},
		{Question{SessionRule: "r", NoOnce: true}, "a"},
	} {
		if got := keysOf(&c.q); got != c.want {
			t.Errorf("keysOf(%+v) = %q, want %q", c.q, got, c.want)
		}
	}
}

// A note is typed on the same line editor, with room for a sentence, and
// the same filtering: nothing but printable ASCII gets in.
func TestNoteEditor(t *testing.T) {
	ed := editor{limit: maxNoteBytes}
	for _, c := range []byte(strings.Repeat("n", maxNoteBytes+10) + "\x1b[31m\x9b") {
		ed.key(c)
	}
	if len(ed.line) != maxNoteBytes || strings.Trim(string(ed.line), "n") != "" {
		t.Errorf("note line %q (%d bytes)", ed.line, len(ed.line))
	}
	var short editor
	for _, c := range []byte(strings.Repeat("n", 100)) {
		short.key(c)
	}
	if len(short.line) != maxAnswerBytes {
		t.Errorf("an answer line took %d bytes", len(short.line))
	}
}

func TestHeaderLines(t *testing.T) {
	h := headerLines("request 1\nin /w\x1b[2J")
	if h != "request 1\r\nin /w\\x1b[2J\r\n" {
		t.Errorf("headerLines = %q", h)
	}
}

// With a grace period, an answer typed ahead (or at once) does not count;
// one typed after it does, and Ctrl-C always refuses.
func TestGrace(t *testing.T) {
	q := full
	q.Grace = 400 * time.Millisecond
	for _, c := range []struct {
		name, first, now, later string
		want                    Answer
	}{
		{name: "typed ahead", first: "y\n", later: "n\r", want: No},
		{name: "typed at once", now: "a\r", later: "\r", want: No},
		{name: "after the grace", later: "y\r", want: Once},
		{name: "ctrl-c at once", now: "\x03", want: No},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ch := start(t, q, opts{typeFirst: c.first})
			ch.waitFor(answerPrompt)
			if c.now != "" {
				ch.typ(c.now)
			}
			if c.later != "" {
				time.Sleep(600 * time.Millisecond)
				ch.typ(c.later)
			}
			r, screen := ch.result()
			if r.Answer != c.want.String() {
				t.Errorf("answer %s (err %q), want %s; terminal:\n%s", r.Answer, r.Err, c.want, screen)
			}
			if c.name == "ctrl-c at once" && !r.Interrupted {
				t.Errorf("Ctrl-C in the grace period: %+v", r)
			}
		})
	}
}
