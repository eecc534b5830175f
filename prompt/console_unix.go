//go:build unix

package prompt

import (
	"errors"
	"fmt"
	"io"
	"os/signal"
	"strings"
	"time"

	"golang.org/x/sys/unix"
	"golang.org/x/term"
)

// Run shows the console's questions until the person quits. See Console.
func (c *Console) Run(current func() (Item, bool), answer func(it Item, a Answer, note string) string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("prompt: internal error: %v", r)
		}
	}()
	defer blockJobControl()() // see Ask
	path := c.Path
	if path == "" {
		path = "/dev/tty"
	}
	f, fd, rc, err := openTTY(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sigc := catchSignals()
	defer signal.Stop(sigc)
	old, err := term.MakeRaw(fd)
	if err != nil {
		return fmt.Errorf("prompt: making %s raw: %w", path, err)
	}
	defer func() {
		if ownsTerminal(fd) == nil {
			_, _ = io.WriteString(f, "\r\n")
			_ = term.Restore(fd, old)
			drain(fd)
		}
	}()

	in := make(chan input)
	done := make(chan struct{})
	exited := make(chan struct{})
	go func() {
		defer close(exited)
		readKeys(rc, in, done)
	}()
	defer func() {
		close(done)
		if f.SetReadDeadline(time.Unix(1, 0)) == nil {
			<-exited
		}
	}()

	grace, poll := c.grace(), c.Poll
	if poll <= 0 {
		poll = 250 * time.Millisecond
	}
	tick := time.NewTicker(poll)
	defer tick.Stop()
	write := func(s string) error {
		_ = f.SetWriteDeadline(time.Now().Add(10 * time.Second))
		_, err := io.WriteString(f, s)
		if err != nil {
			return writeErr(err)
		}
		return nil
	}

	var (
		shown   *Item
		shownAt time.Time
		ed      editor
		noting  bool // reading the note of a 'n'
		idle    bool // the waiting line is on screen
	)
	refresh := func() error {
		it, ok := current()
		switch {
		case !ok && shown != nil:
			shown, noting = nil, false
			if err := write("\r\n→ withdrawn: it was answered elsewhere, timed out, or its guard ended\r\n"); err != nil {
				return err
			}
		case ok && (shown == nil || it.Key != shown.Key):
			if shown != nil {
				if err := write("\r\n→ withdrawn: it was answered elsewhere, timed out, or its guard ended\r\n"); err != nil {
					return err
				}
			}
			shown, shownAt, ed, noting, idle = &it, time.Now(), editor{}, false, false
			// A new question ignores keys for a moment: what the person
			// typed for the one before must not answer this one.
			return write("\r\n" + headerLines(it.Header) + render(&it.Q))
		}
		if shown == nil && !idle {
			idle = true
			return write("guard-exec: waiting for approval requests (Ctrl-C to quit)…\r\n")
		}
		return nil
	}
	if err := refresh(); err != nil {
		return err
	}
	for {
		select {
		case <-sigc:
			return nil
		case <-tick.C:
			if err := refresh(); err != nil {
				return err
			}
		case k := <-in:
			for _, b := range k.data {
				if shown == nil {
					if b == 0x03 || b == 0x04 || b == 0x00 || b == 'q' || b == 0x1c || b == 0x1a {
						return nil
					}
					continue
				}
				if time.Since(shownAt) < grace && b != 0x03 && b != 0x1c && b != 0x1a {
					continue // typed for the question before; Ctrl-C always leaves
				}
				echo, ev := ed.key(b)
				if echo != "" {
					if err := write(echo); err != nil {
						return err
					}
				}
				switch ev {
				case evEOF, evInterrupt:
					// Leaving decides nothing: the request keeps waiting.
					return write("\r\n→ left undecided\r\n")
				case evEnter:
					line := string(ed.line)
					ed = editor{}
					if noting {
						msg := answer(*shown, No, strings.TrimSpace(line))
						shown, noting = nil, false
						if err := write("\r\n" + msg + "\r\n"); err != nil {
							return err
						}
						if err := refresh(); err != nil {
							return err
						}
						continue
					}
					a, why := decide(&shown.Q, line)
					if why != "" {
						// Unlike the guard's own prompt, where a refusal
						// is the safe default, the console asks again.
						if err := write("\r\n" + why[:strings.Index(why, ",")] + ": answer again [" + keysOf(&shown.Q) + "/n]: "); err != nil {
							return err
						}
						continue
					}
					if a == No {
						noting = true
						ed.limit = maxNoteBytes
						if err := write("\r\nnote for the agent (Enter for none): "); err != nil {
							return err
						}
						continue
					}
					msg := answer(*shown, a, "")
					shown = nil
					if err := write("\r\n" + msg + "\r\n"); err != nil {
						return err
					}
					if err := refresh(); err != nil {
						return err
					}
				}
			}
			switch {
			case k.err == nil:
			case errors.Is(k.err, io.EOF) || errors.Is(k.err, unix.EIO):
				return nil
			case errors.Is(k.err, errBackground):
				return k.err
			default:
				return fmt.Errorf("prompt: reading terminal: %w", k.err)
			}
		}
	}
}
