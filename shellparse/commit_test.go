package shellparse

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCommittedNeverChange: the commands handed to Options.Committed are
// the final ones. Each committed command's key is taken when it is
// committed and compared with the same command's key after the walk; and
// the walk reports what it reports without the callback. The texts are
// the repository's corpora: real CI scripts, agent sessions and the
// differential cases, each also joined into one long script.
func TestCommittedNeverChange(t *testing.T) {
	texts := corpusTexts(t)
	opts := Options{Cwd: "/home/u/proj", Getenv: func(string) string { return "" }, ParamsUnknown: true}
	// The joined scripts are cut at about joinParts parts: the corpora
	// together hold more parts than the guard judges in one text. The
	// cases of state.jsonl are left out of them: each changes the shell
	// for all that follows (traps, redefined builtins, set -k), which
	// multiplies the parts of every later text; they are walked alone.
	const joinParts = 10000
	standalone := map[string]bool{}
	for _, s := range corpusFile(t, "../testdata/corpus/state.jsonl") {
		standalone[s] = true
	}
	var joined []string
	var all strings.Builder
	parts := 0
	for _, s := range texts {
		if standalone[s] {
			continue
		}
		// Only texts read on their own, each in a subshell so that an
		// exit ends only its own part, and none with a here-document
		// (one left open at the end of its text would swallow the rest).
		wrapped := "(\n" + s + "\n)\n"
		if res, err := Parse(wrapped, opts); err == nil && !strings.Contains(s, "<<") {
			all.WriteString(wrapped)
			if parts += len(res.Cmds); parts >= joinParts {
				joined = append(joined, all.String())
				all.Reset()
				parts = 0
			}
		}
	}
	if all.Len() > 0 {
		joined = append(joined, all.String())
	}
	for i, j := range joined {
		if _, err := Parse(j, opts); err != nil {
			t.Fatalf("the corpora joined, script %d of %d: %v", i+1, len(joined), err)
		}
	}
	if len(joined) < 2 {
		t.Fatalf("the corpora joined make %d scripts, want several long ones", len(joined))
	}
	texts = append(texts, joined...)
	checked := 0
	for _, src := range texts {
		plain, err := Parse(src, opts)
		if err != nil {
			continue
		}
		var keys []string
		var committed []*Cmd
		o := opts
		o.Committed = func(cmds []*Cmd) {
			if len(cmds) < len(committed) {
				t.Fatalf("committed %d commands, then %d", len(committed), len(cmds))
			}
			for i, c := range cmds {
				if i < len(committed) {
					if c != committed[i] {
						t.Fatalf("committed command %d replaced", i)
					}
					continue
				}
				committed = append(committed, c)
				keys = append(keys, c.Key()+c.Pos.String())
			}
		}
		res, err := Parse(src, o)
		if err != nil {
			t.Fatalf("%.80q: an error only with Committed: %v", src, err)
		}
		if len(res.Cmds) != len(plain.Cmds) {
			t.Fatalf("%.80q: %d commands with Committed, %d without", src, len(res.Cmds), len(plain.Cmds))
		}
		for i, c := range res.Cmds {
			if c.Key() != plain.Cmds[i].Key() {
				t.Fatalf("%.80q: command %d differs with Committed: %s / %s", src, i, c, plain.Cmds[i])
			}
			if i < len(committed) && !res.Rewalked { // a second walk voids what the first committed
				if c != committed[i] || c.Key()+c.Pos.String() != keys[i] {
					t.Fatalf("%.80q: command %d changed after it was committed: was %q, now %s", src, i, keys[i], c)
				}
			}
		}
		if !res.Rewalked {
			checked += len(committed)
		}
	}
	if checked < 5000 {
		t.Fatalf("only %d committed commands checked", checked)
	}
	t.Logf("%d texts, %d committed commands checked", len(texts), checked)
}

// corpusTexts reads the texts of the repository's corpora.
// corpusFile is the "cmd" texts of one corpus file.
func corpusFile(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the corpora are part of the repository: %v", err)
	}
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var rec struct{ Cmd string }
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, rec.Cmd)
	}
	if len(out) == 0 {
		t.Fatalf("%s holds no cases", path)
	}
	return out
}

func corpusTexts(t *testing.T) []string {
	t.Helper()
	var texts []string
	read := func(path string, field func(map[string]any) []string) {
		f, err := os.Open(path)
		if err != nil {
			t.Fatalf("the corpora are part of the repository: %v", err)
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<26)
		for sc.Scan() {
			var rec map[string]any
			if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			texts = append(texts, field(rec)...)
		}
	}
	str := func(key string) func(map[string]any) []string {
		return func(rec map[string]any) []string {
			if s, ok := rec[key].(string); ok {
				return []string{s}
			}
			return nil
		}
	}
	read("../testdata/corpora/ci-scripts.jsonl", str("script"))
	read("../testdata/corpora/agent-sessions.jsonl", func(rec map[string]any) []string {
		var out []string
		cmds, _ := rec["commands"].([]any)
		for _, c := range cmds {
			if s, ok := c.(string); ok {
				out = append(out, s)
			}
		}
		return out
	})
	files, _ := filepath.Glob("../testdata/corpus/*.jsonl")
	for _, p := range files {
		read(p, str("cmd"))
	}
	return texts
}
