package state

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/guard-exec/guard-exec/atomicfile"
	"github.com/guard-exec/guard-exec/internal/sha256"
)

// The approval queue, under dir/queue:
//
//	last-id        the last id given out; ids are sequential and never reused
//	queue.lock     serialises every change to the queue (ids, requests, decisions)
//	ID.req         a pending request, written once (atomically) by its waiting guard
//	ID.dec         the decision for it, written once by a person's approver
//	ID.refused     an ask that was refused, which the person may turn into a
//	               session approval (guard-exec allow ID)
//
// A decision binds to one request and one waiting process: it carries the
// request's id, the waiter's process id and start time, the request's random
// nonce and the digest of the request file the person was shown. The waiter
// takes a decision only when all of them are its own, so a decision can
// never reach a later request with the same text, a process that reused the
// id, or a request whose file was changed after the person saw it. A
// request whose waiter is gone can no longer be decided, and is swept.
//
// Nothing here costs the guard anything unless a command asks.

func queueDir(dir string) string { return filepath.Join(dir, "queue") }

// ErrNotPending: the request is not (or no longer) waiting: it was decided,
// withdrawn, timed out, or its guard is gone.
var ErrNotPending = errors.New("not waiting for a decision")

// RequestPart is a part of a command that needs approval, and why.
type RequestPart struct {
	Text   string `json:"text"`
	Reason string `json:"reason,omitempty"`
}

// Request is one pending question.
type Request struct {
	ID          int           `json:"id"`
	Time        time.Time     `json:"time"`
	Deadline    time.Time     `json:"deadline"`
	Session     string        `json:"session"`
	Cwd         string        `json:"cwd"`
	Client      string        `json:"client,omitempty"`
	Command     string        `json:"command"`
	Parts       []RequestPart `json:"parts,omitempty"`
	SessionRule string        `json:"session_rule,omitempty"` // what 'a' remembers; "" = not offered
	PersistRule string        `json:"persist_rule,omitempty"` // what 'w' writes; "" = not offered
	ConfigPath  string        `json:"config_path,omitempty"`
	PID         int           `json:"pid"`
	Start       uint64        `json:"start"` // the waiter's start time (/proc ticks; 0 where unknown)
	Nonce       string        `json:"nonce"`
	// Digest is the sha256 of the request file; it is not in the file.
	Digest string `json:"-"`
}

// Decision answers one request.
type Decision struct {
	ID     int       `json:"id"`
	PID    int       `json:"pid"`
	Start  uint64    `json:"start"`
	Nonce  string    `json:"nonce"`
	Digest string    `json:"digest"`
	Answer string    `json:"answer"` // "once", "session", "always" or "no"
	Note   string    `json:"note,omitempty"`
	Time   time.Time `json:"time"`
}

// Answers a decision may carry.
var decisionAnswers = map[string]bool{"once": true, "session": true, "always": true, "no": true}

// Refusal is an ask that was refused, kept so that the person can allow it
// for its session afterwards.
type Refusal struct {
	ID      int       `json:"id"`
	Time    time.Time `json:"time"`
	Session string    `json:"session"`
	Cwd     string    `json:"cwd"`
	Command string    `json:"command"`
	Why     string    `json:"why"`
	Rules   []string  `json:"rules,omitempty"` // session rules; none: it cannot be remembered
}

// refusalMaxAge is how long a refusal can still be allowed.
const refusalMaxAge = 24 * time.Hour

// lockQueue serialises changes to the queue.
func lockQueue(dir string) (func(), error) {
	qd := queueDir(dir)
	if err := os.MkdirAll(qd, 0o700); err != nil {
		return nil, err
	}
	return atomicfile.Lock(filepath.Join(qd, "queue"))
}

