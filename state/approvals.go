package state

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
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
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("state: skipped %d corrupt line(s) in %s (line %d: %v); they grant nothing, delete the file to clear the session's approvals",
		len(e.Lines), e.Path, e.Lines[0], e.First)
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
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
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

// Approvals returns the session's approvals in the order they were given.
// A missing file gives nil, nil. Lines that are not valid approvals are
// skipped and reported with a *CorruptError next to the valid ones; an
// unterminated last line (a write in progress or cut short) is ignored.
func Approvals(dir, session string) ([]Approval, error) {
	if err := validSession(session); err != nil {
		return nil, fmt.Errorf("state: session id %w", err)
	}
	path := filepath.Join(sessionsDir(dir), session+".jsonl")
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	} else if err != nil {
		return nil, fmt.Errorf("state: cannot read session approvals: %w", err)
	}
	var out []Approval
	var bad *CorruptError
	lines := bytes.Split(b, []byte{'\n'})
	for i, l := range lines[:len(lines)-1] { // the last element is unterminated
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
				bad = &CorruptError{Path: path, First: err}
			}
			bad.Lines = append(bad.Lines, i+1)
			continue
		}
		out = append(out, a)
	}
	if bad != nil {
		return out, bad
	}
	return out, nil
}

// cleanSessions removes session files not modified for sessionMaxAge. A
// stamp file limits the directory scan to once per cleanEvery; otherwise it
// costs one stat. Callers hold the sessions lock. Errors are ignored: the
// cleanup is opportunistic.
func cleanSessions(sdir string, now time.Time) {
	stamp := filepath.Join(sdir, ".cleaned")
	if fi, err := os.Stat(stamp); err == nil && now.Sub(fi.ModTime()) < cleanEvery {
		return
	}
	if os.WriteFile(stamp, nil, 0o600) != nil || os.Chtimes(stamp, now, now) != nil {
		return
	}
	ents, err := os.ReadDir(sdir)
	if err != nil {
		return
	}
	for _, e := range ents {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".jsonl") {
			continue
		}
		if fi, err := e.Info(); err == nil && now.Sub(fi.ModTime()) > sessionMaxAge {
			os.Remove(filepath.Join(sdir, e.Name()))
		}
	}
}
