package judge_test

import (
	"os"
	"testing"
	"time"
)

// Every command an agent runs goes through the guard: no text may make
// judging take more than a moment. The bound below is a thousand times
// what these inputs should cost; it catches blow-ups, not slowness.
func TestJudgingStaysCheap(t *testing.T) {
	if !isolate(t) {
		return
	}
	pol := defaultPolicy(t)
	for _, src := range []string{
		// A * then a literal then many ?: matching the glob word against
		// path patterns must not be exponential in the number of ?.
		"touch *.????????????????????????",
		"rm -f *-????????????????????????",
		"0 *0????????????????????????",
		"cp x *.[a-z][a-z][a-z][a-z][a-z][a-z][a-z][a-z][a-z][a-z][a-z][a-z][a-z][a-z][a-z][a-z][a-z][a-z]",
		"touch ????????-????-????-????-????????????.json",
	} {
		done := judging(src)
		finished := make(chan string, 1)
		go func() { finished <- judgeText(pol, src).Decision }()
		select {
		case <-finished:
			done()
		case <-time.After(5 * time.Second):
			fail(t, "judging %q took more than 5s", src)
			// The judging goroutine cannot be stopped; end the child
			// process before it eats the machine's memory.
			os.Exit(1)
		}
	}
}
