package state

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/guard-exec/guard-exec/atomicfile"
)

// Approval is one "allow for this session" answer.
type Approval struct {
	Rule    string    `json:"rule"` // TOML text of one [[rule]]
	Time    time.Time `json:"time"`
	Command string    `json:"command"`
}

// ErrCorrupt is matched (errors.Is) by every error that reports corrupt
// state files.
var ErrCorrupt = errors.New("corrupt")

// CorruptError reports approval lines that were skipped because they are not
// valid approvals. It is returned together with the valid approvals.
type CorruptError struct {
	Path  string
	Lines []int // 1-based line numbers
	First error // why the first of them was rejected
	Tail  bool  // only the file's end was read: Lines count from there
}

func (e *CorruptError) Error() string {
	from := ""
	if e.Tail {
		from = " of the part read"
	}
	return fmt.Sprintf("state: skipped %d corrupt line(s) in %s (line %d%s: %v); they grant nothing, delete the file to clear the session's approvals",
		len(e.Lines), e.Path, e.Lines[0], from, e.First)
}

func (e *CorruptError) Is(target error) bool { return target == ErrCorrupt }

const (
	sessionMaxAge = 7 * 24 * time.Hour
	cleanEvery    = 24 * time.Hour
)

func sessionsDir(dir string) string { return filepath.Join(dir, "sessions") }

// AppendApproval appends a as one JSON line to dir/sessions/<session>.jsonl.
// Writers serialise on dir/sessions.lock and each line is a single write,
// so concurrent appends neither tear nor lose lines. A zero a.Time is set to
// now. At most once a day it also removes session files untouched for 7 days.
func AppendApproval(dir, session string, a Approval) error {
	if err := validSession(session); err != nil {
		return fmt.Errorf("state: session id %w", err)
	}
	if a.Rule == "" {
		return errors.New("state: approval has no rule; nothing to record")
	}
	if a.Time.IsZero() {
		a.Time = time.Now()
	}
	line, err := json.Marshal(a)
	if err != nil {
		return fmt.Errorf("state: cannot encode approval: %w", err)
	}
	sdir := sessionsDir(dir)
	unlock, err := atomicfile.Lock(sdir)
	if err != nil {
		return fmt.Errorf("state: cannot record approval: %w", err)
	}
	defer unlock()
	if err := os.MkdirAll(sdir, 0o700); err != nil {
		return fmt.Errorf("state: cannot record approval: %w", err)
	}
	path := filepath.Join(sdir, session+".jsonl")
	if err := appendLine(path, append(line, '\n')); err != nil {
		return fmt.Errorf("state: cannot record approval in %s: %w", path, err)
	}
	cleanSessions(sdir, time.Now())
	return nil
}

// appendLine appends line with one write. If an earlier writer died mid-line,
// a newline is put first so that the damage stays confined to that line.
func appendLine(path string, line []byte) error {
	f, err := atomicfile.OpenAppend(path, 0o600)
	if err != nil {
		return err
	}
	if fi, err := f.Stat(); err == nil && fi.Size() > 0 {
		var last [1]byte
		if _, err := f.ReadAt(last[:], fi.Size()-1); err == nil && last[0] != '\n' {
			line = append([]byte{'\n'}, line...)
		}
	}
	_, err = f.Write(line)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// maxSessionBytes is how much of a session file is read before each
// command: a few thousand approvals. Only the end of a larger file is
// read: approvals only allow, so leaving the oldest out grants less, never
// more, and the newest are the ones a session still needs.
const maxSessionBytes = 1 << 20

// TooLargeError reports a session file of which only the last part was
// read. It is returned together with the approvals read.
type TooLargeError struct {
	Path string
	Size int64 // of the file
	Read int64 // bytes read from its end
}

func (e *TooLargeError) Error() string {
	// Without the size, which each approval changes: said once.
	return fmt.Sprintf("state: session file %s is larger than the %d bytes read before each command: only the approvals in its last %d bytes apply; delete the file to clear the session's approvals",
		e.Path, maxSessionBytes, e.Read)
}

// Approvals returns the session's approvals in the order they were given.
// A missing file gives nil, nil. Lines that are not valid approvals are
// skipped and reported with a *CorruptError next to the valid ones; an
// unterminated last line (a write in progress or cut short) is ignored.
// Of a file larger than maxSessionBytes only the lines in its last
// maxSessionBytes are read, and a *TooLargeError says so (joined with a
// *CorruptError when both apply). A file that is not a regular file (a
// FIFO, a device) grants nothing and is an error.
func Approvals(dir, session string) ([]Approval, error) {
	if err := validSession(session); err != nil {
		return nil, fmt.Errorf("state: session id %w", err)
	}
	path := filepath.Join(sessionsDir(dir), session+".jsonl")
	b, large, err := readTail(path, maxSessionBytes)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	} else if err != nil {
		return nil, fmt.Errorf("state: cannot read session approvals, so none apply: %w", err)
	}
	var out []Approval
	var bad *CorruptError
	for i := 0; ; i++ {
		l, rest, ok := bytes.Cut(b, []byte{'\n'})
		if !ok { // the unterminated end
			break
		}
		b = rest
		if len(bytes.TrimSpace(l)) == 0 {
			continue
		}
		var a Approval
		err := json.Unmarshal(l, &a)
		if err == nil && (a.Rule == "" || a.Time.IsZero()) {
			err = errors.New("rule or time missing")
		}
		if err != nil {
			if bad == nil {
				bad = &CorruptError{Path: path, First: err, Tail: large != nil}
			}
			bad.Lines = append(bad.Lines, i+1)
			continue
		}
		out = append(out, a)
	}
	switch {
	case bad != nil && large != nil:
		return out, errors.Join(large, bad)
	case bad != nil:
		return out, bad
	case large != nil:
		return out, large
	}
	return out, nil
}