// nextID gives out the next id; the caller holds the queue lock.
func nextID(dir string) (int, error) {
	p := filepath.Join(queueDir(dir), "last-id")
	n := 0
	if b, err := os.ReadFile(p); err == nil {
		n, err = strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil || n < 0 {
			// A damaged counter must not hand out an id again: start
			// past every id still on disk.
			n = maxIDOnDisk(dir)
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return 0, err
	}
	n = max(n, maxIDOnDisk(dir)) + 1
	if err := atomicfile.Write(p, []byte(strconv.Itoa(n)+"\n"), 0o600); err != nil {
		return 0, err
	}
	return n, nil
}

func maxIDOnDisk(dir string) int {
	ents, _ := os.ReadDir(queueDir(dir))
	m := 0
	for _, e := range ents {
		if id, _, ok := queueName(e.Name()); ok {
			m = max(m, id)
		}
	}
	return m
}

// queueName parses "ID.kind".
func queueName(name string) (id int, kind string, ok bool) {
	s, kind, ok := strings.Cut(name, ".")
	if !ok || (kind != "req" && kind != "dec" && kind != "refused") {
		return 0, "", false
	}
	id, err := strconv.Atoi(s)
	return id, kind, err == nil && id > 0 && strconv.Itoa(id) == s
}

func entry(dir string, id int, kind string) string {
	return filepath.Join(queueDir(dir), strconv.Itoa(id)+"."+kind)
}

func digest(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// selfStart is this process's start time, or 0 where /proc is not there.
func selfStart() uint64 {
	st, _, err := procStart(os.Getpid())
	if err != nil {
		return 0
	}
	return st
}

// alive reports whether the process that started at start (0: unknown) is
// still pid.
func alive(pid int, start uint64) bool {
	if pid <= 0 {
		return false
	}
	st, _, err := procStart(pid)
	if err == nil {
		return st == start
	}
	if start != 0 {
		return false // it had a start time, so /proc works: it is gone
	}
	return unix.Kill(pid, 0) != unix.ESRCH
}

// Waiter is a guard waiting for a decision on its request.
type Waiter struct {
	dir string
	Req Request
}

// Enqueue records r as pending and returns its waiter, which is the calling
// process: it must Wait and then Withdraw. Id, time, process and nonce are
// set here.
func Enqueue(dir string, r Request, timeout time.Duration) (*Waiter, error) {
	if err := validSession(r.Session); err != nil {
		return nil, fmt.Errorf("state: session id %w", err)
	}
	nonce, err := randomBytes(16)
	if err != nil {
		return nil, fmt.Errorf("state: cannot make a nonce for the request: %w", err)
	}
	unlock, err := lockQueue(dir)
	if err != nil {
		return nil, fmt.Errorf("state: cannot queue the request: %w", err)
	}
	defer unlock()
	sweepQueue(dir, time.Now())
	if r.ID, err = nextID(dir); err != nil {
		return nil, fmt.Errorf("state: cannot queue the request: %w", err)
	}
	r.Time = time.Now().UTC()
	r.Deadline = r.Time.Add(timeout)
	r.PID, r.Start, r.Nonce = os.Getpid(), selfStart(), hex.EncodeToString(nonce)
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("state: cannot encode the request: %w", err)
	}
	b = append(b, '\n')
	if err := atomicfile.Write(entry(dir, r.ID, "req"), b, 0o600); err != nil {
		return nil, fmt.Errorf("state: cannot queue the request: %w", err)
	}
	r.Digest = digest(b)
	return &Waiter{dir: dir, Req: r}, nil
}

// randomBytes reads the system's random source (not crypto/rand, whose
// start-up the guard would pay in every process).
func randomBytes(n int) ([]byte, error) {
	f, err := os.Open("/dev/urandom")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := make([]byte, n)
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, err
	}
	return b, nil
}

// Poll returns the decision, if one for exactly this request has arrived.
// Anything else in the decision file (another request's, a stale or forged
// one) is not a decision.
func (w *Waiter) Poll() (Decision, bool) {
	b, err := os.ReadFile(entry(w.dir, w.Req.ID, "dec"))
	if err != nil {
		return Decision{}, false
	}
	var d Decision
	if json.Unmarshal(b, &d) != nil {
		return Decision{}, false
	}
	r := w.Req
	if d.ID != r.ID || d.PID != r.PID || d.Start != r.Start || d.Nonce != r.Nonce || d.Digest != r.Digest || !decisionAnswers[d.Answer] {
		return Decision{}, false
	}
	return d, true
}

// decided reports whether r has a decision its waiter would take: a
// decision file that is not for it (stale, forged) neither answers it nor
// hides it from the person.
func decided(dir string, r Request) bool {
	_, ok := (&Waiter{dir: dir, Req: r}).Poll()
	return ok
}

