package main

import (
	"strings"
	"testing"
)

// TestSessionsNothingBenignDenied replays the real agent sessions: none of
// their commands is dangerous enough to deny, so no default may deny one,
// and every command must be read (questions are expected; see README).
func TestSessionsNothingBenignDenied(t *testing.T) {
	sessions, err := load("../../testdata/corpora/agent-sessions.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for _, cfg := range []func(session) string{nil, initConfig} {
		st, err := replay(sessions, cfg, false)
		if err != nil {
			t.Fatal(err)
		}
		if st.sessions != 112 || st.commands < 2200 {
			t.Fatalf("replayed %d sessions, %d commands; the corpus has 112 sessions", st.sessions, st.commands)
		}
		// Some sessions write into the agent client's own files (a slash
		// command into ~/.claude/commands, hooks into
		// .claude/settings.local.json, a transcript under
		// ~/.claude/projects, skills and agents linked into
		// .claude/skills and .claude/agents): no command under the guard
		// may, benign or not (issue 12.3: those directories grow files
		// that grant permissions).
		own := 0
		for _, d := range st.deniedCmds {
			if strings.HasSuffix(d, "(the agent client's settings, hooks and files configure what the agent may do; the commands it runs cannot change them)") {
				own++
				continue
			}
			t.Errorf("a benign command was denied: %s", d)
		}
		if own != 8 {
			t.Errorf("%d commands writing the agent client's files were denied, want the corpus's 8", own)
		}
		t.Logf("with init config: %v\n%s", cfg != nil, st)
	}
}
