package shellparse

import (
	"os"
	"path/filepath"
	"testing"
)

// A glob reads a bounded number of directory entries, and all of a text's
// globs share a larger bound: past either, the glob is not complete, so
// the word it makes is not known (never a list cut short).
func TestGlobBudget(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"a", "b", "c", "s/x", "s/y"} {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		pat      string
		mode     GlobMode
		left     int
		complete bool
	}{
		{"/*", GlobMode{}, 4, true},
		{"/*", GlobMode{}, 3, false},
		{"/*/*", GlobMode{}, 6, true},
		{"/*/*", GlobMode{}, 5, false},
		{"/**", GlobMode{Globstar: true}, 6, true},
		{"/**", GlobMode{Globstar: true}, 5, false},
	} {
		g := globRead{mode: c.mode, left: c.left, complete: true}
		m := g.match(dir + c.pat)
		if g.complete != c.complete || !c.complete && m != nil {
			t.Errorf("%s within %d: %v, complete %v; want complete %v", c.pat, c.left, m, g.complete, c.complete)
		}
	}
	glob := FileGlobber()
	spent := 0
	for spent < maxGlobEntriesText {
		if _, complete := glob(dir+"/*", GlobMode{}); !complete {
			t.Fatalf("incomplete after %d entries, before the text's bound %d", spent, maxGlobEntriesText)
		}
		spent += 4
	}
	if _, complete := glob(dir+"/*", GlobMode{}); complete {
		t.Errorf("complete past the text's bound")
	}
}