// Wait polls for a decision until the request's deadline or until stop is
// closed. ok is false on timeout or stop.
func (w *Waiter) Wait(stop <-chan struct{}) (d Decision, ok bool) {
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	tm := time.NewTimer(time.Until(w.Req.Deadline))
	defer tm.Stop()
	for {
		if d, ok := w.Poll(); ok {
			return d, true
		}
		select {
		case <-tick.C:
		case <-tm.C:
			return Decision{}, false
		case <-stop:
			return Decision{}, false
		}
	}
}

// Withdraw ends the request: under the queue lock it takes a decision that
// made it in (a person who answered before the lock was taken was in time)
// and removes the request and decision files, so no approver can answer it
// afterwards.
func (w *Waiter) Withdraw() (Decision, bool) {
	unlock, err := lockQueue(w.dir)
	if err == nil {
		defer unlock()
	}
	d, ok := w.Poll()
	os.Remove(entry(w.dir, w.Req.ID, "req"))
	os.Remove(entry(w.dir, w.Req.ID, "dec"))
	return d, ok
}

// readRequest reads a request file; a file that is not a valid request of
// that id is an error.
func readRequest(dir string, id int) (Request, error) {
	b, err := os.ReadFile(entry(dir, id, "req"))
	if err != nil {
		return Request{}, err
	}
	var r Request
	if err := json.Unmarshal(b, &r); err != nil {
		return Request{}, fmt.Errorf("%w request file: %v", ErrCorrupt, err)
	}
	if r.ID != id || r.Nonce == "" || r.PID <= 0 {
		return Request{}, fmt.Errorf("%w request file: id, nonce or process missing", ErrCorrupt)
	}
	r.Digest = digest(b)
	return r, nil
}

// waiting reports whether r still waits: its guard is alive and its
// deadline has not passed.
func waiting(r Request, now time.Time) bool {
	return alive(r.PID, r.Start) && now.Before(r.Deadline)
}

// Pending returns the requests still waiting for a decision, oldest first.
// Requests whose guard is gone, that timed out or that are not valid are
// swept.
func Pending(dir string) ([]Request, error) {
	ents, err := os.ReadDir(queueDir(dir))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	} else if err != nil {
		return nil, fmt.Errorf("state: cannot read the approval queue: %w", err)
	}
	var out []Request
	stale := false
	now := time.Now()
	for _, e := range ents {
		id, kind, ok := queueName(e.Name())
		if !ok || kind != "req" {
			continue
		}
		r, err := readRequest(dir, id)
		if err != nil {
			stale = stale || !errors.Is(err, os.ErrNotExist)
			continue
		}
		if !waiting(r, now) {
			stale = true
			continue
		}
		if decided(dir, r) {
			continue // the guard has not taken it yet
		}
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	if stale {
		if unlock, err := lockQueue(dir); err == nil {
			sweepQueue(dir, now)
			unlock()
		}
	}
	return out, nil
}

// Get returns request id if it is still waiting.
func Get(dir string, id int) (Request, error) {
	r, err := readRequest(dir, id)
	if err != nil || !waiting(r, time.Now()) {
		return Request{}, fmt.Errorf("state: request %d is %w", id, ErrNotPending)
	}
	return r, nil
}

// Decide answers request r, as the person was shown it (r.Digest): if the
// request file changed since, its guard is gone, it timed out or it was
// answered already, nothing is decided and the error matches ErrNotPending.
func Decide(dir string, r Request, answer, note string) error {
	if !decisionAnswers[answer] {
		return fmt.Errorf("state: %q is not an answer", answer)
	}
	unlock, err := lockQueue(dir)
	if err != nil {
		return fmt.Errorf("state: cannot record the decision: %w", err)
	}
	defer unlock()
	cur, err := readRequest(dir, r.ID)
	if err != nil || !waiting(cur, time.Now()) {
		return fmt.Errorf("state: request %d is %w", r.ID, ErrNotPending)
	}
	if cur.Digest != r.Digest {
		return fmt.Errorf("state: request %d changed after it was shown: %w", r.ID, ErrNotPending)
	}
	if decided(dir, cur) {
		return fmt.Errorf("state: request %d was answered already: %w", r.ID, ErrNotPending)
	}
	// Anything else in the decision file decides nothing, and is replaced.
	dp := entry(dir, r.ID, "dec")
	d := Decision{ID: cur.ID, PID: cur.PID, Start: cur.Start, Nonce: cur.Nonce, Digest: cur.Digest,
		Answer: answer, Note: note, Time: time.Now().UTC()}
	b, err := json.Marshal(d)
	if err != nil {
		return fmt.Errorf("state: cannot encode the decision: %w", err)
	}
	if err := atomicfile.Write(dp, append(b, '\n'), 0o600); err != nil {
		return fmt.Errorf("state: cannot record the decision: %w", err)
	}
	return nil
}

