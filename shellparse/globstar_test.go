package shellparse

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// globstarMatches is ** as bash's globstar reads it, within the budget
// of all a text's ** globs: past it, the glob is not all read.
func TestGlobstarMatches(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"a/b/c/x.go", "a/y.go", "x.go", "a/.env", "z.txt"} {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	budget := 100
	got, complete := globstarMatches(dir+"/**/*.go", &budget)
	want := []string{dir + "/a/b/c/x.go", dir + "/a/y.go", dir + "/x.go"}
	if !complete || !slices.Equal(got, want) {
		t.Errorf("**/*.go: %v (complete %v), want %v", got, complete, want)
	}
	if got, _ := globstarMatches(dir+"/**", &budget); !slices.Contains(got, dir+"/a/.env") || !slices.Contains(got, dir+"/a/b/c") {
		t.Errorf("**: %v, want every entry below, hidden ones too", got)
	}
	spent := 100 - budget
	if spent == 0 {
		t.Fatalf("the walks took nothing from the budget")
	}
	budget = 3
	if _, complete := globstarMatches(dir+"/**", &budget); complete || budget != 0 {
		t.Errorf("a walk past the budget: complete %v, budget left %d; want false, 0", complete, budget)
	}
	if _, complete := globstarMatches(dir+"/**", &budget); complete {
		t.Errorf("with the budget spent, a walk is complete")
	}
}
