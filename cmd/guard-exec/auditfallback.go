package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/guard-exec/guard-exec/atomicfile"
	"github.com/guard-exec/guard-exec/audit"
	"github.com/guard-exec/guard-exec/state"
)

// logElsewhere records a decision that could not be written to the audit
// log (a read-only state directory: Codex's sandboxes make HOME read-only)
// in the per-user fallback directory. Every command's output is what the
// model reads, so the move is told once per session, and nothing is said
// when nothing is writable: the decision itself stands either way.
func logElsewhere(e *env, s *setup, r audit.Record, cause error) {
	dir, err := state.FallbackDir(e.get)
	if err != nil {
		return
	}
	l := *s.audit
	l.Path = filepath.Join(dir, "audit.jsonl")
	if l.Append(r) != nil {
		return
	}
	f, err := os.OpenFile(filepath.Join(dir, "moved-"+noticeKey(s.session)), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	f.Close()
	// The OS's words stay out of the notice: "read-only file system" is
	// what Codex takes for a sandbox denial.
	what := "the guard's state directory cannot be written here"
	if errors.Is(cause, atomicfile.ErrNotRegular) {
		what = "the audit log " + s.audit.Path + " is not a regular file"
	}
	fmt.Fprintf(e.stderr, "guard-exec: notice: %s; its decisions are recorded in %s\n", what, l.Path)
}

// noticeKey is what a once-per-session notice is remembered by. A session
// named after a parent that is process 1 is no session: a sandbox that
// starts every command in a PID namespace of its own (Codex's bubblewrap,
// --as-pid-1) gives each command a new "parent", so such notices are said
// once a day instead.
func noticeKey(session string) string {
	if session == "" || strings.HasPrefix(session, "p1-") || session == "p1" {
		return "day-" + time.Now().Format("20060102")
	}
	return session
}
