//go:build linux

package state

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

func newRequest(cmd string) Request {
	return Request{Session: "s1", Cwd: "/w", Command: cmd, SessionRule: "[[rule]]\ndecision = \"allow\"\ncommand = 'x'"}
}

// Many guards at once (the lock is an flock, which separate open files of
// one process contend for as processes do): every request gets its own id,
// every decision reaches its own waiter and no other.
func TestQueueParallel(t *testing.T) {
	dir := t.TempDir()
	const n = 24
	type got struct {
		id  int
		ans string
		ok  bool
	}
	results := make(chan got, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w, err := Enqueue(dir, newRequest("same text"), 20*time.Second)
			if err != nil {
				t.Error(err)
				return
			}
			d, ok := w.Wait(nil)
			w.Withdraw()
			results <- got{w.Req.ID, d.Answer, ok}
			_ = i
		}()
	}
	// The person answers each pending request once: even ids yes, odd no.
	answered := map[int]bool{}
	deadline := time.Now().Add(20 * time.Second)
	for len(answered) < n && time.Now().Before(deadline) {
		rs, err := Pending(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rs {
			if answered[r.ID] {
				t.Fatalf("request %d is pending again after it was answered", r.ID)
			}
			ans := "once"
			if r.ID%2 == 1 {
				ans = "no"
			}
			if err := Decide(dir, r, ans, ""); err != nil {
				t.Fatal(err)
			}
			answered[r.ID] = true
		}
		time.Sleep(5 * time.Millisecond)
	}
	wg.Wait()
	close(results)
	seen := map[int]bool{}
	for g := range results {
		if seen[g.id] {
			t.Errorf("id %d given out twice", g.id)
		}
		seen[g.id] = true
		want := "once"
		if g.id%2 == 1 {
			want = "no"
		}
		if !g.ok || g.ans != want {
			t.Errorf("request %d got %q (ok %v), want %q", g.id, g.ans, g.ok, want)
		}
	}
	for id := 1; id <= n; id++ {
		if !seen[id] {
			t.Errorf("id %d was never given out", id)
		}
	}
	if rs, _ := Pending(dir); len(rs) != 0 {
		t.Errorf("%d requests left pending", len(rs))
	}
}

