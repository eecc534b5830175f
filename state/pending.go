package state

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/guard-exec/guard-exec/atomicfile"
	"github.com/guard-exec/guard-exec/internal/sha256"
)

// A pending question records that a client's hook answered "ask" for a
// command: the client is now asking the person. It is not an approval.
// The client starts its tool's shell only after the person said yes, so
// the first guarded shell that the same client process starts for exactly
// that command, in the same client session, is the approval's moment: it
// takes the question (once) and runs. A question nobody takes expires
// after PendingTTL, and the client's later hook events (the batch
// resolved, the next prompt, the turn stopped) clear the session's
// questions, so a refusal or no answer leaves nothing that can be taken
// later.
//
// Who asks and who takes is bound to a process, not to text: Client is
// the client process (its id and start time, so a reused id is another
// process). Nothing in the environment or in the hook's input can name a
// process the caller is not a child of.
type Question struct {
	Client  Process   `json:"client"`
	Session string    `json:"session"`
	Command string    `json:"command"`
	Time    time.Time `json:"time"`
}

// Process names a live process: its id and its start time in clock ticks
// since boot (/proc/PID/stat field 22).
type Process struct {
	PID   int    `json:"pid"`
	Start uint64 `json:"start"`
}

// PendingTTL bounds how long a person may take to answer the client's
// prompt. An approval that comes later is refused by the guard (the
// client then reports the refusal; asking again works).
const PendingTTL = 3 * time.Minute

// pendingNow is the clock of questions (tests move it).
var pendingNow = time.Now

func pendingDir(dir string) string { return filepath.Join(dir, "pending") }

func pendingName(q Question) string {
	sum := sha256.Sum256([]byte(strconv.Itoa(q.Client.PID) + "\x00" + strconv.FormatUint(q.Client.Start, 10) + "\x00" + q.Session + "\x00" + q.Command))
	return hex.EncodeToString(sum[:])
}

// ProcessOf returns the process pid as it is now, or an error where /proc
// cannot tell (the caller must then refuse).
func ProcessOf(pid int) (Process, error) {
	start, _, err := procStart(pid)
	if err != nil {
		return Process{}, fmt.Errorf("state: cannot read process %d's start time: %w", pid, err)
	}
	return Process{PID: pid, Start: start}, nil
}

// Parent returns pid's parent process id, or 0.
func Parent(pid int) int {
	_, ppid, err := procStart(pid)
	if err != nil {
		return 0
	}
	return ppid
}

// Ask records q (its Time is set to now). Expired questions are swept.
func Ask(dir string, q Question) error {
	if dir == "" {
		return errors.New("state: no state directory to record the question in")
	}
	if q.Session == "" || q.Client.PID <= 0 {
		return errors.New("state: a question needs a client process and a session")
	}
	q.Time = pendingNow().UTC()
	b, err := json.Marshal(q)
	if err != nil {
		return err
	}
	pd := pendingDir(dir)
	if err := os.MkdirAll(pd, 0o700); err != nil {
		return fmt.Errorf("state: cannot record the client's question: %w", err)
	}
	sweepPending(pd, func(Question) bool { return false })
	if err := atomicfile.Write(filepath.Join(pd, pendingName(q)), append(b, '\n'), 0o600); err != nil {
		return fmt.Errorf("state: cannot record the client's question: %w", err)
	}
	return nil
}

// Take uses up the question q (Time ignored) if it was asked less than
// PendingTTL ago. Of any number of processes taking the same question at
// once, at most one gets true: the question is renamed away first, then
// checked.
func Take(dir string, q Question) bool {
	if dir == "" || q.Session == "" {
		return false
	}
	pd := pendingDir(dir)
	p := filepath.Join(pd, pendingName(q))
	claimed := p + ".taken." + strconv.Itoa(os.Getpid())
	if os.Rename(p, claimed) != nil {
		return false
	}
	defer os.Remove(claimed)
	b, err := os.ReadFile(claimed)
	if err != nil {
		return false
	}
	var got Question
	if json.Unmarshal(b, &got) != nil {
		return false
	}
	age := pendingNow().Sub(got.Time)
	return got.Client == q.Client && got.Session == q.Session && got.Command == q.Command && age >= -time.Second && age < PendingTTL
}

// Forget removes every question of session asked by client: the client's
// hooks say the questions were answered (the tool calls resolved, or a new
// prompt began).
func Forget(dir, session string, client Process) {
	if dir == "" {
		return
	}
	sweepPending(pendingDir(dir), func(q Question) bool { return q.Session == session && q.Client == client })
}

// sweepPending removes expired, corrupt and claimed-but-abandoned entries,
// and those drop reports true for.
func sweepPending(pd string, drop func(Question) bool) {
	entries, err := os.ReadDir(pd)
	if err != nil {
		return
	}
	for _, e := range entries {
		p := filepath.Join(pd, e.Name())
		if strings.Contains(e.Name(), ".") {
			// A claim (or atomicfile's temporary) older than a question
			// can live belongs to a process that died mid-way.
			if st, err := os.Lstat(p); err == nil && pendingNow().Sub(st.ModTime()) > PendingTTL {
				os.Remove(p)
			}
			continue
		}
		b, err := os.ReadFile(p)
		var q Question
		if err != nil || json.Unmarshal(b, &q) != nil || pendingNow().Sub(q.Time) >= PendingTTL || drop(q) {
			os.Remove(p)
		}
	}
}

// GuardedAt reports whether process p is a guarded shell (it marked
// itself, see MarkGuarded).
func GuardedAt(dir string, p Process) bool {
	if dir == "" {
		return false
	}
	return markedBy(readMarks(guardedDir(dir))[p.PID], p.Start)
}

// GuardedAncestors returns the ancestors of this process (parent first)
// that are guarded shells.
func GuardedAncestors(dir string) []int {
	if dir == "" {
		return nil
	}
	marks := readMarks(guardedDir(dir))
	if len(marks) == 0 {
		return nil
	}
	var out []int
	for pid, n := os.Getppid(), 0; pid > 1 && n < 64; n++ {
		start, ppid, err := procStart(pid)
		if err != nil {
			break
		}
		if markedBy(marks[pid], start) {
			out = append(out, pid)
		}
		pid = ppid
	}
	return out
}
