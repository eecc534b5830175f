package state

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/guard-exec/guard-exec/atomicfile"
)

// ForgetApprovals revokes approvals of a session: those whose 1-based
// numbers (as Approvals lists them) are in which, or all of them when
// which is empty. It returns how many were revoked. Revoking only ever
// removes allow rules, so a file that cannot be read back whole is
// removed whole.
func ForgetApprovals(dir, session string, which []int) (int, error) {
	if err := validSession(session); err != nil {
		return 0, fmt.Errorf("state: session id %w", err)
	}
	sdir := sessionsDir(dir)
	unlock, err := atomicfile.Lock(sdir)
	if err != nil {
		return 0, fmt.Errorf("state: cannot revoke approvals: %w", err)
	}
	defer unlock()
	path := filepath.Join(sdir, session+".jsonl")
	all, err := Approvals(dir, session)
	if err != nil || len(which) == 0 {
		n := len(all)
		if rerr := os.Remove(path); rerr != nil && !os.IsNotExist(rerr) {
			return 0, fmt.Errorf("state: cannot revoke approvals: %w", rerr)
		}
		return n, nil
	}
	drop := map[int]bool{}
	for _, n := range which {
		if n < 1 || n > len(all) {
			return 0, fmt.Errorf("state: there is no approval %d in this session (it has %d)", n, len(all))
		}
		drop[n] = true
	}
	var text []byte
	for i, a := range all {
		if drop[i+1] {
			continue
		}
		line, err := json.Marshal(a)
		if err != nil {
			return 0, fmt.Errorf("state: cannot encode approval: %w", err)
		}
		text = append(append(text, line...), '\n')
	}
	if err := atomicfile.Write(path, text, 0o600); err != nil {
		return 0, fmt.Errorf("state: cannot revoke approvals: %w", err)
	}
	return len(drop), nil
}