// A decision binds to its request: not to a later one with the same text,
// not to one whose file changed after the person saw it, not from a file
// that merely names the id.
func TestDecisionBinding(t *testing.T) {
	dir := t.TempDir()
	w1, err := Enqueue(dir, newRequest("rm -r build"), time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	shown := w1.Req
	if err := Decide(dir, shown, "once", ""); err != nil {
		t.Fatal(err)
	}
	if err := Decide(dir, shown, "no", ""); !errors.Is(err, ErrNotPending) {
		t.Errorf("a second decision for one request: %v, want ErrNotPending", err)
	}
	decision, _ := os.ReadFile(entry(dir, 1, "dec"))
	if d, ok := w1.Withdraw(); !ok || d.Answer != "once" {
		t.Fatalf("the waiter did not take its decision: %+v %v", d, ok)
	}

	// A later request with the same text: the old decision, copied to
	// its id, is not its decision, nor is the person's earlier view of
	// request 1.
	w2, err := Enqueue(dir, newRequest("rm -r build"), time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(entry(dir, w2.Req.ID, "dec"), decision, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, ok := w2.Poll(); ok {
		t.Error("a copied decision answered a later request")
	}
	if rs, _ := Pending(dir); len(rs) != 1 || rs[0].ID != w2.Req.ID {
		t.Errorf("a stale decision hid the request from the person: %+v", rs)
	}
	if err := Decide(dir, shown, "once", ""); !errors.Is(err, ErrNotPending) {
		t.Errorf("deciding the withdrawn request: %v, want ErrNotPending", err)
	}

	// The request file changed after it was shown (a swap under the
	// person's keypress): nothing is decided.
	view, err := Get(dir, w2.Req.ID)
	if err != nil {
		t.Fatal(err)
	}
	var r Request
	b, _ := os.ReadFile(entry(dir, w2.Req.ID, "req"))
	json.Unmarshal(b, &r)
	r.Command = "echo harmless"
	b, _ = json.Marshal(r)
	os.WriteFile(entry(dir, w2.Req.ID, "req"), b, 0o600)
	if err := Decide(dir, view, "once", ""); !errors.Is(err, ErrNotPending) {
		t.Errorf("deciding a request that changed after it was shown: %v, want ErrNotPending", err)
	}
	// And what the person sees of the changed file cannot answer the
	// waiter either: its digest is not the waiter's.
	changed, err := Get(dir, w2.Req.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := Decide(dir, changed, "once", ""); err != nil {
		t.Fatal(err)
	}
	if _, ok := w2.Poll(); ok {
		t.Error("a decision on a changed request file answered the waiter")
	}
	w2.Withdraw()
}

// A request whose guard is gone (or whose process id now belongs to
// another process) can never be decided, and is swept.
func TestDeadWaiter(t *testing.T) {
	dir := t.TempDir()
	child := exec.Command("/bin/true")
	if err := child.Run(); err != nil {
		t.Skip(err)
	}
	cases := []struct {
		name  string
		pid   int
		start uint64
	}{
		{"exited", child.Process.Pid, 1},
		{"pid reused", os.Getpid(), selfStart() + 1},
	}
	for i, c := range cases {
		id := i + 1
		r := newRequest("make")
		r.ID, r.PID, r.Start, r.Nonce = id, c.pid, c.start, "n"
		r.Time, r.Deadline = time.Now(), time.Now().Add(time.Hour)
		b, _ := json.Marshal(r)
		if err := os.MkdirAll(queueDir(dir), 0o700); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(entry(dir, id, "req"), b, 0o600)
		view, err := readRequest(dir, id)
		if err != nil {
			t.Fatal(err)
		}
		if err := Decide(dir, view, "once", ""); !errors.Is(err, ErrNotPending) {
			t.Errorf("%s: decided: %v", c.name, err)
		}
		if rs, _ := Pending(dir); len(rs) != 0 {
			t.Errorf("%s: still pending: %+v", c.name, rs)
		}
		if _, err := os.Stat(entry(dir, id, "req")); err == nil {
			t.Errorf("%s: not swept", c.name)
		}
	}
}

// Nobody answers: the wait ends at the deadline, the request is gone, and
// a decision that comes later decides nothing. One that came in before the
// waiter withdrew was in time.
func TestQueueTimeout(t *testing.T) {
	dir := t.TempDir()
	w, err := Enqueue(dir, newRequest("make"), 150*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, ok := w.Wait(nil); ok {
		t.Fatal("a decision out of nowhere")
	}
	if e := time.Since(start); e < 100*time.Millisecond || e > 5*time.Second {
		t.Errorf("waited %v for a 150ms timeout", e)
	}
	if _, ok := w.Withdraw(); ok {
		t.Fatal("a decision out of nowhere")
	}
	if err := Decide(dir, w.Req, "once", ""); !errors.Is(err, ErrNotPending) {
		t.Errorf("a decision after the timeout: %v, want ErrNotPending", err)
	}
	if ents, _ := os.ReadDir(queueDir(dir)); len(ents) != 2 { // last-id and queue.lock
		t.Errorf("left behind: %v", ents)
	}

	w, err = Enqueue(dir, newRequest("make"), 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	close(stop)
	w.Wait(stop)
	if err := Decide(dir, w.Req, "no", "not now"); err != nil {
		t.Fatal(err)
	}
	if d, ok := w.Withdraw(); !ok || d.Answer != "no" || d.Note != "not now" {
		t.Errorf("a decision before the withdrawal was lost: %+v %v", d, ok)
	}
}

// A damaged counter never hands out an id that is on disk.
func TestQueueIDsAfterDamage(t *testing.T) {
	dir := t.TempDir()
	if _, err := RecordRefusal(dir, Refusal{Session: "s1", Command: "a", Rules: []string{"r"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := RecordRefusal(dir, Refusal{Session: "s1", Command: "b", Rules: []string{"r"}}); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(queueDir(dir), "last-id"), []byte("garbage"), 0o600)
	id, err := RecordRefusal(dir, Refusal{Session: "s1", Command: "c", Rules: []string{"r"}})
	if err != nil || id != 3 {
		t.Errorf("id %d, %v; want 3", id, err)
	}
	os.WriteFile(filepath.Join(queueDir(dir), "last-id"), []byte("1\n"), 0o600)
	if id, _ := RecordRefusal(dir, Refusal{Session: "s1", Command: "d", Rules: []string{"r"}}); id != 4 {
		t.Errorf("id %d after a counter that went back; want 4", id)
	}
}

func TestRefusals(t *testing.T) {
	dir := t.TempDir()
	if _, err := GetRefusal(dir, 0); err == nil {
		t.Error("a refusal out of nowhere")
	}
	for _, c := range []string{"one", "two"} {
		if _, err := RecordRefusal(dir, Refusal{Session: "s1", Command: c, Rules: []string{"r-" + c}}); err != nil {
			t.Fatal(err)
		}
	}
	if f, err := GetRefusal(dir, 0); err != nil || f.ID != 2 || f.Command != "two" {
		t.Errorf("latest: %+v %v", f, err)
	}
	if f, err := GetRefusal(dir, 1); err != nil || f.Command != "one" || f.Rules[0] != "r-one" || f.Session != "s1" {
		t.Errorf("refusal 1: %+v %v", f, err)
	}
	RemoveRefusal(dir, 2)
	if f, err := GetRefusal(dir, 0); err != nil || f.ID != 1 {
		t.Errorf("latest after removing 2: %+v %v", f, err)
	}
	old := time.Now().Add(-refusalMaxAge - time.Hour)
	os.Chtimes(entry(dir, 1, "refused"), old, old)
	if _, err := GetRefusal(dir, 1); err == nil {
		t.Error("a refusal older than a day can still be allowed")
	}
	if _, err := RecordRefusal(dir, Refusal{Session: "../x", Command: "c"}); err == nil {
		t.Error("a session id with a path in it was accepted")
	}
}
