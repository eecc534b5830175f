package main

import (
	"fmt"
	"os"
	"path/filepath"

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
	session := s.session
	if session == "" {
		session = "unknown"
	}
	f, err := os.OpenFile(filepath.Join(dir, "moved-"+session), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	f.Close()
	fmt.Fprintf(e.stderr, "guard-exec: notice: cannot write the audit log (%v); this session's decisions are recorded in %s\n", cause, l.Path)
}