// readTail reads the regular file at path whole, or, when it is larger
// than max, its lines that start in the last max bytes (the line cut in
// two there is left out) and a *TooLargeError.
func readTail(path string, max int64) ([]byte, *TooLargeError, error) {
	f, err := atomicfile.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if fi.Size() <= max {
		b, err := atomicfile.ReadAll(f, path, max)
		if errors.Is(err, atomicfile.ErrTooLarge) { // grew meanwhile: read its end
			return readTail(path, max)
		}
		return b, nil, err
	}
	b := make([]byte, max)
	n, err := f.ReadAt(b, fi.Size()-max)
	if err != nil && err != io.EOF {
		return nil, nil, err
	}
	b = b[:n]
	// The byte before the part read is unknown: the first line may be the
	// end of a longer one, so it is dropped.
	i := bytes.IndexByte(b, '\n')
	if i < 0 {
		return nil, &TooLargeError{Path: path, Size: fi.Size(), Read: max}, nil
	}
	return b[i+1:], &TooLargeError{Path: path, Size: fi.Size(), Read: max}, nil
}

// FirstReport reports whether err, a problem found in the session's
// approvals, is news: it differs from the last one reported for this
// session, which is then remembered. The same corrupt lines are found again
// before every command; a person needs to hear of them once, and again only
// when something changes. When the note cannot be written every report is
// news: a report too many, never one too few. FirstReport(nil) is false.
func FirstReport(dir, session string, err error) bool {
	if err == nil {
		return false
	}
	if validSession(session) != nil {
		return true
	}
	path := filepath.Join(sessionsDir(dir), session+".noted")
	msg := []byte(err.Error())
	if old, rerr := atomicfile.ReadFile(path, int64(len(msg))); rerr == nil && bytes.Equal(old, msg) {
		return false
	}
	atomicfile.Write(path, msg, 0o600)
	return true
}

// cleanSessions removes session files not modified for sessionMaxAge. A
// stamp file limits the directory scan to once per cleanEvery; otherwise it
// costs one stat. Callers hold the sessions lock. Errors are ignored: the
// cleanup is opportunistic.
func cleanSessions(sdir string, now time.Time) {
	stamp := filepath.Join(sdir, ".cleaned")
	fi, err := os.Lstat(stamp)
	if err == nil && (!fi.Mode().IsRegular() || now.Sub(fi.ModTime()) < cleanEvery) {
		return // (a FIFO there would block the write below)
	}
	if os.WriteFile(stamp, nil, 0o600) != nil || os.Chtimes(stamp, now, now) != nil {
		return
	}
	ents, err := os.ReadDir(sdir)
	if err != nil {
		return
	}
	for _, e := range ents {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".jsonl") && !strings.HasSuffix(e.Name(), ".noted") {
			continue
		}
		if fi, err := e.Info(); err == nil && now.Sub(fi.ModTime()) > sessionMaxAge {
			os.Remove(filepath.Join(sdir, e.Name()))
		}
	}
}
