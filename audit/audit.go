// Package audit appends guard-exec decisions to a JSON-lines log and reads
// them back.
//
// Contract: Append writes each Record as exactly one line with one write
// call, under an flock on the log file, so any number of concurrent processes
// never tear, interleave or lose lines, including across rotation (the
// rotating writer holds the lock; a writer that locked a file that was
// rotated away meanwhile reopens the path). Rotation renames path → path.1 →
// path.2 … keeping Log.Keep old files. With Redact, argument values are
// replaced by short hashes before anything reaches the disk. Readers skip
// corrupt or truncated lines and report how many they skipped.
package audit

import (
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/guard-exec/guard-exec/atomicfile"
	"github.com/guard-exec/guard-exec/internal/sha256"
)

// PartRecord is the judgement of one simple command within Record.Command.
type PartRecord struct {
	Argv     []string `json:"argv"`
	Decision string   `json:"decision"`
	Rule     string   `json:"rule,omitempty"`
	Source   string   `json:"source,omitempty"`
	Reason   string   `json:"reason,omitempty"`
}

// Record is one judged command.
type Record struct {
	Time     time.Time    `json:"time"`
	Session  string       `json:"session"`
	Cwd      string       `json:"cwd"`
	Client   string       `json:"client,omitempty"`
	Mode     string       `json:"mode"`          // enforce|audit
	Via      string       `json:"via,omitempty"` // shell|check|hook
	Command  string       `json:"command"`
	Decision string       `json:"decision"`         // allow|ask|deny
	Answer   string       `json:"answer,omitempty"` // once|session|always|no|no-terminal|timeout
	Reason   string       `json:"reason,omitempty"`
	Parts    []PartRecord `json:"parts,omitempty"`
	Redacted bool         `json:"redacted,omitempty"`
}

// Log is an append-only audit log at Path.
type Log struct {
	Path     string
	MaxBytes int64 // rotate once the file reaches this size; 0 means 10 MiB, <0 never
	Keep     int   // rotated files kept; ≤0 means 3
	Redact   bool  // hash argument values (see Redact)
}

const (
	defaultMaxBytes = 10 << 20
	defaultKeep     = 3
)

// Append writes r as one line, creating the log (0600) and its directory
// (0700) if needed. A zero r.Time is set to now. Times are best given in
// UTC: formatting a local time loads the time zone database, which costs
// the guard more than writing the record.
func (l *Log) Append(r Record) error {
	if l.Path == "" {
		return errors.New("audit: log path is empty; set a path to log to")
	}
	if l.Redact {
		r = Redact(r)
	}
	if r.Time.IsZero() {
		r.Time = time.Now().UTC()
	}
	line := append(r.appendJSON(make([]byte, 0, 512)), '\n')
	// The directory is made when the log cannot be opened, not looked
	// for before every record: it is there for all but the first.
	made := false
	for range 100 {
		done, opened, err := l.tryAppend(line)
		if !opened && !made {
			made = true
			if err := os.MkdirAll(filepath.Dir(l.Path), 0o700); err != nil {
				return fmt.Errorf("audit: cannot create log directory: %w", err)
			}
			done, _, err = l.tryAppend(line)
		}
		if done || err != nil {
			return err
		}
	}
	return fmt.Errorf("audit: %s keeps being replaced while appending; record not written", l.Path)
}

// tryAppend appends line if the file it locked is still the one at l.Path;
// done is false when it was rotated away first and the caller should retry,
// opened is false when the log could not be opened (nothing was written).
func (l *Log) tryAppend(line []byte) (done, opened bool, err error) {
	// Only a regular file: records written to a FIFO nobody reads would
	// be lost without a word.
	f, err := atomicfile.OpenAppend(l.Path, 0o600)
	if err != nil {
		return false, false, fmt.Errorf("audit: cannot open log: %w", err)
	}
	defer f.Close()
	if err := atomicfile.Flock(f); err != nil {
		return false, true, fmt.Errorf("audit: cannot lock %s: %w", l.Path, err)
	}
	fi, err := f.Stat()
	if err != nil {
		return false, true, fmt.Errorf("audit: cannot stat log: %w", err)
	}
	if pi, err := os.Stat(l.Path); err != nil || !os.SameFile(fi, pi) {
		return false, true, nil
	}
	size := fi.Size()
	if size > 0 { // a writer that died mid-line must not swallow this line
		var last [1]byte
		if _, err := f.ReadAt(last[:], size-1); err == nil && last[0] != '\n' {
			line = append([]byte{'\n'}, line...)
		}
	}
	if _, err := f.Write(line); err != nil {
		return false, true, fmt.Errorf("audit: cannot write to %s: %w", l.Path, err)
	}
	max := l.MaxBytes
	if max == 0 {
		max = defaultMaxBytes
	}
	if max > 0 && size+int64(len(line)) >= max {
		if err := l.rotate(); err != nil {
			return true, true, fmt.Errorf("audit: record written but rotating %s failed: %w", l.Path, err)
		}
	}
	return true, true, f.Close()
}

