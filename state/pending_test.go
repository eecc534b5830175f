package state

import (
	"math/rand"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fakeClock makes pendingNow a clock the test moves.
func fakeClock(t *testing.T) *time.Time {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	old := pendingNow
	pendingNow = func() time.Time { return now }
	t.Cleanup(func() { pendingNow = old })
	return &now
}

var (
	claude  = Process{PID: 4242, Start: 1000}
	reused  = Process{PID: 4242, Start: 2000} // the same id, another process
	sibling = Process{PID: 4343, Start: 1000}
)

func q(c Process, session, cmd string) Question {
	return Question{Client: c, Session: session, Command: cmd}
}

// The sequences of hook answers and shells that the old tickets got
// wrong, and their neighbours: a question is taken only by its own
// client, session and text, once, in time, and never after it was
// cleared.
func TestPendingSequences(t *testing.T) {
	push := "git push --force origin main"
	type step struct {
		op   string // ask, take, forget, wait
		q    Question
		d    time.Duration
		want bool // for take
	}
	ask := func(x Question) step { return step{op: "ask", q: x} }
	take := func(x Question, want bool) step { return step{op: "take", q: x, want: want} }
	forget := func(x Question) step { return step{op: "forget", q: x} }
	wait := func(d time.Duration) step { return step{op: "wait", d: d} }
	for _, tc := range []struct {
		name  string
		steps []step
	}{
		{"yes: the client's next shell takes it once", []step{ask(q(claude, "s1", push)), take(q(claude, "s1", push), true), take(q(claude, "s1", push), false)}},
		{"nothing asked", []step{take(q(claude, "s1", push), false)}},
		{"no: the batch resolves, nothing is left", []step{ask(q(claude, "s1", push)), forget(q(claude, "s1", "")), take(q(claude, "s1", push), false)}},
		{"no answer: expired", []step{ask(q(claude, "s1", push)), wait(PendingTTL), take(q(claude, "s1", push), false)}},
		{"slow yes within the limit", []step{ask(q(claude, "s1", push)), wait(PendingTTL - time.Second), take(q(claude, "s1", push), true)}},
		{"another process", []step{ask(q(claude, "s1", push)), take(q(sibling, "s1", push), false), take(q(claude, "s1", push), true)}},
		{"a reused process id", []step{ask(q(claude, "s1", push)), take(q(reused, "s1", push), false)}},
		{"another session", []step{ask(q(claude, "s1", push)), take(q(claude, "s2", push), false), take(q(claude, "", push), false)}},
		{"another text", []step{ask(q(claude, "s1", push)), take(q(claude, "s1", push+" "), false), take(q(claude, "s1", "git push"), false)}},
		{"forgetting another session keeps this one", []step{ask(q(claude, "s1", push)), forget(q(claude, "s2", "")), take(q(claude, "s1", push), true)}},
		{"forgetting for another client keeps this one", []step{ask(q(claude, "s1", push)), forget(q(sibling, "s1", "")), take(q(claude, "s1", push), true)}},
		{"asked again after use", []step{ask(q(claude, "s1", push)), take(q(claude, "s1", push), true), ask(q(claude, "s1", push)), take(q(claude, "s1", push), true)}},
		{"two questions, each once", []step{ask(q(claude, "s1", "a")), ask(q(claude, "s1", "b")), take(q(claude, "s1", "b"), true), take(q(claude, "s1", "a"), true), take(q(claude, "s1", "a"), false)}},
		{"a clock that went back", []step{ask(q(claude, "s1", push)), wait(-time.Hour), take(q(claude, "s1", push), false)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			now := fakeClock(t)
			dir := t.TempDir()
			for i, s := range tc.steps {
				switch s.op {
				case "ask":
					if err := Ask(dir, s.q); err != nil {
						t.Fatalf("step %d: %v", i, err)
					}
				case "take":
					if got := Take(dir, s.q); got != s.want {
						t.Fatalf("step %d: Take(%+v) = %v, want %v", i, s.q, got, s.want)
					}
				case "forget":
					Forget(dir, s.q.Session, s.q.Client)
				case "wait":
					*now = now.Add(s.d)
				}
			}
		})
	}
}

// A random walk over asks, takes, clears and time against a model of the
// contract.
func TestPendingModel(t *testing.T) {
	now := fakeClock(t)
	dir := t.TempDir()
	rng := rand.New(rand.NewSource(9))
	clients := []Process{claude, reused, sibling}
	sessions := []string{"s1", "s2"}
	cmds := []string{"a", "b", "a "}
	type key struct {
		c    Process
		s, m string
	}
	model := map[key]time.Time{} // asked at
	for i := 0; i < 3000; i++ {
		k := key{clients[rng.Intn(3)], sessions[rng.Intn(2)], cmds[rng.Intn(3)]}
		x := q(k.c, k.s, k.m)
		switch rng.Intn(5) {
		case 0, 1:
			if err := Ask(dir, x); err != nil {
				t.Fatal(err)
			}
			model[k] = *now
		case 2:
			at, ok := model[k]
			want := ok && now.Sub(at) < PendingTTL && now.Sub(at) >= 0
			if got := Take(dir, x); got != want {
				t.Fatalf("step %d: Take(%+v) = %v, want %v", i, x, got, want)
			}
			delete(model, k)
		case 3:
			Forget(dir, k.s, k.c)
			for m := range model {
				if m.s == k.s && m.c == k.c {
					delete(model, m)
				}
			}
		case 4:
			*now = now.Add(time.Duration(rng.Intn(90)) * time.Second)
		}
	}
}

// Of many guards taking one question at once, one wins.
func TestPendingTakeOnce(t *testing.T) {
	dir := t.TempDir()
	x := q(claude, "s1", "rm -rf build")
	for round := 0; round < 20; round++ {
		if err := Ask(dir, x); err != nil {
			t.Fatal(err)
		}
		var won atomic.Int32
		var wg sync.WaitGroup
		for i := 0; i < 8; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if Take(dir, x) {
					won.Add(1)
				}
			}()
		}
		wg.Wait()
		if won.Load() != 1 {
			t.Fatalf("round %d: %d takers won", round, won.Load())
		}
	}
}

