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
	var all strings.Builder
	for _, s := range texts {
		// Only texts read on their own, each in a subshell so that an
		// exit ends only its own part, and none with a here-document
		// (one left open at the end of its text would swallow the rest).
		wrapped := "(\n" + s + "\n)\n"
		if _, err := Parse(wrapped, opts); err == nil && !strings.Contains(s, "<<") {
			all.WriteString(wrapped)
		}
	}
	if _, err := Parse(all.String(), opts); err != nil {
		t.Fatalf("the corpora joined: %v", err)
	}
	texts = append(texts, all.String())
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