// rotate shifts path.(n-1) → path.n … path → path.1, dropping path.Keep.
// Callers hold the lock on the file at l.Path, so rotations never overlap.
func (l *Log) rotate() error {
	keep := l.Keep
	if keep <= 0 {
		keep = defaultKeep
	}
	name := func(i int) string { return fmt.Sprintf("%s.%d", l.Path, i) }
	n := 1 // first free slot, or keep (whose file is dropped)
	for n < keep {
		if _, err := os.Lstat(name(n)); err != nil {
			break
		}
		n++
	}
	for i := n; i > 1; i-- {
		if err := os.Rename(name(i-1), name(i)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return os.Rename(l.Path, name(1))
}

// Redact returns r with argument values replaced by "h:" and the first 12
// hex digits of their sha256: every argv element but argv[0], and every word
// of Command (split at white space) but the command name, which follows any
// leading NAME=value words. Kept readable: option names (--force, -rf; short
// clusters of at most 4 characters, since longer ones like -pSECRET may carry
// values and a hash of 4 characters hides nothing anyway), the name in
// NAME=value and --opt=value (the value is hashed), and shell operators in
// Command. Reasons, rules and sources are kept. A record already marked
// Redacted is returned unchanged.
func Redact(r Record) Record {
	if r.Redacted {
		return r
	}
	w := strings.Fields(r.Command)
	name := true // still before the command name: NAME=value words, then the name
	for i, s := range w {
		if name && !strings.Contains(s, "=") {
			name = false
			continue
		}
		if strings.Trim(s, "|&;<>()") != "" {
			w[i] = redactWord(s)
		}
	}
	r.Command = strings.Join(w, " ")
	parts := make([]PartRecord, len(r.Parts))
	for i, p := range r.Parts {
		argv := make([]string, len(p.Argv))
		for j, a := range p.Argv {
			if j == 0 {
				argv[j] = a
			} else {
				argv[j] = redactWord(a)
			}
		}
		p.Argv = argv
		parts[i] = p
	}
	if r.Parts != nil {
		r.Parts = parts
	}
	r.Redacted = true
	return r
}

func redactWord(s string) string {
	if s == "" || isOption(s) {
		return s
	}
	if i := strings.IndexByte(s, '='); i > 0 && (isOption(s[:i]) || isName(s[:i])) {
		return s[:i+1] + hash(s[i+1:])
	}
	return hash(s)
}

func hash(s string) string {
	h := sha256.Sum256([]byte(s))
	return "h:" + hex.EncodeToString(h[:6])
}

// isOption: "-", "--", --long-name, or a short cluster like -rf (≤4 chars).
func isOption(s string) bool {
	switch {
	case s == "-" || s == "--":
		return true
	case strings.HasPrefix(s, "--"):
		return wordChars(s[2:], "-")
	case strings.HasPrefix(s, "-"):
		return len(s) <= 5 && wordChars(s[1:], "")
	}
	return false
}

func isName(s string) bool {
	return wordChars(s, "_") && !('0' <= s[0] && s[0] <= '9')
}

// wordChars: s is non-empty ASCII letters and digits (first not in extra),
// plus the bytes in extra.
func wordChars(s, extra string) bool {
	for i, c := range []byte(s) {
		alnum := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
		if !alnum && (i == 0 && extra == "-" || !strings.ContainsRune(extra, rune(c))) {
			return false
		}
	}
	return s != ""
}