// A question file that was tampered with, or is not what its name says,
// grants nothing and is swept.
func TestPendingCorrupt(t *testing.T) {
	dir := t.TempDir()
	x := q(claude, "s1", "make deploy")
	if err := Ask(dir, x); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(pendingDir(dir), pendingName(x))
	if err := os.WriteFile(p, []byte(`{"client":{"pid":1,"start":1},"session":"s1","command":"make deploy","time":"2099-01-01T00:00:00Z"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if Take(dir, x) {
		t.Fatal("a question for another client was taken")
	}
	if err := os.WriteFile(filepath.Join(pendingDir(dir), "0000"), []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Ask(dir, q(claude, "s1", "other")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(pendingDir(dir), "0000")); err == nil {
		t.Fatal("a corrupt question was not swept")
	}
}

func TestPendingNeedsClientAndSession(t *testing.T) {
	dir := t.TempDir()
	for _, x := range []Question{q(Process{}, "s1", "x"), q(claude, "", "x")} {
		if Ask(dir, x) == nil {
			t.Errorf("Ask(%+v) recorded a question", x)
		}
	}
	if Ask("", q(claude, "s1", "x")) == nil || Take("", q(claude, "s1", "x")) {
		t.Error("a question without a state directory")
	}
}

func TestGuardedAt(t *testing.T) {
	dir := t.TempDir()
	self, err := ProcessOf(os.Getpid())
	if err != nil {
		t.Skip(err)
	}
	if GuardedAt(dir, self) {
		t.Fatal("unmarked process reported guarded")
	}
	if err := MarkGuarded(dir, os.Getpid()); err != nil {
		t.Fatal(err)
	}
	if !GuardedAt(dir, self) {
		t.Fatal("marked process not reported guarded")
	}
	if GuardedAt(dir, Process{PID: self.PID, Start: self.Start + 1e9}) {
		t.Fatal("a later process with the same id reported guarded")
	}
}

func TestFallbackDir(t *testing.T) {
	base := t.TempDir()
	env := func(k string) string {
		if k == "TMPDIR" {
			return base
		}
		return ""
	}
	d, err := FallbackDir(env)
	if err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(d); err != nil || st.Mode().Perm() != 0o700 {
		t.Fatalf("%s: %v %v", d, st.Mode(), err)
	}
	// open to others, or a link in its place: refused
	if err := os.Chmod(d, 0o777); err != nil {
		t.Fatal(err)
	}
	if _, err := FallbackDir(env); err == nil {
		t.Error("a directory open to others was used")
	}
	os.Remove(d)
	if err := os.Symlink(t.TempDir(), d); err != nil {
		t.Fatal(err)
	}
	if _, err := FallbackDir(env); err == nil {
		t.Error("a link was used")
	}
}
