package policy

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/guard-exec/guard-exec/argspec"
	"github.com/guard-exec/guard-exec/word"
)

// The tree walks of one judgement share a budget: a text of many whole
// reads is not many walks of 20,000 entries each.
func TestWalkBudgetShared(t *testing.T) {
	dir := t.TempDir()
	for i := range 10 {
		if err := os.WriteFile(filepath.Join(dir, "f"+string(rune('a'+i))), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := (&Env{Home: t.TempDir(), Project: dir, FollowLinks: true}).ForJudgement()
	read := Effect{Path: word.FromLit(dir), Access: Read, Recursive: true, Whole: &argspec.WholeRead{}}
	p := &Part{env: env}
	if got := readsWholeTree(p, read); got != word.No {
		t.Fatalf("a small tree with no secret: %v, want No", got)
	}
	if left := *env.walkLeft; left != maxJudgementWalk-11 {
		t.Errorf("the walk of 11 entries left %d of %d", left, maxJudgementWalk)
	}
	*env.walkLeft = 5
	if got := readsWholeTree(&Part{env: env}, read); got != word.Maybe {
		t.Errorf("a walk past what the judgement has left: %v, want Maybe (not all looked through)", got)
	}
	if *env.walkLeft != 0 {
		t.Errorf("left %d, want 0", *env.walkLeft)
	}
}
