package main

import (
	"strings"
	"testing"
)

// A session named after a parent that is process 1 changes with every
// command under a sandbox that gives each its own PID namespace (Codex's
// bubblewrap): notices keyed by it would be said every time.
func TestNoticeKey(t *testing.T) {
	if k := noticeKey("p4242-99"); k != "p4242-99" {
		t.Errorf("a real session: %q", k)
	}
	for _, s := range []string{"p1-345986", "p1-346011", "p1", ""} {
		if k := noticeKey(s); !strings.HasPrefix(k, "day-") {
			t.Errorf("%q: %q, want one key for them all", s, k)
		}
	}
	if noticeKey("p1-345986") != noticeKey("p1-346011") {
		t.Error("two commands of one sandboxed session got two keys")
	}
}
