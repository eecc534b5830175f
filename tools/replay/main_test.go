package main

import (
	"testing"

	"github.com/guard-exec/guard-exec/policy"
)

// TestSessionsNothingBenignDenied replays the real agent sessions: none of
// their commands is dangerous enough to deny, so no default may deny one,
// and every command must be read (questions are expected; see README).
func TestSessionsNothingBenignDenied(t *testing.T) {
	sessions, err := load("../../testdata/corpora/agent-sessions.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	init := policy.StarterConfig("/project", func(f string) bool {
		return f == "pyproject.toml" || f == "package.json" || f == ".git"
	})
	for _, cfg := range []string{"", init} {
		st, err := replay(sessions, cfg, false)
		if err != nil {
			t.Fatal(err)
		}
		if st.sessions != 112 || st.commands < 2200 {
			t.Fatalf("replayed %d sessions, %d commands; the corpus has 112 sessions", st.sessions, st.commands)
		}
		for _, d := range st.deniedCmds {
			t.Errorf("a benign command was denied: %s", d)
		}
		t.Logf("with init config: %v\n%s", cfg != "", st)
	}
}