// sweepQueue removes requests whose guard is gone or that are long past
// their deadline, decisions without a request, refusals too old to allow,
// and stray temporary files. The caller holds the queue lock.
func sweepQueue(dir string, now time.Time) {
	qd := queueDir(dir)
	ents, err := os.ReadDir(qd)
	if err != nil {
		return
	}
	reqs := map[int]bool{}
	for _, e := range ents {
		id, kind, ok := queueName(e.Name())
		if !ok {
			continue
		}
		switch kind {
		case "req":
			r, err := readRequest(dir, id)
			// A live guard past its deadline withdraws its request
			// itself; one that is gone never will.
			if err != nil || !alive(r.PID, r.Start) || now.After(r.Deadline.Add(time.Minute)) {
				os.Remove(filepath.Join(qd, e.Name()))
				continue
			}
			reqs[id] = true
		case "refused":
			if fi, err := e.Info(); err != nil || now.Sub(fi.ModTime()) > refusalMaxAge {
				os.Remove(filepath.Join(qd, e.Name()))
			}
		}
	}
	for _, e := range ents {
		if id, kind, ok := queueName(e.Name()); ok && kind == "dec" && !reqs[id] {
			os.Remove(filepath.Join(qd, e.Name()))
		}
		if strings.HasPrefix(e.Name(), ".") && strings.Contains(e.Name(), ".tmp") {
			if fi, err := e.Info(); err == nil && now.Sub(fi.ModTime()) > time.Hour {
				os.Remove(filepath.Join(qd, e.Name()))
			}
		}
	}
}

// RecordRefusal keeps a refused ask so that the person can allow it; id 0
// takes a new id (a queued request keeps its own). It returns the id.
func RecordRefusal(dir string, f Refusal) (int, error) {
	if err := validSession(f.Session); err != nil {
		return 0, fmt.Errorf("state: session id %w", err)
	}
	unlock, err := lockQueue(dir)
	if err != nil {
		return 0, fmt.Errorf("state: cannot record the refusal: %w", err)
	}
	defer unlock()
	if f.ID == 0 {
		sweepQueue(dir, time.Now())
		if f.ID, err = nextID(dir); err != nil {
			return 0, fmt.Errorf("state: cannot record the refusal: %w", err)
		}
	}
	if f.Time.IsZero() {
		f.Time = time.Now().UTC()
	}
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return 0, fmt.Errorf("state: cannot encode the refusal: %w", err)
	}
	if err := atomicfile.Write(entry(dir, f.ID, "refused"), append(b, '\n'), 0o600); err != nil {
		return 0, fmt.Errorf("state: cannot record the refusal: %w", err)
	}
	return f.ID, nil
}

// GetRefusal returns refusal id; id 0 is the latest one.
func GetRefusal(dir string, id int) (Refusal, error) {
	if id == 0 {
		ents, err := os.ReadDir(queueDir(dir))
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return Refusal{}, fmt.Errorf("state: cannot read the approval queue: %w", err)
		}
		for _, e := range ents {
			if n, kind, ok := queueName(e.Name()); ok && kind == "refused" && n > id {
				id = n
			}
		}
		if id == 0 {
			return Refusal{}, errors.New("state: no refusal to allow")
		}
	}
	p := entry(dir, id, "refused")
	fi, err := os.Stat(p)
	if err != nil || time.Since(fi.ModTime()) > refusalMaxAge {
		return Refusal{}, fmt.Errorf("state: no refusal %d (refusals can be allowed for %v)", id, refusalMaxAge)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return Refusal{}, fmt.Errorf("state: cannot read refusal %d: %w", id, err)
	}
	var f Refusal
	if err := json.Unmarshal(b, &f); err != nil || f.ID != id || validSession(f.Session) != nil {
		return Refusal{}, fmt.Errorf("state: %w refusal file %s", ErrCorrupt, p)
	}
	return f, nil
}

// RemoveRefusal forgets refusal id (it has been allowed).
func RemoveRefusal(dir string, id int) {
	if unlock, err := lockQueue(dir); err == nil {
		os.Remove(entry(dir, id, "refused"))
		unlock()
	}
}
